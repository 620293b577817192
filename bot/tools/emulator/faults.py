"""Fault injection on /api routes: 429s (with Via + JSON retry_after so discord.py retries),
errors, and slow responses. Rules match an HTTP method and a path substring."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Awaitable, Callable, List, Optional

from aiohttp import web

from .errors import json_response


@dataclass
class Fault:
    kind: str  # "429" | "failure" | "slow"
    method: str
    path: str
    times: Optional[int] = 1  # None = every matching request
    retry_after: float = 0.2
    status: int = 500
    code: int = 0
    message: str = ""
    delay: float = 0.0
    hits: int = 0

    def matches(self, request: web.Request) -> bool:
        if self.times is not None and self.hits >= self.times:
            return False
        return self.method in ("*", request.method) and self.path in request.path_qs


class Faults:
    def __init__(self) -> None:
        self.rules: List[Fault] = []

    def add(self, fault: Fault) -> Fault:
        fault.method = fault.method.upper()
        self.rules.append(fault)
        return fault

    def clear(self) -> None:
        self.rules.clear()

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if not request.path.startswith("/api/"):
            return await handler(request)
        for rule in self.rules:
            if rule.kind == "slow" and rule.matches(request):
                rule.hits += 1
                await asyncio.sleep(rule.delay)
        for rule in self.rules:
            if rule.kind != "slow" and rule.matches(request):
                rule.hits += 1
                await request.read()  # drain the body so the connection stays healthy
                if rule.kind == "429":
                    return json_response(
                        {"message": "You are being rate limited.", "retry_after": rule.retry_after, "global": False},
                        429,
                        {
                            "Via": "1.1 google",
                            "Retry-After": str(max(1, round(rule.retry_after))),
                            "X-RateLimit-Scope": "user",
                        },
                    )
                return json_response(
                    {"message": rule.message or f"{rule.status}: injected failure", "code": rule.code}, rule.status
                )
        return await handler(request)
