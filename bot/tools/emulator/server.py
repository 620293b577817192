"""The Emulator: an aiohttp server on 127.0.0.1 speaking Discord's REST API and gateway (and the
control API, /_emu/...) over EmulatorCore, the world and the Python API tests use."""

from __future__ import annotations

import logging
import traceback
from typing import Any, Awaitable, Callable, Optional

from aiohttp import web

from .control import control_routes
from .core import LOOPBACK, EmulatorCore
from .errors import ApiError, json_response
from .messaging import BODY_CAP
from .rest import API, Rest

log = logging.getLogger(__name__)


class Emulator(EmulatorCore):
    """``async with Emulator() as emu:`` — a local Discord for an unmodified discord.py bot."""

    _runner: Optional[web.AppRunner] = None

    # lifecycle ------------------------------------------------------------------------------
    async def start(self) -> "Emulator":
        app = web.Application(
            client_max_size=BODY_CAP, middlewares=[self._log_mw, self._errors_mw, self.faults.middleware, self._auth_mw]
        )
        app.add_routes(Rest(self).routes())
        app.add_routes(control_routes(self))
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, LOOPBACK, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        while self._overrides_applied:
            self.restore_discord_py_overrides()
        self.interactions.cancel_all()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> "Emulator":
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    # middlewares -----------------------------------------------------------------------------
    @web.middleware
    async def _log_mw(self, request: web.Request, handler: Callable[[web.Request], Awaitable[Any]]) -> Any:
        entry = {"method": request.method, "path": request.path, "query": dict(request.query), "status": None}
        if request.path.startswith("/api/"):
            self.rest_log.append(entry)
        response = await handler(request)
        entry["status"] = response.status
        self.notify()
        return response

    @web.middleware
    async def _errors_mw(self, request: web.Request, handler: Callable[[web.Request], Awaitable[Any]]) -> Any:
        try:
            return await handler(request)
        except ApiError as err:
            return err.response()
        except web.HTTPException as exc:
            if not request.path.startswith("/api/"):
                raise
            return json_response({"message": f"{exc.status}: {exc.reason}", "code": 0}, exc.status)
        except ConnectionResetError:  # the client went away mid-request (a killed bot): not the emulator's bug
            raise
        except Exception:  # a bug in the emulator: keep it visible to tests
            self.server_errors.append(traceback.format_exc())
            log.exception("emulator error on %s %s", request.method, request.path)
            return json_response({"message": "500: Internal Server Error", "code": 0}, 500)

    @web.middleware
    async def _auth_mw(self, request: web.Request, handler: Callable[[web.Request], Awaitable[Any]]) -> Any:
        path = request.path
        if path.startswith(API) and not path.startswith((API + "/interactions/", API + "/webhooks/")):
            if request.headers.get("Authorization") != f"Bot {self.token}":
                raise ApiError(401, 0, "401: Unauthorized")
        return await handler(request)

    async def _cdn(self, request: web.Request) -> web.Response:
        try:
            att = self.world.attachments[int(request.match_info["attachment_id"])]
        except (KeyError, ValueError):
            raise web.HTTPNotFound() from None
        return web.Response(body=att.data, headers={"Content-Type": att.content_type})
