"""Battle (4.4) and the Bosworth battle mini-scenario (On Bosworth Field)."""

from __future__ import annotations

from typing import Any

from roses.engine.contract import DRAW, State
from roses.engine.steps import Frame, Step
from roses.games.plantagenet.common import BATTLE, SideStep, end_game


class BosworthCapabilities(SideStep):
    name, phase, label = "capabilities", BATTLE, "Bosworth: choose four Capabilities in secret (On Bosworth Field)"


class BosworthArray(SideStep):
    name, phase, label = "array", BATTLE, "Bosworth: Array the Lords (4.4.1)"


class BosworthBattle(SideStep):
    name, phase, label = "battle", BATTLE, "Bosworth: Battle (4.4.2-4.4.3)"



class BosworthEnd(Step):
    name, phase = "bosworth_end", BATTLE

    def run(self, state: State, frame: Frame) -> None:
        end_game(state, DRAW, "The Battle of Bosworth is not built yet: the game is recorded as a draw.",
                 announce=False)



#: The Battle's steps, for the game's step table.
BATTLE_STEPS: list[Step] = [BosworthCapabilities(), BosworthArray(), BosworthBattle(), BosworthEnd()]


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
