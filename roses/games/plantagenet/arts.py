"""Arts of War cards (1.9.1, 3.1, 3.4.6): the draw, Events and Capabilities, card by card zone.

Each side's cards are in exactly one zone (``state["aow"][side]``): ``deck`` (unused, kept in
card order: the draw deck is shuffled at each draw, 3.1.1, so no order is stored and none can
leak), ``drawn`` (drawn this Levy and not yet resolved, 3.1.2-3.1.3; hidden from the other
side), ``held`` (Held Events, hidden but counted, 3.1.3), ``in_effect`` (This Levy / This
Campaign Events, public), ``set_aside``, a mat's ``capabilities`` (3.4.6) or a mat's
``events`` (a Held Event played on a Lord, 3.1.3).

The effects of individual cards are not here: :func:`event_effect` and
:func:`capability_effect` are the hooks through which each card's effect will act; their
tables (:data:`EVENT_EFFECTS`, :data:`CAPABILITY_EFFECTS`) are empty, so every Event and
Capability is held, played, deployed and discarded by the rules but does nothing yet (see
docs/plantagenet/coverage.md). A hook may push decision frames.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, Final

from roses.engine import rng
from roses.engine.contract import Action, State, mark_reveal
from roses.engine.log import CARD, private, public
from roses.engine.steps import Frame, Step, pop
from roses.games.plantagenet import effects as fx
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.common import CAMPAIGN, CARDS_PART
from roses.games.plantagenet.components import SIDES, load
from roses.games.plantagenet.records import Where

#: What a side may hold in each zone: the order of zones in views and invariants.
ZONES: Final = ("deck", "drawn", "held", "in_effect", "set_aside")

#: Most Capabilities a Lord may have (1.5.3, 3.4.6).
MAX_CAPABILITIES: Final = 2

#: Effect of an Event when it is implemented or played: ``fn(state, side, card, lord)``.
EventEffect = Callable[[State, str, str, "str | None"], None]
#: Effect of a Capability when it is deployed or Levied: ``fn(state, lord, card)``.
CapabilityEffect = Callable[[State, str, str], None]

#: Per-card effects (filled card by card; none yet).
EVENT_EFFECTS: Final[dict[str, EventEffect]] = {}
CAPABILITY_EFFECTS: Final[dict[str, CapabilityEffect]] = {}


# ----- card facts (tables built once from the data) -------------------------------------
_FACTS: Final[dict[str, tuple[frozenset[str] | None, str, str, str, str]]] = {}


def _facts() -> dict[str, tuple[frozenset[str] | None, str, str, str, str]]:
    """Per card: (eligible badges or None for "Any", Capability title, Event title, Event
    type, side). A module table made at the first call (not ``functools.cache``: a cached
    function is a Python call even compiled)."""
    if not _FACTS:
        out: dict[str, tuple[frozenset[str] | None, str, str, str, str]] = {}
        for cid, d in load().cards.items():
            lords = d["capability"]["lords"]
            out[cid] = (None if lords == "any" else frozenset(lords), str(d["capability"]["title"]),
                        str(d["event"]["title"]), str(d["event"]["timing"]), str(d["side"]))
        _FACTS.update(out)
    return _FACTS


def eligible_badges(card: str) -> frozenset[str] | None:
    """The Livery Badges that may hold the card's Capability, None for "Any" (1.9.1, 3.4.6)."""
    return _facts()[card][0]


def timing(card: str) -> str:
    """The Event's type: "hold", "this_levy", "this_campaign" or "now" (3.1.3)."""
    return _facts()[card][3]


def event_title(card: str) -> str:
    return _facts()[card][2]


def capability_title(card: str) -> str:
    return _facts()[card][1]


def card_side(card: str) -> str:
    return _facts()[card][4]


def can_hold_capability(state: State, lord: str, card: str) -> bool:
    """3.4.6: the Lord's badge is eligible, he has fewer than two Capabilities and none of the
    same name (1.9.1: the (1)/(2) versions of a Lord share a badge)."""
    return card in capability_choices(state, lord, (card,))


def capability_choices(state: State, lord: str, cards: Any) -> list[str]:
    """The cards among ``cards`` that ``lord`` may take as a Capability now (3.4.6)."""
    caps = state["lords"][lord]["mat"]["capabilities"]
    if len(caps) >= MAX_CAPABILITIES:
        return []
    allowed = _badge_cards()[_lord_badges()[lord]]
    if not caps:
        return [cid for cid in cards if cid in allowed]
    titles = _titles()
    taken = {titles[c] for c in caps}
    return [cid for cid in cards if cid in allowed and titles[cid] not in taken]


