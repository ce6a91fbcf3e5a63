"""``roses kingmaker ...``: Kingmaker sub-commands (the rules declare it, cli_commands: roses.cli loads it).

``roses kingmaker check-board FILE`` validates a board file (``docs/kingmaker/board.md``): the
format, every reference, land connectivity, ports linked to the sea, the places, areas and
landmarks the rulebook names, and every place the card data names (the default cards and
Event deck, or ``--events FILE``). It prints one line per fault and exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from roses.games.kingmaker import cards
from roses.games.kingmaker.board import BoardError, build_board, check_board, read_board_data


def card_places(events: str | None = None) -> set[str]:
    """The place ids the default card data names, plus those of an Event deck file."""
    out = cards.place_ids()
    if events:
        key, data = cards.load_deck_option(events)
        out.update(e.place for e in cards.deck_for(key, data).cards if e.place)
    return out


def card_zones() -> set[str]:
    """The regional-bonus zones the default card data names."""
    return {c.bonus_zone for c in cards.crown_data().cards if c.bonus_zone}


def check_board_file(path: str, *, with_cards: bool = True, rulebook: bool = True,
                     events: str | None = None) -> list[str]:
    """Every fault of the board file ``path`` (empty list: valid)."""
    try:
        data = read_board_data(path)
    except FileNotFoundError:
        return [f"no such file: {path}"]
    except json.JSONDecodeError as exc:
        return [f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"]
    except UnicodeDecodeError:
        return ["not a UTF-8 text file"]
    except BoardError as exc:
        return exc.faults
    required = sorted(card_places(events)) if with_cards else []
    zones = sorted(card_zones()) if with_cards else []
    return check_board(data, required, rulebook=rulebook, required_zones=zones)


def cmd_check_board(args: argparse.Namespace) -> int:
    try:
        faults = check_board_file(args.file, with_cards=not args.no_cards,
                                  rulebook=not args.no_rulebook, events=args.events)
    except (OSError, ValueError) as exc:  # an unreadable or invalid --events deck
        faults = [f"--events {args.events}: {exc}"]
    if args.json:
        print(json.dumps({"file": args.file, "valid": not faults, "faults": faults}))
        return 1 if faults else 0
    if faults:
        for f in faults:
            print(f"{args.file}: {f}")
        print(f"{args.file}: {len(faults)} fault(s)", file=sys.stderr)
        return 1
    board = build_board(read_board_data(args.file))
    land = sum(1 for s in board.squares.values() if s.land)
    print(f"{args.file}: valid board {board.id!r} ({board.columns} x {board.rows} grid, "
          f"{len(board.squares)} squares of which {land} land, {len(board.places)} places, "
          f"{len(board.ports)} ports)")
    return 0


def register(sub: argparse._SubParsersAction, parser: argparse.ArgumentParser) -> None:
    km = sub.add_parser("kingmaker", help="Kingmaker tools (check a board file)")
    km_sub = km.add_subparsers(dest="kingmaker_command", required=True)
    p = km_sub.add_parser("check-board", help="validate a Kingmaker board file",
                          description="Validate a Kingmaker board file: one line per fault, "
                                      "exit status 1 if there is any (docs/kingmaker/board.md).")
    p.add_argument("file", help="the board JSON file (the shipped one: "
                                f"{Path(__file__).parent / 'data' / 'board.json'})")
    p.add_argument("--events", help="also require the places named by this Event deck file")
    p.add_argument("--no-cards", action="store_true",
                   help="do not require the places the default card data names")
    p.add_argument("--no-rulebook", action="store_true",
                   help="do not require the places and areas the rulebook names")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=cmd_check_board)
