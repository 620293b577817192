"""Discord-shaped API errors and the emulator's own exceptions."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Tuple

from aiohttp import web


def json_response(data: Any, status: int = 200, headers: Optional[Dict[str, str]] = None) -> web.Response:
    """JSON with the exact ``Content-Type: application/json`` discord.py compares against."""
    h = {"Content-Type": "application/json"}
    if headers:
        h.update(headers)
    return web.Response(body=json.dumps(data).encode(), status=status, headers=h)


class ApiError(Exception):
    """An error answered to the bot as Discord would: ``{"code", "message"[, "errors"]}``."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: Optional[dict] = None,
        headers: Optional[Dict[str, str]] = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers = headers

    def body(self) -> Dict[str, Any]:
        data: Dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data

    def response(self) -> web.Response:
        return json_response(self.body(), self.status, self.headers)


def unknown(what: str) -> ApiError:
    codes = {
        "channel": 10003,
        "guild": 10004,
        "member": 10007,
        "message": 10008,
        "role": 10011,
        "user": 10013,
        "webhook": 10015,
        "interaction": 10062,
        "command": 10063,
    }
    return ApiError(404, codes[what], f"Unknown {'Application Command' if what == 'command' else what.title()}")


def missing_permissions() -> ApiError:
    return ApiError(403, 50013, "Missing Permissions")


class FormErrors:
    """Collects field errors, then raises one 400 / 50035 "Invalid Form Body"."""

    def __init__(self) -> None:
        self.items: List[Tuple[Sequence[Any], str, str]] = []

    def add(self, path: Sequence[Any], code: str, message: str) -> None:
        self.items.append((tuple(path), code, message))

    def __bool__(self) -> bool:
        return bool(self.items)

    def nested(self) -> dict:
        root: dict = {}
        for path, code, message in self.items:
            node = root
            for key in path:
                node = node.setdefault(str(key), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return root

    def raise_if_any(self) -> None:
        if self.items:
            raise ApiError(400, 50035, "Invalid Form Body", self.nested())


class EmulatorError(Exception):
    """Raised by the Python/control API when a simulated user does something Discord's client
    would refuse (unknown command, bad option, disabled button, ...)."""
