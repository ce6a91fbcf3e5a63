"""A game's memo (roses.engine.memo): the caches its rules keep between two views live with the
game, so a thread that renders many games in turn finds each game's caches warm; what is kept
never changes a view (each is the view made afresh)."""

from __future__ import annotations

import random
import threading

from roses.engine import logview
from roses.engine import memo as engine_memo
from roses.engine.contract import canonical_json
from roses.engine.game import Game
from roses.engine.memo import Memo
from roses.games.richard3 import RULES


def test_scope_makes_the_memo_current_and_restores_the_one_before() -> None:
    a, b = Memo(), Memo()
    assert engine_memo.current() is None
    with a.scope():
        assert engine_memo.current() is a.entries
        with b.scope():
            assert engine_memo.current() is b.entries
            assert engine_memo.current_entries() is b.entries  # the same, for hot code
        assert engine_memo.current() is a.entries
        assert engine_memo.current_entries() is a.entries
    assert engine_memo.current() is None
    assert engine_memo.current_entries() is None


def test_kept_makes_a_cache_once_per_memo_and_none_outside_a_scope() -> None:
    m = Memo()
    assert engine_memo.kept("x", list) is None
    with m.scope():
        first = engine_memo.kept("x", list)
        assert first == [] and engine_memo.kept("x", list) is first
    with Memo().scope():
        assert engine_memo.kept("x", list) is not first
    with m.scope():
        assert engine_memo.kept("x", list) is first


def test_a_memo_in_use_by_one_thread_is_not_lent_to_another() -> None:
    """One thread at a time: the other renders without the memo (its own per-thread caches)."""
    m = Memo()
    inside, release = threading.Event(), threading.Event()
    seen: list[object] = []

    def hold() -> None:
        with m.scope():
            inside.set()
            release.wait(5)

    t = threading.Thread(target=hold)
    t.start()
    assert inside.wait(5)
    with m.scope():
        seen.append(engine_memo.current())
    release.set()
    t.join(5)
    assert seen == [None]
    with m.scope():  # free again
        assert engine_memo.current() is m.entries


def _step(game: Game, picker: random.Random) -> bool:
    if game.result() is not None:
        return False
    active = game.active()
    role = active[0] if len(active) == 1 else picker.choice(active)
    legal = game.rules.legal_actions(game.state, role)
    game.apply(role, *legal[picker.randrange(len(legal))])
    return True


def test_views_of_games_rendered_in_turn_are_the_views_made_afresh() -> None:
    """4.2 (what each role sees): three Richard III games played in turn in one thread, every
    role's view after every action made with each game's memo equals the view made with nothing
    kept; and each game's memo holds its own log windows."""
    picker = random.Random(3)
    games = [Game.new(RULES, seed, scenario) for seed, scenario in
             ((1, "richard-iii"), (2, "wars-of-the-roses"), (3, "kingmaker"))]
    steps = 0
    for _ in range(120):
        for game in games:
            if not _step(game, picker):
                continue
            steps += 1
            for role in ("York", "Lancaster", "Observer"):
                kept = canonical_json(game.rules_view(role))
                logview._kept.clear()
                assert kept == canonical_json(RULES.view(game.state, role))
    assert steps > 200
    for game in games:
        assert game.memo.entries.get("logview")


def test_a_game_keeps_few_log_windows() -> None:
    """Undos leave logs behind (the restored state has a log list of its own): a game's memo
    keeps at most GAME_LOGS windows."""
    m = Memo()
    with m.scope():
        for i in range(3 * logview.GAME_LOGS):
            log = [["", f"line {i}", ""]]  # a public line (roses.engine.log.PUBLIC)
            assert logview.shared_recent_log(log, "York")[0] == [f"line {i}"]
        assert 0 < len(m.entries["logview"]) <= logview.GAME_LOGS
