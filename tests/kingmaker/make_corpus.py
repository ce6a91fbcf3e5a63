"""Write the Kingmaker corpus (tests/kingmaker/corpus_tools.py says what it holds):
``python -m tests.kingmaker.make_corpus``; ``--texts DIR`` writes instead the labels and
refusals of every recorded game to ``DIR/<seed>.txt``, to compare two versions by eye."""

from __future__ import annotations

import argparse
from pathlib import Path

from roses.games.kingmaker import RULES
from tests.corpus_io import read_records, write_records
from tests.kingmaker.corpus_tools import CORPUS, GAMES, digests, play_random_game, texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--texts", type=Path, help="write the labels and refusals here instead")
    args = parser.parse_args()
    if args.texts is not None:
        args.texts.mkdir(parents=True, exist_ok=True)
        for record in read_records(CORPUS):
            (args.texts / f"{record['seed']}.txt").write_text("\n".join(texts(RULES, record)) + "\n")
        return
    records = []
    for seed, options, length in GAMES:
        record = play_random_game(RULES, seed, options, length)
        record.update(digests(RULES, record))
        records.append(record)
        print(seed, options, len(record["actions"]), flush=True)
    write_records(records, CORPUS)


if __name__ == "__main__":
    main()
