"""Auditable chance: a published commitment to a game's seed, and the check that every die roll
and shuffle of a finished game followed from that seed.

Every random draw of a game comes from the seeded generator in its state
(:mod:`roses.engine.rng`), so the seed and the actions determine every roll and shuffle. The
seed itself must stay secret while the game runs (whoever knows it knows the order of every
deck and every future roll), so at the start only a **commitment** is published:

    commitment = SHA-256("roses-seed/1|" + nonce + "|" + seed)

``nonce`` is a secret of 128 bits or more: seeds are small numbers, and a hash of the seed
alone could be reversed by trying them all. When the game is over the seed and the nonce are
published; anyone can then check that they give the commitment seen at the start, and
:func:`audit_record` (``roses replay FILE``) replays the game from that seed: setup, every
shuffle and every roll are derived again from it, no value may have been rigged (test dice),
and the logs the players saw during the game (``logs`` in the record, by role) must be what
the replay gives, so the results the players were shown followed from the committed seed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any

from roses.engine.contract import Rules
from roses.engine.errors import RosesError
from roses.engine.game import Game

SCHEME = "sha256(roses-seed/1|nonce|seed)"
_PREFIX = "roses-seed/1|"


def commitment(seed: int, nonce: str) -> str:
    """The published commitment to ``seed`` (hex SHA-256, module docstring)."""
    return hashlib.sha256(f"{_PREFIX}{nonce}|{int(seed)}".encode()).hexdigest()


def new_nonce() -> str:
    """A fresh secret nonce (256 bits, hex)."""
    return secrets.token_hex(32)


def derived_nonce(key: bytes, game_id: int, seed: int) -> str:
    """A game's nonce derived from a server key (HMAC-SHA256 of the game and its seed): a
    server that keeps no nonce per game recomputes it; publishing it reveals nothing of the key."""
    return hmac.new(key, f"roses-seed-nonce/1|{int(game_id)}|{int(seed)}".encode(), hashlib.sha256).hexdigest()


@dataclass
class Audit:
    """What :func:`audit_record` found: ``problems`` is empty when the record passes."""

    problems: list[str] = field(default_factory=list)
    committed: bool = False
    draws: int = 0
    actions: int = 0
    logs_checked: list[str] = field(default_factory=list)
    digest: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        if not self.ok:
            return "chance audit FAILED: " + "; ".join(self.problems)
        parts = [f"{self.draws} rolls and shuffles over {self.actions} actions follow from the seed"]
        parts.insert(0, "the seed matches its published commitment" if self.committed
                     else "no commitment in the record (seed not checked against one)")
        if self.logs_checked:
            parts.append(f"the logs of {', '.join(self.logs_checked)} are what the seed gives")
        return "chance audit passed: " + "; ".join(parts)


def audit_record(rules: Rules, record: dict[str, Any]) -> Audit:
    """Check a finished game's record (module docstring). The record may hold ``chance``:
    ``{"scheme", "commitment", "nonce"}`` and ``logs``: ``{role: [lines as seen]}``."""
    out = Audit()
    chance = record.get("chance")
    seed = record.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        out.problems.append("the record has no seed (a game's seed is published when it is over)")
        return out
    if chance is not None:
        if not isinstance(chance, dict) or chance.get("scheme") != SCHEME:
            out.problems.append(f"unknown commitment scheme (this version checks {SCHEME!r})")
        elif not isinstance(chance.get("nonce"), str) or not isinstance(chance.get("commitment"), str):
            out.problems.append("the commitment or the nonce is missing")
        elif not hmac.compare_digest(commitment(seed, chance["nonce"]), chance["commitment"].lower()):
            out.problems.append("the seed and nonce do not give the commitment published at the start")
        else:
            out.committed = True
    try:
        start = Game.new(rules, seed, str(record["scenario"]), record.get("options"))
        if start.state.get("rigged"):
            out.problems.append("the setup holds rigged dice")
        game = Game.from_record(rules, record)
    except (RosesError, KeyError, TypeError, ValueError) as exc:
        out.problems.append(f"the actions do not replay from the seed: {exc}")
        return out
    state = game.state
    if state.get("rigged"):
        out.problems.append("rigged dice are left unused: the record was not played with the seeded generator")
    out.draws = int(state.get("rolls", 0))
    out.actions = len(record.get("actions") or [])
    out.digest = game.digest()
    if isinstance(record.get("digest"), str) and record["digest"] != out.digest:
        out.problems.append("the replayed final state differs from the record's digest")
    expected = record.get("result")
    if expected is not None and game.result() != expected:
        out.problems.append(f"the replay ends with {game.result()!r}, the record says {expected!r}")
    for role, lines in sorted((record.get("logs") or {}).items()):
        replayed = [str(x) for x in rules.log_for(state, role)]
        seen = [str(x) for x in lines]
        if replayed[:len(seen)] != seen:
            at = next((i for i, (a, b) in enumerate(zip(replayed, seen, strict=False)) if a != b), min(len(replayed), len(seen)))
            out.problems.append(f"the log of {role} differs from the replay at line {at + 1}")
        else:
            out.logs_checked.append(role)
    return out
