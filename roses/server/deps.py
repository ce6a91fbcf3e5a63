"""Request context: the app's services and who is asking (session cookie or Bearer token)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import Request
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from roses.server import auth
from roses.server.auth import Auth, User
from roses.server.config import Settings
from roses.server.db import Database
from roses.server.errors import Forbidden, Unauthorized
from roses.server.limits import Throttle
from roses.server.service import GameService

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


@dataclass
class Services:
    settings: Settings
    db: Database
    games: GameService
    throttle: Throttle
    bots: Any = None


def services(conn: HTTPConnection) -> Services:
    s: Services = conn.app.state.roses
    return s


def find_auth(conn: HTTPConnection) -> Auth | None:
    """Who is asking: a Bearer API token, else a session cookie, else nobody."""
    s = services(conn)
    header = conn.headers.get("authorization")
    if header:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("Use 'Authorization: Bearer <token>'.", code="bad_token")
        with s.db.read() as c:
            found = auth.token_auth(c, token.strip())
        if found is None:
            raise Unauthorized("Unknown or revoked API token.", code="bad_token")
        if found.token_id is not None:
            token_id = found.token_id
            # Through the game service's group commit: a thousand clients arriving at once
            # share a few commits instead of queueing for one each.
            s.games.committer.run(lambda c: auth.touch_token(c, token_id))
        return found
    cookie = conn.cookies.get(auth.SESSION_COOKIE)
    if cookie:
        with s.db.read() as c:
            return auth.session_auth(c, cookie)
    return None


async def _check_csrf(request: Request, found: Auth) -> None:
    if request.method not in UNSAFE or found.method != "session":
        return
    given = request.headers.get(auth.CSRF_HEADER)
    if not given and request.headers.get("content-type", "").startswith(
            ("application/x-www-form-urlencoded", "multipart/form-data")):
        form = await request.form()
        value = form.get("csrf_token")
        given = value if isinstance(value, str) else None
    if not auth.csrf_ok(found.csrf, given):
        raise Forbidden("Missing or wrong CSRF token: send the X-CSRF-Token header.", code="csrf")


async def optional_user(request: Request) -> User | None:
    found = await run_in_threadpool(find_auth, request)  # database I/O: off the event loop
    if found is None:
        return None
    await _check_csrf(request, found)
    return found.user


async def require_auth(request: Request) -> Auth:
    found = await run_in_threadpool(find_auth, request)  # database I/O: off the event loop
    if found is None:
        raise Unauthorized("Log in first (session cookie or Bearer API token).")
    await _check_csrf(request, found)
    return found


async def require_user(request: Request) -> User:
    return (await require_auth(request)).user
