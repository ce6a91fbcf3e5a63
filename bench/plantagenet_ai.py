"""ISMCTS iterations per CPU second on Plantagenet, for a fixed amount of work.

``roses bench plantagenet --ai`` gives each move half a second of wall-clock time, so on a busy
machine its figure moves with the load. This plays the same random positions of ``ia-henry-vi``
(games 0.. of seed 1, one position in ten with more than one action) with a fixed number of
iterations per move and reads the process's CPU time: the same work at every run.

    PYTHONPATH=. .venv/bin/python bench/plantagenet_ai.py [ITERATIONS] [GAMES]

It prints the positions, the iterations, the iterations per CPU second and a digest of the moves
chosen (equal digests: the same decisions).
"""

from __future__ import annotations

import hashlib
import random
import sys
import time

from roses.ai.bot import Determinizer
from roses.ai.factory import make_bot
from roses.ai.sim import acting
from roses.engine.fuzz import game_seed
from roses.games.plantagenet import RULES


def main(iterations: int = 200, games: int = 2) -> None:
    bot = make_bot(f"ismcts:i{iterations}", 1)
    picker = random.Random(1)
    cpu = 0.0
    done = positions = 0
    moves: list[str] = []
    for index in range(games):
        state = RULES.setup(game_seed(1, index), "ia-henry-vi")
        for _ in range(120):
            turn = acting(RULES, state)
            if turn is None:
                break
            role, legal = turn
            if len(legal) > 1 and picker.random() < 0.1:
                view = RULES.view(state, role)
                det = Determinizer.bind(RULES, state, role)
                start = time.process_time()
                decision = bot.decide(RULES, view, role, det)
                cpu += time.process_time() - start
                done += int(decision.stats.get("iterations", 0))
                positions += 1
                moves.append(repr(decision.action) if hasattr(decision, "action") else repr(decision))
            verb, arg = legal[picker.randrange(len(legal))]
            state = RULES.action(state, role, verb, arg)
    digest = hashlib.sha256("\n".join(moves).encode()).hexdigest()[:16]
    print(f"{positions} positions, {done} iterations, {done / cpu:.1f} iterations per CPU second, moves {digest}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
