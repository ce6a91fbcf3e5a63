"""How random games of Plantagenet end: Campaign Victory (5.1), the Influence threshold (5.2) or
the final Turn (5.3), and what the Influence track did on the way (bench/plantagenet.md,
"How random games end").

    python bench/plantagenet_endings.py SCENARIO GAMES [SEED] [union|role] [drop|keep] [noextras]

Random play as the peer's driver (``peer_playouts.js``) does it (``union``, the default): at
every step, one action drawn uniformly from the actions of every role that may act; or as
``roses bench`` does it (``role``): an active role drawn first, then one of its actions.
With ``drop`` (the default) a side offered both "pay" and "disband" (Pay Lords 3.2.2, Pay
Vassals 3.2.3) never picks "disband": no voluntary Disbands, as in the comparison with the peer.
With ``noextras`` the picker never spends extra Influence points on a check (1.4.2).
Prints one JSON line.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from typing import Any

from roses.games.plantagenet import RULES
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.setup import threshold


def ending(state: dict[str, Any]) -> str:
    """Why the game ended (4.8.3 order: Campaign Victory, then threshold, then the last Turn)."""
    if sv.campaign_victory(state) is not None:
        return "campaign"
    if state["box"] is not None and sv.threshold_victory(state, threshold(state)) is not None:
        return "threshold"
    return "final_turn"


def extra(verb: str, arg: Any) -> bool:
    """An action that spends extra Influence points on a check (1.4.2: +1 or +3)."""
    if verb == "spend":
        return bool(arg)
    return isinstance(arg, str) and (arg.endswith("+1") or arg.endswith("+3"))


def offered(state: dict[str, Any], role: str, drop: bool, no_extras: bool = False) -> list[tuple[str, Any]]:
    """The role's legal actions, without a voluntary Disband (beside a Pay) with ``drop``, and
    without the extra Influence points of checks with ``no_extras``."""
    legal = RULES.legal_actions(state, role)
    if drop and any(v == "pay" for v, _ in legal):
        legal = [(v, a) for v, a in legal if v != "disband"]
    if no_extras:
        legal = [(v, a) for v, a in legal if not extra(v, a)] or legal
    return legal


def main() -> None:
    scenario, games = sys.argv[1], int(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    union = (sys.argv[4] if len(sys.argv) > 4 else "union") == "union"
    drop = (sys.argv[5] if len(sys.argv) > 5 else "drop") == "drop"
    no_extras = len(sys.argv) > 6 and sys.argv[6] == "noextras"
    pick = random.Random(seed)
    ends: Counter[str] = Counter()
    gains: Counter[str] = Counter()  # Influence points gained, by the log line's kind
    boxes: list[int] = []
    over = 0  # games that end with a side at or over the threshold, whatever ended them
    for g in range(games):
        state = RULES.setup(seed * 1000 + g, scenario)
        steps = 0
        while RULES.result(state) is None and steps < 20000:
            active = RULES.active(state)
            if union:
                choices = [(role, a) for role in active for a in offered(state, role, drop, no_extras)]
                role, (verb, arg) = choices[pick.randrange(len(choices))]
            else:
                role = active[0] if len(active) == 1 else pick.choice(active)
                legal = offered(state, role, drop, no_extras)
                verb, arg = legal[pick.randrange(len(legal))]
            state = RULES.action(state, role, verb, arg)
            steps += 1
        ends[ending(state)] += 1
        if state["box"] is not None and sv.threshold_victory(state, threshold(state)) is not None:
            over += 1
        boxes.append(state["box"])
    print(json.dumps({"scenario": scenario, "games": games, "seed": seed, "picker": "union" if union else "role", "drop": drop, "no_extras": no_extras,
                      "ends": dict(sorted(ends.items())),
                      "mean_last_box": round(sum(boxes) / len(boxes), 2),
                      "over_threshold_at_end": over, **({"gains": dict(gains)} if gains else {})}))


if __name__ == "__main__":
    main()
