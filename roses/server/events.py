"""Events: what changed, for WebSocket fan-out and for notifications.

An event names a game and what happened, never any state: each subscriber renders its own
role's view after it hears of a change, so the channel carries no hidden information and can
later be a PostgreSQL LISTEN/NOTIFY or Redis channel shared by several worker processes.

:class:`EventBus` is the interface; :class:`LocalBus` the in-process implementation.
:class:`Notifier` is the hook for e-mail/webhook notifications: ``notify`` is called after
each committed change that matters to players (game started, turn changed, game over).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

log = logging.getLogger("roses.server")

# Event kinds
GAME_CHANGED = "game"  # lobby or state change: subscribers reload
CHAT = "chat"
STARTED = "started"
TURN = "turn"
FINISHED = "finished"
#: A game played in rounds (``Rules.rounds``) began a new one; ``data["round"]`` is its number.
#: Said whether or not the roles to act changed with it.
ROUND = "round"


@dataclass(frozen=True)
class Event:
    kind: str
    game_id: int
    version: int = 0
    #: Roles that may act now (public information).
    active: tuple[str, ...] = ()
    #: For notifications: user ids concerned (e.g. whose turn it now is).
    users: tuple[int, ...] = ()
    data: dict[str, Any] = field(default_factory=dict)


class Subscription:
    """An asyncio queue of events of one game, fed by a bus."""

    def __init__(self, bus: EventBus, game_id: int) -> None:
        self.bus = bus
        self.game_id = game_id
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[Event] = asyncio.Queue(maxsize=1000)
        #: The role whose views the subscriber shows, once known (None until then).
        self.role: str | None = None

    async def get(self) -> Event:
        return await self.queue.get()

    def close(self) -> None:
        self.bus.unsubscribe(self)


class EventBus(Protocol):
    def publish(self, event: Event) -> None:
        """Deliver ``event`` to every subscriber of its game (callable from any thread)."""

    def subscribe(self, game_id: int) -> Subscription:
        """Subscribe (from the event loop) to the events of one game."""

    def unsubscribe(self, sub: Subscription) -> None: ...

    def roles(self, game_id: int) -> set[str | None]:
        """The roles the subscribers of a game in this process show (None: not known yet)."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class LocalBus:
    """Fan-out inside one process: enough for one worker (the default)."""

    def __init__(self) -> None:
        self._subs: dict[int, set[Subscription]] = {}
        self._lock = threading.Lock()

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    def subscribe(self, game_id: int) -> Subscription:
        sub = Subscription(self, game_id)
        with self._lock:
            self._subs.setdefault(game_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subs.get(sub.game_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.game_id]

    def roles(self, game_id: int) -> set[str | None]:
        """The roles the subscribers of a game show (None for one whose role is not known yet)."""
        with self._lock:
            return {sub.role for sub in self._subs.get(game_id, ())}

    def publish(self, event: Event) -> None:
        with self._lock:
            targets = list(self._subs.get(event.game_id, ()))
        # Each subscriber's queue belongs to its own event loop: one call per loop (one
        # wake-up of it), however many of its sockets follow the game.
        by_loop: dict[asyncio.AbstractEventLoop, list[Subscription]] = {}
        for sub in targets:
            by_loop.setdefault(sub.loop, []).append(sub)
        for loop, subs in by_loop.items():
            try:
                loop.call_soon_threadsafe(_put_all, [sub.queue for sub in subs], event)
            except RuntimeError:  # that loop is closed
                for sub in subs:
                    self.unsubscribe(sub)


class RelayedBus:
    """The part of a bus between several worker processes that stays in this process: its own
    events go to its own subscribers at once (a :class:`LocalBus`), and the events other
    workers published come in through :meth:`remote`. Subclasses send and receive them
    (``pgbus.PgBus``, ``affinity.RelayBus``)."""

    def __init__(self) -> None:
        self.local = LocalBus()
        #: Events received from other workers (for tests and logs).
        self.received = 0
        #: Called (on the event loop) with each event another worker published, before it is
        #: delivered (the game service drops what it cached of a game whose seats changed).
        self.on_remote: Callable[[Event], None] | None = None

    def subscribe(self, game_id: int) -> Subscription:
        sub = self.local.subscribe(game_id)
        sub.bus = self  # type: ignore[assignment]  # unsubscribe comes back here
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        self.local.unsubscribe(sub)

    def roles(self, game_id: int) -> set[str | None]:
        return self.local.roles(game_id)

    def remote(self, event: Event) -> None:
        """An event another worker published: to the game service's hook, then to the local
        subscribers (called on the event loop)."""
        self.received += 1
        if self.on_remote is not None:
            try:
                self.on_remote(event)
            except Exception as exc:  # noqa: BLE001 - never stop receiving
                log.error("handling an event of another worker failed: %s", where(exc))
        self.local.publish(event)

    def reload_all(self) -> None:
        """Events of other workers may have been missed: every local subscriber is told to
        read its game again (a change without a version), as is the game service's hook."""
        with self.local._lock:
            games = list(self.local._subs)
        for gid in games:
            event = Event(GAME_CHANGED, gid)
            if self.on_remote is not None:
                with contextlib.suppress(Exception):
                    self.on_remote(event)
            self.local.publish(event)


def encode(event: Event, origin: str) -> str:
    """An event as sent between workers (a NOTIFY payload, a relayed message): its kind, game,
    version, active roles and data, never any state. orjson: every worker decodes every event
    of every other worker, so this is on the path of each action when there are several."""
    return orjson.dumps({"o": origin, "k": event.kind, "g": event.game_id, "v": event.version,
                         "a": list(event.active), "d": event.data}).decode()


def decode(payload: str | bytes) -> tuple[str, Event]:
    m = orjson.loads(payload)
    return str(m["o"]), Event(str(m["k"]), int(m["g"]), int(m.get("v", 0)), tuple(m.get("a", ())),
                              (), dict(m.get("d") or {}))


def _put_all(queues: list[asyncio.Queue[Event]], event: Event) -> None:
    for queue in queues:
        _put(queue, event)


def _put(queue: asyncio.Queue[Event], event: Event) -> None:
    try:
        queue.put_nowait(event)
    except asyncio.QueueFull:
        # A subscriber that does not read: drop the oldest; it reloads on the next event anyway.
        try:
            queue.get_nowait()
            queue.put_nowait(event)
        except (asyncio.QueueEmpty, asyncio.QueueFull):
            pass


def where(exc: BaseException) -> str:
    """An exception's type and innermost source line, without its message.

    Messages of unexpected errors inside a rules module may quote hidden game state, so server
    logs name only the kind of error and where it happened.
    """
    tb = exc.__traceback__
    place = ""
    while tb is not None:
        place = f"{tb.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno}"
        tb = tb.tb_next
    return f"{type(exc).__name__} at {place}" if place else type(exc).__name__


class Notifier(Protocol):
    """Hook for notifications (e-mail, webhooks). Called after commit, off the event loop."""

    def notify(self, event: Event) -> None: ...


class Notifiers:
    """Calls every registered notifier; a failing one is logged and does not stop play."""

    def __init__(self, notifiers: Sequence[Notifier] = ()) -> None:
        self.items: list[Notifier] = list(notifiers)

    def add(self, notifier: Notifier) -> None:
        self.items.append(notifier)

    def notify(self, event: Event) -> None:
        for n in self.items:
            try:
                n.notify(event)
            except Exception as exc:  # noqa: BLE001 - a notifier must never break play
                log.error("notifier %r failed on %s of game %s: %s", n, event.kind, event.game_id, where(exc))
