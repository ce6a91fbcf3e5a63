"""The campaign umpire (§The Campaign Umpire is Always Correct, §Battle, §Siege, §Sea Battles; research §5 item 13), an optional seat.

With the game option ``umpire`` a role ``umpire`` sits at the table beside the players. He
sees every hand and the Chancery (never the order of a deck), and everything he decides is an
action of the game, so the action log holds it and a replay reproduces it:

* **Rulings** (§The Campaign Umpire is Always Correct "the Campaign Umpire is always correct", §The Campaign Umpire is Always Correct): at any time while the game
  runs, ``rule`` with a text publishes a ruling on a question. It is logged for everyone and
  kept in ``state["rulings"]`` (round, text). A ruling changes no piece by itself: where the
  rules leave a choice to the umpire, the engine asks him as a step (below).
* **Corrections** (§The Campaign Umpire is Always Correct: his decisions are fact): at any time,
  ``correct`` with an object (a kind, what it takes, a reason) moves or removes a piece, changes
  who holds a card or a place, returns a card to the deck, sets a track, takes back a player's
  last order or undoes his last correction (corrections.py).
* **Adjudication**: at any time, ``adjudicate`` with a player's role (he wins) or ``"Draw"``
  ends the campaign by the umpire's decision (the end kind ``umpire``).
* **Tabletop combats** (§Battle: the campaign's aim is tabletop battles; §Siege, §Sea Battles: sieges and
  sea battles seldom). With the option ``tabletop`` as well, every combat about to be decided
  is first put to the umpire (step ``tabletop``): ``cards`` lets the Event card decide as
  usual (the published default, also open at every later stage), ``table`` marks it to be
  fought on a table; he then enters its result: ``kill`` each noble who fell, ``done``, then
  ``outcome`` attacker / defender / indecisive (for a siege: attacker = the place is taken,
  otherwise it stays under siege). The result has the effects of a result drawn by card
  (combat.apply_outcome): captures, places taken, Booty.

The umpire's standing verbs (``rule``, ``adjudicate``, ``correct``) are not listed among his legal actions,
since a text cannot be listed; his view names them under ``umpire`` with what they take, and
the rules accept them from him at any time (``KingmakerRules.check_turn``/``action``).
"""

from __future__ import annotations

from typing import Any

from roses.engine import log
from roses.engine.contract import DRAW, Action, State
from roses.engine.errors import IllegalAction
from roses.engine.steps import Frame, pop
from roses.games.kingmaker import corrections
from roses.games.kingmaker.combat import (
    ATTACKER,
    DEFENDER,
    INDECISIVE,
    SIEGE,
    _use_french_aid,
    apply_outcome,
    attack_power,
    defence,
    engage,
    resolve,
    survivor_needed,
)
from roses.games.kingmaker.common import (
    UMPIRE,
    Z_NOBLE,
    W,
    card_name,
    has_umpire,
    place_name,
    role_of,
)
from roses.games.kingmaker.play import lift_sieges
from roses.games.kingmaker.queries import offered
from roses.games.kingmaker.views import (
    MAX_RULING,
    OUTCOME_WORDS,
    PLAIN_OUTCOMES,
    check_invariants,
    standing_options,
)
from roses.games.kingmaker.wording import Labelled

#: Verbs the umpire may use at any time while the game runs.
STANDING_VERBS = ("rule", "adjudicate", "correct")


__all__ = ["MAX_RULING", "STANDING_VERBS", "UMPIRE", "Tabletop", "has_umpire", "standing_action",
           "standing_options"]


def standing_action(state: State, verb: str, arg: Any) -> None:
    """Apply an umpire's standing verb; IllegalAction (nothing changed) for bad input."""
    if state["result"] is not None:
        raise IllegalAction("The game is over.")
    if verb == "rule":
        if not isinstance(arg, str) or not arg.strip() or len(arg) > MAX_RULING:
            raise IllegalAction(f"A ruling is a text of 1 to {MAX_RULING} characters.")
        if any(ord(ch) < 32 and ch not in "\n\t" for ch in arg):
            raise IllegalAction("A ruling may not hold control characters.")
        text = arg.strip()
        state.setdefault("rulings", []).append([state["round"], text])
        log.public(state, f"The umpire rules: {text}", log.RESULT)
        return
    if verb == "correct":
        corrections.correct(state, arg, check_invariants)
        return
    if verb == "adjudicate":
        if arg not in standing_options(state)["adjudicate"]:
            raise IllegalAction("Adjudicate the campaign to a player's role or to 'Draw'.")
        state["result"] = arg
        state["end"] = "umpire"
        log.public(state, "The umpire ends the campaign: "
                   + ("undecided." if arg == DRAW else f"{arg} wins."), log.RESULT)
        return
    raise IllegalAction(f"The umpire has no verb {verb!r}.")


