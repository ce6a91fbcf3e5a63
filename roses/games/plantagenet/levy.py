"""Levy (3.0): Arts of War (3.1), Pay (3.2), Muster Exiles and Ready Vassals (3.3), Muster (3.4)."""

from __future__ import annotations

from typing import Any

from roses.engine.contract import State
from roses.engine.log import public
from roses.engine.steps import Frame, Step, pop
from roses.games.plantagenet.common import LEVY, SideStep, side_frames
from roses.games.plantagenet.components import load
from roses.games.plantagenet.records import VassalWhere


class ArtsOfWar(SideStep):
    name, phase = "arts_of_war", LEVY

    def title(self, state: State) -> str:
        if state["first_turn"]:
            return "Levy: Draw Capabilities (3.1.2)"
        return "Levy: Draw Events (3.1.3)"


class MusterExiles(SideStep):
    name, phase, label = "exiles", LEVY, "Levy: Muster Exiles (3.3.1)"


class Muster(SideStep):
    name, phase, label = "muster", LEVY, "Levy: Muster (3.4)"



class SkipPay(Step):
    name, phase = "skip_pay", LEVY

    def run(self, state: State, frame: Frame) -> None:
        public(state, "Pay is skipped in the scenario's first Levy (3.2).")
        pop(state)


class ReadyVassals(Step):
    """3.3.2: face-down Vassals in the current box return to their Seats face up."""

    name, phase = "ready_vassals", LEVY

    def run(self, state: State, frame: Frame) -> None:
        for vid, v in state["vassals"].items():
            if v["where"] == VassalWhere.CALENDAR and not v["face_up"] and v["box"] is not None \
                    and v["box"] <= state["box"]:
                v.update(where=VassalWhere.SEAT, box=None, face_up=True, lord=None)
                public(state, f"Vassal {load().vassals[vid]['name']} is Ready at its Seat.")
        pop(state)



def levy_frames(state: State) -> list[Frame]:
    """The frames of one Turn's Levy, in order (3.0; player order 2.2.4)."""
    frames = side_frames(state, "arts_of_war")
    if state["first_turn"]:
        frames.append({"step": "skip_pay"})
    else:
        frames += side_frames(state, "pay_troops") + side_frames(state, "pay_lords") \
            + side_frames(state, "pay_vassals")
    frames.append({"step": "ready_vassals"})
    frames += side_frames(state, "exiles") + side_frames(state, "muster")
    return frames


#: The Levy's steps, for the game's step table.
LEVY_STEPS: list[Step] = [ArtsOfWar(), MusterExiles(), Muster(), SkipPay(), ReadyVassals()]


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
