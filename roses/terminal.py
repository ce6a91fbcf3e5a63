"""Play a game in the terminal: numbered choices, hot-seat or against a bot.

What a person sees comes from the game's view and its declarations: ``rules.describe(view)``
(the position in words), ``rules.label`` (each choice), and, when the view carries them,
``verb_help`` (what a verb does: printed the first time the verb is offered) and
``option_notes`` (``{verb: {JSON of the argument: text}}``, e.g. what stands on a square a move
offers: printed after the choice's label). In a hot-seat game (more than one person at the
terminal) the screen is cleared, and the next player asked to take the keyboard, whenever the
seat to play changes, so nobody sees another's hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from roses.ai.bot import Bot, Determinizer
from roses.engine.contract import OBSERVER, Rules, actions_to_list, canonical_json
from roses.engine.errors import RosesError
from roses.engine.game import Game

#: The terminal's "clear the screen and its scrollback, go to the top" (ANSI).
CLEAR = "\x1b[H\x1b[2J\x1b[3J"


def play_terminal(  # noqa: C901, PLR0915 - the terminal game's loop
    rules: Rules,
    scenario: str,
    seed: int,
    bots: dict[str, Bot],
    *,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    save: Path | None = None,
    max_steps: int = 1_000_000,
    options: dict[str, Any] | None = None,
) -> Game:
    """Run a game (created with ``options``); roles in ``bots`` are played by bots, the others
    by whoever types."""
    game = Game.new(rules, seed, scenario, options)
    seen: dict[str, int] = {}
    human_roles = [r for r in game.state.get("roles", []) if r not in bots]
    # Whose log the terminal follows: the people at it, or the public log when only bots play.
    readers = human_roles or [OBSERVER]
    write(f"{rules.title}: {rules.scenario_names().get(scenario, scenario)} (seed {seed})")
    steps = 0
    explained: set[str] = set()  # verbs whose help was printed
    at_keyboard: str | None = None  # the person who played last (hot-seat)
    try:
        while game.result() is None and steps < max_steps:
            steps += 1
            active = game.active()
            role = next((r for r in active if r not in bots), active[0])
            if role in bots:
                view = game.view(role)
                # The bot sees the view and may re-sample hidden information, never the state.
                verb, arg = bots[role].choose(rules, view, role, Determinizer.bind(rules, game.state, role))
                game.apply(role, verb, arg)
                # The person at the terminal learns what the bot did only through the log lines
                # their own role may read: the bot's choice itself may be hidden information.
                for reader in readers:
                    lines = rules.log_for(game.state, reader)
                    for line in lines[seen.get(reader, 0):]:
                        write(f"  {line}")
                    seen[reader] = len(lines)
                continue
            if len(human_roles) > 1 and at_keyboard is not None and role != at_keyboard:
                write(CLEAR)  # hot-seat: the last player's hand and log leave the screen
                if read(f"{role}: your turn to play. Press Enter when only you can see the screen (q to quit) ") \
                        .strip().lower() in ("q", "quit", "exit"):
                    break
            at_keyboard = role
            view = game.view(role)
            lines = rules.log_for(game.state, role)
            for line in lines[seen.get(role, 0):]:
                write(f"  {line}")
            seen[role] = len(lines)
            write("")
            write(rules.describe(view))
            write(f"== {role}: {view.get('prompt', '')}")
            choices = actions_to_list(view.get("actions", {}))
            helps = view.get("verb_help") or {}
            for verb in dict.fromkeys(v for v, _ in choices):
                if verb in helps and verb not in explained:
                    explained.add(verb)
                    write(f"  ({verb}: {helps[verb]})")
            notes = view.get("option_notes") or {}
            for i, (verb, arg) in enumerate(choices, 1):
                text = rules.label(game.state, role, verb, arg) if verb != "undo" else "undo"
                note = (notes.get(verb) or {}).get(canonical_json(arg))
                write(f"  {i:3d}. {text}" + (f" — {note}" if note else ""))
            hint = ", standing ... for a standing order" if view.get("standing_orders") else ""
            hint += ", exchange ... for an offer" if isinstance(view.get("negotiation"), dict) else ""
            typed = read(f"{role} [1-{len(choices)}, q to quit{hint}]> ").strip()
            answer = typed.lower()
            if answer in ("q", "quit", "exit"):
                break
            if answer.startswith("standing") and view.get("standing_orders"):
                # A standing order (a game that publishes them, e.g. Kingmaker's orders.py):
                # "standing KIND VALUE" / "standing clear KIND" (roses/server/standing.py).
                from roses.server.standing import help_lines, parse

                order = parse(view, typed, rules.standing_verbs)
                if not isinstance(order, tuple):
                    write(f"Not allowed: {order}" if order else "")
                    for line in help_lines(view):
                        write(line)
                    continue
                try:
                    game.apply(role, order[0], order[1])
                except RosesError as exc:
                    write(f"Not allowed: {exc}")
                continue
            if answer.startswith("exchange") and isinstance(view.get("negotiation"), dict):
                # A negotiated exchange (Kingmaker's offers.py): "exchange ROLE give ... ask ...",
                # "exchange accept|decline|withdraw N" (roses/server/exchanges.py).
                from roses.server import exchanges

                deal = exchanges.parse(view, typed)
                if not isinstance(deal, tuple):
                    write(f"Not allowed: {deal}" if deal else "")
                    for line in exchanges.help_lines(view):
                        write(line)
                    continue
                try:
                    game.apply(role, deal[0], deal[1])
                except RosesError as exc:
                    write(f"Not allowed: {exc}")
                continue
            if not answer.isdigit() or not 1 <= int(answer) <= len(choices):
                write("Please type one of the numbers shown.")
                continue
            verb, arg = choices[int(answer) - 1]
            try:
                game.apply(role, ".undo" if verb == "undo" else verb, arg)
            except RosesError as exc:
                write(f"Not allowed: {exc}")
    except (EOFError, KeyboardInterrupt):
        write("")
    for role in readers:
        lines = rules.log_for(game.state, role)
        for line in lines[seen.get(role, 0):]:
            write(f"  {line}")
        seen[role] = len(lines)
    res = game.result()
    write(f"Result: {res}" if res is not None else "Game not finished.")
    if save is not None:
        save.write_text(json.dumps(game.record(), indent=1))
        write(f"Saved to {save}")
    return game


def record_from_file(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data
