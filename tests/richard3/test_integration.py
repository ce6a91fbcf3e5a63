"""Core and battle together through the Rules interface (rigged dice)."""

from __future__ import annotations

from roses.engine import rng
from roses.games.richard3.data import ADJ
from tests.richard3.helpers import (
    RULES,
    A,
    L,
    Y,
    act,
    keep_hands,
    move,
    new,
    play,
    put,
    to_battle_or_supply,
)


def test_c69_no_sea_retreat_without_piracy() -> None:
    """C69 (5.3): without Piracy, retreats go by land only, to adjacent areas (never by sea)."""
    s = keep_hands(new())
    put(s, "Henry VI/L", "Lincoln")
    put(s, "Buckingham/L", "Kent")
    put(s, "Norfolk/Y", "Middlesex")
    play(s, "AP4", "AP2")
    move(s, Y, "Middlesex", [("Norfolk/Y", ["Kent"])])
    to_battle_or_supply(s)
    assert s["battle"] is not None
    rng.rig(s, [6] * 60)  # every shot misses
    seen = False
    for _ in range(40):
        if s["battle"] is None:
            break
        role = RULES.active(s)[0]
        opts = RULES.legal_actions(s, role)
        retreats = [a for v, a in opts if v == "retreat"]
        if role == L and retreats:
            land = {n for n, _ in ADJ[A("Kent")]}
            assert all(A(area) in land for _, area in retreats)
            assert "Middlesex" not in {area for _, area in retreats}  # the enemy's entry border (6.6)
            seen = True
        verb, arg = next(((v, a) for v, a in opts if v in ("fire", "pass")), opts[0])
        act(s, role, verb, arg)
    assert seen
