"""Several server processes behind one port, with each game's connections in one process.

``roses serve --workers N`` (N > 1) starts a small dispatcher process that owns the listening
socket and N worker processes, each an ordinary uvicorn server of the Roses app without a
listening socket of its own. The dispatcher accepts each connection, peeks at its request line
without reading it (``MSG_PEEK``), and hands the connection's file descriptor to a worker over
a Unix socket (``SCM_RIGHTS``); the worker serves the connection from its first byte as if it
had accepted it.

The worker is chosen by the game the request names (``/games/ID`` or ``/api/games/ID``...):
game ID goes to worker ``ID mod N``, so every socket and page of a game lands in the same
process. That process applies the game's actions and renders its views from its own cache;
the other workers hear of them through the event bus (PostgreSQL's LISTEN/NOTIFY) but have no
socket of that game to render for, so they neither read nor apply its actions. Were connections spread over
the workers by the kernel (uvicorn's own workers), a game's players would often be in
different processes, each reading and applying every action of the game (bench/server.md,
"Game affinity"). Requests that name no game (the lobby, accounts, static files) go to the
workers in turn. A connection is handed over once: the later requests of a kept-alive
connection go to the same worker, whatever game they name.

A connection whose request line has not arrived within :data:`PEEK_SECONDS` goes to the next
worker in turn: affinity is an optimisation, and every worker serves every request correctly
(the database holds the games). A worker that exits is started again.

On SQLite the workers' events (an action made, a seat taken...) travel through the dispatcher:
each worker sends its events on its Unix socket and the dispatcher passes them to the other
workers (:class:`RelayBus`), so a change made in any worker reaches every socket of the game
(on PostgreSQL, LISTEN/NOTIFY does this: :mod:`roses.server.pgbus`). An event is the kind,
game id, version and active roles, never any state.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import re
import select
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from roses.server.events import Event, RelayedBus, decode, encode

log = logging.getLogger("roses.affinity")

#: The game named by a request line: ``GET /games/12 ...``, ``POST /api/games/12/action ...``,
#: ``GET /api/games/12/ws?role=York ...``.
GAME_PATH = re.compile(rb"[A-Z]+ /(?:api/)?games/(\d{1,18})(?:[/? ]|$)")

#: How long the dispatcher waits for a connection's request line before handing it on anyway.
PEEK_SECONDS = 2.0

#: The most bytes peeked at: a request line longer than this is handed on by turn.
PEEK_BYTES = 2048

#: The largest message on a worker's Unix socket (an event; a handed connection is one byte).
MESSAGE_BYTES = 65536

#: The first byte of a message on a worker's Unix socket: a connection (its descriptor
#: attached), an event (its encoding follows), or "events were dropped: read every game again".
CONNECTION, EVENT, RELOAD = b"c", b"e", b"r"


def available() -> bool:
    """Whether this platform can hand sockets between processes (``SCM_RIGHTS``)."""
    return hasattr(socket, "send_fds") and hasattr(socket, "AF_UNIX") and hasattr(socket, "SOCK_SEQPACKET")


def game_of(head: bytes) -> int | None:
    """The game id a request's first bytes name, or None."""
    m = GAME_PATH.match(head)
    return int(m.group(1)) if m else None


def worker_for(head: bytes, workers: int, turn: int) -> int:
    """The worker (0 to ``workers - 1``) for a connection whose first bytes are ``head``: the
    game's own, else ``turn`` (the next in turn)."""
    gid = game_of(head)
    return gid % workers if gid is not None else turn % workers


# ================================================================== dispatcher
@dataclass
class _Worker:
    index: int
    channel: socket.socket | None = None
    proc: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    #: Events for it were dropped (its socket was full): it is told to read every game again
    #: before the next event.
    missed: bool = False


@dataclass
class _Waiting:
    conn: socket.socket
    deadline: float


