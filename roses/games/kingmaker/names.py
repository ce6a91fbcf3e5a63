"""Kingmaker squares in words: what a player reads instead of a grid reference.

A board's squares have ids ("Y25", "AH20": column letters and row number, board.py) that the
rules use and the map does not show. Every text a person reads (labels, prompts, the log, the
gazette) names a square by what is drawn on it or near it instead:

- a square holding a place: "the open ground at Coventry", "the forest at Rotherham";
- a square holding a landmark: "the Cheviots";
- any other land square: its terrain, distance and direction from the nearest named place or
  landmark, "the open ground north of Coventry", "the forest two squares west-north-west of
  Kenilworth" (distance in squares counted as a noble moves, with the 8 neighbours, §Noble Counters);
- a sea square: its sea zone and where it lies from the nearest place, "the Irish Sea three
  squares west of Beaumaris".

Each square of a board gets a different name (a name taken by a nearer square falls back to
the next nearest reference), so a list of choices never shows two alike. The names depend
only on the board, are computed once per board and cached on it.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping

from roses.games.kingmaker.board import Board

#: The 16 compass points, clockwise from north.
COMPASS = ("north", "north-north-east", "north-east", "east-north-east", "east", "east-south-east",
           "south-east", "south-south-east", "south", "south-south-west", "south-west", "west-south-west",
           "west", "west-north-west", "north-west", "north-north-west")
_NUMBERS = ("", "", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
            "twelve")
#: How many references (nearest first) a square may be named from before the last resort.
_CANDIDATES = 8
_TYPE_ORDER = {"city": 0, "town": 1, "castle": 2}


def compass(dx: float, dy: float) -> str:
    """The compass point of the offset (dx east, dy south)."""
    angle = math.degrees(math.atan2(dx, -dy)) % 360.0
    return COMPASS[int((angle + 11.25) // 22.5) % 16]


def _in_text(name: str) -> str:
    """A name as it reads inside a sentence ("The Cheviots" -> "the Cheviots")."""
    return "the " + name[4:] if name.startswith("The ") else name


def _count(n: int) -> str:
    if n <= 1:
        return ""
    return (_NUMBERS[n] if n < len(_NUMBERS) else str(n)) + " squares "


def square_names(board: Board) -> Mapping[str, str]:
    """Every square of ``board`` by its words (module docstring), one different name each."""
    cached = board._cache.get("square_names")
    if cached is None:
        cached = board._cache["square_names"] = _name_squares(board)
    names: Mapping[str, str] = cached
    return names


def _name_squares(board: Board) -> dict[str, str]:
    # references: (col + x, row + y) of each place's mark and each landmark's square centre
    refs: list[tuple[float, float, str, int, int]] = []  # x, y, name, its square's column and row
    seen: set[str] = set()  # one reference per square: its first place, a city before a town before a castle
    for p in sorted(board.places.values(), key=lambda p: (_TYPE_ORDER.get(p.type, 3), p.id)):
        sq = board.squares[p.square]
        if sq.id in seen:
            continue
        seen.add(sq.id)
        refs.append((sq.col + p.at[0], sq.row + p.at[1], p.name, sq.col, sq.row))
    for m in sorted(board.landmarks.values(), key=lambda m: m.id):
        sq = board.squares[m.square]
        refs.append((sq.col + 0.5, sq.row + 0.5, _in_text(m.name), sq.col, sq.row))
    names: dict[str, str] = {}
    # a place's own square, then a landmark's: named by what is on it
    for p in sorted(board.places.values(), key=lambda p: (_TYPE_ORDER.get(p.type, 3), p.id)):
        sq = board.squares[p.square]
        if sq.id not in names:
            names[sq.id] = f"the {'forest' if sq.forest else 'open ground'} at {p.name}"
    for m in sorted(board.landmarks.values(), key=lambda m: m.id):
        if m.square not in names:
            names[m.square] = _in_text(m.name)
    taken = set(names.values())
    # the others: nearest reference first; the squares nearest their reference choose first
    pending: list[tuple[float, int, str, list[str]]] = []
    for sq in board.squares.values():
        if sq.id in names:
            continue
        cx, cy = sq.col + 0.5, sq.row + 0.5
        col, row = sq.col, sq.row
        ranked = heapq.nsmallest(_CANDIDATES, refs, key=lambda r: max(abs(r[3] - col), abs(r[4] - row)) * 100.0
                                 + math.hypot(r[0] - cx, r[1] - cy))
        if sq.land:
            head = "the forest" if sq.forest else "the open ground"
        else:
            area = board.areas[sq.area].name
            head = area if area.lower().startswith(("the ", "st ")) else f"the {area}"
        options = []
        for rx, ry, rname, rcol, rrow in ranked:
            steps = max(abs(rcol - col), abs(rrow - row))
            options.append(f"{head} {_count(steps)}{compass(cx - rx, cy - ry)} of {rname}")
        first = ranked[0]
        pending.append((math.hypot(first[0] - cx, first[1] - cy), sq.index, sq.id, options))
    pending.sort()
    for _, _, sid, options in pending:
        pick = next((o for o in options if o not in taken), None)
        if pick is None:  # the last resort: the first name, told apart by a number
            k = 2
            while f"{options[0]} ({k})" in taken:
                k += 1
            pick = f"{options[0]} ({k})"
        names[sid] = pick
        taken.add(pick)
    return names


def square_name(board: Board, sid: str) -> str:
    """The words for square ``sid`` (its id if the board has no such square)."""
    return square_names(board).get(sid, sid)


def where(board: Board, ident: str | None) -> str:
    """A place by its name, a square by its words (``square_names``), None as "off the board"."""
    if ident is None:
        return "off the board"
    p = board.places.get(ident)
    if p is not None:
        return p.name
    return square_name(board, ident)
