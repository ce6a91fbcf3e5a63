"""Recorded-game corpus for Plantagenet: seeded random games with digests of what they were.

The corpus (``tests/plantagenet/corpus/plantagenet-corpus.jsonl.gz``, written by
``python -m tests.plantagenet.make_corpus``) pins the rules as they play: each record holds one
random game's setup (scenario, seed, options) and its actions, with

* ``views``: the SHA-256 of every role's view (York, Lancaster and the Observer: the board,
  the prompt, the log window and, for an actor, its options) after setup and after each action,
  hashed in order;
* ``legal``: the same for the legal actions of each role and the active roles (the order of
  the options is part of the rules: the fuzzer and the bots pick from it);
* ``state``: the digest of the whole final state (:func:`roses.engine.game.digest`: the board,
  the cards, the generator, the whole log).

``tests/plantagenet/test_corpus.py`` replays every record and compares. Unlike Richard III's
corpus, the full state is compared: the state's layout is part of what is pinned (saved games
and the recorded games' digests depend on it).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from roses.engine.contract import OBSERVER, Rules, canonical_json
from roses.engine.fuzz import DEFAULT_MAX_ACTIONS, fuzz_picker, random_choice
from roses.engine.game import digest

Record = dict[str, Any]

#: The corpus file (one canonical JSON record per line, gzipped).
CORPUS = Path(__file__).parent / "corpus" / "plantagenet-corpus.jsonl.gz"

#: The roles whose views are hashed at every step.
VIEW_ROLES: tuple[str, ...] = ("York", "Lancaster", OBSERVER)


class CorpusError(RuntimeError):
    """A random game that cannot go into the corpus (dead end or endless game)."""


def play_random_game(rules: Rules, scenario: str, seed: int, options: dict[str, Any] | None,
                     max_actions: int = DEFAULT_MAX_ACTIONS) -> Record:
    """One game set up with ``seed`` and played by the fuzzer's picker
    (:func:`roses.engine.fuzz.fuzz_picker`, :func:`roses.engine.fuzz.random_choice`)."""
    picker = fuzz_picker(seed)
    state = rules.setup(seed, scenario, options)
    actions: list[list[Any]] = []
    while rules.result(state) is None:
        picked = random_choice(rules, state, rules.active(state), picker)
        if picked is None:
            raise CorpusError(f"{scenario} seed {seed}: dead end after {len(actions)} actions")
        if len(actions) >= max_actions:
            raise CorpusError(f"{scenario} seed {seed}: longer than {max_actions} actions")
        role, (verb, arg) = picked
        actions.append([role, verb, arg])
        state = rules.action(state, role, verb, arg)
    return {"scenario": scenario, "seed": seed, "options": options, "actions": actions}


def digests(rules: Rules, record: Record) -> dict[str, str]:
    """Replay ``record``: the hashes of its views and legal actions at every step and the
    digest of its final state (the module docstring says what each covers)."""
    views = hashlib.sha256()
    legal = hashlib.sha256()
    state = rules.setup(int(record["seed"]), str(record["scenario"]), record["options"])
    roles = list(state["roles"])

    def look() -> None:
        views.update(canonical_json(rules.views(state, list(VIEW_ROLES))).encode("utf-8"))
        item = [rules.active(state), [rules.legal_actions(state, role) for role in roles]]
        legal.update(canonical_json(item).encode("utf-8"))

    look()
    for role, verb, arg in record["actions"]:
        state = rules.action(state, role, verb, arg)
        look()
    return {"views": views.hexdigest(), "legal": legal.hexdigest(), "state": digest(state)}
