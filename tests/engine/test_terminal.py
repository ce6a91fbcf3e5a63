"""Terminal play: numbered choices, and nothing hidden shown to the person playing a bot."""

from __future__ import annotations

from roses.ai.bot import RandomBot
from roses.terminal import play_terminal

from .toygame import RULES


def test_terminal_against_bot_shows_only_own_information() -> None:
    out: list[str] = []
    answers = iter(["1"] * 200)
    game = play_terminal(RULES, "short", 3, {"South": RandomBot(7)},
                         read=lambda prompt: next(answers), write=out.append)
    text = "\n".join(out)
    assert game.result() is not None
    # The bot's secret pick is never printed before the reveal, nor any label of its moves.
    before_reveal = text.split("Picks revealed")[0]
    assert before_reveal.count("You picked") == 1  # the human's own private line only
    assert not any(line.startswith("[South]") for line in out)
    assert "South rolls" in text or "South steps" in text  # public moves do reach the human


def test_terminal_rejects_bad_input_and_quits() -> None:
    out: list[str] = []
    answers = iter(["x", "99", "q"])
    game = play_terminal(RULES, "standard", 1, {}, read=lambda prompt: next(answers), write=out.append)
    assert out.count("Please type one of the numbers shown.") == 2
    assert game.actions == [] and game.result() is None


def test_terminal_sets_a_standing_order() -> None:
    """Kingmaker's standing orders typed at the terminal (orders.py): the
    line "standing KIND VALUE" sets one for the seat asked, a wrong one is refused."""
    from roses.engine import get_rules

    km = get_rules("kingmaker")
    out: list[str] = []
    answers = iter(["standing vote:victory no", "standing permit maybe", "Standing permit:P2 deny", "q"])
    game = play_terminal(km, "campaign", 1, {}, read=lambda prompt: next(answers), write=out.append,
                         options={"players": 2})
    assert [a["verb"] for a in game.actions] == ["set_order", "set_order"]
    role = game.actions[0]["role"]
    assert role == "P1"
    assert game.view(role)["standing_orders"]["orders"] == {"vote:victory": "no", "permit:P2": "deny"}
    assert any(line.startswith("Not allowed:") and "takes one of" in line for line in out)


def test_terminal_proposes_and_answers_an_exchange() -> None:
    """Kingmaker's exchanges typed at the terminal (offers.py): "exchange ROLE
    ... ally" proposes, "exchange withdraw N" takes it back; a wrong line is refused."""
    from roses.engine import get_rules

    km = get_rules("kingmaker")
    out: list[str] = []
    answers = iter(["exchange P2 ally", "exchange P9 ally", "exchange withdraw 1", "q"])
    game = play_terminal(km, "campaign", 1, {}, read=lambda prompt: next(answers), write=out.append,
                         options={"players": 2})
    assert [(a["role"], a["verb"], a["arg"]) for a in game.actions] == [
        ("P1", "propose_exchange", {"to": "P2", "give": {"cards": [], "ships": [], "free": []},
                                    "ask": {"cards": [], "ships": [], "free": [], "any": 0}, "ally": True}),
        ("P1", "withdraw_exchange", 1)]
    assert any("Not allowed" in line and "another player's role" in line for line in out)
    assert game.view("P1")["negotiation"]["offers"] == []
