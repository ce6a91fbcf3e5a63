"""Whether a searching bot keeps to its budget on Kingmaker positions: the wall-clock and CPU
seconds of each decision of a level (``medium``: ISMCTS 0.5 s, ``hard``: 2 s), on the
positions of a game of heuristic bots.

    PYTHONPATH=. python bench/kingmaker_budget.py SEED LEVEL EVERY DECISIONS [PLAYERS]

plays a campaign (E2 rules) of PLAYERS heuristic bots (default 4) from setup SEED and puts every
EVERY-th decision with a choice to LEVEL as well (its answer is not played), until DECISIONS of
them; prints one JSON line: the medians and maxima of the wall-clock and CPU seconds.
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from roses.ai.bot import Determinizer
from roses.ai.factory import make_bot
from roses.engine.game import Game
from roses.games.kingmaker import RULES


def main(seed: int, level: str, every: int, want: int, players: int = 4) -> dict[str, object]:
    game = Game.new(RULES, seed, "campaign", {"players": players, "rules": "e2"})
    roles = game.state["roles"]
    bots = {role: make_bot("heuristic", seed=seed * 10 + i) for i, role in enumerate(roles)}
    probe = make_bot(level, seed=seed)
    rows: list[tuple[float, float, int]] = []
    seen = acts = 0
    while game.result() is None and len(rows) < want and acts < 20000:
        role = game.active()[0]
        view = game.view(role)
        if len(RULES.legal_actions(game.state, role)) > 1:
            seen += 1
            if seen % every == 0:
                wall, cpu = time.perf_counter(), time.process_time()
                probe.choose(RULES, view, role, Determinizer.bind(RULES, game.state, role))
                rows.append((time.perf_counter() - wall, time.process_time() - cpu, game.state["round"]))
        verb, arg = bots[role].choose(RULES, view, role, Determinizer.bind(RULES, game.state, role))
        game.apply(role, verb, arg)
        acts += 1
    walls = sorted(r[0] for r in rows)
    cpus = sorted(r[1] for r in rows)
    return {"seed": seed, "level": level, "players": players, "decisions": len(rows),
            "rounds": [rows[0][2], rows[-1][2]] if rows else None,
            "wall_median": round(statistics.median(walls), 3) if walls else None,
            "wall_max": round(walls[-1], 3) if walls else None,
            "cpu_median": round(statistics.median(cpus), 3) if cpus else None,
            "cpu_max": round(cpus[-1], 3) if cpus else None}


if __name__ == "__main__":
    args = sys.argv[1:]
    print(json.dumps(main(int(args[0]), args[1], int(args[2]), int(args[3]), *(int(a) for a in args[4:5]))))
