"""Bots over the rules contract, tested on the toy game (tests/ai/toyai.py)."""

from __future__ import annotations

import io
import json
import pickle
from concurrent.futures import ThreadPoolExecutor
from contextlib import redirect_stdout

import pytest

from roses.ai.arena import arena, play_game, wilson
from roses.ai.bot import Decision, Determinizer, RandomBot, supports_determinize
from roses.ai.checks import determinization_problems
from roses.ai.factory import LEVELS, make_bot, parse_budget
from roses.ai.heuristic import HeuristicBot
from roses.ai.ismcts import ISMCTSBot
from roses.cli import main
from roses.engine.contract import canonical_json
from roses.engine.game import digest
from roses.terminal import play_terminal

from ..engine.toygame import RULES as PLAIN_TOY
from .toyai import RULES

TOY = "tests.ai.toyai:RULES"


def south_picked_first(pick: int) -> dict:
    """A toy position where South has secretly picked ``pick`` and North is to pick."""
    state = RULES.setup(5, "standard")
    return RULES.action(state, "South", "pick", pick)


# ----- determinisation ---------------------------------------------------------------------

def test_toy_determinisation_is_consistent_with_the_roles_knowledge() -> None:
    assert determinization_problems(RULES, "standard", games=4, seed=3, every=1) == []
    assert determinization_problems(RULES, "short", games=4, seed=4, every=1) == []


def test_determinize_resamples_the_hidden_pick_and_hides_nothing_new() -> None:
    state = south_picked_first(3)
    picks = {RULES.determinize(state, "North", seed)["secret"]["South"] for seed in range(40)}
    assert picks == {1, 2, 3}
    world = RULES.determinize(state, "North", 7)
    assert "You picked 3." not in canonical_json(world["log"])
    assert world["rng"] != state["rng"]
    # South's own pick is known to South: never re-sampled for South.
    assert {RULES.determinize(state, "South", s)["secret"]["South"] for s in range(20)} == {3}


def test_determinizer_holds_a_private_copy_and_is_none_without_support() -> None:
    state = south_picked_first(2)
    det = Determinizer.bind(RULES, state, "North")
    assert det is not None and det.role == "North"
    before = digest(det(1))
    RULES.action(state, "North", "pick", 1)  # the game goes on
    assert digest(det(1)) == before
    assert supports_determinize(RULES) and not supports_determinize(PLAIN_TOY)
    assert Determinizer.bind(PLAIN_TOY, state, "North") is None
    with pytest.raises(NotImplementedError, match="no determinisation yet"):
        PLAIN_TOY.determinize(state, "North", 1)


# ----- bots see only what their role may know ----------------------------------------------

@pytest.mark.parametrize("name", ["random", "heuristic", "ismcts:i150", "easy"])
def test_decision_ignores_the_opponents_hidden_information(name: str) -> None:
    """Same view, different hidden truth (South's secret pick), same seed: same move."""
    decisions = set()
    rationales = set()
    for pick in (1, 2, 3):
        state = south_picked_first(pick)
        view = RULES.view(state, "North")
        bot = make_bot(name, seed=11)
        decision = bot.decide(RULES, view, "North", Determinizer.bind(RULES, state, "North"))
        decisions.add(decision.action)
        rationales.add(decision.rationale)
    assert len(decisions) == 1
    assert len(rationales) == 1


def test_decision_ignores_hidden_information_in_play_positions() -> None:
    """Over random positions: a determinised copy of the truth (same view) gives the same move."""
    bot = ISMCTSBot(seed=2, iterations=60)
    state = RULES.setup(9, "standard")
    checked = 0
    for step in range(30):
        if RULES.result(state) is not None:
            break
        role = RULES.active(state)[0]
        other_truth = RULES.determinize(state, role, 1000 + step)
        assert canonical_json(RULES.view(other_truth, role)) == canonical_json(RULES.view(state, role))
        view = RULES.view(state, role)
        a = bot.decide(RULES, view, role, Determinizer.bind(RULES, state, role)).action
        b = bot.decide(RULES, view, role, Determinizer.bind(RULES, other_truth, role)).action
        assert a == b
        checked += 1
        state = RULES.action(state, role, *a)
    assert checked >= 3


