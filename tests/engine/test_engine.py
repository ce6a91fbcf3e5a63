"""Tests of the game-agnostic engine: RNG, game record, replay, undo policy, fuzz, bench."""

from __future__ import annotations

import json
import platform
import sys

import pytest

from roses.engine import rng
from roses.engine.contract import DRAW, actions_to_list, canonical_json
from roses.engine.errors import CannotUndo, IllegalAction, NotYourTurn, UnknownGame, UnknownScenario
from roses.engine.fuzz import bench, fuzz
from roses.engine.game import Game, digest
from roses.engine.log import visible_log
from roses.engine.registry import get_rules

from .toygame import RULES


def test_rng_is_deterministic_and_uniform_enough() -> None:
    a: dict = {}
    b: dict = {}
    rng.seed_state(a, 42)
    rng.seed_state(b, 42)
    rolls_a = [rng.roll(a) for _ in range(600)]
    rolls_b = [rng.roll(b) for _ in range(600)]
    assert rolls_a == rolls_b
    assert set(rolls_a) == {1, 2, 3, 4, 5, 6}
    for face in range(1, 7):
        assert 60 <= rolls_a.count(face) <= 140
    assert a["rolls"] == 600


def test_rigged_dice_come_first() -> None:
    s: dict = {}
    rng.seed_state(s, 1)
    rng.rig(s, [6, 1, 3])
    assert [rng.roll(s) for _ in range(3)] == [6, 1, 3]
    assert s["rigged"] == []


def test_shuffle_is_a_permutation_and_seeded() -> None:
    s1: dict = {}
    s2: dict = {}
    rng.seed_state(s1, 7)
    rng.seed_state(s2, 7)
    x = list(range(25))
    y = list(range(25))
    rng.shuffle(s1, x)
    rng.shuffle(s2, y)
    assert x == y and sorted(x) == list(range(25)) and x != list(range(25))


def _two_decks(seed: int, n: int) -> tuple[dict, dict, list[int], list[int]]:
    """Two generator states seeded alike and two decks ``0..n-1``, to shuffle two ways."""
    first: dict = {}
    second: dict = {}
    rng.seed_state(first, seed)
    rng.seed_state(second, seed)
    return first, second, list(range(n)), list(range(n))


def test_shuffle_is_fisher_yates_by_randbelow() -> None:
    """The shuffle runs the generator inline: the same swaps, the same draws and the same
    generator afterwards as Fisher-Yates with :func:`rng.randbelow`, for decks of every size
    (saved games replay only if shuffles never change)."""
    for seed in range(40):
        for n in (0, 1, 2, 3, 7, 25, 37, 64):
            fast, slow, x, y = _two_decks(seed * 7919 + n, n)
            rng.shuffle(fast, x)
            slow["rolls"] += 1
            for i in range(n - 1, 0, -1):
                j = rng.randbelow(slow, i + 1)
                y[i], y[j] = y[j], y[i]
            assert x == y
            assert fast == slow


def test_the_generators_words_are_its_64_bit_numbers() -> None:
    """The shuffle in 32-bit words (the compiled build's): the constants' parts are those of
    SplitMix64's gamma and multipliers, and its mix is :func:`rng.next_u64` for states of every
    bit pattern, the words all 0 and all 1 among them."""
    assert rng._GAMMA_HI << 32 | rng._GAMMA_LO == rng._GAMMA
    for mul, parts in ((rng._MUL1, (rng._MUL1_HI1, rng._MUL1_HI0, rng._MUL1_LO1, rng._MUL1_LO0)),
                       (rng._MUL2, (rng._MUL2_HI1, rng._MUL2_HI0, rng._MUL2_LO1, rng._MUL2_LO0))):
        assert parts[0] << 48 | parts[1] << 32 | parts[2] << 16 | parts[3] == mul
    draws: dict = {}
    rng.seed_state(draws, 12345)
    xs = [0, 1, rng.MASK64, rng.MASK64 - 1, 1 << 32, (1 << 32) - 1, 1 << 63]
    xs += [rng.next_u64(draws) for _ in range(3000)]
    for x in xs:
        s = {"rng": (x - rng._GAMMA) & rng.MASK64}
        hi, lo = rng.mix_words(x >> 32, x & 0xFFFFFFFF)
        assert hi << 32 | lo == rng.next_u64(s), x


def test_the_words_reject_the_draws_randbelow_rejects() -> None:
    """:func:`rng.randbelow` rejects a draw above ``MASK64 - 2**64 % n`` (uniform draws); the
    words reject exactly those and give ``v % n`` for the others, at the edge and away from it."""
    for n in (2, 3, 5, 7, 36, 37, 40, 1000, (1 << 30)):
        limit = rng.MASK64 - (rng.MASK64 + 1) % n
        for v in (0, 1, n - 1, n, limit - 1, limit, limit + 1, rng.MASK64, 0xFFFFFFFF00000000,
                  0xFFFFFFFEFFFFFFFF, 0x123456789ABCDEF0):
            if v > rng.MASK64:  # limit + 1 where 2**64 % n == 0
                continue
            want = v % n if v <= limit else -1
            assert rng.below_words(v >> 32, v & 0xFFFFFFFF, n) == want, (n, v)


