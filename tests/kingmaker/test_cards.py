"""Kingmaker card data: the Crown deck matches the rulebook's Crown Card Key, every figure
names a source, and the open Event deck matches the Event Card Key's counts."""

from __future__ import annotations

import json
from collections import Counter

from roses.games.kingmaker import cards as K

SOURCES = {"rulebook", "public", "house"}


def _raw() -> dict:
    return json.loads((K.DATA / "cards.json").read_text())


def test_crown_deck_counts() -> None:
    """Crown Card Key (L454-474): 14 untitled and 9 titled nobles, 8 titles, 12 offices (K45),
    6 bishops, 4 ships, 10 towns, 1 royal castle, 8 mercenaries, 2 Plantagenets, French Aid
    (K2), 2 King's Pardons: 77 basic cards; E1 adds Scottish Foot, E2 the Irish Kerns."""
    crown = K.crown_data()
    basic = [c for c in crown.cards if c.level == "basic"]
    kinds = Counter(c.kind for c in basic)
    assert kinds == Counter({K.NOBLE: 23, K.TITLE: 8, K.OFFICE: 12, K.BISHOP: 6, K.SHIP: 4, K.TOWN: 10,
                             K.ROYAL_CASTLE: 1, K.MERCENARY: 8, K.PLANTAGENET: 2, K.FRENCH_AID: 1, K.PARDON: 2})
    assert len(basic) == 77
    nobles = [c for c in basic if c.kind == K.NOBLE]
    assert sum(1 for c in nobles if c.title) == 9 and sum(1 for c in nobles if not c.title) == 14
    assert crown.card("hastings").lords == 1  # K44
    assert crown.card("chancellor").commons == 0  # K45: the table gives his 20
    assert {c.id for c in basic if c.kind == K.OFFICE} >= {
        "chancellor", "lieutenant_of_ireland", "captain_of_calais", "treasurer", "marshal", "admiral",
        "warden_of_the_marches", "warden_of_the_cinque_ports"}
    assert crown.card("french_aid").troops == 100


def test_expansion_mercenaries() -> None:
    """L47-49 (K3, K4): Scottish Foot 50 (E1) and Irish Kerns 50 (E2), placed in their area."""
    crown = K.crown_data()
    scots, kerns = crown.card("scottish_foot"), crown.card("irish_kerns")
    assert (scots.level, scots.troops, scots.lies_in) == ("e1", 50, "scotland")
    assert (kerns.level, kerns.troops, kerns.lies_in) == ("e2", 50, "ireland")


def test_every_figure_names_its_source() -> None:
    raw = _raw()
    assert set(raw["sources"]) == SOURCES
    for card in raw["cards"]:
        for field, src in card.get("src", {}).items():
            assert src in SOURCES, (card["id"], field)
            assert field in card or field == "bonus", (card["id"], field)
        for field in ("troops", "lords", "commons", "castles", "capacity", "port"):
            if card.get(field) not in (None, 0, [], ""):
                assert field in card.get("src", {}) or card["kind"] in ("town", "royal_castle"), (card["id"], field)


def test_heirs_and_their_start_tables() -> None:
    """L73-84: eight heirs with a 1d6 table covering 1-6 each."""
    crown = K.crown_data()
    assert len(crown.heirs) == 8
    for heir in crown.heirs:
        covered = sorted(v for lo, hi, _ in heir.start for v in range(lo, hi + 1))
        assert covered == [1, 2, 3, 4, 5, 6], heir.id


def test_open_event_deck_counts() -> None:
    """Event Card Key (L476-518): the basic deck's counts, the counted E1/E2 cards, and house
    counts for the four '-' cards."""
    deck = K.default_deck()
    by_level: dict[str, Counter] = {lv: Counter() for lv in K.LEVELS}
    for c in deck.cards:
        by_level[c.level][c.kind] += 1
    for kind, (level, count) in K.EVENT_COUNTS.items():
        if count is not None:
            assert by_level[level][kind] == count, kind
    assert sum(by_level["basic"].values()) == 86
    assert sum(1 for c in deck.cards if c.level == "basic" and c.combat) == 66
    assert sum(by_level["e2"].values()) == 22
    raw = json.loads((K.DATA / "events-default.json").read_text())
    for kind, n in raw["house_counts"].items():
        assert by_level["e1"][kind] == n


def test_event_deck_validation() -> None:
    assert K.check_event_deck(json.loads((K.DATA / "events-default.json").read_text())) == []
    bad = {"format": "roses-kingmaker-events/1", "cards": [
        {"id": "a", "kind": "plague", "level": "basic"},
        {"id": "a", "kind": "raid", "level": "basic", "place": "york", "called": ["nobody"]},
        {"id": "b", "kind": "storms", "level": "e9", "combat": {"ratio": [1, 2], "killed": ["ghost"]}},
    ]}
    faults = K.check_event_deck(bad)
    text = "\n".join(faults)
    for needle in ("names a place", "duplicate id", "unknown card 'nobody'", "unknown level", "ratio",
                   "unknown noble 'ghost'"):
        assert needle in text


def test_every_event_kind_is_resolved() -> None:
    """Every kind an Event deck may hold has a resolution (Writ, Free Move and Refuge are kept
    in the hand)."""
    from roses.games.kingmaker import events

    assert set(K.EVENT_KINDS) == set(events.HANDLERS) | {"writ", "free_move", "refuge"}