# ----- the bots ----------------------------------------------------------------------------

def test_bots_choose_legal_actions_and_explain_them() -> None:
    state = RULES.setup(1, "standard")
    for name in ("random", "heuristic", "ismcts:i50", "ismcts:0.02"):
        bot = make_bot(name, seed=1)
        for role in ("North", "South"):
            action = bot.choose(RULES, RULES.view(state, role), role,
                                Determinizer.bind(RULES, state, role))
            assert action in RULES.legal_actions(state, role)
            assert bot.last_rationale


def test_heuristic_prefers_what_its_evaluation_prefers() -> None:
    state = RULES.setup(1, "standard")
    state = RULES.action(state, "North", "pick", 3)
    state = RULES.action(state, "South", "pick", 1)
    bot = HeuristicBot(seed=1, depth=1)  # one ply: stepping first (free) would tie with rolling
    decision = bot.decide(RULES, RULES.view(state, "North"), "North",
                          Determinizer.bind(RULES, state, "North"))
    assert decision.action == ("roll", None)  # rolling scores; stepping does not
    assert "score +" in decision.rationale
    pick = bot.decide(RULES, RULES.view(RULES.setup(1, "standard"), "North"), "North",
                      Determinizer.bind(RULES, RULES.setup(1, "standard"), "North"))
    assert pick.action == ("pick", 3)


def test_ismcts_budget_by_iterations_is_exact_and_by_time_is_respected() -> None:
    state = RULES.setup(1, "standard")
    view = RULES.view(state, "North")
    det = Determinizer.bind(RULES, state, "North")
    d = ISMCTSBot(seed=1, iterations=77).decide(RULES, view, "North", det)
    assert d.stats["iterations"] == 77 and d.stats["errors"] == 0
    d = ISMCTSBot(seed=1, seconds=0.05).decide(RULES, view, "North", det)
    assert d.stats["seconds"] < 0.5 and d.stats["iterations"] > 1


def test_search_bots_without_determinisation_fall_back_to_a_random_legal_move() -> None:
    state = PLAIN_TOY.setup(1, "standard")
    for name in ("heuristic", "ismcts:i20"):
        bot = make_bot(name, seed=3)
        action = bot.choose(PLAIN_TOY, PLAIN_TOY.view(state, "North"), "North", None)
        assert action in PLAIN_TOY.legal_actions(state, "North")
        assert "no determinisation" in bot.last_rationale


def test_ismcts_beats_random_on_the_toy_game() -> None:
    report = arena(RULES, "standard", ["ismcts:i100", "random"], games=40, seed=5)
    assert report["bots"]["ismcts:i100"]["win_rate"] >= 0.65, report


def test_bots_are_pure_thread_safe_and_picklable() -> None:
    state = south_picked_first(2)
    view = RULES.view(state, "North")
    det = Determinizer.bind(RULES, state, "North")
    assert det is not None
    bot = ISMCTSBot(seed=4, iterations=80)
    first = bot.decide(RULES, view, "North", det)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: bot.decide(RULES, view, "North", det).action, range(8)))
    assert set(results) == {first.action}
    bot2, det2 = pickle.loads(pickle.dumps((bot, det)))
    assert bot2.decide(RULES, view, "North", det2).action == first.action


def test_make_bot_names_levels_and_budgets() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    assert isinstance(make_bot("easy"), HeuristicBot)
    medium, hard = make_bot("medium"), make_bot("hard")
    assert isinstance(medium, ISMCTSBot) and isinstance(hard, ISMCTSBot)
    assert medium.seconds is not None and hard.seconds is not None and hard.seconds > medium.seconds
    b = make_bot("ismcts:i200")
    assert isinstance(b, ISMCTSBot) and b.iterations == 200 and b.seconds is None and b.name == "ismcts:i200"
    b = make_bot("ISMCTS:0.5")
    assert isinstance(b, ISMCTSBot) and b.seconds == 0.5 and b.name == "ismcts:0.5"
    assert parse_budget("i30") == (None, 30) and parse_budget("2s") == (2.0, None)
    for bad in ("ismcts:x", "ismcts:-1", "ismcts:i0", "minimax"):
        with pytest.raises(ValueError):
            make_bot(bad)
    assert set(LEVELS) == {"easy", "medium", "hard"}


