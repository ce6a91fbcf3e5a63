"""Write ``tests/plantagenet/corpus/plantagenet-corpus.jsonl.gz`` (see :mod:`tests.plantagenet.corpus_tools`).

Run from the repository root: ``python -m tests.plantagenet.make_corpus``. The corpus pins the
rules as they are: regenerate it only when a rule is meant to change (and say which in the
commit), never to make a failing ``test_corpus`` pass after a change meant to keep play as it is.

Contents, per scenario: :data:`GAMES` random games with the default options, then
:data:`HIDDEN_MATS` with Hidden Mats (1.5.3) and :data:`QUICK` with quick reactions for both
sides; the setup seeds are :func:`roses.engine.fuzz.game_seed` of seed 1, games 0, 1, 2...
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from roses.engine.fuzz import game_seed
from roses.games.plantagenet import RULES
from tests.corpus_io import write_records
from tests.plantagenet.corpus_tools import CORPUS, Record, digests, play_random_game

GAMES = 40
HIDDEN_MATS = 12
QUICK = 4
#: The Wars of the Roses are long: fewer of their games.
LONG = {"wars-of-the-roses": (12, 4, 2)}

OPTION_SETS: tuple[dict[str, Any] | None, ...] = (
    None, {"hidden_mats": True}, {"quick_reactions_york": True, "quick_reactions_lancaster": True})


def build(verbose: bool = True) -> list[Record]:
    records: list[Record] = []
    for scenario in RULES.scenarios:
        start = time.perf_counter()
        counts = LONG.get(scenario, (GAMES, HIDDEN_MATS, QUICK))
        index = 0
        for options, count in zip(OPTION_SETS, counts, strict=True):
            for _ in range(count):
                record = play_random_game(RULES, scenario, game_seed(1, index), options)
                record.update(digests(RULES, record))
                records.append(record)
                index += 1
        if verbose:
            print(f"{scenario}: {index} games in {time.perf_counter() - start:.1f} s")
    return records


def write(records: list[Record], path: Path = CORPUS) -> None:
    """The corpus file (:func:`tests.corpus_io.write_records`)."""
    write_records(records, path)


def main() -> None:
    records = build()
    write(records)
    print(f"{len(records)} records -> {CORPUS} ({CORPUS.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
