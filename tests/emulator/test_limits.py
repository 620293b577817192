"""Discord's documented limits as the emulator enforces them (unit level)."""

from __future__ import annotations

import pytest

from bot.tools.emulator.errors import ApiError
from bot.tools.emulator.limits import check_choices, check_commands, check_message, check_modal, check_upload_size


def errors_of(fn, *args, **kwargs):
    with pytest.raises(ApiError) as info:
        fn(*args, **kwargs)
    assert info.value.status == 400 and info.value.code == 50035
    return info.value.errors


def button(cid, **kw):
    return dict({"type": 2, "style": 1, "label": "b", "custom_id": cid}, **kw)


def test_content_and_embeds():
    check_message({"content": "x" * 2000})
    assert "content" in errors_of(check_message, {"content": "x" * 2001})
    assert errors_of(check_message, {"embeds": [{"title": "t"}] * 11})["embeds"]["_errors"]
    fields = [{"name": "n", "value": "v"}] * 26
    assert "fields" in errors_of(check_message, {"embeds": [{"fields": fields}]})["embeds"]["0"]
    check_message({"embeds": [{"description": "d" * 4096}]})
    assert "description" in errors_of(check_message, {"embeds": [{"description": "d" * 4097}]})["embeds"]["0"]
    total = errors_of(check_message, {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]})
    assert total["embeds"]["_errors"][0]["code"] == "MAX_EMBED_SIZE_EXCEEDED"
    with pytest.raises(ApiError) as info:
        check_message({"content": ""})
    assert info.value.code == 50006


def test_components():
    row = lambda *c: {"type": 1, "components": list(c)}  # noqa: E731
    check_message({"components": [row(*(button(f"{r}{i}") for i in range(5))) for r in range(5)]})
    errors_of(check_message, {"components": [row(button(f"r{r}")) for r in range(6)]})
    errors_of(check_message, {"components": [row(*(button(f"b{i}") for i in range(6)))]})
    errors_of(check_message, {"components": [row(button("same"), button("same"))]})
    errors_of(check_message, {"components": [row(button("c" * 101))]})
    select = {"type": 3, "custom_id": "s", "options": [{"label": str(i), "value": str(i)} for i in range(25)]}
    check_message({"components": [row(select)]})
    errors_of(check_message, {"components": [row(dict(select, options=select["options"] * 2))]})
    errors_of(check_message, {"components": [row(select, button("x"))]})
    errors_of(check_message, {"components": [row(dict(select, max_values=26))]})
    errors_of(check_message, {"components": [row({"type": 2, "style": 5, "label": "l"})]})  # link needs url


def test_commands():
    ok = {
        "name": "heat",
        "description": "d",
        "options": [
            {
                "type": 1,
                "name": "new",
                "description": "d",
                "options": [
                    {
                        "type": 3,
                        "name": "track",
                        "description": "d",
                        "required": True,
                        "choices": [{"name": str(i), "value": str(i)} for i in range(25)],
                    }
                ],
            }
        ],
    }
    check_commands([ok])
    too_many = dict(ok, options=[{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)])
    assert "options" in errors_of(check_commands, [too_many])["0"]
    order = dict(
        ok,
        options=[
            {"type": 3, "name": "a", "description": "d"},
            {"type": 3, "name": "b", "description": "d", "required": True},
        ],
    )
    assert "required" in errors_of(check_commands, [order])["0"]["options"]["1"]
    assert "description" in errors_of(check_commands, [dict(ok, description="")])["0"]
    assert "name" in errors_of(check_commands, [ok, ok])["1"]
    mixed = dict(ok, options=ok["options"] + [{"type": 3, "name": "x", "description": "d"}])
    errors_of(check_commands, [mixed])


def test_choices_modal_and_uploads():
    check_choices({"choices": [{"name": "n", "value": "v"}] * 25})
    errors_of(check_choices, {"choices": [{"name": "n", "value": "v"}] * 26})
    errors_of(check_choices, {"choices": [{"name": "n" * 101, "value": "v"}]})
    text = {"type": 4, "custom_id": "t", "label": "L", "style": 1}
    check_modal({"custom_id": "m", "title": "T", "components": [{"type": 1, "components": [text]}]})
    errors_of(check_modal, {"custom_id": "m", "title": "T" * 46, "components": [{"type": 1, "components": [text]}]})
    errors_of(check_modal, {"custom_id": "m", "title": "T", "components": []})
    check_upload_size(10 * 1024 * 1024)
    with pytest.raises(ApiError) as info:
        check_upload_size(10 * 1024 * 1024 + 1)
    assert (info.value.status, info.value.code) == (413, 40005)
