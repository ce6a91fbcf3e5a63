"""Bot seats: bots think in a worker pool, off the event loop, and act through the checked path.

A bot sees only its role's view (the same one a human in that seat gets) and its choice goes
through :meth:`GameService.act` with the version it was made on, like any player's request.

Sharing the bot CPU (roses.server.botcaps has the caps):

* one move at a time per game: after each move the game goes back to the queue, and the
  worker threads always take the waiting game whose bots have thought least so far (fair
  queuing on think time), so two games of slow bots cannot hold up every other game's bots;
* every move stops at the server's per-move cap, and a game whose bots used up the per-game
  think time goes on with the quick fallback bot (the time is kept in ``seats.bot_seconds``);
* on shutdown the searches are told to stop (they play their best move so far, which is
  then not played), the workers end, and the think processes go with them; a think process
  whose server died (``kill -9``) notices within half a second and exits.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from typing import Any

from roses.ai.factory import make_bot
from roses.ai.ismcts import ISMCTSBot
from roses.engine import get_rules
from roses.engine.contract import Action, View
from roses.server.botcaps import FALLBACK, BotCaps
from roses.server.errors import Conflict, ServerError
from roses.server.events import where
from roses.server.leader import Leader
from roses.server.service import GameService

log = logging.getLogger("roses.server")

#: How often a think process checks that its server still runs (seconds).
WATCH_PARENT = 0.5
#: How often (and after how long without a move) a game waiting for a bot is scheduled again
#: by the sweeping server (seconds): the move of a server that died is taken over.
SWEEP_EVERY = 30.0

# In a think process: set when the server shuts down (a multiprocessing Event from the
# pool's initializer); in the server: a threading Event per runner.
_STOP: Any = None


def _seed(game_id: int, version: int, role: str) -> int:
    h = hashlib.sha256(f"{game_id}:{version}:{role}".encode()).digest()
    return int.from_bytes(h[:8], "big")


def choose(bot_name: str, game: str, view: View, role: str, seed: int,
           determinize: Any = None, seconds: float | None = None,
           stop: Callable[[], bool] | None = None) -> Action:
    """Pick an action (module-level, so that it can run in a process pool).

    The bot gets the role's view and a determiniser (re-sampled states, never the truth). A
    search stops after ``seconds`` at most, or as soon as ``stop()`` (or, in a think process,
    the pool's stop event) says so.
    """
    rules = get_rules(game)
    deadline = None if seconds is None else time.monotonic() + seconds
    event = _STOP

    def stopping() -> bool:
        return bool((deadline is not None and time.monotonic() > deadline)
                    or (stop is not None and stop()) or (event is not None and event.is_set()))

    try:
        bot = make_bot(bot_name, seed=seed)
        if isinstance(bot, ISMCTSBot):
            bot.stop = stopping
        decide = getattr(bot, "decide", None)
        if decide is not None:
            verb, arg = decide(rules, view, role, determinize).action
        else:
            verb, arg = bot.choose(rules, view, role)
    except Exception as exc:  # noqa: BLE001 - a broken bot must not stall the game
        if bot_name == "random":
            raise
        log.warning("bot %s failed (%s); playing a random move instead", bot_name, where(exc))
        return choose("random", game, view, role, seed)
    return str(verb), arg


class BotRunner:
    """Runs bot moves for games whose active roles include bot seats (see the module docs)."""

    def __init__(self, service: GameService, think: Executor | None = None, threads: int = 2,
                 caps: BotCaps | None = None, stop_event: Any = None,
                 sweep_every: float = SWEEP_EVERY) -> None:
        self.service = service
        #: Where bots think (a process pool for search bots); None: in the worker threads.
        self.think = think
        self.caps = caps or BotCaps()
        self._stop_event = stop_event  # the think processes' (process_pool)
        self._stop = threading.Event()
        self._cond = threading.Condition()
        self._ready: set[int] = set()  # games waiting for a worker
        self._busy: set[int] = set()  # games a worker is moving now
        self._again: set[int] = set()  # busy games scheduled again meanwhile
        self._used: dict[int, float] = {}  # think seconds per game (this process)
        self._clock = 0.0  # the think time of the game picked last (fair-queuing clock)
        self._closed = False
        service.on_bot_turn = self.schedule
        self._threads = [threading.Thread(target=self._work, name=f"roses-bot-{i}", daemon=True)
                         for i in range(max(1, threads))]
        #: Only the server process holding it sweeps (roses.server.leader).
        self._leader = Leader(service.db, "bots")
        if sweep_every > 0:
            self._threads.append(threading.Thread(target=self._sweeper, args=(sweep_every,),
                                                  name="roses-bot-sweep", daemon=True))
        for t in self._threads:
            t.start()

    def _sweeper(self, every: float) -> None:
        while not self._stop.wait(every):
            try:
                self.sweep(every)
            except Exception:  # noqa: BLE001 - the next sweep tries again
                log.exception("bot sweep failed")

    def sweep(self, older_than: float = SWEEP_EVERY) -> list[int]:
        """Schedule the bot moves of games that waited ``older_than`` seconds for a bot: a move
        is scheduled on the server that made the game's last action, so when that server dies
        (one of several behind a balancer) another must take it over. One server sweeps at a
        time (the ``bots`` leader lock); a move made twice is refused once as stale."""
        if not self._leader.held():
            return []
        games = self.service.stalled_bot_games(older_than)
        for gid in games:
            self.schedule(gid)
        return games

    @property
    def _pending(self) -> set[int]:
        with self._cond:
            return self._ready | self._busy

    def schedule(self, game_id: int) -> None:
        with self._cond:
            if self._closed:
                return
            if game_id in self._busy:
                self._again.add(game_id)
                return
            # A newcomer starts at the clock: it neither jumps ahead of everyone for ever nor waits
            # behind games that thought long ago.
            self._used[game_id] = max(self._used.get(game_id, 0.0), self._clock)
            self._ready.add(game_id)
            self._cond.notify()

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._closed and not self._ready:
                    self._cond.wait()
                if self._closed:
                    return
                game_id = min(self._ready, key=lambda g: (self._used.get(g, 0.0), g))
                self._ready.discard(game_id)
                self._busy.add(game_id)
                self._clock = self._used.get(game_id, 0.0)
            moved, spent = False, 0.0
            try:
                moved, spent = self._step(game_id)
            except Exception as exc:  # noqa: BLE001 - keep the workers alive; the error is logged
                log.error("bot failed in game %s: %s", game_id, where(exc))
            with self._cond:
                self._busy.discard(game_id)
                self._used[game_id] = self._used.get(game_id, 0.0) + spent
                again = game_id in self._again
                self._again.discard(game_id)
                if (moved or again) and not self._closed:
                    self._ready.add(game_id)  # one move, then behind the others
                elif not moved:
                    self._used.pop(game_id, None)
                self._cond.notify_all()

    def _step(self, game_id: int) -> tuple[bool, float]:
        """Make one bot move if a bot is to act: (moved or looked again, seconds thought)."""
        version, rules_id, turns, used = self.service.bot_turns(game_id)
        if not turns or self._stop.is_set():
            return False, 0.0
        role, name, view, det = turns[0]
        if used >= self.caps.game_seconds and name != FALLBACK:
            log.info("game %s: the bots used their %.0f s of thought; %s plays as %s", game_id,
                     self.caps.game_seconds, role, FALLBACK)
            name = FALLBACK
        seed = _seed(game_id, version, role)
        started = time.monotonic()
        verb, arg = self._think(name, rules_id, view, role, seed, det)
        spent = time.monotonic() - started
        self.service.add_bot_time(game_id, role, spent)
        if self._stop.is_set():
            return False, spent  # cut short by the shutdown: not played
        try:
            self.service.act(None, game_id, role, verb, arg, version, bot=True)
        except Conflict:
            return True, spent  # the game moved meanwhile: look again
        except ServerError as exc:
            log.warning("bot %s for %s in game %s made a refused move: %s", name, role, game_id, exc.message)
            if name == "random":
                return False, spent
            # Fall back to a random listed move once, so that the game does not stall.
            verb, arg = choose("random", rules_id, view, role, seed)
            try:
                self.service.act(None, game_id, role, verb, arg, version, bot=True)
            except Conflict:
                return True, spent
            except ServerError:
                return False, spent
        return True, spent

    def _think(self, name: str, rules_id: str, view: View, role: str, seed: int, det: Any) -> Action:
        pool = self.think
        seconds = self.caps.move_seconds
        if pool is not None:
            try:
                return pool.submit(choose, name, rules_id, view, role, seed, det, seconds).result()
            except (BrokenExecutor, RuntimeError, OSError, pickle.PicklingError) as exc:
                if self._stop.is_set():
                    raise
                log.error("bot process pool unusable (%s); bots think in threads from now on",
                          type(exc).__name__)
                self.think = None
        return choose(name, rules_id, view, role, seed, det, seconds, self._stop.is_set)

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Wait until no bot work is pending (for tests and shutdown)."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._ready and not self._busy, timeout=timeout)

    def resume_pending(self) -> None:
        """At start: let bots move in games left waiting for them."""
        for gid in self.service.pending_bot_games():
            self.schedule(gid)

    def close(self, timeout: float = 10.0) -> None:
        """Stop: running searches end at their next iteration, workers and think processes exit."""
        self._stop.set()
        if self._stop_event is not None:
            with contextlib.suppress(Exception):
                self._stop_event.set()
        with self._cond:
            self._closed = True
            self._ready.clear()
            self._cond.notify_all()
        for t in self._threads:
            t.join(timeout)
        if self.think is not None:
            self.think.shutdown(wait=True, cancel_futures=True)
        # Release the pool's semaphores now: their finalizers otherwise run only at the
        # interpreter's exit, which a server stopped by SIGTERM skips (uvicorn raises the signal
        # again once shut down), and the resource tracker then warns of leaked semaphores.
        self.think = None
        self._stop_event = None
        self._leader.release()


def _think_process(stop: Any, parent: int) -> None:
    """Initializer of a think process: the shutdown event, and a watch on the server."""
    global _STOP
    _STOP = stop

    def watch() -> None:
        while True:
            time.sleep(WATCH_PARENT)
            if os.getppid() != parent:  # the server is gone (kill -9): stop computing for nobody
                os._exit(0)

    threading.Thread(target=watch, name="roses-watch-server", daemon=True).start()


def process_pool(processes: int) -> tuple[Executor, Any]:
    """A pool of fresh ("spawn") processes for bots that search (no fork of a threaded server),
    and the event that tells their searches to stop."""
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    pool = ProcessPoolExecutor(max_workers=processes, mp_context=ctx, initializer=_think_process,
                               initargs=(stop, os.getpid()))
    return pool, stop
