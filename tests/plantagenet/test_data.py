"""Component data: counts (1.2, 1.3.1, 1.5.4, 1.9), references, the Way graph (1.3.1) and the loader's checks."""

from __future__ import annotations

import copy
import json

import pytest

from roses.games.plantagenet import components as comp
from roses.games.plantagenet.components import COUNTS, DataError, build, load


def _raw() -> tuple[dict, dict, dict, dict, dict]:
    return tuple(json.loads((comp.DATA_DIR / f).read_text())
                 for f in ("map.json", "lords.json", "vassals.json", "cards.json", "tables.json"))


def test_component_counts() -> None:
    c = load()
    counts = comp._count(c)
    for key, want in COUNTS.items():
        assert counts[key] == want, key


@pytest.mark.parametrize(("key", "want"), sorted(COUNTS.items()))
def test_each_count(key: str, want: int) -> None:
    assert comp._count(load())[key] == want


def test_way_graph_symmetric_except_one_way_paths_from_scotland() -> None:
    """1.3.1: every Way links both ends, except the one-way Paths Scotland -> Carlisle/Bamburgh."""
    c = load()
    asym = [(a, b) for a, nb in c.adjacency.items() for b in nb if a not in c.adjacency[b]]
    assert sorted(asym) == [("Scotland", "Bamburgh"), ("Scotland", "Carlisle")]
    assert c.adjacency["Scotland"] == {"Bamburgh": "Path", "Carlisle": "Path"}
    for box in ("Burgundy", "France", "Ireland"):
        assert c.adjacency[box] == {}
    assert c.adjacency["Calais"] == {}  # 1.3.1 Calais has no land Ways


def test_known_ways_and_types() -> None:
    c = load()
    adj = c.adjacency
    assert adj["London"]["St Albans"] == "Highway"
    assert adj["St Albans"]["Cambridge"] == "Highway"
    assert adj["London"]["Rochester"] == "Road"
    assert adj["Rochester"]["Canterbury"] == "Road"
    assert adj["Chester"]["York"] == "Path"
    assert set(adj["London"]) == {"St Albans", "Oxford", "Guildford", "Rochester"}


def test_corrected_values_from_research_known_errors() -> None:
    """Where public data sets disagree, use the card renders / map values (RULINGS R6)."""
    c = load()
    assert c.lords["norfolk"]["command"] == 2
    assert c.lords["clarence"]["assets"] == {"provender": 2, "coin": 2, "carts": 1, "ships": 0}
    assert c.locales["Burgundy"]["sea"] == "North Sea"
    assert c.locales["Gloucester"]["area"] is None
    assert sorted(c.area("Wales")) == ["Cardiff", "Harlech", "Hereford", "Ludlow", "Pembroke", "Shrewsbury"]
    assert c.lords["somerset_1"]["ring"] == "lieutenant"
    assert c.lords["gloucester_2"]["ring"] == "marshal"


def test_ports_and_seas() -> None:
    c = load()
    assert sorted(c.ports("North Sea")) == ["Ipswich", "Lynn", "Newcastle", "Ravenspur", "Scarborough"]
    assert sorted(c.ports("Irish Sea")) == ["Bristol", "Harlech", "Pembroke"]
    assert "Arundel" not in c.ports() and "London" not in c.ports() and "Chester" not in c.ports()
    assert c.sea_of("Scotland") == "North Sea" and c.sea_of("France") == "English Channel"
    assert c.seas["Irish Sea"]["adjacent"] == ["English Channel"]


def test_lords_and_vassals() -> None:
    c = load()
    y = c.lords["york"]
    assert (y["influence"], y["lordship"], y["command"], y["valour"]) == (5, 3, 2, 2)
    assert y["seat"] == "Ely" and y["ring"] == "marshal" and y["heir"] == 1
    assert c.lords["henry_vi"]["valour"] == 0
    assert c.vassals["beaumont"]["loyalty"] == {"side": "Lancaster", "value": 2}
    assert c.vassals["fauconberg"] == {"name": "Fauconberg", "seat": "Dover",
                                       "loyalty": {"side": "York", "value": 2}, "service": 3}
    assert {d["card"] for d in c.special_vassals.values()} == {"Y24", "L26", "L23", "L21", "L35", "L19"}


def test_cards_and_command_decks() -> None:
    c = load()
    assert c.cards["Y15"]["event"]["title"] == "London for York"
    assert c.cards["Y15"]["capability"]["lords"] == ["warwick"]
    assert c.cards["L4"]["event"]["timing"] == "this_levy"
    assert c.command_cards["York"].count("pass-1") == 1
    assert len([x for x in c.command_cards["York"] if x.startswith("pass")]) == 4
    assert sorted(c.badges("Lancaster")) == sorted(
        ["henry_vi", "margaret", "somerset", "exeter", "buckingham", "northumberland", "clarence",
         "jasper_tudor", "henry_tudor", "oxford", "warwick"])


def test_tables() -> None:
    t = load().tables
    assert t["strongholds"]["London"] == {"levy": {"men_at_arms": 1, "longbowmen": 1, "militia": 1},
                                          "supply": 3, "tax": 3, "tides": 2}
    assert t["forces"]["militia"]["missile"] == 0.5
    assert sum(t["troop_pool"].values()) == 128


@pytest.mark.parametrize("mutate", [
    lambda m, lo, v, c, t: m["ways"].append(["London", "Atlantis", "Road"]),
    lambda m, lo, v, c, t: m["ways"].append(["London", "Oxford", "Road"]),
    lambda m, lo, v, c, t: m["ways"].__setitem__(0, [m["ways"][0][0], m["ways"][0][1], "Canal"]),
    lambda m, lo, v, c, t: lo["york"].__setitem__("seat", "Atlantis"),
    lambda m, lo, v, c, t: c["Y15"]["capability"].__setitem__("lords", ["henry_vi"]),
    lambda m, lo, v, c, t: v["special"]["hastings"].__setitem__("card", "Y23"),
    lambda m, lo, v, c, t: m["locales"]["Lynn"].__setitem__("type", "Village"),
    lambda m, lo, v, c, t: c.pop("Y37"),
    lambda m, lo, v, c, t: t["troop_pool"].__setitem__("militia", 44),
])
def test_loader_rejects_bad_data(mutate) -> None:  # type: ignore[no-untyped-def]
    raw = copy.deepcopy(_raw())
    mutate(*raw)
    with pytest.raises(DataError):
        build(*raw)
