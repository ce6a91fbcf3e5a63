"""The play WebSocket: ``/api/games/{id}/ws?role=R``.

On connect and after every change of the game, the server sends the connected role its own
view: ``{"type": "state", ...}`` with the same fields as ``GET /api/games/{id}/view``.
Players also get the chat (``{"type": "chat", "messages": [...]}``) and their seat's private
messages (``{"type": "messages", "channels": [...], "messages": [...]}``, roses/server/messages.py:
only the sockets of the channel's seats fetch them). While the game waits for
players (and at its start), each change also brings ``{"type": "game", "game": {...}}`` with the
body of ``GET /api/games/{id}`` (seats, status).

A client may send (JSON objects; ``id`` is echoed in the reply):

* ``{"type": "act", "verb": V, "arg": A, "version": N, "key": K}``: an action answered on
  the socket with ``{"type": "result", "id": ..., "seq": S, "duplicate": false, ...}``, the
  fields of ``POST /api/games/{id}/action``'s reply (the acting role's view after it; ``seq``
  is the action's version). ``key`` (optional, 1-64 characters) is an idempotency key: a
  request whose key was already applied for this game and role is not applied again, and
  its answer says ``"duplicate": true`` with the game's current view. The push of the
  version the result already showed is not sent again on this socket.
* ``{"type": "action", "verb": V, "arg": A, "version": N}`` (``verb: "undo"`` to undo),
  answered with ``{"type": "ok"}`` (the view comes as a push)
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
import logging
import queue
import threading
import weakref
from collections.abc import Callable
from typing import Annotated, Any, TypeVar
from urllib.parse import urlsplit

import orjson
from fastapi import APIRouter, Path, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from roses.engine import OBSERVER
from roses.server import db
from roses.server import messages as private
from roses.server.auth import User
from roses.server.deps import find_auth, services
from roses.server.errors import BadRequest, ServerError
from roses.server.events import CHAT, Event, where
from roses.server.service import state_message

log = logging.getLogger("roses.server")

router = APIRouter()

T = TypeVar("T")

#: Threads for the socket actions (``act``) that cannot be applied on the event loop (the
#: game is not in memory at the version named, or its lock is taken: ``GameService.act_async``).
#: Such an action waits in its thread for the group commit (store.py), so several are on their
#: way at once, and the commit takes them together.
ACT_THREADS = 32

#: Sockets whose opening (authentication, first view, chat and messages: one trip to a
#: thread, :func:`_open`) runs at once; the others wait their turn on the event loop. A
#: thousand sockets opening together (as after a restart) would otherwise hold every thread
#: of the pool and most of the interpreter's time, and the actions of the games already being
#: played would wait behind all of them (bench/server.md).
OPENING_AT_ONCE = 4
_opening: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()

#: The kind of the event that tells a socket's push loop that its reader has ended.
_CLOSED = "socket-closed"


def _deliver(fut: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if fut.done():  # the awaiting socket was cancelled (closed) meanwhile
        return
    if error is None:
        fut.set_result(result)
    else:
        fut.set_exception(error)


class _ActPool:
    """The threads of the socket actions. Each takes ``(loop, future, fn, args)`` from one
    queue and hands the outcome to the event loop with ``call_soon_threadsafe``: the
    hand-over of an executor without its own future (a lock and a condition each) chained to
    the loop's. Threads start on demand, up to ``size``: a new one only when none is idle."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._queue: queue.SimpleQueue[tuple[asyncio.AbstractEventLoop, asyncio.Future[Any],
                                             Callable[..., Any], tuple[Any, ...]]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._idle = 0  # threads done with their item and not yet given another
        self.threads: list[threading.Thread] = []

    def submit(self, loop: asyncio.AbstractEventLoop, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        fut: asyncio.Future[T] = loop.create_future()
        self._queue.put((loop, fut, fn, args))
        with self._lock:
            if self._idle:
                self._idle -= 1
                return fut
            if len(self.threads) < self.size:
                t = threading.Thread(target=self._work, name=f"roses-act-{len(self.threads)}", daemon=True)
                self.threads.append(t)
                t.start()
        return fut

    def _work(self) -> None:
        while True:
            loop, fut, fn, args = self._queue.get()
            result: Any = None
            error: BaseException | None = None
            try:
                result = fn(*args)
            except BaseException as exc:  # noqa: BLE001 - handed to the awaiting coroutine
                error = exc
            # Idle before the outcome is handed over: the awaiting coroutine's next action
            # then finds this thread instead of starting another.
            with self._lock:
                self._idle += 1
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                loop.call_soon_threadsafe(_deliver, fut, result, error)
            del loop, fut, fn, args, result, error  # hold nothing while waiting


_acts: _ActPool | None = None
_acts_lock = threading.Lock()


def _opening_gate() -> asyncio.Semaphore:
    """The running loop's gate of :data:`OPENING_AT_ONCE` openings (a semaphore belongs to
    one loop; tests run several)."""
    loop = asyncio.get_running_loop()
    gate = _opening.get(loop)
    if gate is None:
        gate = _opening[loop] = asyncio.Semaphore(OPENING_AT_ONCE)
    return gate


async def _in_thread(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a thread of the socket actions' pool: cheaper than Starlette's
    ``run_in_threadpool`` (anyio's capacity limiter, cancel scopes and context copy) and than
    the loop's executor hand-over, on a path every action takes."""
    global _acts
    if _acts is None:
        with _acts_lock:
            if _acts is None:
                _acts = _ActPool(ACT_THREADS)
    return await _acts.submit(asyncio.get_running_loop(), fn, *args)


def _wake(sub: Any, game_id: int) -> None:
    """Put the 'reader ended' event in a subscription's queue (dropping the oldest if full)."""
    with contextlib.suppress(asyncio.QueueEmpty):
        if sub.queue.full():
            sub.queue.get_nowait()
    sub.queue.put_nowait(Event(_CLOSED, game_id))


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
async def play_socket(ws: WebSocket, game_id: Annotated[int, Path(ge=-db.INT_MAX, le=db.INT_MAX)], role: str | None = None,  # noqa: C901, PLR0915 - the socket's message loop, each kind of message handled in place
                      invite: str | None = None) -> None:
    s = services(ws)
    games = s.games
    await ws.accept()
    # Subscribed before the first view is read: a change made in between is announced (and
    # its push skipped if the first view already shows it).
    sub = games.bus.subscribe(game_id)
    # Connected players get no notifications for this game (notify.py).
    presence = getattr(ws.app.state, "presence", None)
    try:
        async with _opening_gate():
            opened = await run_in_threadpool(_open, ws, game_id, role, invite, presence)
    except ServerError as exc:
        sub.close()
        await ws.send_json(_error(exc))
        await ws.close(code=4000 + exc.status)
        return
    except Exception as exc:  # noqa: BLE001 - logged without its message
        sub.close()
        log.error("internal error opening the socket of game %s: %s", game_id, where(exc))
        await ws.send_json({"type": "error", "status": 500, "code": "internal",
                            "detail": "Internal server error."})
        await ws.close(code=1011)
        return
    user, first, first_body, inbox, here = opened
    role = str(first["role"])
    sub.role = role  # the actions of others render this role's view for its push (play._act_done)
    player = role != OBSERVER
    send_lock = asyncio.Lock()

    async def send(msg: dict[str, Any]) -> None:
        async with send_lock:
            await ws.send_json(msg)

    #: The newest version whose view this socket has sent (the first view, a result or a
    #: push), and a flag cleared while an ``act`` of this socket is on its way (the push of
    #: the version it makes waits for its result, which shows that version).
    sent = [int(first["version"])]
    idle = asyncio.Event()
    idle.set()

    async def send_view(message: str, version: int, *, always: bool = False) -> None:
        """Send a message carrying ``role``'s view at ``version``. A push (not ``always``)
        waits while an ``act`` of this socket is on its way and is dropped when the socket
        has already sent that version or a newer one; the versions sent never go back."""
        if not always:
            while not idle.is_set():
                await idle.wait()
        async with send_lock:
            if not always and version <= sent[0]:
                return
            await ws.send_text(message)
            sent[0] = max(sent[0], version)

    last_chat = 0
    last_message = 0
    try:
        await send_view(state_message(first_body), sent[0], always=True)
        if inbox is not None:
            messages, box = inbox
            if messages:
                last_chat = messages[-1]["id"]
            await send({"type": "chat", "messages": messages})
            if box["messages"]:
                last_message = box["messages"][-1]["id"]
            await send({"type": "messages", "channels": box["channels"], "messages": box["messages"]})
        reader = asyncio.create_task(_reader(ws, send, send_view, user, game_id, role, idle))
        # The reader's end comes through the same queue as the game's events: one wait per
        # event, no task per event.
        reader.add_done_callback(lambda _: _wake(sub, game_id))
        try:
            while True:
                events: list[Event] = [await sub.queue.get()]
                # Coalesce: events that piled up (e.g. a fast bot game) give one fresh view.
                while not sub.queue.empty():
                    events.append(sub.queue.get_nowait())
                if any(e.kind == _CLOSED for e in events):
                    break
                if any(e.kind == CHAT for e in events) and player and user is not None:
                    messages = await run_in_threadpool(games.chat, user, game_id, last_chat)
                    if messages:
                        last_chat = messages[-1]["id"]
                        await send({"type": "chat", "messages": messages})
                if player and user is not None and any(
                        e.kind == private.MESSAGE and role in e.data.get("readers", ()) for e in events):
                    box = await run_in_threadpool(private.read, games, user, game_id, role, last_message)
                    if box["messages"]:
                        last_message = box["messages"][-1]["id"]
                        await send({"type": "messages", "channels": box["channels"], "messages": box["messages"]})
                changes = [e.version for e in events if e.kind not in (CHAT, private.MESSAGE)]
                if not changes:
                    continue
                # The newest version announced: its view comes from the game in memory,
                # rendered and encoded once for every socket of this role. An event without
                # a version (seats, pause, lobby) may change the view at the same version:
                # it is read from the database and always sent.
                target = max(changes)
                if 0 not in changes and target <= sent[0]:
                    continue  # already sent (e.g. the result of this socket's own action)
                pushed = None
                if 0 not in changes:
                    pushed = games.pushed_body(user, game_id, role, invite, target)
                    if pushed is None:
                        pushed = await run_in_threadpool(games.push_body, user, game_id, role, invite, target)
                if pushed is not None:
                    await send_view(state_message(pushed[1]), pushed[0])
                    continue
                # Not in memory here, or a change without a version: ask the database.
                try:
                    current, body = await run_in_threadpool(games.view_body, user, game_id, role, invite)
                    lobby = None
                    if current["status"] == "open" or current["version"] == 0:
                        # Seats filling up (or the start): the game's lobby record too.
                        lobby = await run_in_threadpool(games.game, user, game_id, invite)
                except ServerError as exc:
                    await send(_error(exc))
                    break
                if lobby is not None:
                    await send({"type": "game", "game": lobby})
                await send_view(state_message(body), int(current["version"]), always=0 in changes)
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


def _open(ws: WebSocket, game_id: int, role: str | None, invite: str | None,
          presence: Any) -> tuple[User | None, dict[str, Any], str, tuple[list[dict[str, Any]], dict[str, Any]] | None,
                                  int | None]:
    """What a socket sends when it opens, read in one trip to a thread (a thousand sockets
    opening at once after a restart each make one): (the user, the first view and its body,
    a player's chat and private messages, the player's presence row)."""
    games = services(ws).games
    found = find_auth(ws)
    if found is not None and found.method == "session" and not _origin_ok(ws):
        found = None  # a cross-site page may not use the player's cookie
    user = None if found is None else found.user
    first, body = games.view_body(user, game_id, role, invite)
    seat = str(first["role"])
    if seat == OBSERVER or user is None:
        return user, first, body, None, None
    with games.db.read() as conn:
        inbox = (games.chat_in(conn, user, game_id, 0), private.read_in(games, conn, user, game_id, seat, 0))
    here = None if presence is None else int(presence.enter(game_id, user.id))
    return user, first, body, inbox, here


async def _reader(ws: WebSocket, send: Any, send_view: Any, user: User | None, game_id: int, role: str,
                  idle: asyncio.Event) -> None:
    games = services(ws).games
    while True:
        try:
            text = await ws.receive_text()
        except (WebSocketDisconnect, RuntimeError):
            return
        request_id: Any = None
        try:
            try:
                msg = orjson.loads(text)
            except ValueError as exc:  # orjson.JSONDecodeError too
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
            if kind in ("act", "action", "undo", "resign") and (not isinstance(version, int) or isinstance(version, bool)):
                raise BadRequest("Send the game version your request was made on ('version').")
            version = int(version or 0)
            if kind == "act":
                verb = msg.get("verb")
                if not isinstance(verb, str):
                    raise BadRequest("An action needs a 'verb'.")
                idle.clear()
                try:
                    acted = await games.act_async(user, game_id, role, verb, msg.get("arg"), version,
                                                  key=msg.get("key"), in_thread=_in_thread)
                    body = acted.body
                    assert body is not None  # a user's action always gets its view
                    head = (f'{{"type":"result","id":{orjson.dumps(request_id).decode()},"seq":{acted.seq},'
                            f'"duplicate":{"true" if acted.repeated else "false"},')
                    await send_view(head + body[1:], int(acted["version"]), always=True)
                finally:
                    idle.set()
                continue
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
