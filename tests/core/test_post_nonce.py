"""Issue #28: a thread post's nonce is what it shows, not the versions it covers, so Discord keeps
one copy of a post a catch-up sends again however it groups the versions; and two posts that
differ in anything shown (text, image, pings) are never taken for one."""

from __future__ import annotations

from bot.delivery import post_nonce


def test_the_same_post_has_the_same_nonce_and_any_difference_another():
    post = post_nonce(7, "**PON #7**\nalice plays 3.\nWaiting for: <@2>", [b"board"], [2])
    assert post == post_nonce(7, "**PON #7**\nalice plays 3.\nWaiting for: <@2>", [b"board"], [2])
    others = [
        post_nonce(8, "**PON #7**\nalice plays 3.\nWaiting for: <@2>", [b"board"], [2]),
        post_nonce(7, "**PON #7**\nalice plays 4.\nWaiting for: <@2>", [b"board"], [2]),
        post_nonce(7, "**PON #7**\nalice plays 3.\nWaiting for: <@2>", [b"board 2"], [2]),
        post_nonce(7, "**PON #7**\nalice plays 3.\nWaiting for: <@2>", [b"board"], []),
        post_nonce(7, "**PON #7**\nalice plays 3.\nWaiting for: <@2>", [], [2]),
    ]
    assert post not in others and len(set(others)) == len(others)
    assert len(post) <= 25 and post.isdigit()  # Discord: a nonce of at most 25 characters
