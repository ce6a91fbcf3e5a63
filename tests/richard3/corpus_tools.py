"""Recorded-game corpus for Richard III: play fuzz games, replay them, digest what players see.

The corpus (``tests/richard3/corpus/richard3-corpus.jsonl.gz``, written by
``python -m tests.richard3.make_corpus``) was generated from the engine at commit ``edc2c00``,
before the move onto the decision framework (:mod:`roses.engine.steps`). Each record holds
the action list of one random game and digests of what that game looked like to its players.
``tests/richard3/test_corpus.py`` replays every record through the current engine and
compares.

Why a *player-observable projection* and not the full-state digest
(:func:`roses.engine.game.digest`): the refactor deliberately changes internal bookkeeping
fields of the state (the ``phase``/``step`` strings, the battle's step, the supply ``todo``
queue all become a decision stack), so the full-state digest is expected to change. What must
stay byte-identical is everything a player sees or that decides the future:

* at every step (after setup and after each action): the active roles and, for each role,
  the legal actions in order (and, optionally, the ``prompt`` of each active role's view);
* at the end: the result, the log texts as York, Lancaster and the Observer see them, the
  seeded generator (``rng``, ``rolls``) and the board and card fields listed in
  :data:`CONTENT_FIELDS`.

The full-state digest is still stored per record (``state_digest``) for information only.

A record is ``{"scenario", "seed" (the game's setup seed), "fuzz_seed", "index",
"actions": [[role, verb, arg], ...]}``; the corpus adds ``digest``, ``prompt_digest`` (some
records) and ``state_digest``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from roses.engine.contract import OBSERVER, Rules, State, canonical_json
from roses.engine.fuzz import DEFAULT_MAX_ACTIONS, fuzz_picker, game_seed, random_choice
from roses.engine.game import Game, digest

Record = dict[str, Any]

#: The corpus file (one canonical JSON record per line, gzipped).
CORPUS = Path(__file__).parent / "corpus" / "richard3-corpus.jsonl.gz"

#: State fields that are content (board, cards, crown, dice), compared at the end of a game.
CONTENT_FIELDS: tuple[str, ...] = (
    "rng", "rolls", "reveals", "scenario", "campaign", "last_campaign", "turn", "king",
    "king_block", "prisoner", "minors_owed", "loc", "steps", "down", "moved", "via",
    "reserve", "pirate", "known", "p1", "hands", "deck", "discard", "played",
    "mulligan_used", "piracy", "treason", "surprise", "force_march", "bc", "atk", "main",
    "ent",
)

#: Roles whose log is compared at the end of a game.
LOG_ROLES: tuple[str, ...] = ("York", "Lancaster", OBSERVER)


class CorpusError(RuntimeError):
    """A fuzz game that cannot go into the corpus (dead end or endless game)."""


def play_fuzz_game(
    rules: Rules,
    scenario: str,
    seed: int,
    index: int,
    *,
    max_actions: int = DEFAULT_MAX_ACTIONS,
) -> Record:
    """Play game ``index`` of a fuzz run seeded ``seed`` exactly as :func:`roses.engine.fuzz.fuzz`.

    Same setup seed (:func:`game_seed`), same picker (:func:`fuzz_picker`), same pick
    (:func:`random_choice`). The fuzzer's checks (invariants, views, the
    bad-input probe every 97 steps) never touch the picker and leave the state unchanged, so
    they are skipped here. Raises :class:`CorpusError` where the fuzzer would report a dead
    end or an over-long game.
    """
    rules.check_scenario(scenario)
    gseed = game_seed(seed, index)
    picker = fuzz_picker(gseed)
    state = rules.setup(gseed, scenario, None)
    actions: list[list[Any]] = []
    step = 0
    while rules.result(state) is None:
        picked = random_choice(rules, state, rules.active(state), picker)
        if picked is None:
            raise CorpusError(f"{scenario} game {index} of seed {seed}: dead end at step {step}")
        if step >= max_actions:
            raise CorpusError(f"{scenario} game {index} of seed {seed}: longer than {max_actions}")
        role, (verb, arg) = picked
        actions.append([role, verb, arg])
        state = rules.action(state, role, verb, arg)
        step += 1
    return {"scenario": scenario, "seed": gseed, "fuzz_seed": seed, "index": index,
            "actions": actions}


def _step_projection(rules: Rules, state: State, prompts: bool) -> str:
    """Canonical JSON of what the players see at one step: active roles, legal actions, prompts."""
    active = rules.active(state)
    item: list[Any] = [active]
    for role in state["roles"]:
        item.append([[verb, arg] for verb, arg in rules.legal_actions(state, role)])
    if prompts:
        item.append([rules.view(state, role).get("prompt") for role in active])
    return canonical_json(item)


def replay(rules: Rules, record: Record, prompts: bool = False) -> tuple[Game, str]:
    """Replay ``record`` through :class:`Game`; the game and the hex of the per-step hash."""
    running = hashlib.sha256()
    game = Game.new(rules, int(record["seed"]), str(record["scenario"]))
    running.update(_step_projection(rules, game.state, prompts).encode("utf-8"))
    for role, verb, arg in record["actions"]:
        game.apply(role, verb, arg)
        running.update(_step_projection(rules, game.state, prompts).encode("utf-8"))
    return game, running.hexdigest()


def final_projection(rules: Rules, state: State) -> dict[str, Any]:
    """What the end of a game looks like: result, every role's log texts, content fields."""
    return {
        "result": rules.result(state),
        "logs": {role: rules.log_for(state, role) for role in LOG_ROLES},
        "state": {key: state.get(key) for key in CONTENT_FIELDS},
    }


def observed_and_state_digest(rules: Rules, record: Record, prompts: bool) -> tuple[str, str]:
    """:func:`observed_digest` and the full-state digest at the end (informative only)."""
    game, steps = replay(rules, record, prompts)
    projection = {"steps": steps, **final_projection(rules, game.state)}
    observed = hashlib.sha256(canonical_json(projection).encode("utf-8")).hexdigest()
    return observed, digest(game.state)


def observed_digest(rules: Rules, record: Record, prompts: bool) -> str:
    """SHA-256 hex of the player-observable projection of the replayed ``record``.

    Not :func:`roses.engine.game.digest`: see the module docstring for what is in it and why.
    """
    return observed_and_state_digest(rules, record, prompts)[0]
