"""Why a finished game ended, in words for the players' view.

The result is recorded by :func:`roses.games.plantagenet.common.end_game`; the board at the end
is left as it was, so the rule that decided it can be read again from the final position, in the
order of the Victory check (4.8.3): 5.1 Campaign Victory, 5.2 Threshold Victory, 5.3 Scenario
End Victory, and the scenarios' own conditions (6.0: Ib's Test of Arms, Bosworth's Battle, the
Wars of the Roses).
"""

from __future__ import annotations

from typing import Any

from roses.engine.contract import DRAW, State
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.components import SIDES
from roses.games.plantagenet.setup import scenario_data, threshold


def _other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def end_cause(state: State) -> dict[str, Any] | None:
    """``{"winner", "rule", "title", "why"}`` for a finished game (``winner`` a side or
    ``"Draw"``), else None. A result the rules did not reach (a resignation recorded by the
    server) is not in the state and has no cause here."""
    res = state.get("result")
    if res is None:
        return None
    scen = scenario_data()[state["scenario"]]

    def out(rule: str, title: str, why: str) -> dict[str, Any]:
        return {"winner": res, "rule": rule, "title": title, "why": why}

    if scen["victory"] == "battle":
        return out("6.0", "Bosworth", "The Battle of Bosworth decides the scenario: "
                   + (f"{res} won the Battle." if res != DRAW else "every Lord of both sides Routed."))
    if state.get("wars") is not None:
        return out("6.1", "The Wars of the Roses", f"{res} won the Wars of the Roses." if res != DRAW
                   else "The Wars of the Roses ended in a draw.")
    lacking = [s for s in SIDES if sv.lacks_lords(state, s)]
    if lacking:
        if len(lacking) == 2:
            return out("5.1", "Campaign Victory", "Neither side had a Lord left on the map or coming back from Exile.")
        return out("5.1", "Campaign Victory", f"{lacking[0]} had no Lords left on the map "
                   f"(and none coming back from Exile): {_other(lacking[0])} wins.")
    limit = threshold(state) if state.get("box") is not None else None
    if res in SIDES and limit is not None and sv.influence_of(state, res) >= limit:
        return out("5.2", "Threshold Victory", f"{res} reached {sv.influence_of(state, res)} Influence, "
                   f"at or over the Victory threshold of {limit}.")
    if scen["victory"] == "test_of_arms":
        return out("6.0", "Test of Arms", f"{res} held Favour at York at the end of the Campaign." if res != DRAW
                   else "Neither side held Favour at York at the end of the Campaign.")
    net = int(state["influence"])
    if res == DRAW:
        return out("5.3", "Scenario End Victory", "The scenario's last Turn ended with Influence even.")
    if net == 0:  # a tie to the King (the grand scenario's rule, E FAQ #5)
        return out("5.3", "Scenario End Victory", f"The last Turn ended with Influence even: the King's side, {res}, wins.")
    return out("5.3", "Scenario End Victory", f"The scenario's last Turn ended with {res} ahead by {abs(net)} Influence.")