def test_shuffle_in_words_is_the_shuffle() -> None:
    """The same swaps, draws and generator afterwards as :func:`rng.shuffle` in 64-bit
    arithmetic, for decks of every size; compiled, :func:`rng.shuffle` is this one."""
    for seed in range(60):
        for n in (0, 1, 2, 3, 7, 25, 37, 64, 200):
            words, wide, x, y = _two_decks(seed * 104729 + n, n)
            rng.shuffle_words(words, x)
            rng.shuffle(wide, y)  # in pure Python the 64-bit arithmetic (compiled, the words
            # again; test_shuffle_is_fisher_yates_by_randbelow pins them to 64-bit randbelow)
            assert x == y
            assert words == wide
    compiled = not (rng.__file__ or "").endswith(".py")
    assert rng._WORDS is compiled


def test_visible_log_hides_private_lines() -> None:
    log = ["all", ["North", "north only"], ["South", "south only"]]
    assert visible_log(log, "North") == ["all", "north only"]
    assert visible_log(log, "Observer") == ["all"]


def test_same_seed_same_actions_identical_state() -> None:
    g1 = Game.new(RULES, 5, "standard")
    g2 = Game.new(RULES, 5, "standard")
    for g in (g1, g2):
        g.apply("North", "pick", 2)
        g.apply("South", "pick", 3)
        g.apply("North", "roll")
        g.apply("South", "step")
    assert canonical_json(g1.state) == canonical_json(g2.state)
    assert g1.digest() == g2.digest() == digest(g1.replay())


def test_record_round_trip_through_json() -> None:
    g = Game.new(RULES, 9, "short")
    g.apply("South", "pick", 1)
    g.apply("North", "pick", 3)
    while g.result() is None:
        g.apply(g.active()[0], "roll")
    record = json.loads(json.dumps(g.record()))
    again = Game.from_record(RULES, record)
    assert again.digest() == g.digest()
    assert again.result() == g.result()


def test_illegal_action_changes_nothing() -> None:
    g = Game.new(RULES, 3, "standard")
    before = g.digest()
    with pytest.raises(IllegalAction):
        g.apply("North", "pick", 7)
    with pytest.raises(IllegalAction):
        g.apply("North", "dance")
    assert g.digest() == before
    assert g.actions == []


def test_wrong_player_is_refused() -> None:
    g = Game.new(RULES, 3, "standard")
    g.apply("North", "pick", 1)
    with pytest.raises(NotYourTurn):
        g.apply("North", "pick", 2)
    g.apply("South", "pick", 1)
    with pytest.raises(NotYourTurn):
        g.apply("South", "roll")


def test_undo_own_free_actions_while_turn_lasts() -> None:
    g = Game.new(RULES, 3, "standard")
    g.apply("North", "pick", 1)
    g.apply("South", "pick", 1)
    start = g.digest()
    g.apply("North", "step")
    assert g.can_undo("North") and not g.can_undo("South")
    assert g.view("North")["actions"]["undo"] is True
    assert "undo" not in g.view("South").get("actions", {})
    g.apply("North", "step")
    g.undo("North")
    g.undo("North")
    assert g.digest() == start
    assert not g.can_undo("North")
    # Undo is logged, so replay reproduces it.
    assert digest(g.replay()) == g.digest()


def test_undo_never_crosses_dice_reveal_or_turn_change() -> None:
    g = Game.new(RULES, 3, "standard")
    g.apply("North", "pick", 1)
    assert not g.can_undo("North")  # active set changed
    g.apply("South", "pick", 2)  # reveal
    assert not g.can_undo("South")
    g.apply("North", "step")
    g.apply("North", "roll")  # die rolled: barrier
    assert not g.can_undo("North")
    with pytest.raises(CannotUndo):
        g.undo("North")
    g.apply("South", "step")
    g.apply("South", "step")
    g.apply("South", "step")  # third step passes the turn
    assert not g.can_undo("South")


def test_unknown_game_and_scenario() -> None:
    with pytest.raises(UnknownGame):
        get_rules("no_such_game")
    with pytest.raises(UnknownGame):
        get_rules("../etc")
    with pytest.raises(UnknownScenario):
        RULES.setup(1, "nope")


def test_view_actions_match_legal_actions() -> None:
    state = RULES.setup(1, "standard")
    for role in RULES.active(state):
        assert sorted(actions_to_list(RULES.view(state, role)["actions"]), key=str) == sorted(
            RULES.legal_actions(state, role), key=str)


def test_fuzz_reports_clean_run(tmp_path) -> None:
    report = fuzz(RULES, "standard", 30, seed=4, save_dir=tmp_path)
    assert report.ok, report.summary()
    assert report.games == 30 and report.actions > 30
    # every clean game ended by a rule, counted by its result
    assert report.ended_by_rule == 30 and sum(report.results.values()) == 30
    assert set(report.results) <= {*RULES.roles("standard"), DRAW}
    assert report.summary()["results"] == dict(sorted(report.results.items()))