_LORD_BADGES: Final[dict[str, str]] = {}


def _lord_badges() -> dict[str, str]:
    """Each Lord's Livery Badge (1.9.1), computed once (a module table, as :func:`_facts`)."""
    if not _LORD_BADGES:
        _LORD_BADGES.update({lid: str(d["badge"]) for lid, d in load().lords.items()})
    return _LORD_BADGES


@cache
def _badge_cards() -> dict[str, frozenset[str]]:
    """For each Livery Badge, the cards whose Capability a Lord of that badge may hold (the
    card's badges, or "Any"; 1.9.1, 3.4.6)."""
    facts = _facts()
    return {badge: frozenset(cid for cid, f in facts.items() if f[0] is None or badge in f[0])
            for badge in set(_lord_badges().values())}


_TITLES: Final[dict[str, str]] = {}


def _titles() -> dict[str, str]:
    """Each card's Capability title (two cards of one name are alike, 3.4.6), computed once (a
    module table, as :func:`_facts`)."""
    if not _TITLES:
        _TITLES.update({cid: f[1] for cid, f in _facts().items()})
    return _TITLES


def eligible_lords(state: State, side: str, card: str) -> list[str]:
    """The side's Mustered Lords on the map who may take ``card`` as a Capability (3.1.2):
    :func:`can_hold_capability` of each Lord of :func:`services.on_map`."""
    return sorted(_eligible(state, side, card, 0))


def several_eligible(state: State, side: str, card: str) -> bool:
    """Whether :func:`eligible_lords` names more than one Lord."""
    return len(_eligible(state, side, card, 2)) > 1


def _eligible(state: State, side: str, card: str, enough: int) -> list[str]:
    """:func:`eligible_lords`, unsorted; with ``enough`` (> 0) only the first so many found."""
    badges, title = _facts()[card][0], _facts()[card][1]
    sides, lord_badges, titles = sv.lord_sides(), _lord_badges(), _titles()
    out = []
    for lid, d in state["lords"].items():
        if d["where"] != Where.MAP or sides[lid] != side or (badges is not None and lord_badges[lid] not in badges):
            continue
        caps = d["mat"]["capabilities"]
        if caps:
            if len(caps) >= MAX_CAPABILITIES:
                continue
            if title in [titles[c] for c in caps]:
                continue
        out.append(lid)
        if len(out) == enough:
            break
    return out


# ----- zones --------------------------------------------------------------------------------
def to_deck(state: State, side: str, card: str) -> None:
    """Return a card to its side's deck (kept in card order)."""
    deck: list[str] = state["aow"][side]["deck"]
    deck.append(card)
    deck.sort(key=load().card_ids.ids.__getitem__)


def draw(state: State, side: str, n: int = 2) -> list[str]:
    """3.1.1: shuffle the side's unused cards (Held Events, Capabilities in play and Events in
    effect are in other zones, so they are not in it) and draw ``n`` into ``drawn``. The shuffle
    uses the state's generator and counts as a roll (undo never crosses it)."""
    zones = state["aow"][side]
    pile = list(zones["deck"])
    rng.shuffle(state, pile)
    got = pile[:n]
    for cid in got:
        zones["deck"].remove(cid)
    zones["drawn"].extend(got)
    return got


def deploy_capability(state: State, lord: str, card: str) -> None:
    """Put ``card`` as a Capability at ``lord``'s mat (3.1.2, 3.4.6): from his side's deck or
    drawn cards. A Capability naming a Special Vassal brings it to the mat (1.5.4)."""
    side = card_side(card)
    zones = state["aow"][side]
    for zone in ("drawn", "deck"):
        if card in zones[zone]:
            zones[zone].remove(card)
            break
    else:
        raise ValueError(f"{card} is neither drawn nor in the deck")
    mat = state["lords"][lord]["mat"]
    mat["capabilities"].append(card)
    special = load().cards[card]["capability"].get("special_vassal")
    if special and state["special_vassals"].get(special) is None:
        state["special_vassals"][special] = lord
        mat["special_vassals"].append(special)
    capability_effect(state, lord, card)


def capability_effect(state: State, lord: str, card: str) -> None:
    """The hook of a Capability's effect when it is deployed or Levied (none built yet)."""
    fn = CAPABILITY_EFFECTS.get(card)
    if fn is not None:
        fn(state, lord, card)


def event_effect(state: State, side: str, card: str, lord: str | None = None) -> None:
    """The hook of an Event's effect when it is implemented or played (none built yet)."""
    fn = EVENT_EFFECTS.get(card)
    if fn is not None:
        fn(state, side, card, lord)


