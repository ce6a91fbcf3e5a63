"""Recruiting (5.4, 1.2; C12, C72-C80)."""

from __future__ import annotations

import pytest

from roses.engine.errors import IllegalAction
from roses.games.richard3.data import POOL
from tests.richard3.helpers import RULES, B, L, Y, act, args, keep_hands, new, play, put


def _york_p1_ap4() -> dict:
    s = keep_hands(new())
    play(s, "AP4", "AP2")
    return s


def test_situation2_york_recruits_legal() -> None:
    """C73, C75, C76, C74, C77: Norfolk into vacant East Anglia, then the Bombard there (now a
    friendly city), Canterbury into Kent, Worcester or the Rebel into vacant Rutland."""
    s = _york_p1_ap4()
    act(s, Y, "recruit", "Norfolk/Y")
    assert set(args(s, Y, "place")) == {"East Anglia", "Glamorgan", "Caernarvon"}
    act(s, Y, "place", "East Anglia")
    act(s, Y, "recruit", "Bombard/Y")
    assert args(s, Y, "place") == ["East Anglia"]  # the only friendly city area
    act(s, Y, "place", "East Anglia")
    act(s, Y, "recruit", "Abp Canterbury/Y")
    assert args(s, Y, "place") == ["Kent"]
    act(s, Y, "place", "Kent")
    act(s, Y, "recruit", "Worcester/Y")
    assert "Rutland" in args(s, Y, "place")
    act(s, Y, "place", "Rutland")
    assert RULES.active(s) == [L]  # AP spent: York's Action Phase is over
    # C12: recruits are frozen this turn
    assert s["moved"][B("Norfolk/Y")] == 3


def test_situation2_rebel_vacant_non_exile() -> None:
    """C77: the Rebel (Pretender's) goes to any vacant non-exile area: Rutland yes, Calais or a friendly area no."""
    s = _york_p1_ap4()
    act(s, Y, "recruit", "Rebel/R")
    places = args(s, Y, "place")
    assert "Rutland" in places and "Isle of Man" in places
    assert "Calais" not in places and "Ireland" not in places and "Middlesex" not in places


def test_situation2_illegal_recruits() -> None:
    """London levy into enemy Middlesex; Bombard into vacant Somerset (not friendly) — refused."""
    s = _york_p1_ap4()
    assert "London levy/Y" not in args(s, Y, "recruit")  # Middlesex is enemy-held (Henry VI)
    assert "Bombard/Y" not in args(s, Y, "recruit")      # no friendly city yet
    with pytest.raises(IllegalAction):
        act(s, Y, "recruit", "London levy/Y")


def test_c80_face_down_pool_block_not_recruitable() -> None:
    """C80 (6.83-6.86): a face-down pool block cannot be recruited this campaign."""
    s = _york_p1_ap4()
    s["down"][B("Norfolk/Y")] = 1
    s["steps"][B("Norfolk/Y")] = 0
    assert "Norfolk/Y" not in args(s, Y, "recruit")


def test_situation2_lancaster_welsh_and_stanley() -> None:
    """C78: the Welsh into a friendly or vacant Welsh area (not Hereford); Stanley onto the Isle of Man."""
    s = keep_hands(new())
    play(s, "AP2", "AP4")
    assert s["p1"] == 1
    act(s, L, "recruit", "Welsh/L")
    places = args(s, L, "place")
    assert set(places) == {"Pembroke", "Glamorgan", "Caernarvon", "Powys"}
    act(s, L, "place", "Glamorgan")
    act(s, L, "recruit", "Stanley/L")
    assert set(args(s, L, "place")) == {"Isle of Man", "Lancaster"}
    act(s, L, "place", "Isle of Man")
    assert s["loc"][B("Stanley/L")] == 5


@pytest.mark.parametrize("event", ["Force March", "Surprise", "Treason", "Piracy"])
def test_situation2_no_recruit_with_event_ap(event: str) -> None:
    """C52 (5.1): an event card's AP are only for that event: no recruiting."""
    s = keep_hands(new())
    play(s, event, "AP2")
    assert s["p1"] == 0
    assert not args(s, Y, "recruit")


def test_c79_recruit_at_full_strength_only_from_pool() -> None:
    """C72, C79: recruits enter at full strength; a block on the map gains no steps."""
    s = _york_p1_ap4()
    put(s, "Norfolk/Y", POOL, steps=1)
    act(s, Y, "recruit", "Norfolk/Y")
    act(s, Y, "place", "East Anglia")
    assert s["steps"][B("Norfolk/Y")] == 4
    assert "March/Y" not in args(s, Y, "recruit")


def test_recruit_logged_by_area_only() -> None:
    """Log policy (RULINGS.md): the opponent reads only the area of a recruit."""
    s = _york_p1_ap4()
    act(s, Y, "recruit", "Norfolk/Y")
    act(s, Y, "place", "East Anglia")
    theirs = RULES.view(s, L)["log"]
    assert any("recruits a block in East Anglia" in x for x in theirs)
    assert not any("Norfolk" in x for x in theirs)
    assert any("Norfolk" in x for x in RULES.view(s, Y)["log"])
