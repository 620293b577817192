"""The emulator reads a multipart part's name and filename itself (aiohttp's parser was 5% of an
end-to-end test's CPU, issue #29): it must read what aiohttp writes as aiohttp itself would."""

import pytest
from aiohttp.helpers import content_disposition_header
from aiohttp.multipart import parse_content_disposition

from bot.tools.emulator.messaging import disposition_params


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
