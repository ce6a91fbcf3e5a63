"""The Kingmaker board for the browser, built from the game's own board module.

Kingmaker's board is data (``docs/kingmaker/board.md``): a game may be played on the shipped open
board or on a supplied one. So the browser does not load a fixed drawing: the page asks for
``/games/{id}/board.json`` (the rules' ``board_data``), which this module builds from the board the game uses
(:func:`roses.games.kingmaker.board.load_board` of the game's ``board`` option, the shipped
board when there is none). Everything in it is public component data: the grid (terrain, areas,
the regional zones' names, each square in words), rivers, estuaries, roads and crossings, the places with their
garrisons, capacities, ports and Commons class, and the landmarks. Pieces and cards come only
from the role's view (the client draws them: ``static/js/games/kingmaker.js``).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from roses.engine.contract import canonical_json
from roses.games.kingmaker.board import Board, board_of_option, load_board
from roses.games.kingmaker.names import square_names

#: Map units per square (the client draws each square as a CELL x CELL box).
CELL = 72


def board_data(board: Board) -> dict[str, Any]:
    """The drawing data of ``board``: plain JSON, the same for every role."""
    terrain = [[" "] * board.columns for _ in range(board.rows)]
    area_rows = [[" "] * board.columns for _ in range(board.rows)]
    for sq in board.squares.values():
        terrain[sq.row][sq.col] = ("f" if sq.forest else "o") if sq.land else "."
        area_rows[sq.row][sq.col] = board.areas[sq.area].code
    features = [{"id": f.id, "name": f.name, "kind": f.kind, "squares": list(f.squares),
                 "edges": [list(e) for e in f.edges]} for f in board.features.values()]
    places = {
        p.id: {"name": p.name, "square": p.square, "type": p.type, "fortified": p.fortified,
               "royal": p.royal, "garrison": p.garrison, "capacity": p.capacity,
               "cathedral": p.cathedral, "port": list(p.port), "parliament": p.parliament,
               "commons": p.commons, "level": p.level, "area": p.area, "at": list(p.at)}
        for p in board.places.values()
    }
    return {
        "format": "roses-kingmaker-board-drawing", "id": board.id, "name": board.name,
        "notice": plain_notice(board.notice), "columns": board.columns, "rows": board.rows, "cell": CELL,
        "viewBox": [0, 0, board.columns * CELL, board.rows * CELL],
        "terrain": ["".join(r) for r in terrain], "area_map": ["".join(r) for r in area_rows],
        "areas": {a.id: {"code": a.code, "name": a.name, "kind": a.kind, "refuge": a.refuge,
                         "island": a.island} for a in board.areas.values()},
        "zones": dict(board.zone_names),
        "features": features,
        "places": places,
        "landmarks": {m.id: {"name": m.name, "square": m.square} for m in board.landmarks.values()},
        # every square in words, as labels and the log name it (names.py): the map never shows
        # a square's grid id to a player
        "square_names": dict(square_names(board)),
    }


def plain_notice(text: str) -> str:
    """A board's notice without the file paths it may cite (words for players, not developers):
    "drawn by roses/games/kingmaker/data/make_board.py over ..." -> "drawn over ..."."""
    return re.sub(r"\s+by\s+\S+\.py\b", "", text or "")


@lru_cache(maxsize=8)
def board_data_for(path: str | None) -> dict[str, Any]:
    """:func:`board_data` of the board file ``path`` (None: the shipped open board), cached.
    A supplied board (a game option) may lack the rulebook's places only if the game accepted
    it, so it is loaded as the rules load it."""
    return board_data(load_board(path))


@lru_cache(maxsize=8)
def _board_data_of_text(text: str) -> dict[str, Any]:
    # the board as the game's setup reads it (board_of_option: the same checks)
    return board_data(board_of_option(json.loads(text)))


def game_board_data(options: dict[str, Any] | None) -> dict[str, Any]:
    """The drawing data of the board a game uses: its ``board`` option (a file path, or the
    board itself as a JSON object), the shipped board when there is none. Raises
    :class:`BoardError` (a ``ValueError``) or ``OSError`` when it cannot be read."""
    value = (options or {}).get("board")
    if isinstance(value, dict):
        return _board_data_of_text(canonical_json(value))
    return board_data_for(value if isinstance(value, str) and value else None)


def board_name(options: dict[str, Any] | None) -> str:
    """The name of the board a game uses (the shipped one when the option is not given), or ""
    when it cannot be read."""
    value = (options or {}).get("board")
    if isinstance(value, dict):
        return str(value.get("name") or "")
    try:
        return load_board(value if isinstance(value, str) and value else None).name
    except (ValueError, OSError):
        return ""
