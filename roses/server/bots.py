"""Bot seats: bots think in a worker pool, off the event loop, and act through the checked path.

A bot sees only its role's view (the same one a human in that seat gets) and its choice goes
through :meth:`GameService.act` with the version it was made on, like any player's request.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import pickle
import threading
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from typing import Any

from roses.ai.factory import make_bot
from roses.engine import get_rules
from roses.engine.contract import Action, View
from roses.server.errors import Conflict, ServerError
from roses.server.events import where
from roses.server.service import GameService

log = logging.getLogger("roses.server")

#: Safety stop: a bot loop making this many moves in a row yields to other games first.
BURST = 200


def _seed(game_id: int, version: int, role: str) -> int:
    h = hashlib.sha256(f"{game_id}:{version}:{role}".encode()).digest()
    return int.from_bytes(h[:8], "big")


def choose(bot_name: str, game: str, view: View, role: str, seed: int,
           determinize: Any = None) -> Action:
    """Pick an action (module-level, so that it can run in a process pool).

    The bot gets the role's view and a determiniser (re-sampled states, never the truth).
    """
    rules = get_rules(game)
    try:
        bot = make_bot(bot_name, seed=seed)
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
    """Runs bot moves for games whose active roles include bot seats."""

    def __init__(self, service: GameService, executor: Executor | None = None,
                 think: Executor | None = None, threads: int = 2) -> None:
        self.service = service
        self._own_executor = executor is None
        self.executor = executor or ThreadPoolExecutor(max_workers=threads, thread_name_prefix="roses-bot")
        #: Where bots think (a ProcessPoolExecutor for heavy bots); None: in the runner thread.
        self.think = think
        self._lock = threading.Lock()
        self._pending: dict[int, bool] = {}  # game id -> dirty flag
        self._idle = threading.Condition(self._lock)
        self._closed = False
        service.on_bot_turn = self.schedule

    def schedule(self, game_id: int) -> None:
        with self._lock:
            if self._closed:
                return
            if game_id in self._pending:
                self._pending[game_id] = True
                return
            self._pending[game_id] = True
        self.executor.submit(self._run, game_id)

    def _run(self, game_id: int) -> None:
        moves = 0
        while True:
            with self._lock:
                if self._closed:
                    self._pending.pop(game_id, None)
                    self._idle.notify_all()
                    return
                self._pending[game_id] = False
            try:
                while self._step(game_id):
                    moves += 1
                    if moves % BURST == 0:
                        with self._lock:
                            self._pending[game_id] = True
                        break
            except Exception as exc:  # noqa: BLE001 - keep the pool alive; the error is logged
                log.error("bot failed in game %s: %s", game_id, where(exc))
            with self._lock:
                if self._pending.get(game_id) and not self._closed:
                    if moves and moves % BURST == 0:
                        # Yield: requeue behind other games.
                        self.executor.submit(self._run, game_id)
                        return
                    continue
                self._pending.pop(game_id, None)
                self._idle.notify_all()
                return

    def _step(self, game_id: int) -> bool:
        """Make one bot move if a bot is to act; False when none is."""
        version, rules_id, turns = self.service.bot_turns(game_id)
        if not turns:
            return False
        role, name, view, det = turns[0]
        seed = _seed(game_id, version, role)
        verb, arg = self._think(name, rules_id, view, role, seed, det)
        try:
            self.service.act(None, game_id, role, verb, arg, version, bot=True)
        except Conflict:
            return True  # the game moved meanwhile: look again
        except ServerError as exc:
            log.warning("bot %s for %s in game %s made a refused move: %s", name, role, game_id, exc.message)
            if name == "random":
                return False
            # Fall back to a random listed move once, so that the game does not stall.
            verb, arg = choose("random", rules_id, view, role, seed)
            try:
                self.service.act(None, game_id, role, verb, arg, version, bot=True)
            except Conflict:
                return True
            except ServerError:
                return False
        return True

    def _think(self, name: str, rules_id: str, view: View, role: str, seed: int, det: Any) -> Action:
        pool = self.think
        if pool is not None:
            try:
                return pool.submit(choose, name, rules_id, view, role, seed, det).result()
            except (BrokenExecutor, RuntimeError, OSError, pickle.PicklingError) as exc:
                log.error("bot process pool unusable (%s); bots think in threads from now on",
                          type(exc).__name__)
                self.think = None
        return choose(name, rules_id, view, role, seed, det)

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Wait until no bot work is pending (for tests and shutdown)."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._pending, timeout=timeout)

    def resume_pending(self) -> None:
        """At start: let bots move in games left waiting for them."""
        for gid in self.service.pending_bot_games():
            self.schedule(gid)

    def close(self) -> None:
        with self._lock:
            self._closed = True
        if self._own_executor:
            self.executor.shutdown(wait=True, cancel_futures=True)
        if self.think is not None:
            self.think.shutdown(wait=True, cancel_futures=True)


def process_pool(processes: int) -> Executor:
    """A pool of fresh ("spawn") processes for bots that search (no fork of a threaded server)."""
    return ProcessPoolExecutor(max_workers=processes, mp_context=multiprocessing.get_context("spawn"))