# ----- arena -------------------------------------------------------------------------------

def test_wilson_interval() -> None:
    lo, hi = wilson(95, 100)
    assert lo == pytest.approx(0.8882, abs=1e-3) and hi == pytest.approx(0.9785, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_arena_swaps_sides_and_counts() -> None:
    report = arena(RULES, "short", ["heuristic", "random"], games=6, seed=2)
    assert report["games"] == 6
    for b in report["bots"].values():
        assert b["games_as"] == {"North": 3, "South": 3}
    total = sum(b["wins"] for b in report["bots"].values()) + report["draws"] + report["unfinished"]
    assert total == 6
    same = arena(RULES, "short", ["random", "random"], games=2, seed=2)
    assert set(same["bots"]) == {"random", "random#2"}


def test_arena_in_processes_gives_the_same_report() -> None:
    """--jobs: games in a process pool, counted in game order: same results as one process."""
    one = arena(RULES, "short", ["heuristic", "ismcts:i30"], games=6, seed=3)
    two = arena(RULES, "short", ["heuristic", "ismcts:i30"], games=6, seed=3, jobs=2)
    order: list[int] = []
    arena(RULES, "short", ["random", "random"], games=4, seed=3, jobs=2,
          progress=lambda g, out: order.append(g))
    for key in ("games", "draws", "unfinished", "mean_length"):
        assert one[key] == two[key]
    for lab in one["bots"]:
        assert {k: one["bots"][lab][k] for k in ("wins", "wins_as", "games_as")} == \
               {k: two["bots"][lab][k] for k in ("wins", "wins_as", "games_as")}
    assert order == [0, 1, 2, 3]


def test_arena_gives_bots_only_the_view_and_a_determiniser() -> None:
    seen: list[tuple[set[str], bool]] = []

    class Spy(RandomBot):
        def decide(self, rules, view, role, determinize=None):  # type: ignore[no-untyped-def]
            seen.append((set(view), isinstance(determinize, Determinizer)))
            assert "secret" not in view or set(view["secret"]) <= {role} or view["secret"].keys() == {"North", "South"}
            return super().decide(rules, view, role, determinize)

    out = play_game(RULES, "short", {"North": ("a", Spy(1)), "South": ("b", Spy(2))}, seed=3)
    assert out.result in ("North", "South") and out.length == len(seen)
    assert all(has_det and "log" in keys and "actions" in keys for keys, has_det in seen)


def test_arena_cli_json_shape() -> None:
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = main(["arena", TOY, "--scenario", "short", "--bots", "ismcts:i20,random",
                   "--games", "4", "--seed", "3", "--json"])
    assert rc == 0
    data = json.loads(buf.getvalue())
    assert data["games"] == 4 and isinstance(data["mean_length"], float)
    assert set(data["bots"]) == {"ismcts:i20", "random"}
    for b in data["bots"].values():
        assert isinstance(b["wins"], int) and 0.0 <= b["win_rate"] <= 1.0
        assert len(b["ci95"]) == 2


def test_arena_cli_text_and_bench_ai() -> None:
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["arena", TOY, "--bots", "easy,random", "--games", "2"]) == 0
        assert main(["bench", TOY, "--ai", "--seconds", "0.3", "--budget", "i20", "--json"]) == 0
    lines = buf.getvalue().strip().splitlines()
    assert "win rate" in lines[1] and "95% CI" in lines[1]
    bench = json.loads(lines[-1])
    assert bench["positions"] >= 1 and bench["iterations_per_s"] > 0 and bench["iterations_per_cpu_s"] > 0


def test_terminal_play_against_bots() -> None:
    out: list[str] = []
    game = play_terminal(RULES, "short", 4, {"North": make_bot("ismcts:i30", 1), "South": make_bot("easy", 2)},
                         read=lambda _: "q", write=out.append)
    assert game.result() in ("North", "South")
    # Bot-only games are followed through the public log: the bots' moves show there.
    assert any(" rolls " in line or " steps." in line for line in out)


