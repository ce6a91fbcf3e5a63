"""The public Parliament screen of a Kingmaker view ("the Parliament screen with
the tally"): ``view["parliament"]`` while a session is on the stack (L327-388), the votes of
each player in both Houses (L341-353), who may vote and who has answered; the ballots stay
secret until every voter has answered and the result is published (L366)."""

from __future__ import annotations

from pathlib import Path

from roses.engine.contract import OBSERVER, canonical_json
from roses.games.kingmaker import RULES, parliament
from tests.kingmaker.test_parliament import _session


def _to_vote(tmp_path: Path):
    """The session of test_parliament (P3 summoned at London, the Earl of Essex in Chancery),
    with P3's proposal of Audley accepted: the award vote is open."""
    state, w = _session(tmp_path)
    RULES.action(state, "P3", "propose", "audley")
    RULES.action(state, "P1", "accept")
    return state, w


def test_no_parliament_screen_outside_a_session(tmp_path: Path) -> None:
    from tests.kingmaker.helpers import staged

    state = staged(tmp_path)
    for role in ("P1", "P2", OBSERVER):
        assert RULES.view(state, role)["parliament"] is None


def test_screen_names_place_summoner_card_and_tally_l341(tmp_path: Path) -> None:
    """The proposal stage (L356): the place, the summoner, the Chancery card debated and the
    votes of each player now, as parliament.tally counts them (L341-353)."""
    state, w = _session(tmp_path)
    session = next(f for f in state["stack"] if f["step"] == "session")
    screen = RULES.view(state, "P2")["parliament"]
    assert screen["place"] == "london" and screen["square"] == "B5"
    assert screen["summoner"] == "P3"
    assert screen["stage"] == "proposal"
    assert screen["card"] == "earl_of_essex"
    assert screen["motion"] is None and screen["voted"] == []
    counted = parliament.tally(state, session)
    assert screen["tally"] == {r: list(counted[i]) for i, r in enumerate(state["roles"])}
    assert screen["tally"]["P1"] == [23, 5]
    assert RULES.view(state, OBSERVER)["parliament"] == screen


def test_vote_screen_shows_motion_voters_and_who_answered_l366(tmp_path: Path) -> None:
    """During a vote: the motion and its text, the players with votes, and who has answered;
    a player's own ballot is in his own view only."""
    state, w = _to_vote(tmp_path)
    screen = RULES.view(state, "P2")["parliament"]
    assert screen["stage"] == "vote" and screen["motion"] == "award"
    assert "Earl of Essex" in screen["text"]
    assert sorted(screen["voters"]) == ["P1", "P2", "P3"]
    assert screen["voted"] == []
    RULES.action(state, "P1", "vote", "yes")
    assert RULES.view(state, "P2")["parliament"]["voted"] == ["P1"]
    assert RULES.view(state, "P1")["parliament"]["ballot"] == "yes"
    assert "ballot" not in RULES.view(state, "P2")["parliament"]
    assert "ballot" not in RULES.view(state, OBSERVER)["parliament"]


def test_a_ballot_is_in_no_other_seat_view_before_the_result_l366(tmp_path: Path) -> None:
    """Secrets: P1 votes yes in one copy of the game and no in another; until the vote is
    decided every other seat's view (and an observer's) is the same in both, byte for byte."""
    state, w = _to_vote(tmp_path)
    yes, no = RULES.copy_state(state), RULES.copy_state(state)
    RULES.action(yes, "P1", "vote", "yes")
    RULES.action(no, "P1", "vote", "no")
    for role in ("P2", "P3", OBSERVER):
        assert canonical_json(RULES.view(yes, role)) == canonical_json(RULES.view(no, role)), role
    assert RULES.view(yes, "P1")["parliament"]["ballot"] == "yes"
    assert RULES.view(no, "P1")["parliament"]["ballot"] == "no"
    # P2 answers too: still nothing of P1's ballot while P3 has not voted.
    RULES.action(yes, "P2", "vote", "abstain")
    RULES.action(no, "P2", "vote", "abstain")
    assert canonical_json(RULES.view(yes, "P3")) == canonical_json(RULES.view(no, "P3"))
    # The last ballot decides: the minutes publish the figures (the result differs now).
    RULES.action(yes, "P3", "vote", "abstain")
    RULES.action(no, "P3", "vote", "abstain")
    assert canonical_json(RULES.view(yes, "P3")) != canonical_json(RULES.view(no, "P3"))
    assert any("Lords 5 for" in line for line in RULES.view(yes, "P3")["log"])
