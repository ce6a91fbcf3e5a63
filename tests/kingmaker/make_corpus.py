"""Write the Kingmaker corpus (tests/kingmaker/corpus_tools.py says what it holds):
``python -m tests.kingmaker.make_corpus``; ``--texts DIR`` writes instead the labels and
refusals of every recorded game to ``DIR/<seed>.txt``, to compare two versions by eye."""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

from roses.engine.contract import canonical_json
from roses.games.kingmaker import RULES
from tests.kingmaker.corpus_tools import CORPUS, GAMES, digests, play_random_game, texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--texts", type=Path, help="write the labels and refusals here instead")
    args = parser.parse_args()
    if args.texts is not None:
        args.texts.mkdir(parents=True, exist_ok=True)
        with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
            records = [json.loads(line) for line in fh if line.strip()]
        for record in records:
            (args.texts / f"{record['seed']}.txt").write_text("\n".join(texts(RULES, record)) + "\n")
        return
    CORPUS.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(CORPUS, "wt", encoding="utf-8") as fh:
        for seed, options, length in GAMES:
            record = play_random_game(RULES, seed, options, length)
            record.update(digests(RULES, record))
            fh.write(canonical_json(record) + "\n")
            print(seed, options, len(record["actions"]), flush=True)


if __name__ == "__main__":
    main()