def test_ismcts_root_pruning_keeps_the_heuristics_best() -> None:
    state = RULES.setup(1, "standard")
    bot = make_bot("ismcts:i30:k1:r0:c1.0", seed=2)
    assert isinstance(bot, ISMCTSBot) and bot.top_k == 1 and bot.rollout_depth == 0 and bot.c == 1.0
    decision = bot.decide(RULES, RULES.view(state, "North"), "North", Determinizer.bind(RULES, state, "North"))
    assert decision.action == ("pick", 3)
    with pytest.raises(ValueError):
        make_bot("ismcts:i30:z1")


def test_ismcts_passes_through_forced_moves_in_one_iteration() -> None:
    """A node whose mover has one legal action is no decision: the iteration that reaches it
    goes on below it, so forced moves do not cost the search a level of depth."""
    import random

    from roses.ai.ismcts import Node
    from roses.ai.sim import action_key

    class Forced(type(RULES)):  # type: ignore[misc]
        def legal_actions(self, state, role):  # type: ignore[no-untyped-def]
            legal = super().legal_actions(state, role)
            return [("roll", None)] if role == "South" and state["phase"] == "play" else legal

        def action(self, state, role, verb, arg=None):  # type: ignore[no-untyped-def]
            if (verb, arg) not in self.legal_actions(state, role):
                raise ValueError("illegal")
            return super().action(state, role, verb, arg)

    rules = Forced()
    state = RULES.setup(1, "standard")
    for role, pick in (("North", 1), ("South", 2)):
        state = rules.action(state, role, "pick", pick)
    assert state["phase"] == "play" and state["turn"] == "North"
    bot = ISMCTSBot(seed=1, iterations=3, rollout_depth=0)
    root = Node(None, None)
    allowed = {action_key(a): a for a in rules.legal_actions(state, "North")}
    rng = random.Random(1)
    for _ in range(3):
        bot._iterate(rules, rules.copy_state(state), "North", root, allowed, ["North", "South"], rng)
    twice = [n for n in root.children.values() if n.visits == 2]
    assert len(twice) == 1, "two root expansions, then one descent through the better child"
    (forced,) = twice[0].children.values()
    assert forced.role == "South" and forced.visits == 1
    (below,) = forced.children.values()  # expanded in the same iteration as the forced move
    assert below.role == "North" and below.visits == 1


def test_arena_refuses_an_illegal_bot_move_and_bench_needs_determinisation() -> None:
    from roses.ai.commands import bench_ai
    from roses.engine.errors import IllegalAction, UnknownGame

    class Cheat(RandomBot):
        def decide(self, rules, view, role, determinize=None):  # type: ignore[no-untyped-def]
            return Decision(("roll", None), "rolls out of turn")

    with pytest.raises(IllegalAction, match="illegal action"):
        play_game(RULES, "short", {"North": ("cheat", Cheat(1)), "South": ("r", RandomBot(2))}, seed=1)
    with pytest.raises(UnknownGame, match="no determinisation"):
        bench_ai(PLAIN_TOY, "short", 0.1, 1)


def test_search_leaves_ask_for_threat_horizon_two_and_the_heuristic_for_one() -> None:
    """ISMCTS evaluates its leaves at threat horizon 2 (``Rules.evaluate_all``: a leaf can stop
    anywhere in a turn), the heuristic bot at 1; ``hN`` sets the search's horizon."""
    seen: list[int] = []

    class Recording(type(RULES)):  # type: ignore[misc]
        def evaluate_all(self, state, roles, horizon=1):  # type: ignore[no-untyped-def]
            seen.append(horizon)
            return super().evaluate_all(state, roles)

    rules = Recording()
    state = rules.setup(1, "standard")
    det = Determinizer.bind(rules, state, "North")
    assert make_bot("ismcts:i20:h1").horizon == 1  # type: ignore[attr-defined]
    for name, want in (("ismcts:i20", {2}), ("ismcts:i20:h1", {1}), ("heuristic", {1})):
        seen.clear()
        make_bot(name, seed=3).decide(rules, rules.view(state, "North"), "North", det)
        assert seen and set(seen) == want, name
