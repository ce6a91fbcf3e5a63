"""The battle log names a fire's combat rating as a rating, never as a target (3.12, 6.4):
"Warwick fires, B3 (hits on 3 or less): 2 5 6, 1 hit(s)."."""

from __future__ import annotations

import random
import re

from roses.games.richard3 import RULES

FIRE = re.compile(r"^\S.* (fires|charges .+), ([A-D])(\d) \(hits on \3 or less\): [1-6]( [1-6])*, \d+ hit\(s\)\.$")


def test_6_4_fire_lines_say_hits_on_n_or_less() -> None:
    rnd = random.Random(5)
    state = RULES.setup(5, "wars-of-the-roses")
    fires: list[str] = []
    while RULES.result(state) is None and len(fires) < 12:
        role = RULES.active(state)[0]
        state = RULES.action(state, role, *rnd.choice(RULES.legal_actions(state, role)))
        fires = [t for t in RULES.log_for(state, "York") if " fires" in t or " charges " in t]
    assert fires
    for text in fires:
        if "fires back" in text:
            continue
        assert FIRE.match(text), text
        assert " at " not in text.split(":")[0], text
