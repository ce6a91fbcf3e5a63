"""The server's ASGI application: ``create_api()`` builds the JSON API, the WebSocket and the
server's jobs from settings. The whole site (with the browser pages of :mod:`roses.web`) is
assembled in :mod:`roses.app`, which imports both; the server never imports the web layer."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from roses import __version__
from roses.server import (
    affinity,
    api,
    attendance,
    audit,
    clocks,
    gazette,
    mailin,
    messages,
    notify,
    ratings,
    tables,
    umpiring,
    ws,
)
from roses.server.bots import BotRunner, process_pool
from roses.server.config import Settings
from roses.server.db import Database
from roses.server.deps import Services
from roses.server.errors import ServerError, TooManyRequests
from roses.server.events import EventBus, LocalBus, Notifiers, where
from roses.server.limits import Throttle
from roses.server.pgbus import PgBus
from roses.server.service import GameService

log = logging.getLogger("roses.server")


API_DESCRIPTION = """Play the Wars of the Roses board games: accounts, lobby, asynchronous play
with per-role views, replay and export.

**Authentication**: the session cookie from `/api/auth/login` (then send the CSRF token from
`GET /api/me` in `X-CSRF-Token` on every write), or `Authorization: Bearer <API token>`.

**Versions**: every request that changes a game carries the game `version` it was made on; a
stale one gets 409 `stale_version` and changes nothing.

**WebSocket** `/api/games/{id}/ws?role=R`: the server pushes `{"type": "state", ...}` (the body
of `GET /api/games/{id}/view`) on connect and after every change, and `{"type": "chat"}` to
players; clients may send `{"type": "action", "verb", "arg", "version", "id"}`,
`{"type": "undo"|"resign", "version"}`, `{"type": "chat", "text"}`, `{"type": "ping"}`; replies
are `{"type": "ok", "id"}` or `{"type": "error", "status", "code", "detail", "id"}`.
"""


#: Sent with every HTTP response: invite tokens in page URLs must not leak through Referer;
#: no framing by other sites; no content sniffing.
SECURITY_HEADERS = [
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"x-content-type-options", b"nosniff"),
]

#: Content-Security-Policy of every response: scripts, styles, images, fonts and connections
#: (fetch and WebSockets) only from this server; no inline script or style, no plugins, no
#: <base> tricks, forms post only here, no framing by other sites. An injected tag can
#: therefore neither run script nor send data elsewhere.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; manifest-src 'self'; form-action 'self'; "
    "base-uri 'none'; object-src 'none'; frame-ancestors 'self'"
)

#: FastAPI's interactive API documentation loads its script and styles from a CDN and runs an
#: inline script: it gets no CSP (it shows no user content).
API_DOC_PATHS = ("/docs", "/docs/oauth2-redirect", "/redoc")


class HideInternalErrors:
    """ASGI middleware: an unexpected error becomes a plain 500 and one log line naming only the
    error's type and source line; its message (which a rules module might fill with hidden
    state) is neither sent nor logged. Also adds :data:`SECURITY_HEADERS` and the
    :data:`CONTENT_SECURITY_POLICY`."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers += [h for h in SECURITY_HEADERS if h[0] not in present]
                if scope.get("path") not in API_DOC_PATHS and b"content-security-policy" not in present:
                    headers.append((b"content-security-policy", CONTENT_SECURITY_POLICY.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:  # noqa: BLE001 - turned into a 500 without details
            log.error("internal error on %s %s: %s", scope.get("method"), scope.get("path"), where(exc))
            if not started:
                response = JSONResponse({"detail": "Internal server error.", "code": "internal"},
                                        status_code=500)
                await response(scope, receive, tracking_send)


def create_api(settings: Settings | None = None, *, database: Database | None = None,
               bus: EventBus | None = None, notifiers: Notifiers | None = None) -> FastAPI:
    """The server without pages: the API, the WebSocket, the gazette's API and mailer, and the
    background jobs (notifications, clocks, attendance, orders by e-mail, ratings)."""
    settings = settings or Settings()
    database = database or Database(settings.database_url or "")
    if bus is None and database.dialect == "postgresql":
        # Several workers: fan-out through LISTEN/NOTIFY.
        bus = PgBus(database.url, database=database)
    elif bus is None:
        # A worker of `roses serve --workers N`: fan-out through the dispatcher (else None)
        bus = affinity.relay_bus()
    games = GameService(database, bus or LocalBus(), notifiers or Notifiers())
    games.guard_views = settings.guard_views
    games.bot_caps = settings.bot_caps
    throttle = Throttle(database)
    games.limit_chat = lambda user: throttle.hit(f"chat:{user.id}", settings.chat_limit, 60.0,
                                                 "chat messages")
    services = Services(
        settings=settings, db=database, games=games,
        # Counted in the database: every worker sees the same counts.
        throttle=throttle,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.migrate:
            database.migrate()
        await games.bus.start()
        for job in app.state.background:  # notifications, presence, clocks (notify.py, clocks.py)
            await job.start()
        if settings.bots:
            think, stop = process_pool(settings.bot_processes) if settings.bot_processes > 0 else (None, None)
            services.bots = BotRunner(games, threads=settings.bot_threads, think=think,
                                      caps=settings.bot_caps, stop_event=stop)
            services.bots.resume_pending()
        try:
            yield
        finally:
            if services.bots is not None:
                services.bots.close()
                games.on_bot_turn = None
            for job in reversed(app.state.background):
                await job.stop()
            await games.bus.stop()
            games.close()

    app = FastAPI(title="Roses", version=__version__, lifespan=lifespan,
                  description=API_DESCRIPTION)
    app.state.roses = services
    app.state.background = []
    notify.install(app, games)
    clocks.install(app, games)
    attendance.install(app, games)  # reminders before deadlines, vacations
    mailin.install(app, games)  # orders by e-mail, when ROSES_IMAP_HOST is set
    ratings.install(app)

    app.add_middleware(HideInternalErrors)

    @app.exception_handler(ServerError)
    async def _server_error(request: Request, exc: ServerError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, TooManyRequests) else None
        body: dict[str, Any] = {"detail": exc.message, "code": exc.code}
        if exc.errors:
            body["errors"] = list(exc.errors)
        return JSONResponse(body, status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for err in exc.errors()[:10]:
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            problems.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
        return JSONResponse({"detail": "Malformed request: " + "; ".join(problems),
                             "code": "malformed_request"}, status_code=400)

    app.include_router(api.router)
    app.include_router(ws.router)
    app.include_router(audit.router)  # /api/games/{id}/chance and /audit (auditable chance)
    app.include_router(tables.router)  # /api/games/{id}/seats/{role}/vacate, claim, assign
    app.include_router(umpiring.router)  # /api/games/{id}/umpire/pause, resume, extend, rule
    app.include_router(messages.router)  # /api/games/{id}/messages: private messages between seats
    app.include_router(mailin.router)  # /api/games/{id}/order-key: the key of orders by e-mail
    gazette.install(app)  # /api/games/{id}/gazette..., and the gazette's mailer
    return app
