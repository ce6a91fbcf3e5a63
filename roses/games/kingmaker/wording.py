"""The words of a Kingmaker option: its label in menus and buttons, in the log line of an answer
given by default or by standing order, and in the umpire's list of orders to take back.

Each step declares the words of its own verbs (:attr:`Labelled.labels`, a template per verb
with ``{}`` for each argument in order) and says the rest in :meth:`Labelled.option_label` (the
engine's Step hook, asked by ``StepRules.label``): a step whose words depend on the position
(a ship sails where a noble moves, a ransom countered) overrides it. Arguments are named in
words (:func:`arg_name`): a card, heir or ship by its name, a square or place by its name
(never its grid id), a seat by its role. What no step labels (the server's ``by_default``, the
standing orders' verbs, an order no step knows) gets :func:`plain` words: the rules' override
of the engine's generic label (:class:`PlainLabels`).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from roses.engine.contract import Rules, State
from roses.engine.steps import Frame, Step
from roses.games.kingmaker.common import W, World, card_name, place_name

#: The arguments that are squares (or places), by verb and position: never read as a seat
#: (a role such as "P2" is also a square's id).
SQUARE_ARGS = frozenset({("to", 0), ("battle", 0), ("ambush", 0)})

#: Plain words for a verb without a template (:func:`plain`).
_WORDS = {"select": "move", "sail": "sail the", "end": "end", "pass": "pass"}

_HOLES = re.compile(r"\{\d?\}")


def arg_name(w: World, x: Any, roles: tuple[str, ...] | list[str] = ()) -> str:
    """The words for an action's argument: a card, heir, ship or place by name, a square in
    words (names.py: never its grid id), a seat by its role (``roles`` come first), a list of
    them joined (a function of the module, not a closure: a closure calling itself is a
    reference cycle left for the garbage collector at every label)."""
    if isinstance(x, str):
        if x in roles:
            return x
        if x in w.codec:
            return card_name(w, w.codec.id(x))
        if x in w.heir_codec:
            return w.heirs[w.heir_codec.id(x)].name
        if x in w.ship_codec:
            return w.ships[w.ship_codec.id(x)].name
        if x in w.board.places or x in w.board.squares:
            return place_name(w, x)
        return x
    if isinstance(x, list):
        return ", ".join(arg_name(w, y, roles) for y in x)
    return str(x)


def plain(state: State, verb: str, arg: Any) -> str:
    """Words for an order no step labels: the verb in words, then its arguments."""
    if verb == "by_default":
        return "the published default (" + ("away" if arg == "vacation" else "deadline passed") + ")"
    if verb in ("set_order", "clear_order"):
        return "set a standing order" if verb == "set_order" else "clear a standing order"
    head = _WORDS.get(verb, verb.replace("_", " "))
    if arg is None:
        return head
    return f"{head} {arg_name(W(state), arg, state['roles'])}"


def fill(state: State, template: str, verb: str, arg: Any) -> str:
    """``template`` with the words of ``arg`` (a list: one hole each, in order); the
    :func:`plain` words when the argument does not fit the template."""
    parts = arg if isinstance(arg, list) else [] if arg is None else [arg]
    if len(_HOLES.findall(template)) != len(parts):
        return plain(state, verb, arg)
    w, roles = W(state), state["roles"]
    # where a square is expected (a move, a battle's square) "P2" is the square, not the seat
    return template.format(*(arg_name(w, x, () if (verb, i) in SQUARE_ARGS else roles) for i, x in enumerate(parts)))


class Labelled(Step):
    """A Kingmaker step: it labels its options from :attr:`labels`."""

    #: The words of each verb of the step, with ``{}`` (or ``{0}``, ``{1}``...) for each of
    #: its arguments in order; an argument that does not fit is said in plain words.
    labels: ClassVar[dict[str, str]] = {}

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        template = self.labels.get(verb)
        return None if template is None else fill(state, template, verb, arg)


class PlainLabels(Rules):
    """The rules' generic label (what no step labels): :func:`plain` words."""

    def label(self, state: State, role: str, verb: str, arg: Any) -> str:
        return plain(state, verb, arg)
