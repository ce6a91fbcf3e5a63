"""What a browser received, and what it must not have: shared by the browser tests that scan
every payload of a seat for the secrets the rules keep from it (``Rules.secrets``)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Any

from roses.engine import Game
from roses.engine.contract import Rules
from tests.web.conftest import LiveServer


class Traffic:
    """Everything the server sent one browser: HTTP response bodies and WebSocket frames.

    The view tables of the rules (``/api/rules/GAME/tables``: every piece of the game with its
    fixed facts, the same for every browser and every game, whatever its state) are not kept;
    with ``skip_static``, the files under ``/static/`` (the game's public component data) are
    not kept either."""

    def __init__(self, page: Any, *, skip_static: bool = True) -> None:
        self.chunks: list[str] = []
        self.responses: list[Any] = []
        self.read = 0
        self.skip_static = skip_static
        page.on("response", lambda r: self.responses.append(r))
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: Any) -> None:
        self.chunks.append(payload if isinstance(payload, str) else payload.decode("utf-8", "replace"))

    def texts(self) -> list[str]:
        """The bodies read so far (read here, not in the handler, where it is slow)."""
        for response in self.responses[self.read:]:
            path = response.url.split("?", 1)[0]
            if ("/api/rules/" in path and path.endswith("/tables")) or (self.skip_static and "/static/" in path):
                continue
            with contextlib.suppress(Exception):  # a body that is gone (navigation): nothing to check
                ctype = response.headers.get("content-type", "")
                if "json" in ctype or "html" in ctype:
                    self.chunks.append(response.text())
        self.read = len(self.responses)
        return list(self.chunks)


class Secrets:
    """What the rules keep from a role at each version of a game (Rules.secrets)."""

    def __init__(self, server: LiveServer, game_id: int, rules: Rules) -> None:
        self.server, self.game_id, self.rules = server, game_id, rules
        self.states: dict[int, Any] = {}
        self.known: dict[tuple[int, str], set[str]] = {}

    def every_version(self, roles: Iterable[str]) -> int:
        """The secrets of ``roles`` at every version so far, in one replay (``at`` then replays
        nothing); returns the game's version."""
        record = self.server.services.games.admin_export(self.game_id)
        game = Game.from_record(self.rules, {**record, "actions": []})
        actions = record["actions"]
        for v in range(len(actions) + 1):
            for role in roles:
                self.known[(v, role)] = set(self.rules.secrets(game.state, role))
            if v < len(actions):
                game.apply(str(actions[v]["role"]), str(actions[v]["verb"]), actions[v].get("arg"))
        return len(actions)

    def state(self, version: int | None) -> Any:
        record = self.server.services.games.admin_export(self.game_id)
        v = len(record["actions"]) if version is None else version
        if v not in self.states:
            self.states[v] = Game.from_record(self.rules, {**record, "actions": record["actions"][:v]}).state
        return self.states[v]

    def at(self, version: int | None, role: str) -> set[str]:
        if version is not None and (version, role) in self.known:
            return self.known[(version, role)]
        return set(self.rules.secrets(self.state(version), role))
