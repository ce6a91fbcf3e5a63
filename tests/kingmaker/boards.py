"""Small boards for the Kingmaker rules tests (the board format of docs/kingmaker/board.md).

``RULES_BOARD`` (14 x 7 squares, columns A-N, rows 1-7):

* a forest wall in column G, rows 1-4; the sea in column N, row 7 and a pocket G5-I5, G6, I6;
* an estuary between columns D and E from row 3 down (diagonals included);
* a road along row 1 from A1 to L1, with the neutral castle Richmond at J1;
* Nottingham (town, garrison 100) at C4, London (city, cathedral, garrison 300) at B5;
* ports: Hull at F6 (on G6), King's Lynn at J6 (on I6), and the refuge island square H6
  (Wight) with Carisbrooke, a port on H7.
"""

from __future__ import annotations

import copy
from typing import Any

TERRAIN = [
    "oooooofoooooo.",
    "oooooofoooooo.",
    "oooooofoooooo.",
    "oooooofoooooo.",
    "oooooo...oooo.",
    "oooooo.o.oooo.",
    "..............",
]
AREAS = [
    "EEEEEEEEEEEEEc",
    "EEEEEEEEEEEEEc",
    "EEEEEEEEEEEEEc",
    "EEEEEEEEEEEEEc",
    "EEEEEEcccEEEEc",
    "EEEEEEcwcEEEEc",
    "cccccccccccccc",
]
ESTUARY = [["D3", "E3"], ["D4", "E4"], ["D5", "E5"], ["D6", "E6"], ["D3", "E4"], ["D4", "E3"],
           ["D4", "E5"], ["D5", "E4"], ["D5", "E6"], ["D6", "E5"]]

RULES_BOARD: dict[str, Any] = {
    "format": "roses-kingmaker-board",
    "version": 1,
    "id": "rules-test",
    "name": "Rules test board",
    "grid": {"columns": 14, "rows": 7},
    "areas": [
        {"id": "england", "code": "E", "name": "England", "kind": "land", "england": True},
        {"id": "wight", "code": "w", "name": "Isle of Wight", "kind": "land", "refuge": True, "island": True},
        {"id": "channel", "code": "c", "name": "The Channel", "kind": "sea"},
    ],
    "terrain": TERRAIN,
    "area_map": AREAS,
    "zones": [],
    "rivers": [{"id": "trent", "name": "Trent", "edges": [["A2", "A3"], ["B2", "B3"]]}],
    "estuaries": [{"id": "wash", "name": "The Wash", "edges": ESTUARY}],
    "roads": [{"id": "north_road", "name": "North Road",
               "squares": ["A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "I1", "J1", "K1", "L1"]}],
    "crossings": [],
    "places": [
        {"id": "richmond", "name": "Richmond", "square": "J1", "type": "castle", "fortified": True,
         "garrison": 100, "capacity": 200},
        {"id": "nottingham", "name": "Nottingham", "square": "C4", "type": "town", "fortified": True,
         "garrison": 100, "capacity": 300},
        {"id": "london", "name": "London", "square": "B5", "type": "city", "fortified": True,
         "garrison": 300, "capacity": 600, "cathedral": True},
        {"id": "hull", "name": "Hull", "square": "F6", "type": "town", "fortified": True,
         "garrison": 100, "capacity": 200, "port": ["G6"]},
        {"id": "kings_lynn", "name": "King's Lynn", "square": "J6", "type": "town", "fortified": True,
         "garrison": 100, "capacity": 200, "port": ["I6"]},
        {"id": "carisbrooke", "name": "Carisbrooke", "square": "H6", "type": "castle", "fortified": True,
         "royal": True, "garrison": 100, "capacity": 200, "port": ["H7"]},
    ],
    "landmarks": [],
}


def rules_board(without_refuge: bool = False) -> dict[str, Any]:
    """The rules board; ``without_refuge``: the island H6 and its port Carisbrooke are sea."""
    data = copy.deepcopy(RULES_BOARD)
    if without_refuge:
        data["places"] = [p for p in data["places"] if p["id"] != "carisbrooke"]
        data["terrain"][5] = data["terrain"][5][:7] + "." + data["terrain"][5][8:]
        data["area_map"][5] = data["area_map"][5][:7] + "c" + data["area_map"][5][8:]
        data["areas"] = [a for a in data["areas"] if a["id"] != "wight"]
    return data