@dataclass
class Dispatcher:
    """The process that owns the port: accepts, routes, hands on, and keeps the workers alive."""

    host: str
    port: int
    workers: int
    #: The worker's uvicorn settings (``uvicorn.Config`` keyword arguments, JSON-able).
    settings: dict[str, Any]
    _pool: list[_Worker] = field(default_factory=list)
    _waiting: dict[int, _Waiting] = field(default_factory=dict)
    _turn: int = 0
    _stopping: bool = False
    _sel: selectors.BaseSelector | None = None
    #: The command of a worker, to which its socket's descriptor, its index and the settings
    #: (JSON) are added.
    command: list[str] = field(default_factory=lambda: [sys.executable, "-m", "roses.server.affinity"])

    def run(self) -> int:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        try:
            listener = socket.create_server((self.host, self.port), family=family, backlog=2048)
        except OSError as e:
            log.error("roses: cannot listen on %s port %d: %s", self.host, self.port, e.strerror or e)
            return 1
        listener.setblocking(False)
        self._pool = [_Worker(i) for i in range(self.workers)]
        sel = self._sel = selectors.DefaultSelector()
        for w in self._pool:
            self._start(w)
        wake_r, wake_w = socket.socketpair()
        wake_r.setblocking(False)
        wake_w.setblocking(False)
        old = {sig: signal.signal(sig, lambda *_: self._stop(wake_w)) for sig in (signal.SIGINT, signal.SIGTERM)}
        sel.register(listener, selectors.EVENT_READ, "accept")
        sel.register(wake_r, selectors.EVENT_READ, "wake")
        try:
            while not self._stopping:
                for key, _ in sel.select(timeout=0.5):
                    if key.data == "accept":
                        self._accept(listener, sel)
                    elif key.data == "wake":
                        with contextlib.suppress(OSError):
                            wake_r.recv(64)
                    elif isinstance(key.data, _Worker):
                        self._relay(key.data)
                    else:
                        self._route(key.fileobj, sel)  # type: ignore[arg-type]
                self._expire(sel)
                self._keep_alive()
                for w in self._pool:
                    if w.missed:
                        self._send_event(w, RELOAD)
        finally:
            sel.close()
            listener.close()
            for waiting in self._waiting.values():
                waiting.conn.close()
            self._waiting.clear()
            for sig, handler in old.items():
                signal.signal(sig, handler)
            self._stop_workers()
            wake_r.close()
            wake_w.close()
        return 0

    def _stop(self, wake: socket.socket) -> None:
        self._stopping = True
        with contextlib.suppress(OSError):
            wake.send(b"x")

    # ------------------------------------------------------------- the workers
    def _start(self, w: _Worker) -> None:
        parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        parent.setblocking(False)
        cmd = [*self.command, str(child.fileno()), str(w.index), json.dumps(self.settings)]
        # each worker in a session of its own: a Ctrl-C reaches only the dispatcher, which
        # stops the workers itself (a second signal would make uvicorn drop its connections)
        w.proc = subprocess.Popen(cmd, pass_fds=[child.fileno()], start_new_session=True)
        child.close()
        w.channel = parent
        w.started = time.monotonic()
        if self._sel is not None:
            self._sel.register(parent, selectors.EVENT_READ, w)

    def _keep_alive(self) -> None:
        for w in self._pool:
            if w.proc is not None and w.proc.poll() is not None and not self._stopping:
                log.warning("roses: worker %d (pid %d) exited with status %s; starting it again",
                            w.index, w.proc.pid, w.proc.returncode)
                if w.channel is not None:
                    if self._sel is not None:
                        with contextlib.suppress(KeyError, ValueError):
                            self._sel.unregister(w.channel)
                    w.channel.close()
                    w.channel = None
                if time.monotonic() - w.started < 5:
                    time.sleep(1)  # not in a tight loop when a worker cannot start
                self._start(w)

    def _stop_workers(self, timeout: float = 30.0) -> None:
        for w in self._pool:
            if w.proc is not None and w.proc.poll() is None:
                w.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for w in self._pool:
            if w.proc is None:
                continue
            try:
                w.proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                w.proc.kill()
                w.proc.wait(10)
            if w.channel is not None:
                w.channel.close()

    # ---------------------------------------------------------- the connections
    def _accept(self, listener: socket.socket, sel: selectors.BaseSelector) -> None:
        for _ in range(256):
            try:
                conn, _addr = listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as e:  # e.g. out of file descriptors: try again at the next wake
                log.warning("roses: accept failed: %s", e)
                return
            conn.setblocking(False)
            self._waiting[conn.fileno()] = _Waiting(conn, time.monotonic() + PEEK_SECONDS)
            sel.register(conn, selectors.EVENT_READ, "peek")

    def _route(self, conn: socket.socket, sel: selectors.BaseSelector) -> None:
        try:
            head = conn.recv(PEEK_BYTES, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            head = b""
        if head and b"\n" not in head and len(head) < PEEK_BYTES:
            return  # the request line is still coming (its deadline hands it on anyway)
        sel.unregister(conn)
        self._waiting.pop(conn.fileno(), None)
        if not head:  # closed before a byte arrived
            conn.close()
            return
        self._hand(conn, worker_for(head, self.workers, self._next_turn()))

    def _expire(self, sel: selectors.BaseSelector) -> None:
        if not self._waiting:
            return
        now = time.monotonic()
        for fd, waiting in list(self._waiting.items()):
            if waiting.deadline <= now:
                sel.unregister(waiting.conn)
                del self._waiting[fd]
                self._hand(waiting.conn, self._next_turn() % self.workers)

    def _next_turn(self) -> int:
        self._turn += 1
        return self._turn

    def _relay(self, source: _Worker) -> None:
        """Pass the events a worker sent to every other worker."""
        channel = source.channel
        if channel is None:
            return
        for _ in range(256):
            try:
                msg = channel.recv(MESSAGE_BYTES)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                msg = b""
            if not msg:  # the worker is gone: _keep_alive starts it again
                if self._sel is not None:
                    with contextlib.suppress(KeyError, ValueError):
                        self._sel.unregister(channel)
                return
            if not msg.startswith(EVENT):
                continue
            for w in self._pool:
                if w is not source:
                    self._send_event(w, msg)

    def _send_event(self, w: _Worker, msg: bytes) -> None:
        if w.channel is None:
            return
        try:
            if w.missed:
                w.channel.send(RELOAD)
                w.missed = False
            w.channel.send(msg)
        except (BlockingIOError, InterruptedError):
            if not w.missed:
                log.warning("roses: worker %d is not reading its events; it will read every game again",
                            w.index)
            w.missed = True
        except OSError:
            pass  # that worker is gone and is started again (reading every game afresh)

    def _hand(self, conn: socket.socket, index: int) -> None:
        """Give ``conn`` to worker ``index`` (or, if its channel is full or gone, to another)."""
        try:
            for k in range(self.workers):
                w = self._pool[(index + k) % self.workers]
                if w.channel is None:
                    continue
                try:
                    socket.send_fds(w.channel, [CONNECTION], [conn.fileno()])
                except (BlockingIOError, InterruptedError, OSError):
                    continue
                return
            log.warning("roses: no worker took a connection; closing it")
        finally:
            conn.close()  # the worker holds its own copy of the descriptor


def serve(host: str, port: int, workers: int, settings: dict[str, Any]) -> int:
    """Run the dispatcher and ``workers`` worker processes until SIGINT or SIGTERM."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    return Dispatcher(host, port, workers, settings).run()


# ==================================================================== a worker
#: This process's Unix socket to the dispatcher, when it is one of its workers.
_channel: socket.socket | None = None
#: The relay bus of this worker, once the app made one.
_relay_bus: RelayBus | None = None


def relay_bus() -> RelayBus | None:
    """A new :class:`RelayBus` if this process is a dispatcher's worker, else None."""
    global _relay_bus
    if _channel is None:
        return None
    _relay_bus = RelayBus(_channel)
    return _relay_bus


class RelayBus(RelayedBus):
    """Fan-out between the workers of one dispatcher, through it; drop-in for
    :class:`~roses.server.events.LocalBus` (used on SQLite, where there is no LISTEN/NOTIFY).

    Each worker delivers its own events to its own subscribers at once and sends them to the
    dispatcher, which passes them to the other workers; sending is done by a thread, so
    ``publish`` may be called from any thread without waiting."""

    def __init__(self, channel: socket.socket) -> None:
        super().__init__()
        self.channel = channel
        self._out: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._sender: threading.Thread | None = None

    def publish(self, event: Event) -> None:
        self.local.publish(event)
        self._out.put(EVENT + encode(event, "").encode())

    async def start(self) -> None:
        self._sender = threading.Thread(target=self._send_loop, name="roses-relay-send", daemon=True)
        self._sender.start()

    async def stop(self) -> None:
        import asyncio

        self._out.put(None)
        if self._sender is not None:
            await asyncio.to_thread(self._sender.join, 5)
            self._sender = None

    def _send_loop(self) -> None:
        while True:
            msg = self._out.get()
            if msg is None:
                return
            for _ in range(100):  # the socket is non-blocking (the event loop reads it)
                try:
                    self.channel.send(msg)
                    break
                except (BlockingIOError, InterruptedError):
                    select.select([], [self.channel], [], 0.1)
                except OSError:  # the dispatcher is gone: this worker is stopping
                    return
            else:
                log.warning("roses: the dispatcher is not reading this worker's events; one was dropped")

    def received_payload(self, payload: bytes) -> None:
        """An event another worker sent (called on the event loop)."""
        try:
            _, event = decode(payload)
        except (ValueError, KeyError, TypeError):
            log.warning("roses: ignored a malformed event from the dispatcher")
            return
        self.remote(event)


def _worker_main(channel_fd: int, index: int, settings: dict[str, Any]) -> None:
    import asyncio

    import uvicorn

    global _channel
    channel = _channel = socket.socket(fileno=channel_fd)
    channel.setblocking(False)

    class HandedServer(uvicorn.Server):
        """A uvicorn server whose connections come over ``channel`` instead of a listening
        socket."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=[])  # no listening socket of its own
            if self.should_exit:
                return
            config = self.config
            loop = asyncio.get_running_loop()

            def protocol() -> asyncio.Protocol:
                return config.http_protocol_class(  # type: ignore[call-arg]
                    config=config, server_state=self.server_state, app_state=self.lifespan.state)

            async def adopt(sock: socket.socket) -> None:
                try:
                    await loop.connect_accepted_socket(protocol, sock)
                except OSError:  # the client left while the connection was handed over
                    sock.close()

            def receive() -> None:
                while True:
                    try:
                        msg, fds, _flags, _addr = socket.recv_fds(channel, MESSAGE_BYTES, 16)
                    except (BlockingIOError, InterruptedError):
                        return
                    except OSError:
                        msg, fds = b"", []
                    if not msg and not fds:  # the dispatcher is gone: stop
                        loop.remove_reader(channel.fileno())
                        self.should_exit = True
                        return
                    if msg.startswith(EVENT) and _relay_bus is not None:
                        _relay_bus.received_payload(msg[1:])
                    elif msg == RELOAD and _relay_bus is not None:
                        _relay_bus.reload_all()
                    for fd in fds:
                        sock = socket.socket(fileno=fd)
                        if self.should_exit:
                            sock.close()
                            continue
                        sock.setblocking(False)
                        loop.create_task(adopt(sock))

            loop.add_reader(channel.fileno(), receive)
            logging.getLogger("uvicorn.error").info("roses: worker %d ready (pid %d)", index, os.getpid())

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(channel.fileno())
            await super().shutdown(sockets=sockets)

    config = uvicorn.Config("roses.app:app_from_env", factory=True, **settings)
    HandedServer(config).run()


if __name__ == "__main__":  # pragma: no cover - started by Dispatcher._start
    # run as roses.server.affinity, not __main__: the app reads this module's globals
    from roses.server import affinity as _module

    _module._worker_main(int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3]))
