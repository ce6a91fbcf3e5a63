"""Plain words: no label, prompt or log line of a played game's views shows an internal id (a
Command card's "york-1", a Lord's "henry_vi"); a Lord's alike Command cards are told apart by
their number in words (4.1)."""

from __future__ import annotations

import random
import re

import pytest

from roses.engine import Game, get_rules
from roses.engine.labels import add_labels

RULES = get_rules("plantagenet")
AVOID = {"cancel", "leave", "disband", "exile", "undo"}
#: A Command card id ("york-1", "pass-2") or a snake_case id ("henry_vi", "men_at_arms").
INTERNAL = re.compile(r"\b[a-z][a-z_]*-\d\b|\b[a-z]+_[a-z_]+\b")


@pytest.mark.parametrize(("scenario", "seed"), [("ia-henry-vi", 3), ("ib-towton", 7), ("iii-my-kingdom-for-a-horse", 2), ("bosworth", 1)])
def test_no_internal_id_in_labels_prompts_or_log(scenario: str, seed: int) -> None:
    game = Game.new(RULES, seed, scenario, {"hidden_mats": True})
    rnd = random.Random(seed)
    seen = 0
    for _ in range(500):
        if game.result() is not None:
            break
        for role in ("York", "Lancaster"):
            view = add_labels(RULES, game.state, role, RULES.view(game.state, role))
            texts = [view["prompt"], *(view.get("log") or [])]
            texts += [t for per_verb in (view.get("labels") or {}).values() for t in per_verb.values()]
            for text in texts:
                assert not INTERNAL.search(text), text
            seen += len(texts)
        role = game.active()[0]
        legal = RULES.legal_actions(game.state, role)
        good = [a for a in legal if a[0] not in AVOID] or legal
        game.apply(role, *rnd.choice(good))
    assert seen > 500


def test_command_cards_are_added_by_lord_and_number_4_1() -> None:
    game = Game.new(RULES, 1, "ia-henry-vi", {})
    while "add" not in dict(RULES.legal_actions(game.state, game.active()[0])):
        role = game.active()[0]
        game.apply(role, *RULES.legal_actions(game.state, role)[0])
    role = game.active()[0]
    view = add_labels(RULES, game.state, role, RULES.view(game.state, role))
    adds = view["labels"]["add"]
    card = next(k for k in adds if k.startswith('"york-'))
    assert adds[card] == f"Add York (card {card.strip(chr(34)).split('-')[1]})"
    game.apply(role, "add", card.strip('"'))
    assert game.state["log"][-1][1] == f"You add York (card {card.strip(chr(34)).split('-')[1]}) to your Plan."