def test_fuzz_counts_milestones(tmp_path) -> None:
    """``Rules.milestones`` names the stages a finished game reached; the report counts the
    games that reached each (none by default)."""
    class Staged(type(RULES)):  # type: ignore[misc]
        def milestones(self, state):
            return ["finished", *(["won"] if state["result"] != DRAW else [])]

    report = fuzz(Staged(), "standard", 12, seed=3, save_dir=tmp_path)
    assert report.ok and report.milestones["finished"] == 12
    assert report.milestones.get("won", 0) == sum(n for r, n in report.results.items() if r != DRAW)
    assert report.summary()["milestones"] == dict(sorted(report.milestones.items()))
    assert fuzz(RULES, "standard", 2, seed=3, save_dir=tmp_path).milestones == {}


def test_fuzz_catches_leaks(tmp_path) -> None:
    class Leaky(type(RULES)):  # type: ignore[misc]
        def view(self, state, role):
            v = super().view(state, role)
            v["log"] = [e if isinstance(e, str) else e[1] for e in state["log"]]
            return v

    report = fuzz(Leaky(), "standard", 5, seed=1, save_dir=tmp_path)
    assert report.invariant_failures == 5
    saved = list(tmp_path.iterdir())
    assert saved and json.loads(saved[0].read_text())["failure"]["kind"] == "invariant"


def test_fuzz_refuses_states_that_are_not_json(tmp_path) -> None:
    """The contract's states are JSON values: a NaN (which JSON cannot hold, and which orjson
    would store as null, roses.server.store.state_text) is an error the fuzzer reports."""
    class NotJson(type(RULES)):  # type: ignore[misc]
        def action(self, state, role, verb, arg=None):
            out = super().action(state, role, verb, arg)
            out["odds"] = float("nan")
            return out

    report = fuzz(NotJson(), "standard", 2, seed=1, save_dir=tmp_path)
    assert report.errors == 2
    assert all("ValueError" in f.message and "JSON" in f.message for f in report.failures)


def test_fuzz_catches_dead_ends(tmp_path) -> None:
    class Stuck(type(RULES)):  # type: ignore[misc]
        def legal_actions(self, state, role):
            if state["phase"] == "play":
                return []
            return super().legal_actions(state, role)

        def view(self, state, role):
            v = super().view(state, role)
            if state["phase"] == "play":
                v.pop("actions", None)
            return v

    report = fuzz(Stuck(), "standard", 3, seed=1, save_dir=tmp_path)
    assert report.dead_ends == 3
    assert report.ended_by_rule == 0 and report.results == {}


def test_bench_counts_games() -> None:
    out = bench(RULES, "short", 0.2, seed=1)
    assert out["games"] > 0 and out["actions"] >= out["games"]
    assert out["actions_per_s"] > 0
    # one thread: its CPU time is at most the wall time, so the per-CPU-second figure is not lower
    assert 0 < out["cpu_seconds"] <= out["seconds"] + 0.01
    assert out["actions_per_cpu_s"] >= out["actions_per_s"] * 0.99
    # which interpreter made the figures (builds of one Python version differ in speed)
    assert out["python"] == f"{platform.python_implementation()} {platform.python_version()}"
    assert out["python_executable"] == sys.executable


def test_bench_with_fixed_games_does_the_same_work_at_every_run() -> None:
    """``roses bench --fixed-games N`` (for counting instructions, bench/instructions.sh):
    exactly N complete games, whatever the time given, the same actions at every run."""
    first = bench(RULES, "short", 0.0, seed=4, views=True, fixed_games=5)
    again = bench(RULES, "short", 0.0, seed=4, views=True, fixed_games=5)
    assert first["games"] == again["games"] == first["fixed_games"] == 5
    assert first["actions"] == again["actions"] > 0
    assert bench(RULES, "short", 0.0, seed=4, fixed_games=0)["actions"] == 0


def test_bench_views_renders_every_role_and_picks_from_the_view() -> None:
    """``bench(views=True)`` (``roses bench GAME --views``) renders every role's view at every
    step and takes the acting role's choices from its view (and who acts, from the views: a
    complete game's views are rendered once more, at its end, where nobody acts); the default
    bench renders none and its JSON has no ``views`` key."""
    calls: list[str] = []

    class Counting(type(RULES)):  # type: ignore[misc]
        def view(self, state, role):
            calls.append(role)
            return super().view(state, role)

        def legal_actions(self, state, role):
            calls.append("legal")
            return super().legal_actions(state, role)

    rules = Counting()
    out = bench(rules, "short", 0.2, seed=1, views=True)
    assert out["views"] is True and out["games"] > 0
    assert out["actions_per_game"] > 0
    roles = rules.roles("short")
    assert sum(1 for c in calls if c in roles) == len(roles) * (out["actions"] + out["games"])
    calls.clear()
    plain = bench(rules, "short", 0.2, seed=1)
    assert "views" not in plain and "actions_per_game" not in plain
    assert not any(c in roles for c in calls)
