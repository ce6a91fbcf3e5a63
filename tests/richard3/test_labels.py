"""Action labels (the one place button texts come from: views.label, sent as the view's labels)."""

from __future__ import annotations

from roses.games.richard3.data import CARD_AP, CARD_EVENT, CARD_NAME, N_CARDS
from tests.richard3.helpers import RULES, Y, keep_hands, new


def test_labels_name_cards_with_their_ap_and_areas_with_the_action() -> None:
    s = keep_hands(new())
    labels = {arg: RULES.label(s, Y, verb, arg) for verb, arg in RULES.legal_actions(s, Y)}
    for c, text in labels.items():
        assert text.startswith(f"Play {CARD_NAME[c]} ({CARD_AP[c]} AP")
        assert text.endswith(", event)") == bool(CARD_EVENT[c])
    assert RULES.label(s, Y, "move", "Kent") == "Activate the group in Kent"
    assert RULES.label(s, Y, "battle", "Kent") == "Fight the battle in Kent"
    assert RULES.label(s, Y, "main", "North Sea") == "Main Attack from the North Sea"
    assert RULES.label(s, Y, "end_group", None) == "End this group"
    assert RULES.label(s, Y, "play", N_CARDS + 5) == f"Play card {N_CARDS + 5}"
