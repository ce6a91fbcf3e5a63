"""The play WebSocket: ``/api/games/{id}/ws?role=R``.

On connect and after every change of the game, the server sends the connected role its own
view: ``{"type": "state", ...}`` with the same fields as ``GET /api/games/{id}/view``.
Players also get the chat (``{"type": "chat", "messages": [...]}``). While the game waits for
players (and at its start), each change also brings ``{"type": "game", "game": {...}}`` with the
body of ``GET /api/games/{id}`` (seats, status).

A client may send (JSON objects; ``id`` is echoed in the reply):

* ``{"type": "action", "verb": V, "arg": A, "version": N}`` (``verb: "undo"`` to undo)
* ``{"type": "undo", "version": N}``, ``{"type": "resign", "version": N}``
* ``{"type": "chat", "text": T}``, ``{"type": "ping"}``

Each goes through the same checks as the HTTP API; a refusal comes back as
``{"type": "error", "status": 409, "code": "stale_version", "detail": ...}``.

Authentication: the session cookie (the ``Origin`` must then be this server) or an
``Authorization: Bearer`` header. Observers of public games need no login.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Path, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from roses.engine import OBSERVER
from roses.server import db
from roses.server.auth import User
from roses.server.deps import find_auth, services
from roses.server.errors import BadRequest, ServerError
from roses.server.events import CHAT, Event, where
from roses.server.service import state_message

log = logging.getLogger("roses.server")

router = APIRouter()


def _origin_ok(ws: WebSocket) -> bool:
    origin = ws.headers.get("origin")
    if not origin:
        return True
    host = ws.headers.get("host", "")
    return urlsplit(origin).netloc == host


def _error(exc: ServerError, request_id: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "status": exc.status, "code": exc.code, "detail": exc.message}
    if request_id is not None:
        out["id"] = request_id
    return out


@router.websocket("/api/games/{game_id}/ws")
async def play_socket(ws: WebSocket, game_id: Annotated[int, Path(ge=-db.INT_MAX, le=db.INT_MAX)], role: str | None = None,
                      invite: str | None = None) -> None:
    s = services(ws)
    games = s.games
    await ws.accept()
    try:
        found = await run_in_threadpool(find_auth, ws)
        if found is not None and found.method == "session" and not _origin_ok(ws):
            found = None  # a cross-site page may not use the player's cookie
        user: User | None = None if found is None else found.user
        first, first_body = await run_in_threadpool(games.view_body, user, game_id, role, invite)
    except ServerError as exc:
        await ws.send_json(_error(exc))
        await ws.close(code=4000 + exc.status)
        return
    except Exception as exc:  # noqa: BLE001 - logged without its message
        log.error("internal error opening the socket of game %s: %s", game_id, where(exc))
        await ws.send_json({"type": "error", "status": 500, "code": "internal",
                            "detail": "Internal server error."})
        await ws.close(code=1011)
        return
    role = str(first["role"])
    player = role != OBSERVER
    send_lock = asyncio.Lock()

    async def send(msg: dict[str, Any]) -> None:
        async with send_lock:
            await ws.send_json(msg)

    async def send_text(text: str) -> None:
        async with send_lock:
            await ws.send_text(text)

    sub = games.bus.subscribe(game_id)
    last_chat = 0
    # Connected players get no notifications for this game (notify.py).
    presence = getattr(ws.app.state, "presence", None)
    here: int | None = None
    try:
        if presence is not None and player and user is not None:
            here = await run_in_threadpool(presence.enter, game_id, user.id)
        await send_text(state_message(first_body))
        if player and user is not None:
            messages = await run_in_threadpool(games.chat, user, game_id, 0)
            if messages:
                last_chat = messages[-1]["id"]
            await send({"type": "chat", "messages": messages})
        reader = asyncio.create_task(_reader(ws, send, user, game_id, role))
        try:
            while True:
                getter = asyncio.create_task(sub.get())
                done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
                if reader in done:
                    getter.cancel()
                    break
                events: list[Event] = [getter.result()]
                # Coalesce: events that piled up (e.g. a fast bot game) give one fresh view.
                while not sub.queue.empty():
                    events.append(sub.queue.get_nowait())
                if any(e.kind == CHAT for e in events) and player and user is not None:
                    messages = await run_in_threadpool(games.chat, user, game_id, last_chat)
                    if messages:
                        last_chat = messages[-1]["id"]
                        await send({"type": "chat", "messages": messages})
                if all(e.kind == CHAT for e in events):
                    continue
                # The newest version announced: its view comes from the game in memory,
                # rendered and encoded once for every socket of this role.
                target = max(e.version for e in events if e.kind != CHAT)
                text = None
                if target > 0:
                    text = games.pushed_body(user, game_id, role, invite, target)
                    if text is None:
                        text = await run_in_threadpool(games.push_body, user, game_id, role, invite, target)
                if text is None:  # not in memory here, or a lobby change: ask the database
                    try:
                        current, body = await run_in_threadpool(games.view_body, user, game_id, role, invite)
                        text = body
                        lobby = None
                        if current["status"] == "open" or current["version"] == 0:
                            # Seats filling up (or the start): the game's lobby record too.
                            lobby = await run_in_threadpool(games.game, user, game_id, invite)
                    except ServerError as exc:
                        await send(_error(exc))
                        break
                    if lobby is not None:
                        await send({"type": "game", "game": lobby})
                if text is not None:
                    await send_text(state_message(text))
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
    except (WebSocketDisconnect, RuntimeError):
        pass  # the client went away (RuntimeError: sending on a closed socket)
    except Exception as exc:  # noqa: BLE001 - logged without its message (may quote hidden state)
        log.error("internal error on the socket of game %s: %s", game_id, where(exc))
        with contextlib.suppress(Exception):
            await ws.send_json({"type": "error", "status": 500, "code": "internal",
                                "detail": "Internal server error."})
    finally:
        sub.close()
        if here is not None and presence is not None:
            with contextlib.suppress(Exception):
                await run_in_threadpool(presence.leave, here)
        with contextlib.suppress(Exception):
            await ws.close()


async def _reader(ws: WebSocket, send: Any, user: User | None, game_id: int, role: str) -> None:
    games = services(ws).games
    while True:
        try:
            text = await ws.receive_text()
        except (WebSocketDisconnect, RuntimeError):
            return
        request_id: Any = None
        try:
            try:
                msg = json.loads(text)
            except ValueError as exc:
                raise BadRequest("Messages are JSON objects.") from exc
            if not isinstance(msg, dict):
                raise BadRequest("Messages are JSON objects.")
            request_id = msg.get("id")
            kind = msg.get("type")
            if kind == "ping":
                await send({"type": "pong", "id": request_id})
                continue
            if user is None or role == OBSERVER:
                raise BadRequest("Observers can only watch.", code="observer")
            version = msg.get("version")
            if kind in ("action", "undo", "resign") and (not isinstance(version, int) or isinstance(version, bool)):
                raise BadRequest("Send the game version your request was made on ('version').")
            version = int(version or 0)
            if kind == "action":
                verb = msg.get("verb")
                if not isinstance(verb, str):
                    raise BadRequest("An action needs a 'verb'.")
                await run_in_threadpool(games.act, user, game_id, role, verb, msg.get("arg"), version)
            elif kind == "undo":
                await run_in_threadpool(games.act, user, game_id, role, "undo", None, version)
            elif kind == "resign":
                await run_in_threadpool(games.resign, user, game_id, role, version)
            elif kind == "chat":
                await run_in_threadpool(games.post_chat, user, game_id, str(msg.get("text", "")))
            else:
                raise BadRequest(f"Unknown message type {kind!r}.")
            await send({"type": "ok", "id": request_id})
        except ServerError as exc:
            await send(_error(exc, request_id))
