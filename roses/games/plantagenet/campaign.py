"""Campaign (4.0): the Plan (4.1), Command cards and their actions (4.2-4.6), Feed (4.7) and the
End Campaign steps (4.8)."""

from __future__ import annotations

from typing import Any

from roses.engine.contract import State
from roses.engine.log import public
from roses.engine.steps import Frame, Step, pop
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.common import CAMPAIGN, SideStep, end_game, side_frames
from roses.games.plantagenet.components import load


class Plan(SideStep):
    name, phase, label = "plan", CAMPAIGN, "Campaign: Plan (4.1)"


class Command(SideStep):
    name, phase, label = "command", CAMPAIGN, "Campaign: Command cards, Feed (4.2-4.7)"



class BeginCampaign(Step):
    name, phase = "begin_campaign", CAMPAIGN

    def run(self, state: State, frame: Frame) -> None:
        public(state, f"Turn {state['box']}: Campaign, Plan of {sv.plan_size(state['box'])} cards.")
        pop(state)


class TidesOfWar(Step):
    """4.8.1 (4.8.2 Disembark: nobody can be at Sea before Sail is built)."""

    name, phase = "tides_of_war", CAMPAIGN

    def run(self, state: State, frame: Frame) -> None:
        sv.apply_tides(state)
        pop(state)


class VictoryCheck(Step):
    """4.8.3: Campaign Victory, Threshold, final Turn."""

    name, phase = "victory_check", CAMPAIGN

    def run(self, state: State, frame: Frame) -> None:
        res = sv.victory_check(state)
        if res is not None:
            end_game(state, res)
        else:
            pop(state)


class Grow(Step):
    name, phase = "grow", CAMPAIGN

    def run(self, state: State, frame: Frame) -> None:
        if state["box"] in load().tables["calendar"]["grow"] and "ravaged_land" not in state["special_rules"]:
            sv.grow(state)
            public(state, "Grow: Depleted markers removed, Exhausted turned to Depleted (4.8.4).")
        pop(state)


class Waste(Step):
    name, phase = "waste", CAMPAIGN

    def run(self, state: State, frame: Frame) -> None:
        rules = state["special_rules"]
        if state["box"] in load().tables["calendar"]["waste"] and "ravaged_land" not in rules \
                and "brief_rebellion" not in rules:
            sv.waste(state)
            public(state, "Waste: Lords' mats reset (4.8.5).")
        pop(state)


class Reset(Step):
    """4.8.6 (no Events can be in effect or held yet): on to the next Calendar box."""

    name, phase = "reset", CAMPAIGN

    def run(self, state: State, frame: Frame) -> None:
        state["box"] += 1
        state["first_turn"] = False
        if state["box"] > state["last_box"]:  # pragma: no cover - the Victory check ends the last Turn
            end_game(state, sv.scenario_end_winner(state))
            return
        pop(state)



def campaign_frames(state: State) -> list[Frame]:
    """The frames of one Turn's Campaign, in order (4.0, 4.8; player order 2.2.4)."""
    frames: list[Frame] = [{"step": "begin_campaign"}]
    frames += side_frames(state, "plan") + side_frames(state, "command")
    frames += [{"step": s} for s in ("tides_of_war", "victory_check", "grow", "waste", "reset")]
    return frames


#: The Campaign's steps, for the game's step table.
CAMPAIGN_STEPS: list[Step] = [Plan(), Command(), BeginCampaign(), TidesOfWar(), VictoryCheck(), Grow(),
                              Waste(), Reset()]


# ----- what this part adds to views, secrets and invariants (joined in rules.py) -------------
def view_part(state: State, role: str) -> dict[str, Any]:
    """Entries this part adds to ``role``'s view (already redacted for ``role``)."""
    return {}


def secrets_part(state: State, role: str) -> set[str]:
    """JSON fragments of this part that ``role``'s view must not contain (see Rules.secrets)."""
    return set()


def invariants_part(state: State) -> list[str]:
    """Faults of this part's records (see Rules.check_invariants)."""
    return []
