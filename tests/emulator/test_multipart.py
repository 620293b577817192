"""The emulator reads multipart bodies itself (aiohttp's reader was about 13% of the CPU of an
end-to-end test that posts boards, issue #29): it must read what discord.py and aiohttp write as
aiohttp itself would, and refuse a body that is no form."""

import aiohttp
import pytest
from aiohttp.helpers import content_disposition_header
from aiohttp.multipart import parse_content_disposition

from bot.tools.emulator.errors import ApiError
from bot.tools.emulator.messaging import disposition_params, multipart_parts


@pytest.mark.parametrize(
    "params",
    [
        {"name": "payload_json"},
        {"name": "files[0]", "filename": "board.png"},
        {"name": "files[12]", "filename": 'ボード "1".png'},  # non-ASCII and quotes: percent-encoded
        {"name": 'a "quoted" \\ name'},  # backslash escapes in a quoted string
    ],
)
def test_reads_what_aiohttp_writes_as_aiohttp_does(params):
    header = content_disposition_header("form-data", **params)
    assert disposition_params(header) == parse_content_disposition(header)[1]


def test_bare_values_are_read_too():  # (aiohttp refuses the brackets in a bare value)
    assert disposition_params("form-data; name=files[1]; filename=y.png") == {"name": "files[1]", "filename": "y.png"}


async def test_a_body_as_discord_py_sends_it_is_read_part_by_part():
    """payload_json and two files, one of them binary with CRLFs and dashes inside, as discord.py
    writes them (aiohttp's FormData, fields not quoted: a filename goes as UTF-8)."""
    payload = '{"content": "Board"}'
    png = b"\x89PNG\r\n\x1a\n--\r\n--x\r\n\r\n" + bytes(range(256))
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", payload, content_type="application/json")
    form.add_field("files[0]", png, filename='ボード "1".png', content_type="image/png")
    form.add_field("files[1]", b"", filename="empty.txt")
    body = form()
    writer = _Collect()
    await body.write(writer)
    parts = multipart_parts(bytes(writer.data), body.content_type)
    assert parts == [
        ({"name": "payload_json"}, payload.encode()),
        ({"name": "files[0]", "filename": 'ボード "1".png'}, png),
        ({"name": "files[1]", "filename": "empty.txt"}, b""),
    ]


class _Collect:
    def __init__(self) -> None:
        self.data = bytearray()

    async def write(self, chunk: bytes) -> None:
        self.data += chunk


def test_a_body_that_is_no_multipart_form_is_a_bad_request():
    for body, content_type in (
        (b"--x\r\nno blank line--x--", "multipart/form-data; boundary=x"),
        (b"", "multipart/form-data"),
    ):
        with pytest.raises(ApiError) as err:
            multipart_parts(body, content_type)
        assert err.value.status == 400