def participants(state: State, combat: Frame) -> list[int]:
    return [n for n in combat["a"] + combat["d"] if state["cz"][n] == Z_NOBLE]


def table_outcomes(state: State, frame: Frame) -> list[str]:
    """The results the umpire may enter after naming the killed (ruling K74,
    :func:`~roses.games.kingmaker.combat.survivor_needed`); indecisive is always open."""
    killed, cards = frame["killed"], W(state).cards
    needs = survivor_needed(frame["combat"])
    return [o for o in (ATTACKER, DEFENDER) if o not in needs
            or any(cards[n].id not in killed for n in needs[o])] + [INDECISIVE]


class Tabletop(Labelled):
    """The umpire decides whether a combat is fought on a table and enters its result
    (§Battle, §Siege, §Sea Battles). Default: the Event card decides."""

    name = "tabletop"
    phase = "combat"
    always_decides = True
    rule = "§Battle, §Siege"
    labels = {
        "cards": "let the Event card decide", "table": "have it fought on a table",
        "kill": "{} was killed on the table", "done": "no one else was killed", "outcome": "outcome {}",
    }

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        """An outcome in the words of the kind of combat (views.OUTCOME_WORDS)."""
        combat = frame.get("combat")
        if verb == "outcome" and combat is not None:
            return OUTCOME_WORDS.get(combat["kind"], PLAIN_OUTCOMES).get(arg, str(arg))
        return super().option_label(state, frame, role, verb, arg)

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The published default: cards (when it is an option)."""
        return offered(self.options(state, frame, role), ("cards", None))

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [UMPIRE]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        out: list[Action] = [("cards", None)]
        stage = frame["stage"]
        if stage == "mark":
            out.append(("table", None))
        elif stage == "killed":
            w = W(state)
            out += [("kill", w.cards[n].id) for n in participants(state, frame["combat"])
                    if w.cards[n].id not in frame["killed"]]
            out.append(("done", None))
        else:
            out += [("outcome", o) for o in table_outcomes(state, frame)]
        return out

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        c = frame["combat"]
        w = W(state)
        where = place_name(w, c["place"] or c["sq"])
        head = (f"{c['kind'].replace('_', ' ').title()} at {where}: {role_of(state, c['att'])} "
                f"{attack_power(state, c)} against {defence(state, c)}.")
        if role != UMPIRE:
            return head + " The umpire decides how it is fought."
        stage = frame["stage"]
        if stage == "mark":
            return head + " Let the Event card decide, or have it fought on a table?"
        if stage == "killed":
            return head + " Name each noble killed on the table, then done (or let the card decide)."
        siege = " (attacker: the place is taken; otherwise it stays under siege)" if c["kind"] == SIEGE else ""
        return head + f" Who won on the table{siege}?"

    def on_cards(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)
        resolve(state, frame["combat"])

    def on_table(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["stage"] = "killed"
        c = frame["combat"]
        where = place_name(W(state), c["place"] or c["sq"])
        log.public(state, f"The umpire has the {c['kind'].replace('_', ' ')} at {where} fought on a table.",
                   log.BATTLE)

    def on_kill(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["killed"].append(arg)

    def on_done(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["stage"] = "outcome"

    def on_outcome(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)
        c = frame["combat"]
        w = W(state)
        A, D = attack_power(state, c), defence(state, c)
        engage(state, c)
        killed = [card_name(w, w.cid(k)) for k in frame["killed"]]
        log.public(state, f"Tabletop result entered by the umpire: {role_of(state, c['att'])} {A} against {D}; "
                   f"{arg}" + (f"; killed: {', '.join(killed)}" if killed else "") + ".", log.BATTLE)
        _use_french_aid(state, list(c["a"]))
        apply_outcome(state, c, arg, set(frame["killed"]), A, D)
        lift_sieges(state)
