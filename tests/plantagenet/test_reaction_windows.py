"""Every reaction window (3.1.3, 1.9.1; RULINGS R50): offered only to the side that may play
there, only at its moment, and declining it leaves the game exactly as if it had never been
offered. The safe default (the game waits whenever the side could hold a card there, from
public knowledge) and the quick option (asked only when holding one) are checked for each.

One case per window of :data:`reactions.WINDOWS`: how to reach its moment by play, the card
that may be played (or the Capability used) there, and a nearby moment where it is not
offered although the card is held."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from unittest import mock

import pytest

from roses.engine import rng
from roses.games.plantagenet import RULES, reactions
from roses.games.plantagenet.setup import setup_state

from .helpers import act, approach, place, run_frames, to_calendar
from .test_cards_campaign import _march_to_port, activate, deploy, ia
from .test_cards_campaign import _take as take_card

State = dict[str, Any]
WINDOW_STEPS = ("react", "battle_event")


def hold(s: State, cid: str) -> None:
    side = take_card(s, cid)
    s["aow"][side]["held"].append(cid)


def top(s: State) -> dict[str, Any] | None:
    return s["stack"][-1] if s["stack"] else None


def at_window(s: State, window: str) -> bool:
    f = top(s)
    return f is not None and f["step"] in WINDOW_STEPS and f["window"] == window


def windows_on_stack(s: State, window: str) -> bool:
    return any(f["step"] in WINDOW_STEPS and f.get("window") == window for f in s["stack"])


def pass_other_windows(s: State, window: str) -> State:
    """Answer Pass in the windows of other kinds met on the way (they are checked by their own
    cases)."""
    while (f := top(s)) is not None and f["step"] in WINDOW_STEPS and f["window"] != window and RULES.active(s):
        act(s, "pass")
    return s


# ----- how each moment is reached ----------------------------------------------------------------
def battle_ia() -> State:
    s = setup_state(3, "ia-henry-vi")
    s["stack"], s["box"], s["first_turn"] = [], 2, False
    s["special_rules"].remove("capture_of_the_king")
    place(s, "somerset_1", "Guildford")  # Henry VI alone at London
    return s


def to_array(s: State, moment: bool) -> None:
    """York Approaches Henry VI at London; Henry fights: after the Array, the Battle Event
    windows (4.4.1). Nearby: the Approach itself, before the Battle."""
    approach(s, "London", ["york"])
    pass_other_windows(s, "array")
    if moment:
        act(s, "fight", "henry_vi")


def battle_iii() -> State:
    s = setup_state(3, "iii-my-kingdom-for-a-horse")
    s["stack"], s["box"], s["first_turn"] = [], 2, False
    return s


def to_death(s: State, moment: bool) -> None:
    """Oxford Routed at London: upon the Lancastrian Death checks (4.4.3). Nearby: the same
    moment with nobody Routed."""
    from roses.games.plantagenet.battle import start_battle

    for lid, loc in (("norfolk", "London"), ("oxford", "London")):
        place(s, lid, loc)
    b = start_battle(s, "London", "York", {"York": ["norfolk"], "Lancaster": ["oxford"]})
    b["lords"]["oxford"]["routed"] = moment
    run_frames(s, {"step": "battle_event", "side": "Lancaster", "window": "death"}, {"step": "death", "side": "Lancaster"})


def to_approach(s: State, moment: bool) -> None:
    """York at Ely Marches to Cambridge where Henry VI is: the Approach (4.3.5). Nearby: the
    same March with Henry elsewhere."""
    place(s, "york", "Ely")
    place(s, "henry_vi", "Cambridge" if moment else "London")
    activate(s, "york", 3)
    act(s, "march", "Cambridge")


def to_intercept(s: State, moment: bool) -> None:
    """York Marches from London to St Albans and Exeter Intercepts from Bedford (4.3.4): York's
    window. Nearby: Exeter lets him go."""
    place(s, "york", "London")
    place(s, "exeter_1", "Bedford")
    activate(s, "york", 1)
    act(s, "march", "St Albans")
    pass_other_windows(s, "intercept")
    rng.rig(s, [6])
    act(s, "intercept" if moment else "decline", "exeter_1" if moment else None)


def to_tides(s: State, moment: bool) -> None:
    """Tides of War (4.8.1) with a Yorkist Lord with Provender. Nearby: the Feed."""
    place(s, "york", "London", provender=2)
    s["moved"] = ["york"]
    run_frames(s, {"step": "tides_of_war"} if moment else {"step": "feed", "side": "York"})


def to_port(s: State, moment: bool) -> None:
    """Somerset Marches to a Port (4.3): the Rebel Supply Depot window. Nearby: a March to a
    Stronghold that is no Port."""
    if moment:
        _march_to_port(s, "somerset_1")
        return
    s["favour"].update({"Guildford": "Lancaster", "London": "Lancaster"})
    place(s, "somerset_1", "Guildford", provender=0)
    activate(s, "somerset_1", 1)
    act(s, "march", "London")


def to_landing(s: State, moment: bool) -> None:
    """Somerset Sails from Harlech to Bristol (4.6.1): the Surprise Landing window. Nearby: a
    March to a Port."""
    if not moment:
        _march_to_port(s, "somerset_1")
        return
    s["favour"].update({"Bristol": "Lancaster", "Harlech": "Lancaster"})
    place(s, "somerset_1", "Harlech", provender=0, ships=2, carts=0)
    activate(s, "somerset_1", 2)
    act(s, "sail", "Bristol")


@dataclass(frozen=True)
class Case:
    window: str
    side: str
    #: The card that may be played here (a Held Event) or used (a Capability on ``lord``'s mat).
    card: str
    #: A Held Event of the side that cannot be played here.
    other: str
    start: Callable[[], State]
    reach: Callable[[State, bool], None]
    lord: str | None = None

    def game(self, cards: tuple[str, ...], quick: bool = False, moment: bool = True) -> State:
        """The game at the moment (or the nearby one) with the side holding ``cards`` (the
        Capability ``card`` on the Lord's mat); ``card`` is in this game in any case (in its
        deck when not held)."""
        s = self.start()
        s["options"][f"quick_reactions_{self.side.lower()}"] = quick
        zones = s["aow"][self.side]
        if self.card not in zones["in_game"]:
            zones["in_game"].append(self.card)
            zones["deck"].append(self.card)
        for cid in cards:
            if cid == self.card and self.lord is not None:
                place(s, self.lord, "London")
                deploy(s, self.lord, cid)
            else:
                hold(s, cid)
        self.reach(s, moment)
        return pass_other_windows(s, self.window)

    @property
    def verb(self) -> str:
        return "play" if self.lord is None else "use"


CASES = {
    "array": Case("array", "York", "Y19", "Y12", battle_ia, to_array),
    "death": Case("death", "Lancaster", "L36", "L20", battle_iii, to_death),
    "approach": Case("approach", "Lancaster", "L20", "L36", ia, to_approach),
    "approach-kings-parley": Case("approach", "Lancaster", "L15", "L36", ia, to_approach, lord="henry_vi"),
    "intercept": Case("intercept", "York", "Y12", "Y19", ia, to_intercept),
    "tides": Case("tides", "York", "Y4", "Y19", ia, to_tides, lord="york"),
    "supply_depot": Case("supply_depot", "Lancaster", "L28", "L36", ia, to_port),
    "surprise_landing": Case("surprise_landing", "Lancaster", "L33", "L36", ia, to_landing),
}


def test_a_case_for_every_window_r50() -> None:
    assert {c.window for c in CASES.values()} == set(reactions.WINDOWS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_window_offered_to_the_holder_at_its_moment_3_1_3(name: str) -> None:
    """Holding the card, the side is asked at the moment, and only it; the card may be played."""
    c = CASES[name]
    for quick in (False, True):
        s = c.game((c.card,), quick=quick)
        assert at_window(s, c.window) and top(s)["side"] == c.side  # type: ignore[index]
        assert RULES.active(s) == [c.side]
        foe = "Lancaster" if c.side == "York" else "York"
        assert RULES.legal_actions(s, foe) == []
        assert (c.verb, c.card) in RULES.legal_actions(s, c.side) and ("pass", None) in RULES.legal_actions(s, c.side)


@pytest.mark.parametrize("name", sorted(CASES))
def test_window_only_at_its_moment_3_1_3(name: str) -> None:
    """At a nearby moment the window is not offered, although the card is held."""
    c = CASES[name]
    s = c.game((c.card,), moment=False)
    assert not windows_on_stack(s, c.window)


@pytest.mark.parametrize("name", sorted(CASES))
def test_window_safe_default_and_quick_option_rulings_r50(name: str) -> None:
    """Held Events of the side: with the safe default a side that could hold a card there is
    asked even if it holds none it may play (only Pass then), and what the other side sees does
    not tell which; with the quick option it is asked only when it holds one. A side that
    holds no Event at all is not asked for an Event (a Capability on a visible mat is public)."""
    c = CASES[name]
    foe = "Lancaster" if c.side == "York" else "York"
    if c.lord is None:
        s = c.game((c.other,))
        assert at_window(s, c.window) and RULES.legal_actions(s, c.side) == [("pass", None)]
        playable = c.game((c.card,))
        assert RULES.view(s, foe)["prompt"] == RULES.view(playable, foe)["prompt"]
        assert not windows_on_stack(c.game((c.other,), quick=True), c.window)
        assert not windows_on_stack(c.game(()), c.window)
    else:
        assert not windows_on_stack(c.game(()), c.window)  # no Capability on his mat, no Event held


@pytest.mark.parametrize("name", sorted(CASES))
def test_declining_a_window_leaves_the_game_unchanged_3_1_3(name: str) -> None:
    """Pass at the window, and the game is exactly the game in which it never waited (same
    state, same log, the same dice to come)."""
    c = CASES[name]
    s = c.game((c.card,))
    assert at_window(s, c.window)
    act(s, "pass")
    offered = reactions.offered

    def never(state: State, frame: dict[str, Any]) -> bool:
        return False if frame["window"] == c.window else offered(state, frame)

    with mock.patch.object(reactions, "offered", never):
        twin = c.game((c.card,))
    assert copy.deepcopy(s) == twin
    assert not windows_on_stack(twin, c.window)


# ----- Y32 The King's Name: an Event in effect (public) that asks the Yorkists after each -----------
# ----- successful Lancastrian Levy action (3.4) -------------------------------------------------------
def kings_name_game(*, gloucester: bool = True) -> State:
    """Scenario III, Y32 in effect, Henry Tudor at Lancastrian Oxford in the Lancastrian Muster."""
    from .test_cards_levy import fresh, in_effect, muster

    s = fresh("iii-my-kingdom-for-a-horse", box=4)
    in_effect(s, "Y32")
    if not gloucester:
        to_calendar(s, "gloucester_2", 9)
    place(s, "henry_tudor", "Oxford")
    s["favour"]["Oxford"] = "Lancaster"
    return muster(s, "Lancaster", "henry_tudor")


def test_kings_name_asked_of_york_only_after_a_lancastrian_levy_action_3_4() -> None:
    """Y32 The King's Name asks the Yorkists, and only them, right after a Lancastrian Levy action
    that changed something; not after a Yorkist one, nor without Gloucester on the map."""
    s = kings_name_game()
    act(s, "levy_troops")
    f = top(s)
    assert f is not None and f["step"] == "card_pick" and f["kind"] == "kings_name"
    assert RULES.active(s) == ["York"] and RULES.legal_actions(s, "Lancaster") == []
    assert set(RULES.legal_actions(s, "York")) == {("cancel", None), ("pass", None)}
    s = kings_name_game()
    target = next(a for v, a in RULES.legal_actions(s, "Lancaster") if v == "parley" and "+" not in a)
    rng.rig(s, [6])
    act(s, "parley", target)  # a 6 fails (1.4.2): nothing to cancel
    assert RULES.active(s) == ["Lancaster"] and top(s)["step"] == "muster"  # type: ignore[index]
    s = kings_name_game(gloucester=False)
    act(s, "levy_troops")
    assert RULES.active(s) == ["Lancaster"] and top(s)["step"] == "muster"  # type: ignore[index]
    from .test_cards_levy import fresh, in_effect, muster

    y = fresh("iii-my-kingdom-for-a-horse", box=4)
    in_effect(y, "Y32")
    y["favour"]["London"] = "York"
    place(y, "gloucester_2", "London")
    muster(y, "York", "gloucester_2")
    act(y, "levy_troops")
    assert all(f["step"] != "card_pick" for f in y["stack"]) and RULES.active(y) == ["York"]


def test_kings_name_declined_leaves_the_game_unchanged_3_4() -> None:
    """Pass to The King's Name: the game is exactly the one in which the Yorkists were never
    asked."""
    from roses.games.plantagenet import levy

    s = kings_name_game()
    act(s, "levy_troops")
    act(s, "pass")
    with mock.patch.object(levy, "kings_name_on", lambda state: False):
        twin = kings_name_game()
        act(twin, "levy_troops")
    assert copy.deepcopy(s) == twin


@pytest.mark.parametrize("name", ["tides", "approach-kings-parley"])
def test_capability_window_under_hidden_mats_waits_whenever_the_card_could_be_on_a_mat_1_5_3(name: str) -> None:
    """Hidden Mats (1.5.3): a reactive Capability's window waits for the side whenever one of its
    Lords could have the card on his hidden mat (it is in the game and not known elsewhere), even
    when none has: only Pass then, and Pass changes nothing; with the quick option it is asked
    only when a Lord really has it (RULINGS R50)."""
    c = CASES[name]

    def game(quick: bool) -> State:
        s = c.start()
        s["options"]["hidden_mats"] = True
        s["options"][f"quick_reactions_{c.side.lower()}"] = quick
        zones = s["aow"][c.side]
        if c.card not in zones["in_game"]:
            zones["in_game"].append(c.card)
            zones["deck"].append(c.card)
        c.reach(s, True)
        return pass_other_windows(s, c.window)

    s = game(False)
    assert at_window(s, c.window) and RULES.legal_actions(s, c.side) == [("pass", None)]
    act(s, "pass")
    quick = game(True)
    assert not windows_on_stack(quick, c.window)
    assert {k: v for k, v in s.items() if k != "options"} == {k: v for k, v in quick.items() if k != "options"}
