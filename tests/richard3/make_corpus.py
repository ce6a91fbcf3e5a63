"""Write ``tests/richard3/corpus/richard3-corpus.jsonl.gz`` (see :mod:`tests.richard3.corpus_tools`).

Run from the repository root: ``python -m tests.richard3.make_corpus``. The corpus is a
reference for the engine as it is: regenerate it only from the engine version it is meant to
pin (it was made from commit ``edc2c00`` in a separate worktree), never to make a failing
``test_corpus`` pass (the one exception, the battle log's wording of combat ratings, is
described in ``tests/richard3/test_corpus.py``).

Contents, per scenario: games 0..109 of the fuzz run seeded 1 (``roses.engine.fuzz.fuzz``),
with ``prompt_digest`` for the first 10; then one heuristic-bot game against itself (a ``"bot"`` record),
which plays deliberately (attacks, recruits, whole campaigns) where random play wanders.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from roses.ai.bot import Determinizer
from roses.ai.factory import make_bot
from roses.ai.sim import acting
from roses.engine.contract import Rules
from roses.engine.fuzz import DEFAULT_MAX_ACTIONS, game_seed
from roses.games.richard3 import RULES
from tests.corpus_io import write_records
from tests.richard3.corpus_tools import (
    CORPUS,
    Record,
    observed_and_state_digest,
    observed_digest,
    play_fuzz_game,
)

FUZZ_SEED = 1
GAMES_PER_SCENARIO = 110
PROMPT_GAMES = 10
BOT = "heuristic"
BOT_GAMES = 1


def play_bot_game(rules: Rules, scenario: str, seed: int, bot_name: str = BOT,
                  max_actions: int = DEFAULT_MAX_ACTIONS) -> Record:
    """One game of ``bot_name`` against itself (setup seed ``seed``), as an action record."""
    bots = {role: make_bot(bot_name, seed + i) for i, role in enumerate(rules.roles(scenario))}
    state = rules.setup(seed, scenario, None)
    actions: list[list[Any]] = []
    while len(actions) < max_actions:
        turn = acting(rules, state)
        if turn is None:
            break
        role, _legal = turn
        view = rules.view(state, role)
        verb, arg = bots[role].choose(rules, view, role, Determinizer.bind(rules, state, role))
        actions.append([role, verb, arg])
        state = rules.action(state, role, verb, arg)
    if rules.result(state) is None:
        raise RuntimeError(f"bot game {scenario} seed {seed} did not finish")
    return {"scenario": scenario, "seed": seed, "fuzz_seed": None, "index": None,
            "bot": bot_name, "actions": actions}


def _finish(rules: Rules, record: Record, prompts: bool) -> Record:
    record["digest"], record["state_digest"] = observed_and_state_digest(rules, record, False)
    if prompts:
        record["prompt_digest"] = observed_digest(rules, record, True)
    return record


def build(rules: Rules = RULES, games: int = GAMES_PER_SCENARIO, bot_games: int = BOT_GAMES,
          verbose: bool = True) -> list[Record]:
    """Every corpus record, in file order."""
    records: list[Record] = []
    for scenario in rules.scenarios:
        start = time.perf_counter()
        for index in range(games):
            record = play_fuzz_game(rules, scenario, FUZZ_SEED, index)
            records.append(_finish(rules, record, index < PROMPT_GAMES))
        for k in range(bot_games):
            record = play_bot_game(rules, scenario, game_seed(FUZZ_SEED + 1000, k))
            records.append(_finish(rules, record, True))
        if verbose:
            print(f"{scenario}: {games} fuzz + {bot_games} bot games "
                  f"in {time.perf_counter() - start:.1f} s")
    return records


def write(records: list[Record], path: Path = CORPUS) -> None:
    """The corpus file (:func:`tests.corpus_io.write_records`)."""
    write_records(records, path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=CORPUS)
    parser.add_argument("--games", type=int, default=GAMES_PER_SCENARIO)
    parser.add_argument("--bot-games", type=int, default=BOT_GAMES)
    opts = parser.parse_args()
    records = build(games=opts.games, bot_games=opts.bot_games)
    write(records, opts.out)
    print(f"{len(records)} records -> {opts.out} ({opts.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