def implement_event(state: State, side: str, card: str) -> None:
    """3.1.3: one drawn Event. Hold: to the hidden hand. This Levy / This Campaign: revealed and
    in effect until the end of that Levy or Campaign. Other Events: revealed, implemented and
    returned to the deck."""
    zones = state["aow"][side]
    zones["drawn"].remove(card)
    kind = timing(card)
    if kind == "hold":
        zones["held"].append(card)
        private(state, side, f"{side} holds the Event {event_title(card)} ({card}) (3.1.3).", CARD)
        public(state, f"{side} draws an Event to hold ({len(zones['held'])} held) (3.1.3).", CARD)
        return
    mark_reveal(state)
    if kind == "now":
        to_deck(state, side, card)
        public(state, f"{side} draws the Event {event_title(card)} ({card}) (3.1.3).", CARD)
    else:
        zones["in_effect"].append(card)
        until = "Levy" if kind == "this_levy" else "Campaign"
        public(state, f"{side} draws the Event {event_title(card)} ({card}), in effect this {until} (3.1.3).", CARD)
    event_effect(state, side, card)


def play_held(state: State, side: str, card: str, lord: str | None = None) -> None:
    """Play a Held Event (3.1.3): revealed; tucked under ``lord``'s mat if played on a Lord,
    otherwise returned to the deck; then its effect."""
    zones = state["aow"][side]
    if card not in zones["held"]:
        raise ValueError(f"{side} does not hold {card}")
    zones["held"].remove(card)
    if lord is None and card in fx.LASTING_HELD:  # Truce, Parade: in effect for a while (3.1.3)
        zones["in_effect"].append(card)
        public(state, f"{side} plays the Held Event {event_title(card)} ({card}) (3.1.3).", CARD)
    elif lord is None:
        to_deck(state, side, card)
        public(state, f"{side} plays the Held Event {event_title(card)} ({card}) (3.1.3).", CARD)
    else:
        state["lords"][lord]["mat"]["events"].append(card)
        public(state, f"{side} plays the Held Event {event_title(card)} ({card}) on "
                      f"{load().lords[lord]['name']} (3.1.3).", CARD)
    mark_reveal(state)
    event_effect(state, side, card, lord)


def discard_held(state: State, side: str, card: str) -> None:
    """Discard a Held Event unplayed (4.8.6): back to the deck, unrevealed."""
    state["aow"][side]["held"].remove(card)
    to_deck(state, side, card)
    private(state, side, f"{side} discards the Held Event {event_title(card)} ({card}) (4.8.6).", CARD)
    public(state, f"{side} discards a Held Event (4.8.6).", CARD)


def discard_in_effect(state: State, kind: str) -> list[str]:
    """End the Events of type ``kind`` ("this_levy" after Muster, 3.4.6 NOTE; "this_campaign"
    at Reset, 4.8.6): they return to their decks. Returns the cards discarded."""
    gone: list[str] = []
    for side in SIDES:  # York's first, whatever order the stored state's keys come back in
        zones = state["aow"][side]
        for cid in [c for c in zones["in_effect"] if fx.duration(c) == kind]:
            zones["in_effect"].remove(cid)
            to_deck(state, side, cid)
            gone.append(cid)
    if gone:
        public(state, f"Events ended: {', '.join(event_title(c) for c in gone)}.", CARD)
    return gone


# ----- steps ----------------------------------------------------------------------------------
class DiscardHeld(Step):
    """4.8.6 Reset: the side may discard any of its Held Events. Frame ``{"step":
    "discard_held", "side": S}``."""

    name = "discard_held"
    phase = CAMPAIGN
    rule = "4.8.6"
    changes = {"discard": CARDS_PART, "done": frozenset()}  # a Held Event to its deck
    run_changes = frozenset()  # the frame popped

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [frame["side"]] if state["aow"][frame["side"]]["held"] else []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("discard", cid) for cid in state["aow"][frame["side"]]["held"]] + [("done", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role != frame["side"]:
            return f"Reset (4.8.6): {frame['side']} may discard Held Events."
        return "Reset (4.8.6): discard any Held Events you do not want to keep, then Done."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        if verb == "discard":
            return f"Discard {event_title(arg)} ({arg})"
        return "Done: keep the others"

    def on_discard(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        discard_held(state, frame["side"], arg)

    def on_done(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)

    def run(self, state: State, frame: Frame) -> None:
        pop(state)


#: The Arts of War steps used outside the Levy (the Levy's are in :mod:`levy`).
ARTS_STEPS: Final[list[Step]] = [DiscardHeld()]
