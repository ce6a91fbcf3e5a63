"""``roses arena`` for games of any number of players: seats rotated, game options, how the
games ended, rounds and seconds per decision; a wrong number of bots is a clear error."""

from __future__ import annotations

import pytest

from roses.ai.arena import arena, format_report
from roses.ai.commands import bot_list
from roses.cli import main
from roses.games.kingmaker import RULES


def test_seats_rotate_over_every_role_and_the_report_says_how_games_ended() -> None:
    report = arena(RULES, "campaign", ["random", "random", "random"], 3, seed=2,
                   options={"players": 3, "rules": "e1", "rounds": 1})
    for b in report["bots"].values():  # each bot sat once in each seat
        assert b["games_as"] == {"P1": 1, "P2": 1, "P3": 1}
    assert report["unfinished"] == 0
    assert report["ended"] == {"end_round_limit": 3}
    assert report["rounds"]["max"] == 2  # the round after the limit of 1 (ruling K50)
    c = report["bots"]["random"]["think_s_per_choice"]
    assert c["n"] > 0 and 0 <= c["median"] <= c["max"]
    text = format_report(report)
    assert "seats rotated" in text and "end_round_limit 3" in text and "players=3" in text


def test_bot_list_expands_repeated_seats() -> None:
    assert bot_list("heuristic,random*3") == ["heuristic", "random", "random", "random"]
    assert bot_list("ismcts:0.5, easy") == ["ismcts:0.5", "easy"]


def test_a_wrong_number_of_bots_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "kingmaker", "--players", "4", "--rules", "e2", "--bots", "random,random", "--games", "1"])
    err = capsys.readouterr().err
    assert code == 2
    assert "needs 4 bots, one per role (P1, P2, P3, P4)" in err and "Traceback" not in err


@pytest.mark.parametrize(("args", "message"), [
    (["--option", "colour=red"], "has no option 'colour'"),
    (["--rules", "e9"], "rules"),
    (["--option", "rounds"], "KEY=VALUE"),
])
def test_bad_game_options_are_clear_errors(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code = main(["arena", "kingmaker", "--players", "2", "--bots", "random*2", "--games", "1", *args])
    assert code == 2
    assert message in capsys.readouterr().err
