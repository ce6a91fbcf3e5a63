"""The hidden-information swap check (roses.engine.swapcheck): it catches a leak by behaviour
(who is asked) as well as by text, and every game's hidden things, swapped, leave the other
roles' views unchanged."""

from __future__ import annotations

import random
from typing import Any

import pytest

from roses.engine.contract import Rules, State, canonical_json
from roses.engine.fuzz import fuzz, fuzz_picker, game_seed, random_choice
from roses.engine.registry import get_rules
from roses.engine.swapcheck import swap_problems
from tests.engine.toygame import ToyRules


class _LeakyToy(ToyRules):
    """The toy game, whose picks stay hidden until both have picked; in this version North is
    asked again ("who is active") when it picked 3: a leak by behaviour, no secret shown."""

    def active(self, state: State) -> list[str]:
        out = super().active(state)
        if state["phase"] == "pick" and state["secret"].get("North") == 3:
            return sorted({*out, "North"})
        return out

    def hidden_variants(self, state: State, role: str, rnd: random.Random) -> list[tuple[str, State]]:
        out = []
        for other, pick in state["secret"].items():
            if other != role and state["phase"] == "pick":
                for n in (1, 2, 3):
                    if n != pick:
                        v = self.copy_state(state)
                        v["secret"][other] = n
                        out.append((f"{other} picked {n}", v))
        return out


def test_the_swap_check_catches_who_is_asked() -> None:
    rules = _LeakyToy()
    s = rules.setup(1, "standard")
    rules.action(s, "North", "pick", 1)
    problems = swap_problems(rules, s, ["North", "South"], random.Random(0))
    assert any("South's view (or who is active) changes when North picked 3" in p for p in problems)
    assert not any("North's view" in p for p in problems)  # North knows its pick
    assert any("Observer's view" in p for p in problems)


def test_the_swap_check_after_the_next_action_catches_a_decision_on_hidden_things_r51(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Plantagenet's Muster once stayed open after the last Lord only when the side held
    Aspielles (RULINGS R51). From a hand without it, the Muster ends as the last Lord is done:
    the position before looks the same to York with Aspielles swapped in, and only the check
    after Lancaster's "done" (which reveals nothing) sees the Muster wait then."""
    from roses.games.plantagenet import reactions
    from tests.plantagenet.test_cards_levy import fresh, hold, muster, to_calendar

    rules = get_rules("plantagenet")
    s = fresh()
    to_calendar(s, "henry_vi", 9)
    hold(s, "L20")
    muster(s, "Lancaster", "somerset_1")  # his Levy actions: "done" ends them
    action = ("Lancaster", "done", None)
    assert ("done", None) in rules.legal_actions(s, "Lancaster")
    assert all(swap_problems(rules, s, ["York", "Lancaster"], random.Random(k), action) == [] for k in range(40))
    monkeypatch.setattr(reactions, "could_play_own_time",
                        lambda state, side, where: bool(reactions.own_time_options(state, side, where)))
    assert any(p.startswith("York's view (or who is active) after Lancaster done None changes when "
                            "Lancaster's held card L20 is L13 instead")
               for k in range(400) for p in swap_problems(rules, s, ["York", "Lancaster"], random.Random(k), action))


def test_a_sound_game_passes_the_swap_check() -> None:
    rules = ToyRules()
    s = rules.setup(1, "standard")
    rules.action(s, "North", "pick", 2)
    assert rules.hidden_variants(s, "South", random.Random(0)) == []  # the default: nothing declared
    assert swap_problems(rules, s, ["North", "South"], random.Random(0)) == []


def _positions(rules: Rules, scenario: str, steps: int, every: int,
               options: dict[str, Any] | None = None) -> list[tuple[State, tuple[str, str, Any]]]:
    """Positions of the fuzzer's first game, with the action it takes there."""
    gseed = game_seed(3, 0)
    picker = fuzz_picker(gseed)
    state = rules.setup(gseed, scenario, options)
    out = []
    for step in range(steps):
        if rules.result(state) is not None:
            break
        picked = random_choice(rules, state, rules.active(state), picker)
        assert picked is not None
        role, (verb, arg) = picked
        if step % every == 0:
            out.append((rules.copy_state(state), (role, verb, arg)))
        state = rules.action(state, role, verb, arg)
    return out


@pytest.mark.parametrize(("game", "scenario", "options", "steps", "every"), [
    ("plantagenet", "ia-henry-vi", None, 400, 3),
    ("plantagenet", "ii-warwicks-rebellion", {"hidden_mats": True}, 400, 3),
    ("plantagenet", "bosworth", None, 40, 1),
    ("richard3", "wars-of-the-roses", None, 300, 3),
    ("kingmaker", "campaign", None, 150, 5),
])
def test_every_game_declares_hidden_things_and_passes_the_swap_check(
        game: str, scenario: str, options: dict[str, Any] | None, steps: int, every: int) -> None:
    """Each game gives variants (not the same state) at some positions, every variant keeps the
    game's invariants, and no role's view changes in any of them."""
    rules = get_rules(game)
    rnd = random.Random(7)
    variants = 0
    for state, action in _positions(rules, scenario, steps, every, options):
        roles = list(state["roles"]) if "roles" in state else rules.roles(scenario, options)
        for role in [*roles, "Observer"]:
            for label, v in rules.hidden_variants(state, role, random.Random(variants)):
                variants += 1
                assert canonical_json(v) != canonical_json(state), label
                assert rules.check_invariants(v) == [], label
        assert swap_problems(rules, state, roles, rnd, action) == []
    assert variants > 20


def test_the_swap_check_catches_the_muster_wait_on_aspielles_r51(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plantagenet's Muster once stayed open after the last Lord only when the side held
    Aspielles (RULINGS R51): the swap check sees it, from the state where Lancaster holds it."""
    from roses.games.plantagenet import reactions
    from tests.plantagenet.test_cards_levy import _muster_after_the_last_lord

    rules = get_rules("plantagenet")
    s = _muster_after_the_last_lord("L13")
    assert swap_problems(rules, s, ["York", "Lancaster"], random.Random(0)) == []
    monkeypatch.setattr(reactions, "could_play_own_time",
                        lambda state, side, where: bool(reactions.own_time_options(state, side, where)))
    problems = swap_problems(rules, s, ["York", "Lancaster"], random.Random(0))
    assert any(p.startswith("York's view (or who is active) changes when Lancaster's held card L13") for p in problems)


def test_fuzz_runs_the_swap_check() -> None:
    """`roses fuzz` runs the check (every 5 steps by default): the leaky toy game fails it."""
    report = fuzz(_LeakyToy(), "short", 10, seed=1, save_dir=None, swap_every=1)
    assert report.invariant_failures >= 2 and not report.errors  # games where North picks first
    assert all("changes when North picked" in f.message for f in report.failures)
    assert fuzz(ToyRules(), "short", 10, seed=1, save_dir=None, swap_every=1).ok
