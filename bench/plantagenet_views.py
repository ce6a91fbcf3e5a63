"""CPU time of Plantagenet's views alone in the bench loop of ``roses bench --views``.

    PYTHONPATH=DIR python bench/plantagenet_views.py [GAMES] [SCENARIO]

Plays ``GAMES`` random games (seeded as ``roses bench`` seeds them, seed 1) rendering every
role's view at every step and picking from the views' actions; prints the steps, the CPU time
of the whole loop and of ``rules.views`` alone (``time.process_time`` around each call), per
step. The same games at every run of the same rules: run two checkouts alternating
(``PYTHONPATH``) to compare their views (bench/plantagenet.md, "The views kept between
positions").
"""

from __future__ import annotations

import json
import random
import sys
import time

from roses.engine.contract import actions_to_list
from roses.engine.fuzz import game_seed
from roses.engine.registry import get_rules


def main(games: int = 150, scenario: str = "ia-henry-vi") -> dict[str, float]:
    rules = get_rules("plantagenet")
    picker = random.Random(1)
    views_cpu = 0.0
    steps = 0
    start = time.process_time()
    for index in range(games):
        state = rules.setup(game_seed(1, index), scenario, None)
        roles = list(state.get("roles", rules.roles(scenario, None)))
        for _ in range(5000):
            t = time.process_time()
            rendered = rules.views(state, roles)
            views_cpu += time.process_time() - t
            active = rendered[0]["active"]
            if not active:
                break
            role = active[0] if len(active) == 1 else picker.choice(active)
            legal = actions_to_list(rendered[roles.index(role)].get("actions", {}))
            if not legal:
                break
            verb, arg = legal[picker.randrange(len(legal))]
            state = rules.action(state, role, verb, arg)
            steps += 1
    total = time.process_time() - start
    return {"games": games, "steps": steps, "cpu_seconds": round(total, 3), "views_cpu_seconds": round(views_cpu, 3),
            "views_us_per_step": round(views_cpu / max(steps, 1) * 1e6, 1),
            "actions_per_cpu_s": round(steps / total, 1)}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 150, *sys.argv[2:3])))
