"""The Kingmaker board: format, loader, lookups, the validator and ``roses kingmaker check-board``.

Small broken boards (one per kind of fault) are made from the example board of the format
(``roses/games/kingmaker/data/example-board.json``); the shipped open board must pass every
check, including the places the rulebook and the card data name.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from roses.cli import main
from roses.games.kingmaker import cards
from roses.games.kingmaker.board import (
    DATA_DIR,
    DEFAULT_BOARD,
    RULEBOOK_PLACES,
    BoardError,
    build_board,
    check_board,
    column_name,
    load_board,
    parse_square_id,
    read_board_data,
    square_id,
)

EXAMPLE = DATA_DIR / "example-board.json"


def example() -> dict[str, Any]:
    return read_board_data(EXAMPLE)


def faults_of(change: Callable[[dict[str, Any]], None], **kw: Any) -> list[str]:
    data = copy.deepcopy(example())
    change(data)
    return check_board(data, rulebook=False, **kw)


def place(data: dict[str, Any], pid: str) -> dict[str, Any]:
    return next(p for p in data["places"] if p["id"] == pid)


def one_fault(change: Callable[[dict[str, Any]], None], expected: str, **kw: Any) -> None:
    faults = faults_of(change, **kw)
    assert len(faults) == 1, faults
    assert expected in faults[0], faults


# ----- square ids -----------------------------------------------------------------------

def test_square_ids_round_trip() -> None:
    assert column_name(0) == "A" and column_name(25) == "Z" and column_name(26) == "AA"
    assert square_id(2, 11) == "C12"
    for col in (0, 1, 25, 26, 27, 51, 52, 701):
        for row in (0, 9, 43):
            assert parse_square_id(square_id(col, row)) == (col, row)
    assert parse_square_id("a1") is None and parse_square_id("A0") is None
    assert parse_square_id("12") is None


# ----- the example board: loader and lookups --------------------------------------------

def test_example_board_is_valid_and_loads() -> None:
    assert check_board(example(), rulebook=False) == []
    b = load_board(EXAMPLE, rulebook=False)
    assert b is load_board(EXAMPLE, rulebook=False)  # cached
    assert (b.columns, b.rows, len(b.squares)) == (6, 5, 30)
    london = b.place("london")
    assert london.square == "A4" and london.type == "city" and london.garrison == 300
    assert london.port == ("A5", "B5") and london.parliament and london.commons == "city"
    assert b.places_at["A4"] == ("london", "tower_of_london")
    tower = b.place("tower_of_london")
    assert tower.royal and tower.commons is None and not tower.parliament
    assert b.place("rotherham").garrison == 0 and not b.place("rotherham").fortified


def test_example_board_edges_and_steps() -> None:
    b = load_board(EXAMPLE, rulebook=False)
    # 8 neighbours, diagonals included, symmetric edges
    assert set(b.neighbours["B2"]) == {"A1", "B1", "C1", "A2", "C2", "A3", "B3", "C3"}
    for (a, c), e in b.edges.items():
        assert b.edge(c, a) is e
    diag = b.edge("A1", "B2")
    assert diag is not None and diag.diagonal and diag.river == "trent"  # a river on a diagonal
    assert b.edge("A1", "C1") is None
    # an estuary is not a land step, a river is (movement, L136)
    assert b.edge("D1", "D2") is not None and b.edge("D1", "D2").estuary == "humber"  # type: ignore[union-attr]
    steps = {t for t, _ in b.land_steps["D1"]}
    assert "D2" not in steps and "E2" not in steps and "C2" not in steps and "E1" in steps
    assert "A2" in {t for t, _ in b.land_steps["A1"]}
    # roads (L134)
    assert {t for t, _ in b.road_steps["A3"]} == {"A4", "B2"}
    assert b.square("B2").road and not b.square("C3").road
    # sea and ports (L166: the port is a square of its own)
    assert b.sea_steps["A4"] == () and "C5" in b.sea_steps["B5"]
    assert b.port_distances("C5") == {"london": 2, "carisbrooke": 3}
    assert b.ports_at_sea["F5"] == ("carisbrooke",)
    # areas, zones, landmarks
    assert b.area_of("F4").refuge and b.area_of("F4").island
    assert b.area_neighbours["wight"] == {"channel"}
    assert b.area_neighbours["channel"] == {"england", "wight"}
    assert b.in_zone("C1", "north_of_trent") and not b.in_zone("C3", "north_of_trent")
    assert b.location("wolds") == "C3" and b.location("york") == "B1"
    # distances by land stop at the island and at the estuary
    dist = b.land_distances("A4")
    assert "F4" not in dist and dist["A1"] == 3


# ----- one broken board per kind of fault -------------------------------------------------

def test_fault_unknown_top_level_field() -> None:
    one_fault(lambda d: d.update(colour="red"), "board: unknown field 'colour'")


def test_fault_unknown_place_field() -> None:
    one_fault(lambda d: place(d, "york").update(archbishop=True),
              "place 'york': unknown field 'archbishop'")


def test_fault_missing_required_field() -> None:
    one_fault(lambda d: place(d, "york").pop("garrison"), "place 'york': missing field 'garrison'")
    one_fault(lambda d: d.pop("places"), "board: missing field 'places'")


def test_fault_duplicate_place_id() -> None:
    one_fault(lambda d: d["places"].append(copy.deepcopy(place(d, "york"))),
              "places: duplicate id 'york'")


def test_fault_duplicate_key_in_file(tmp_path: Path) -> None:
    text = EXAMPLE.read_text().replace('"id": "york", "name": "York",',
                                       '"id": "york", "name": "York", "name": "Eboracum",')
    path = tmp_path / "dup.json"
    path.write_text(text)
    faults = check_board(read_board_data(path), rulebook=False)
    assert faults == ["place 'york': field 'name' appears twice"]


def test_fault_bad_id() -> None:
    one_fault(lambda d: place(d, "york").update(id="York City"),
              "id must be lowercase ASCII words joined by '_'")


def test_fault_same_id_for_place_and_area() -> None:
    one_fault(lambda d: place(d, "york").update(id="england"),
              "id 'england' is both a place and a area")


def test_fault_format_and_version() -> None:
    one_fault(lambda d: d.update(format="vassal"), "format must be 'roses-kingmaker-board'")
    one_fault(lambda d: d.update(version=2), "version 2 is not supported")


def test_fault_unknown_terrain_code() -> None:
    def change(d: dict[str, Any]) -> None:
        d["terrain"][0] = "ooomf."
    one_fault(change, "square D1: unknown terrain code 'm'")


def test_fault_row_length_and_count() -> None:
    def short(d: dict[str, Any]) -> None:
        d["terrain"][2] = "oooo."
    one_fault(short, "terrain: row 3 has 5 characters, the grid has 6 columns")

    def fewer(d: dict[str, Any]) -> None:
        d["area_map"].pop()
    one_fault(fewer, "area_map: has 4 rows, the grid has 5")


def test_fault_unknown_area_code_and_wrong_kind() -> None:
    def unknown(d: dict[str, Any]) -> None:
        d["area_map"][0] = "XEEEEc"
    one_fault(unknown, "square A1: unknown area code 'X'")

    def wrong(d: dict[str, Any]) -> None:
        d["area_map"][2] = "EEEEEc"  # E3 is sea in the terrain, in the land area england
    one_fault(wrong, "square E3: sea square in land area 'england'")


def test_fault_bad_areas() -> None:
    one_fault(lambda d: d["areas"][0].update(kind="swamp"), "area 'england': kind must be")
    faults = faults_of(lambda d: d["areas"][1].update(code="E"))
    assert "area 'wight': code 'E' is also the code of area 'england'" in faults[0]


def test_fault_zone_square_not_on_board() -> None:
    one_fault(lambda d: d["zones"][0]["squares"].append("Z9"),
              "zone 'north_of_trent': square Z9 is not on the board")


def test_fault_edge_between_non_adjacent_squares() -> None:
    one_fault(lambda d: d["rivers"][0]["edges"].append(["A1", "C1"]),
              "river 'trent': edge A1-C1 joins squares that are not adjacent")


def test_fault_river_on_sea() -> None:
    one_fault(lambda d: d["rivers"][0]["edges"].append(["E3", "F3"]),
              "river 'trent': square E3 is sea, it must be land")


def test_fault_edge_with_two_features() -> None:
    one_fault(lambda d: d["rivers"][0]["edges"].append(["D1", "D2"]),
              "estuary 'humber': edge D1-D2 already carries river 'trent'")


def test_fault_road_gap_and_estuary() -> None:
    one_fault(lambda d: d["roads"][0]["squares"].append("D1"),
              "road 'north_road': B1 and D1 follow each other but are not adjacent")
    one_fault(lambda d: d["roads"].append({"id": "ferry", "name": "Ferry",
                                           "squares": ["D1", "D2"]}),
              "road 'ferry': crosses the estuary between D1 and D2")


def test_fault_crossing_over_no_water() -> None:
    one_fault(lambda d: d["crossings"].append({"id": "ford", "name": "Ford",
                                               "edges": [["A1", "A2"]]}),
              "crossing 'ford': edge A1-A2 crosses no estuary")


def test_fault_place_square() -> None:
    one_fault(lambda d: place(d, "york").update(square="E3"),
              "place 'york': square E3 is sea, it must be land")
    one_fault(lambda d: place(d, "york").update(square="Q99"),
              "place 'york': square Q99 is not on the board")
    one_fault(lambda d: place(d, "york").update(square="b1"), "'b1' is not a square id")


def test_fault_place_attributes() -> None:
    one_fault(lambda d: place(d, "york").update(type="village"),
              "place 'york': type must be one of city, town, castle")
    one_fault(lambda d: place(d, "tower_of_london").update(fortified=False),
              "place 'tower_of_london': a castle is always fortified")
    one_fault(lambda d: place(d, "rotherham").update(garrison=100),
              "place 'rotherham': an unfortified town has no garrison")
    one_fault(lambda d: place(d, "york").update(garrison=-5),
              "place 'york': garrison must be a whole number of troops, 0 or more")
    one_fault(lambda d: place(d, "tower_of_london").update(commons="town"),
              "place 'tower_of_london': a castle has no Commons vote")
    one_fault(lambda d: place(d, "tower_of_london").update(parliament=True),
              "place 'tower_of_london': Parliament may not meet in a castle")
    one_fault(lambda d: place(d, "york").update(royal=True), "only a castle can be royal")
    one_fault(lambda d: place(d, "york").update(level="e3"), "level must be one of")


def test_fault_port_not_on_sea() -> None:
    one_fault(lambda d: place(d, "london").update(port=["A3"]),
              "place 'london' port: square A3 is land, it must be sea")
    one_fault(lambda d: place(d, "london").update(port=["D5"]),
              "place 'london': port links to sea square D5, which is not next to its square A4")


def test_fault_land_cut_off() -> None:
    # Carisbrooke's island without its port cannot be reached
    one_fault(lambda d: place(d, "carisbrooke").pop("port"),
              "land: squares F4 (places carisbrooke) cannot be reached")


def test_fault_sea_cut_off() -> None:
    def change(d: dict[str, Any]) -> None:
        d["terrain"][0] = "oooff."
        d["terrain"][1] = "ooffoo"  # F2 becomes land: F1 is a sea pocket
        d["area_map"][1] = "EEEEEE"
    faults = faults_of(change)
    assert faults == ["sea: squares F1 are cut off from the main sea"], faults


def test_fault_card_place_missing() -> None:
    one_fault(lambda d: None, "the card data names 'bamburgh', which is not on the board",
              required=["london", "bamburgh", "wolds", "england"])


def test_fault_card_zone_missing() -> None:
    one_fault(lambda d: None, "the card data names zone 'wales', which is not on the board",
              required_zones=["north_of_trent", "wales"])


def test_fault_bad_projection() -> None:
    one_fault(lambda d: d["grid"].update(projection={"type": "mercator"}),
              "grid: projection must be")


def test_fault_messages_name_the_kind() -> None:
    one_fault(lambda d: d["estuaries"][0].update(width=3), "estuary 'humber': unknown field 'width'")


def test_fault_rulebook_needs() -> None:
    data = example()
    faults = check_board(data)  # rulebook checks on: a toy board lacks most of it
    assert "the rulebook names place 'bristol', which is not on the board" in faults
    assert "the rulebook names area 'scotland', which is not on the board" in faults
    assert "the rules name landmark 'cheviots', which is not on the board" in faults
    assert "the rulebook names area 'man', which is not on the board" in faults
    place(data, "carisbrooke")["square"] = "C3"
    assert "place 'carisbrooke' must stand in area 'wight' (§Refuges)" in check_board(data)
    assert "place 'london' must be a city with garrison 300 (§Refuges)" not in faults
    place(data, "london")["garrison"] = 200
    assert "place 'london' must be a city with garrison 300 (§Refuges)" in check_board(data)


def test_load_board_rejects_a_broken_board(tmp_path: Path) -> None:
    data = example()
    place(data, "york")["square"] = "E3"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    with pytest.raises(BoardError) as err:
        load_board(path, rulebook=False)
    assert err.value.faults == ["place 'york': square E3 is sea, it must be land"]


# ----- the shipped open board ------------------------------------------------------------

def test_shipped_board_passes_every_check() -> None:
    data = read_board_data(DEFAULT_BOARD)
    zones = {c.bonus_zone for c in cards.crown_data().cards if c.bonus_zone}
    assert check_board(data, sorted(cards.place_ids()), required_zones=zones) == []
    assert "not the published Kingmaker board" in data["notice"]


def test_shipped_board_has_what_the_rules_use() -> None:
    b = load_board()
    assert b is load_board(None)
    for pid in RULEBOOK_PLACES:
        assert b.place(pid)
    assert b.place("bamburg") is b.place("bamburgh")  # the rulebook's spelling
    # refuges and their ports (E1, L140-158)
    for pid, area in (("calais", "pale_of_calais"), ("beaumaris", "anglesey"),
                      ("douglas", "man"), ("carisbrooke", "wight"), ("dublin", "ireland")):
        assert b.place(pid).area == area and b.place(pid).port
    for area in ("ireland", "continent", "anglesey", "wight", "man", "scotland"):
        assert b.areas[area].refuge
    assert b.areas["england"].england and b.areas["wales"].england
    assert {"england", "wales", "scotland", "irish_sea"} <= b.area_neighbours["irish_sea"] | {
        "irish_sea"}
    assert "channel" in b.area_neighbours["north_sea"] and "england" in b.area_neighbours["wales"]
    assert "ireland" not in b.area_neighbours["england"]
    assert not b.areas["pale_of_calais"].england
    # Caernarvon's square touches Anglesey across the Menai crossing (L156)
    car = b.place("caernarvon").square
    crossing = [t for t in b.neighbours[car] if b.edge(car, t).crossing]  # type: ignore[union-attr]
    assert crossing and all(b.squares[t].area == "anglesey" for t in crossing)
    assert all(b.edge(car, t).estuary for t in crossing)  # type: ignore[union-attr]
    # major cities, Parliament, Commons (L153, L331, L345)
    for pid in ("london", "york", "bristol", "dublin"):
        assert b.place(pid).garrison == 300
    assert b.place("dublin").level == "e2"
    for pid in ("calais", "dublin"):
        assert not b.place(pid).parliament and b.place(pid).commons is None
    assert b.place("london").commons == "city" and b.place("newark").commons == "town"
    assert not b.place("windsor").parliament
    # Royal Hunt: Rotherham stands in a forest square
    assert b.squares[b.place("rotherham").square].forest
    assert b.location("rotherham_forest") == b.place("rotherham").square
    # bishops' sees are cathedrals; ships' home ports are ports
    for pid in ("canterbury", "york", "durham", "carlisle", "lincoln", "norwich"):
        assert b.place(pid).cathedral
    crown = cards.crown_data()
    for c in crown.cards:
        if c.port:
            assert b.place(c.port).port, c.port
    for s in crown.office_ships:
        assert b.place(s.port).port, s.port
    # every card bonus zone exists
    for c in crown.cards:
        if c.bonus_zone:
            assert b.zones[c.bonus_zone], c.bonus_zone


def test_shipped_board_geography() -> None:
    b = load_board()
    sq = {p: b.squares[b.place(p).square] for p in b.places}
    # north is up, east is right
    assert sq["berwick"].row < sq["york"].row < sq["london"].row < sq["plymouth"].row
    assert sq["st_davids"].col < sq["bristol"].col < sq["london"].col < sq["calais"].col
    assert sq["dublin"].col < sq["caernarvon"].col
    # every place's recorded coordinates fall in its own square
    for p in b.places.values():
        assert p.geo is not None
        lat, lon = p.geo
        square = b.squares[p.square]
        assert square.geo is not None
        assert abs(square.geo[0] - lat) < 0.09, p.id  # half a 16 km square of latitude
    # zones hold the places they should
    zone = {z: set(s) for z, s in b.zones.items()}
    assert sq["harlech"].id in zone["wales"] and sq["beaumaris"].id in zone["wales"]
    assert sq["plymouth"].id in zone["devon_cornwall"] and sq["london"].id not in zone["wales"]
    assert sq["york"].id in zone["north_of_trent"] and sq["coventry"].id not in zone["north_of_trent"]
    assert sq["durham"].id in zone["north_of_tees"] and sq["york"].id not in zone["north_of_tees"]
    assert sq["lancaster"].id in zone["lancaster"] and sq["lathom"].id in zone["lancaster"]
    assert zone["london"] == {sq["london"].id} and sq["calais"].id in zone["calais"]
    assert sq["dublin"].id in zone["ireland"]
    # terrain from geography: Sherwood and the Weald are forest, London's square is open
    assert any(b.squares[s].forest for s in b.neighbours[sq["nottingham"].id] + (sq["nottingham"].id,))
    assert not sq["london"].forest
    # the great rivers and estuaries are there; London, York and Berwick lie on the Great North Road
    for f in ("thames", "severn", "trent", "tamar", "severn_estuary", "great_north_road",
              "watling_street", "fosse_way", "ermine_street"):
        assert f in b.features
    gnr = set(b.features["great_north_road"].squares)
    assert {sq["london"].id, sq["york"].id, sq["berwick"].id} <= gnr
    # one main land mass: York and Canterbury, Chester and Carlisle are joined by land
    dist = b.land_distances(sq["york"].id)
    for p in ("canterbury", "chester", "carlisle", "st_davids", "plymouth", "berwick"):
        assert sq[p].id in dist, p
    for p in ("beaumaris", "carisbrooke", "douglas", "dublin", "calais"):
        assert sq[p].id not in dist, p
    # estuaries keep the banks apart (L136): the way round is longer than the straight line
    def steps(a: str, c: str) -> int | None:
        return b.land_distances(sq[a].id).get(sq[c].id)

    def straight(a: str, c: str) -> int:
        return max(abs(sq[a].col - sq[c].col), abs(sq[a].row - sq[c].row))

    for a, c in (("liverpool", "chester"), ("chepstow", "berkeley"), ("hull", "lincoln"),
                 ("plymouth", "fowey")):
        found = steps(a, c)
        assert found is not None and found > straight(a, c), (a, c)
    for a, c in (("liverpool", "lathom"), ("hull", "beverley"), ("plymouth", "dartmouth")):
        assert steps(a, c) == straight(a, c), (a, c)
    # ships: every port is reachable by sea from every other
    start = b.place("london").port[0]
    assert set(b.port_distances(start)) == set(b.ports)


@pytest.mark.slow
def test_shipped_board_matches_its_generator() -> None:
    """board.json is what data/make_board.py makes (needs the optional '.[board]' extra)."""
    pytest.importorskip("global_land_mask")
    from roses.games.kingmaker.data import make_board

    assert make_board.dump(make_board.generate()) == DEFAULT_BOARD.read_text(encoding="utf-8")


# ----- the command -----------------------------------------------------------------------

def test_command_accepts_the_shipped_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kingmaker", "check-board", str(DEFAULT_BOARD)]) == 0
    out = capsys.readouterr().out
    assert "valid board 'roses-open'" in out


def test_command_rejects_a_broken_board(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    data = read_board_data(DEFAULT_BOARD)
    data["places"] = [p for p in data["places"] if p["id"] != "bamburgh"]
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    assert main(["kingmaker", "check-board", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"{path}: the card data names 'bamburgh', which is not on the board" in out
    assert f"{path}: the rulebook names place 'bamburgh', which is not on the board" in out
    assert len(out) == 2
    assert main(["kingmaker", "check-board", str(path), "--json"]) == 1
    res = json.loads(capsys.readouterr().out)
    assert res["valid"] is False and len(res["faults"]) == 2


def test_command_reports_unreadable_files(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{\"format\": ")
    assert main(["kingmaker", "check-board", str(bad)]) == 1
    assert "not valid JSON" in capsys.readouterr().out
    assert main(["kingmaker", "check-board", str(tmp_path / "none.json")]) == 1
    assert "no such file" in capsys.readouterr().out
    assert main(["kingmaker", "check-board", str(EXAMPLE), "--no-cards", "--no-rulebook"]) == 0


def test_build_board_from_data_without_a_file() -> None:
    b = build_board(example())
    assert b.id == "example" and b.place("york").square == "B1"


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, prefix + (i,))
    return out


def test_validator_reports_instead_of_crashing_on_any_wrong_value() -> None:
    """Every field of the example board replaced by values of the wrong type or shape: the
    validator returns its list of faults and never raises."""
    base = example()
    wrong: list[Any] = [None, 7, -1, True, "x", "", [], {}, [1, 2], ["A1"], {"a": 1}, 2.5]
    checked = 0
    for path in _paths(base)[1:]:
        for value in wrong:
            data = copy.deepcopy(base)
            obj = data
            for k in path[:-1]:
                obj = obj[k]
            obj[path[-1]] = copy.deepcopy(value)
            faults = check_board(data)
            assert isinstance(faults, list) and all(isinstance(f, str) for f in faults)
            checked += 1
    assert checked > 1500
