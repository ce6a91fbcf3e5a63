"""Recorded-game corpus for Kingmaker: seeded random games with digests of what they showed.

The corpus (``tests/kingmaker/corpus/kingmaker-corpus.jsonl.gz``, written by
``python -m tests.kingmaker.make_corpus``) pins the rules as they play: each record holds the
setup (seed, options: 2, 4 or 8 players, basic, E1 or E2 rules) and the first actions of one
game played by the fuzzer's picker, with

* ``views``: the SHA-256 of every role's view (each player, the umpire if any, and the Observer) after setup and
  after each action, hashed in order;
* ``legal``: the same for the active roles, each role's legal actions (their order is part
  of the rules: the fuzzer and the bots pick from it) and the default a lapsed deadline plays;
* ``labels``: the same for the label of every legal action of every role;
* ``refusals``: the same for the refusal of a few actions that are not options of the first
  active role (the previous position's options that are gone, a known verb with a wrong
  argument, an unknown verb), asked of the step that decides now;
* ``state``: the digest of the position reached (:func:`roses.engine.game.digest`).

``tests/kingmaker/test_corpus.py`` replays every record and compares; :func:`texts` lists the
labels and refusals themselves, to see what a deliberate change of their words changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from roses.engine.contract import OBSERVER, Action, Rules, State, canonical_json
from roses.engine.fuzz import fuzz_picker, random_choice
from roses.engine.game import digest

Record = dict[str, Any]

#: The corpus file (one canonical JSON record per line, gzipped).
CORPUS = Path(__file__).parent / "corpus" / "kingmaker-corpus.jsonl.gz"

#: The actions recorded of a game (the first ones).
LENGTH = 400

#: The games recorded: (seed, options, how many actions). The last two run longer, into
#: captures, ransoms and pardons, one with an umpire deciding how each combat is fought.
GAMES: tuple[tuple[int, dict[str, Any], int], ...] = (
    *((seed, {"players": players, "rules": level}, LENGTH)
      for seed, (players, level) in enumerate(
          ((p, lv) for p in (2, 4, 8) for lv in ("basic", "e1", "e2")), start=101)),
    (110, {"players": 3, "rules": "e1", "umpire": True, "tabletop": True}, 2000),
    (111, {"players": 5, "rules": "e2"}, 3000),
)


class CorpusError(RuntimeError):
    """A random game that cannot go into the corpus (a dead end)."""


def play_random_game(rules: Rules, seed: int, options: dict[str, Any], length: int = LENGTH) -> Record:
    """The first ``length`` actions (fewer if it ends) of the game set up with ``seed`` and
    played by the fuzzer's picker."""
    picker = fuzz_picker(seed)
    state = rules.setup(seed, rules.scenarios[0], options)
    actions: list[list[Any]] = []
    while rules.result(state) is None and len(actions) < length:
        picked = random_choice(rules, state, rules.active(state), picker)
        if picked is None:
            raise CorpusError(f"seed {seed}: dead end after {len(actions)} actions")
        role, (verb, arg) = picked
        actions.append([role, verb, arg])
        state = rules.action(state, role, verb, arg)
    return {"seed": seed, "options": options, "actions": actions}


def off_options(before: list[Action], legal: list[Action]) -> list[Action]:
    """A few actions that are not among ``legal``: up to four of ``before`` that are gone, each
    verb of ``legal`` with an argument no rule knows, and a verb no step has."""
    now = {canonical_json(a) for a in legal}
    gone = [a for a in before if canonical_json(a) not in now][:4]
    verbs = list(dict.fromkeys(v for v, _ in legal))
    return [*gone, *((v, "nowhere-at-all") for v in verbs), ("fly", None)]


def positions(rules: Rules, record: Record) -> Iterator[tuple[State, list[str]]]:
    state = rules.setup(int(record["seed"]), rules.scenarios[0], record["options"])
    roles = rules.roles(rules.scenarios[0], record["options"])  # the players, and an umpire's seat
    yield state, roles
    for role, verb, arg in record["actions"]:
        state = rules.action(state, role, verb, arg)
        yield state, roles


def _texts_at(rules: Rules, state: State, roles: list[str], before: list[Action]) -> tuple[Any, Any, list[Action]]:
    legal = [rules.legal_actions(state, role) for role in roles]
    labels = [[rules.label(state, role, v, a) for v, a in acts] for role, acts in zip(roles, legal, strict=True)]
    refusals: list[str] = []
    active = [r for r in rules.active(state) if r in roles]
    mine: list[Action] = []
    if active:
        role = active[0]
        mine = legal[roles.index(role)]
        step, frame = rules.steps.current(state)  # type: ignore[attr-defined]
        refusals = [step.refusal(state, frame, role, v, a) for v, a in off_options(before, mine)]
    defaults = [rules.default_action(state, role) for role in roles]
    return [rules.active(state), legal, defaults], [labels, refusals], mine


def digests(rules: Rules, record: Record) -> dict[str, str]:
    """Replay ``record``: the hashes of its views, legal actions, labels and refusals at every
    step and the digest of the position reached (the module docstring says what each covers)."""
    views, legal, labels, refusals = (hashlib.sha256() for _ in range(4))
    before: list[Action] = []
    state: State = {}
    for state, roles in positions(rules, record):
        views.update(canonical_json(rules.views(state, [*roles, OBSERVER])).encode("utf-8"))
        options, (names, refused), before = _texts_at(rules, state, roles, before)
        legal.update(canonical_json(options).encode("utf-8"))
        labels.update(canonical_json(names).encode("utf-8"))
        refusals.update(canonical_json(refused).encode("utf-8"))
    return {"views": views.hexdigest(), "legal": legal.hexdigest(), "labels": labels.hexdigest(),
            "refusals": refusals.hexdigest(), "state": digest(state)}


def texts(rules: Rules, record: Record) -> Iterator[str]:
    """The labels and refusals of ``record``'s positions, one line each (to compare by eye)."""
    before: list[Action] = []
    for i, (state, roles) in enumerate(positions(rules, record)):
        _, (names, refused), before = _texts_at(rules, state, roles, before)
        for role, acts in zip(roles, names, strict=True):
            for text in acts:
                yield f"{i} label {role}: {text}"
        for text in refused:
            yield f"{i} refusal: {text}"
