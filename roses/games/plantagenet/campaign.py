"""Campaign (4.0): the Plan (4.1), Command cards and their actions (4.2-4.6), the Feed after
every card (4.7, built in :mod:`upkeep`) and the End Campaign steps (4.8).

One Turn's Campaign is these frames, bottom first in the order they are decided
(:func:`campaign_frames`):

``begin_campaign``
    automatic: every Command card goes back to its side's deck (4.1).
``plan``
    both sides at once (4.1.2): each adds cards to its own Plan, in order, top card first,
    and locks it in. Until both have locked in, the cards are kept in the frame, which no view
    shows; then they move from the deck to ``state["command"][side]["plan"]``, whose size
    (only) the other side sees, with the cards revealed so far (RULINGS R30).
``command``
    automatic driver (4.2): reveals the top card of the Rebel, then the King's side, and so
    on; a Lord's card pushes an ``actions`` frame for him; after each card it pushes the Feed
    frames (4.7) and then clears the Moved/Fought markers.
``tides_of_war``, ``disembark``, ``victory_check``, ``grow``, ``waste``, ``reset``
    End Campaign (4.8).

Inside a card the ``actions`` frame offers the Command menu (4.2.2); an action may push
sub-decisions: ``group`` (who goes with a Marshal or Lieutenant, 4.3.1, 4.6.1, 4.3.4),
``discard`` (which Lord discards Provender or Carts for Haul 4.3.2 or to Sail 4.6.1),
``boost`` (extra Influence points for a check, 1.4.2), ``intercept`` (the Inactive side,
4.3.4); and the automatic ``move`` and ``arrive`` steps that carry out a March or Sail and
then check Intercept and Approach (4.3.4-4.3.5). An Approach pops the card's ``actions`` frame
and hands over to the Battle part (:mod:`battle`) with ``{"step": "approach", ...}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from roses.engine import rng
from roses.engine.contract import Action, State, mark_reveal
from roses.engine.log import CARD, MOVE, POLITICAL, SUPPLY, TURN, private, public
from roses.engine.steps import Frame, Step, find, pop, push, push_all, replace
from roses.games.plantagenet import arts, reactions
from roses.games.plantagenet import card_rules as cr
from roses.games.plantagenet import effects as fx
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.common import (
    BOARD_PART,
    CAMPAIGN,
    CARDS,
    CARDS_PART,
    LORDS_AND_BOARD,
    LORDS_PART,
    NOT_CARDS,
    TRACKS,
    TRACKS_PART,
    changed,
    end_game,
    side_frames,
)
from roses.games.plantagenet.components import SIDES, TROOP_TYPES
from roses.games.plantagenet.records import CommandFrame, PlanFrame, StepFrame, Where
from roses.games.plantagenet.services import load
from roses.games.plantagenet.setup import other

#: Forces units one Ship carries, and Provender or Carts (4.6.1).
SHIP_FORCES: Final = 6
SHIP_CARGO: Final = 2
#: Influence points a side may add to a check (1.4.2): none, 1 (+1) or 3 (+2).
BOOSTS: Final = (0, 1, 3)


# ----- tables computed once from the map ------------------------------------------------------
@dataclass(frozen=True)
class Tables:
    #: Where a March may go from each Locale: ``((Stronghold, Way type), ...)`` (4.3, 4.3.3;
    #: never into an Exile box, 1.3.1; from Scotland along its one-way Paths).
    march: dict[str, tuple[tuple[str, str], ...]]
    #: The Way type between two Locales, by ``(from, to)``.
    way: dict[tuple[str, str], str]
    #: Strongholds joined to each Stronghold by a Highway (4.3.3).
    highways: dict[str, tuple[str, ...]]
    #: Strongholds joined to each Stronghold by a Highway or Road: who may Intercept (4.3.4).
    intercept: dict[str, tuple[str, ...]]
    #: Locales adjacent to each Locale by any Way, in either direction (Forage, 4.6.2).
    near: dict[str, tuple[str, ...]]
    #: Each Sea's Ports (1.3.1), and the Seas next to it (4.6.1).
    ports: dict[str, tuple[str, ...]]
    seas_next: dict[str, tuple[str, ...]]
    #: The Sea of each Port and Exile box, and of each Sea itself.
    sea_of: dict[str, str]
    #: Per side, the Lords of each Livery Badge (the Lords a Command card may name, 1.9.2).
    badge_lords: dict[str, dict[str, tuple[str, ...]]]
    #: The badge of each Command card ("pass" for a Pass card).
    card_badge: dict[str, str]


#: :func:`tables`, made at its first call (a module table rather than ``functools.cache``: a
#: cached function is a Python call even compiled, and the Command menus ask it at most actions).
_TABLES: Final[list[Tables]] = []


def tables() -> Tables:
    """The Campaign's tables of the map (:class:`Tables`), made once."""
    if not _TABLES:
        _TABLES.append(_make_tables())
    return _TABLES[0]


def _make_tables() -> Tables:
    c = load()
    march: dict[str, list[tuple[str, str]]] = {loc: [] for loc in c.locales}
    way: dict[tuple[str, str], str] = {}
    highways: dict[str, list[str]] = {loc: [] for loc in c.locales}
    intercept: dict[str, list[str]] = {loc: [] for loc in c.locales}
    near: dict[str, set[str]] = {loc: set() for loc in c.locales}
    for a, nbrs in c.adjacency.items():
        for b, w in nbrs.items():
            way[(a, b)] = w
            near[a].add(b)
            near[b].add(a)
            if c.locales[b]["kind"] != "stronghold":
                continue
            march[a].append((b, w))
            if c.locales[a]["kind"] == "stronghold":
                if w == "Highway":
                    highways[a].append(b)
                if w in ("Highway", "Road"):
                    intercept[a].append(b)
    sea_of: dict[str, str] = {}
    for loc, d in c.locales.items():
        sea = loc if d["kind"] == "sea" else c.sea_of(loc)
        if sea:
            sea_of[loc] = sea
    badge_lords: dict[str, dict[str, list[str]]] = {s: {} for s in SIDES}
    for lid, d in c.lords.items():
        badge_lords[d["side"]].setdefault(d["badge"], []).append(lid)
    return Tables(
        march={k: tuple(sorted(v)) for k, v in march.items()},
        way=way,
        highways={k: tuple(sorted(v)) for k, v in highways.items()},
        intercept={k: tuple(sorted(v)) for k, v in intercept.items()},
        near={k: tuple(sorted(v)) for k, v in near.items()},
        ports={sea: tuple(c.ports(sea)) for sea in c.seas},
        seas_next={sea: tuple(d["adjacent"]) for sea, d in c.seas.items()},
        sea_of=sea_of,
        badge_lords={s: {b: tuple(v) for b, v in bl.items()} for s, bl in badge_lords.items()},
        card_badge={cid: cid.rsplit("-", 1)[0] for side in SIDES for cid in c.command_cards[side]},
    )


# ----- small helpers ---------------------------------------------------------------------------
def lord_name(lord: str) -> str:
    return _lord_names()[lord]


def names(lords: list[str]) -> str:
    return ", ".join(lord_name(lid) for lid in lords)


def hidden_mats(state: State) -> bool:
    return bool(state["options"].get("hidden_mats"))


def declare(state: State, text: str, kind: str = SUPPLY) -> None:
    """A declaration of mat contents an action needs to be verified (1.5.3 Hidden Mats:
    Carts for Haul and Supply, Ships for Sail): public, and a reveal when mats are hidden."""
    public(state, text, kind)
    if hidden_mats(state):
        mark_reveal(state)


def placed(state: State, lord: str) -> bool:
    """On the map or at Sea: a Lord who can take Command actions (4.2.3, 4.6.1)."""
    d = state["lords"].get(lord)  # a Lord card of another scenario is not in the state
    return d is not None and d["where"] in _PLACED


_PLACED: Final = (Where.MAP, Where.SEA)


def is_pass(card: str) -> bool:
    return card.startswith("pass-")


def card_lord(state: State, side: str, card: str) -> str | None:
    """The Lord a Command card activates: the side's Lord of the card's badge who is on the
    map or at Sea (1.9.2, 4.2.3); None for a Pass card or a Lord not on the map."""
    if card.startswith("pass-"):
        return None
    t = tables()
    lrec: dict[str, dict[str, Any]] = state["lords"]  # (typed: compiled, a dict's own get)
    for lid in t.badge_lords[side].get(t.card_badge[card], ()):
        d = lrec.get(lid)  # as placed(), inline: a Plan edit asks this for every card it names
        if d is not None and d["where"] in _PLACED:
            return lid
    return None


def forces(mat: dict[str, Any]) -> int:
    """Forces units on a mat (1.6): Troops, the Retinue and the Vassals (E FAQ #2 for Sail)."""
    return sum(map(mat["troops"].__getitem__, TROOP_TYPES)) + 1 + len(mat["vassals"]) + len(mat["special_vassals"])


def assets(state: State, lords: list[str], asset: str) -> int:
    lrec = state["lords"]
    total = 0
    for lid in lords:
        total += lrec[lid]["mat"]["assets"][asset]
    return total


def mark_moved(state: State, lords: list[str]) -> None:
    """Put Moved/Fought markers on Lords (4.3, 4.3.4, 4.6.1)."""
    state["moved"] = sorted(set(state["moved"]) | set(lords))


def group_candidates(state: State, lord: str) -> list[str]:
    """Lords who may go with ``lord`` as a Group (4.3.1): any of the Lords of his side at his
    Locale (or Sea) for a Marshal, any but a Marshal for a Lieutenant (RULINGS R32), none for
    other Lords."""
    c = load()
    ring = c.lords[lord]["ring"]
    here = state["lords"][lord]["locale"]
    if ring is None:
        if fx.capability(state, lord, "captain") is None:
            return []
        # Y30 Captain: a Marshal where no Friendly Marshal or Lieutenant is with him (RULINGS R73)
        others = [lid for lid in sv.lords_at(state, here, sv.side_of(lord)) if lid != lord]
        if any(c.lords[lid]["ring"] is not None for lid in others):
            return []
        return sorted(others)
    out = [lid for lid in sv.lords_at(state, here, sv.side_of(lord)) if lid != lord]
    if ring == "lieutenant":
        out = [lid for lid in out if c.lords[lid]["ring"] != "marshal"]
    return sorted(out)


def seamanship(state: State, side: str) -> bool:
    """Y6/L6 Seamanship in effect for ``side``: its Sail costs one Command action (not the whole
    card) this Campaign, so it may also come after other actions (RULINGS R71)."""
    return bool(state["aow"][side]["in_effect"]) and fx.event_on(state, "seamanship", side) is not None


def may_sail(state: State, side: str) -> bool:
    """L21 French Fleet (a Lancastrian Event in effect): Yorkist Lords cannot Sail this Campaign."""
    return not (side == "York" and fx.event_on(state, "french_fleet", "Lancaster"))


def barred(state: State, side: str, dest: str) -> bool:
    """Y25 Owain Glyndwr (a Yorkist Event in effect): no Lancastrian may March or Sail into a
    Welsh Stronghold this Campaign (an Intercept is not a March: RULINGS R71)."""
    if side != "Lancaster" or not state["aow"]["York"]["in_effect"]:
        return False
    loc = load().locales[dest]
    return loc["kind"] == "stronghold" and loc["area"] == "Wales" and \
        fx.event_on(state, "owain_glyndwr", "York") is not None


SHAKY_ALLIES: Final = frozenset({"margaret", "warwick_l"})


def shaky_allies(state: State, lords: list[str], dest: str) -> bool:
    """Shaky Allies (6.0 II, 6.3 IIY): Margaret and Warwick may never enter the same Stronghold;
    whether ``lords`` moving to ``dest`` would bring them together there (RULINGS R87)."""
    if "shaky_allies" not in state["special_rules"] or not SHAKY_ALLIES.intersection(lords):
        return False
    if load().locales[dest]["kind"] != "stronghold":
        return False
    return {*lords, *sv.lords_at(state, dest)} >= SHAKY_ALLIES


def truce(state: State) -> bool:
    """Y12/L20 Parliament's Truce in effect (played by either side): no Approach and no Intercept
    for the rest of this Campaign, for both sides (RULINGS R79)."""
    return fx.event_on(state, "truce") is not None


def send_back(state: State, lords: list[str], locale: str, back: str) -> None:
    """Approaching Lords whose Approach is cancelled (Y12/L20 Parliament's Truce, L15 King's
    Parley) go back to the Locale or Sea they came from (RULINGS R79, R81); they stay Moved."""
    at_sea = load().locales[back]["kind"] == "sea"
    lrec = state["lords"]
    for lid in lords:
        d = lrec[lid]
        if d["locale"] == locale and d["where"] in _PLACED:
            d["where"] = Where.SEA if at_sea else Where.MAP
            d["locale"] = back


def parley_cost(state: State, frame: Frame) -> int:
    """Command actions a Parley takes (4.6.4): one, or the whole card for a Yorkist while L10 New
    Act of Parliament is in effect."""
    if frame["side"] == "York" and fx.event_on(state, "new_act", "Lancaster"):
        return max(1, frame["left"])
    return 1


def as_highway(state: State, side: str, lords: list[str], way: str) -> bool:
    """Whether a March by ``lords`` along ``way`` counts as a Highway (4.3.3): a Highway, or a Road
    for a Lord Marching alone with Y11 Yorkists Never Wait, or a Lancastrian Lord Marching alone
    while L8 Forced Marches is in effect (RULINGS R72)."""
    if way == "Highway":
        return True
    if way != "Road" or len(lords) != 1:
        return False
    if side == "Lancaster" and fx.event_on(state, "forced_marches", "Lancaster"):
        return True
    return fx.capability(state, lords[0], "never_wait") is not None


def take_action(frame: Frame, cost: int = 1) -> None:
    """Spend Command actions of the card (4.2.1); any action but the free second Highway
    forgoes that Highway (4.3.3)."""
    frame["left"] -= cost
    frame["used"] += 1
    frame["highway"] = None
    frame.pop("march_only", None)  # L33 Surprise Landing's free March is taken


# ----- 4.1 Plan ------------------------------------------------------------------------------
def plan_target(state: State, side: str) -> int:
    """Cards the side's Plan must hold: the Calendar's number (4.1), or every card the side
    has when it has fewer (RULINGS R30)."""
    return min(sv.plan_size(state["box"]), len(state["command"][side]["deck"]))


def placed_badges(state: State, side: str) -> set[str]:
    """The badges of the side's Lords on the map or at Sea: their cards can activate them."""
    lords, lrec, placed = load().lords, state["lords"], _PLACED
    return {lords[lid]["badge"] for lid in sv.sides_in(lrec)[side] if lrec[lid]["where"] in placed}


def pass_limit(state: State, side: str) -> int:
    """Pass cards a Plan may hold: only those needed to fill it when the side has too few
    cards of Lords on the map (4.1.1; RULINGS R30)."""
    badges = placed_badges(state, side)
    lord_cards = sum(len(cards) for badge, cards in badge_groups(state["command"][side]["deck"]).items()
                     if badge in badges)
    return max(0, sv.plan_size(state["box"]) - lord_cards)


def plan_limits(state: State, side: str) -> list[int]:
    """``[cards, Pass cards]`` the side's Plan must hold and may hold (:func:`plan_target`,
    :func:`pass_limit`); the Plan frame keeps them, since Lords do not move while Plans are made."""
    return [plan_target(state, side), pass_limit(state, side)]


def _limits(state: State, frame: Frame, side: str) -> list[int]:
    limits: dict[str, list[int]] | None = frame.get("limits")
    return limits[side] if limits is not None else plan_limits(state, side)


#: :func:`badge_groups` of the decks met so far (a Plan asks for the same deck many times).
_BADGE_GROUPS: Final[dict[tuple[str, ...], dict[str, tuple[tuple[int, str], ...]]]] = {}


def badge_groups(deck: list[str]) -> dict[str, tuple[tuple[int, str], ...]]:
    """The cards of a Command deck by badge, each with its place in the deck, in deck order
    (a badge's cards are alike, 1.9.2). Computed once per distinct deck."""
    key = tuple(deck)
    hit = _BADGE_GROUPS.get(key)
    if hit is None:
        card_badge = tables().card_badge
        groups: dict[str, list[tuple[int, str]]] = {}
        for pos, cid in enumerate(deck):
            groups.setdefault(card_badge[cid], []).append((pos, cid))
        hit = {badge: tuple(cards) for badge, cards in groups.items()}
        if len(_BADGE_GROUPS) >= 4096:  # bounded: decks change only at each Plan
            _BADGE_GROUPS.clear()
        _BADGE_GROUPS[key] = hit
    return hit


def plan_additions(state: State, side: str, draft: list[str], passes_allowed: int | None = None) -> list[str]:
    """The cards that may go next on a Plan: the first unused card of each badge (a badge's
    three cards are alike) and a Pass card within :func:`pass_limit`, in deck order."""
    return _additions(state["command"][side]["deck"], draft,
                      pass_limit(state, side) if passes_allowed is None else passes_allowed)


def _additions(deck: list[str], draft: list[str], passes_allowed: int) -> list[str]:
    """:func:`plan_additions` for the side's Command deck ``deck``."""
    passes = 0
    for cid in draft:
        if cid.startswith("pass-"):
            passes += 1
    no_pass = passes >= passes_allowed
    chosen: list[tuple[int, str]] = []
    for badge, cards in badge_groups(deck).items():
        if no_pass and badge == "pass":
            continue
        for pos_cid in cards:
            if pos_cid[1] not in draft:  # a draft holds a few cards: a list test is cheap
                chosen.append(pos_cid)
                break
    chosen.sort()
    return [cid for _pos, cid in chosen]


#: :func:`plan_menu` of the Plans met so far, by their arguments.
_PLAN_MENUS: Final[dict[tuple[tuple[str, ...], tuple[str, ...], int, int], tuple[Action, ...]]] = {}


def plan_menu(deck: list[str], draft: list[str], target: int, passes: int) -> tuple[Action, ...]:
    """A side's Plan menu (4.1): lock in a full Plan, else add one of :func:`plan_additions`
    (``passes``: the Pass cards it may hold); take back the last card of a Plan not empty. It
    depends only on the side's Command deck, the cards of its draft (not their order) and its
    two limits, so it is made once for each distinct set of cards (random and search play
    revisit them as cards are added and taken back)."""
    key = (tuple(deck), tuple(sorted(draft)), target, passes)
    hit = _PLAN_MENUS.get(key)
    if hit is None:
        out: list[Action] = []
        if len(draft) >= target:
            out.append(("lock", None))
        else:
            out += [("add", cid) for cid in _additions(deck, draft, passes)]
        if draft:
            out.append(("remove", None))
        hit = tuple(out)
        if len(_PLAN_MENUS) >= 65536:  # bounded
            _PLAN_MENUS.clear()
        _PLAN_MENUS[key] = hit
    return hit


def _card_no(card: str) -> str:
    """Which of a Lord's alike Command cards, in words: "york-2" -> "card 2"."""
    return f"card {card.rsplit('-', 1)[-1]}"


def card_title(state: State, side: str, card: str) -> str:
    """The name a Command card shows: its Lord on the map or at Sea (:func:`card_lord`), else the
    first Lord of its badge; "Pass" for a Pass card. Every Plan edit's log line asks it."""
    known = (_CARD_TITLES if _CARD_TITLES else _card_titles())[side].get(card)
    if known is None:
        return _card_title(state, side, card)
    if isinstance(known, str):  # the same title wherever the badge's Lords are
        return known
    lords, fallback = known
    lrec: dict[str, dict[str, Any]] = state["lords"]  # (typed: compiled, a dict's own get)
    for lid, name in lords:  # card_lord, inline
        d = lrec.get(lid)
        if d is not None and d["where"] in _PLACED:
            return name
    return fallback


def _card_title(state: State, side: str, card: str) -> str:
    """:func:`card_title` worked out from the tables."""
    if card.startswith("pass-"):
        return "Pass"
    t = tables()
    lrec = state["lords"]
    lords = t.badge_lords[side].get(t.card_badge[card], ())
    for lid in lords:
        d = lrec.get(lid)
        if d is not None and d["where"] in _PLACED:
            return _lord_names()[lid]
    return _lord_names()[lords[0]] if lords else card.rsplit("-", 1)[0]


#: :func:`_card_titles`, made at its first call (a module table rather than ``functools.cache``:
#: every Plan prompt and edit asks it, and a cached function is a Python call even compiled).
_CARD_TITLES: Final[dict[str, dict[str, str | tuple[tuple[tuple[str, str], ...], str]]]] = {}


def _card_titles() -> dict[str, dict[str, str | tuple[tuple[tuple[str, str], ...], str]]]:
    """Per side and Command card: the Lords of its badge with their names (the title while he
    is placed) and the title when none is (:func:`_card_title`); or the title alone where it
    is the same whoever is placed (a Pass card, a badge of one Lord, whose name is also the
    title when he is not placed)."""
    if not _CARD_TITLES:
        _CARD_TITLES.update(_make_card_titles())
    return _CARD_TITLES


def _make_card_titles() -> dict[str, dict[str, str | tuple[tuple[tuple[str, str], ...], str]]]:
    t, names = tables(), _lord_names()
    out: dict[str, dict[str, str | tuple[tuple[tuple[str, str], ...], str]]] = {}
    for side in SIDES:
        out[side] = {}
        for card, badge in t.card_badge.items():
            if card.startswith("pass-"):
                out[side][card] = "Pass"
                continue
            lords = t.badge_lords[side].get(badge, ())
            titled = tuple((lid, names[lid]) for lid in lords)
            fallback = names[lords[0]] if lords else card.rsplit("-", 1)[0]
            # one title whoever is placed: no Lord, or every Lord's name the fallback
            out[side][card] = fallback if all(name == fallback for _lid, name in titled) else (titled, fallback)
    return out


_LORD_NAMES: Final[dict[str, str]] = {}


def _lord_names() -> dict[str, str]:
    """Each Lord's name (:func:`lord_name`), computed once (a module table, as :func:`tables`)."""
    if not _LORD_NAMES:
        _LORD_NAMES.update({lid: str(d["name"]) for lid, d in load().lords.items()})
    return _LORD_NAMES


def _draft_prompt(state: State, side: str, draft: list[str], n: int) -> str:
    """What a side building its Plan of ``n`` cards is asked, its ``draft`` so far (4.1)."""
    order = ", ".join([card_title(state, side, cid) for cid in draft]) or "empty"
    if len(draft) >= n:
        return f"Campaign Plan (4.1): lock in your Plan of {n} cards (top first: {order})."
    return (f"Campaign Plan (4.1): choose card {len(draft) + 1} of {n} for your Plan "
            f"(so far, top first: {order}).")


def _draft_menu(state: State, frame: Frame, side: str) -> tuple[int, tuple[Action, ...]]:
    """The number of cards ``side``'s Plan must hold (:func:`_limits`, inline) and what it may
    do to its draft now (:func:`plan_menu`, kept by its arguments) (4.1)."""
    limits = frame.get("limits")
    target, passes = limits[side] if limits is not None else plan_limits(state, side)
    deck, draft = state["command"][side]["deck"], frame["drafts"][side]
    menu = _PLAN_MENUS.get((tuple(deck), tuple(sorted(draft)), target, passes))
    return target, (menu if menu is not None else plan_menu(deck, draft, target, passes))


class Plan(Step):
    """4.1 Plan: both sides build their Plans at once and in secret (4.1.2). The frame is popped
    when the second side locks in: while it is on top a side decides (``always_decides``)."""

    name = "plan"
    phase = CAMPAIGN
    always_decides = True
    rule = "4.1"
    # an edit changes only the frame (and the log); locking in sets the Command cards' zones
    changes = {"add": frozenset(), "remove": frozenset(), "lock": CARDS_PART}

    def actors(self, state: State, frame: Frame) -> list[str]:
        locked = frame["locked"]
        if not locked:
            return [state["rebel"], state["king"]]
        rebel, king = state["rebel"], state["king"]
        if rebel in locked:
            return [] if king in locked else [king]
        return [rebel] if king in locked else [rebel, king]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return list(_draft_menu(state, frame, role)[1])

    def is_legal(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> bool:
        """Membership in :meth:`options` (the same menu, from :func:`plan_menu`)."""
        return (verb, arg) in _draft_menu(state, frame, role)[1]

    def prompt_and_options(self, state: State, frame: Frame, role: str) -> tuple[str, list[Action]]:
        """:meth:`prompt` and :meth:`options` of a side building its Plan, its limits and
        draft read once."""
        if role not in frame["drafts"] or role in frame["locked"]:
            return self.prompt(state, frame, role), self.options(state, frame, role)
        target, menu = _draft_menu(state, frame, role)
        return _draft_prompt(state, role, frame["drafts"][role], target), list(menu)

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role in frame["drafts"] and role not in frame["locked"]:
            return _draft_prompt(state, role, frame["drafts"][role], _limits(state, frame, role)[0])
        waiting = " and ".join(self.actors(state, frame))
        return f"Campaign Plan (4.1): waiting for {waiting} to set a Plan."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        if verb == "add":
            return f"Add {card_title(state, role, arg)} ({_card_no(arg)})"
        return {"lock": "Lock in the Plan", "remove": "Take back the last card"}.get(verb, verb)

    # ----- why a Plan edit is refused (the side's own cards only) ----------------------------
    def why_not_add(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        target, passes = _limits(state, frame, role)
        draft = frame["drafts"][role]
        if len(draft) >= target:
            return f"your Plan has its {target} cards: lock it in, or take back the last card (4.1)."
        if not isinstance(arg, str) or arg not in state["command"][role]["deck"]:
            return "that is not a card of your Command deck (4.1.1)."
        if arg in draft:
            return f"{card_title(state, role, arg)} ({_card_no(arg)}) is in your Plan already (4.1.1)."
        if arg.startswith("pass-") and sum(1 for cid in draft if cid.startswith("pass-")) >= passes:
            return (f"your Plan may hold {passes} Pass card{'' if passes == 1 else 's'}: Pass cards fill out a "
                    "Plan only when too few cards of your Lords on the map are left (4.1.1).")
        first = next((cid for cid in _additions(state["command"][role]["deck"], draft, passes)
                      if tables().card_badge[cid] == tables().card_badge[arg]), None)
        if first is None:
            return None
        return (f"a Lord's Command cards are alike: add {card_title(state, role, arg)}'s {_card_no(first)} "
                "first (1.9.2).")

    def why_not_lock(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        target = _limits(state, frame, role)[0]
        held = len(frame["drafts"][role])
        return f"your Plan holds {held} of the {target} cards it must hold (4.1)."

    def why_not_remove(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return "your Plan is empty: there is no card to take back (4.1.2)." if not frame["drafts"][role] else None

    # Each edit of a Plan is told to its side alone (the other side sees nothing, 4.1.2): its
    # own view then changes with every edit, so a player (or bot) never meets the same view twice.
    def on_add(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["drafts"][role].append(arg)
        private(state, role, f"You add {card_title(state, role, arg)} ({_card_no(arg)}) to your Plan.", CARD)

    def on_remove(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        cid = frame["drafts"][role].pop()
        private(state, role, f"You take {card_title(state, role, cid)} ({_card_no(cid)}) back from your Plan.", CARD)

    def on_lock(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["locked"].append(role)
        draft = frame["drafts"][role]
        private(state, role, "Your Plan, top first: "
                + ", ".join([card_title(state, role, cid) for cid in draft]) + ".", CARD)
        if len(frame["locked"]) < len(SIDES):
            public(state, f"{role} has set its Plan (4.1.2).", CARD)
            return
        codecs = load().command_ids
        for side in SIDES:
            cm = state["command"][side]
            cards = frame["drafts"][side]
            chosen = set(cards)
            cm["deck"] = [cid for cid in cm["deck"] if cid not in chosen]
            cm["deck"].sort(key=codecs[side].ids.__getitem__)
            cm["plan"] = list(cards)
        mark_reveal(state)  # each side now sees the size of the other's Plan (4.1.2)
        public(state, "Both Plans are set: " + ", ".join(
            f"{s} {len(state['command'][s]['plan'])} cards" for s in (state["rebel"], state["king"])) + ".", CARD)
        pop(state)


# ----- 4.2 Command ---------------------------------------------------------------------------
class Command(Step):
    """4.2: the sides reveal their top Plan cards in turn, Rebel first; each card is followed
    by Feed (4.7). When one side's Plan is empty the other goes on alone; when both are, the
    Campaign's Command cards are over (4.8)."""

    name = "command"
    phase = CAMPAIGN
    rule = "4.2"
    run_changes = CARDS_PART  # the Plan's top card revealed; frames pushed for its Lord and the Feed

    def run(self, state: State, frame: Frame) -> None:
        frame["started"] = True
        commands = state["command"]
        while True:  # card after card, until one needs a decision or a Feed
            if frame["feed"] == 1:  # the card is over: Feed (4.7), Rebel then King's side
                frame["feed"] = 2
                if state["moved"]:
                    push_all(state, side_frames(state, "feed"))
                    return
                # Nobody to Feed: on at once (a settle between would find nothing new to watch)
            if frame["feed"] == 2:  # 4.7 REMOVE MARKERS
                frame["feed"] = 0
                state["moved"] = []
            side = frame["next"]
            if not commands[side]["plan"]:
                side = _OTHER[side]
                if not commands[side]["plan"]:
                    pop(state)
                    return
            cm = commands[side]
            card = cm["plan"].pop(0)
            cm["revealed"].append(card)
            mark_reveal(state)
            frame["next"] = _OTHER[side]
            frame["feed"] = 1
            lord = card_lord(state, side, card)
            if lord is None:
                what = "a Pass card" if card.startswith("pass-") else \
                    f"{card_title(state, side, card)}, not on the map"
                public(state, f"{side} reveals {what}: nothing happens (4.2.3).", CARD)
                continue  # the next card at once (settling again would find nothing new)
            left = sv.modified_rating(state, lord, "command")
            public(state, f"{side} reveals {card_title(state, side, card)}: {lord_name(lord)} is Active with {left} actions (4.2.1).", CARD)
            if left > 0:
                push(state, {"step": "actions", "side": side, "lord": lord, "left": left, "used": 0,
                             "highway": None})
                return


#: :func:`setup.other` as a table.
_OTHER: Final = {"York": "Lancaster", "Lancaster": "York"}


# ----- 4.2.2 the Command menu -------------------------------------------------------------------
def march_options(state: State, frame: Frame) -> list[str]:
    """Destinations of a March now (4.3, 4.3.3): the free second Highway right after a Highway
    March, and the Ways from a Stronghold or Scotland (Path only as the card's first action)."""
    t = tables()
    lord = frame["lord"]
    d = state["lords"][lord]
    if d["where"] != Where.MAP:
        return []
    here = d["locale"]
    out: list[str] = []
    hw = frame["highway"]
    if hw is not None:
        out = [b for b, w in t.march[here] if b != hw["from"] and w != "Path"
               and as_highway(state, frame["side"], hw["group"], w)]
    chained = tuple(out)
    if frame["left"] > 0 and (here == "Scotland" or load().locales[here]["kind"] == "stronghold"):
        first = frame["used"] == 0
        for b, w in t.march[here]:
            if (w == "Path" and not first) or b in out:
                continue
            out.append(b)
    if out and frame["side"] == "Lancaster" and state["aow"]["York"]["in_effect"]:
        out = [b for b in out if not barred(state, "Lancaster", b)]  # Y25 Owain Glyndwr
    if out and (state["aow"]["York"]["in_effect"] or state["aow"]["Lancaster"]["in_effect"]) and truce(state):
        # Y12/L20 Parliament's Truce: no March that would Approach (R79)
        out = [b for b in out if not sv.enemy_lords_at(state, b, frame["side"])]
    if out and "shaky_allies" in state["special_rules"]:
        # The Group of the first Highway goes on along the second; any other March is his.
        out = [b for b in out if not shaky_allies(state, list(hw["group"]) if b in chained else [lord], b)]
    return out


def sail_destinations(state: State, lord: str) -> list[str]:
    """Where a Lord at a Port, an Exile box or at Sea may Sail (4.6.1, RULINGS R31): a Port on
    the same Sea free of Enemy Lords, that Sea or an adjacent one; from a Sea, also a Port on
    an adjacent Sea. Never into an Exile box (1.3.1) nor Port to Port across Seas (E FAQ #1)."""
    t = tables()
    d = state["lords"][lord]
    here = d["locale"]
    sea = t.sea_of.get(here)
    if sea is None:
        return []
    side = sv.side_of(lord)
    if not may_sail(state, side):  # L21 French Fleet
        return []
    at_sea = d["where"] == Where.SEA
    # L29 High Admiral: he may Sail to Ports holding Enemy Lords, an Approach (not under a Truce, R82)
    admiral = high_admiral(state, lord)
    out = [p for p in t.ports[sea] if p != here and (admiral or not sv.enemy_lords_at(state, p, side))]
    if not at_sea:
        out.append(sea)
    for nxt in t.seas_next[sea]:
        out.append(nxt)
        if at_sea:
            out += [p for p in t.ports[nxt] if admiral or not sv.enemy_lords_at(state, p, side)]
    if side == "Lancaster" and state["aow"]["York"]["in_effect"]:
        out = [p for p in out if not barred(state, side, p)]  # Y25 Owain Glyndwr
    if lord in SHAKY_ALLIES:
        out = [p for p in out if not shaky_allies(state, [lord], p)]
    return out


def high_admiral(state: State, lord: str) -> bool:
    """L29 High Admiral on the Lord's mat, and no Parliament's Truce in effect (RULINGS R82)."""
    mat = state["lords"][lord]["mat"]
    return bool(mat and mat["capabilities"]) and fx.capability(state, lord, "high_admiral") is not None \
        and not truce(state)


def sail_fits(state: State, lords: list[str]) -> bool:
    """Enough Ships for the Forces (4.6.1): one per six units, rounded up. Provender and Carts
    beyond two per Ship may be discarded (1.7.2), Forces never."""
    lrec = state["lords"]
    ships = sail_ships(state, lords)
    return ships > 0 and sum(forces(lrec[lid]["mat"]) for lid in lords) <= SHIP_FORCES * ships


def sail_ships(state: State, lords: list[str]) -> int:
    """The Ships of a Sail (4.6.1); Y6/L6 Great Ships count twice (RULINGS R86)."""
    return sum(sv.ships_of(state, lid) for lid in lords)


def can_sail(state: State, lord: str) -> bool:
    """Whether the Lord alone, or with some of his possible Group, has Ships enough (4.6.1)."""
    if sail_fits(state, [lord]):
        return True
    lrec = state["lords"]
    helpers = [lid for lid in group_candidates(state, lord)
               if SHIP_FORCES * sv.ships_of(state, lid) > forces(lrec[lid]["mat"])]
    return bool(helpers) and sail_fits(state, [lord, *helpers])


def agitator_targets(state: State, lord: str) -> list[str]:
    """Y10 Agitators: for one Command action the Lord Depletes a Neutral or Enemy Stronghold
    next to him (by a Way), or makes a Depleted one Exhausted; an Exhausted one cannot be
    worsened (RULINGS R76)."""
    if not state["lords"][lord]["mat"]["capabilities"] or fx.capability(state, lord, "agitators") is None:
        return []
    side = sv.side_of(lord)
    here = state["lords"][lord]["locale"]
    locales = load().locales
    return [b for b in tables().near[here]
            if locales[b]["kind"] == "stronghold" and not sv.is_friendly(state, b, side)
            and not sv.is_exhausted(state, b)]


def exile_pact_boxes(state: State, frame: Frame) -> list[str]:
    """Y8 Exile Pact in effect: a Yorkist Lord on the map may spend one Command action to move
    his cylinder to a Friendly Exile box free of Enemy Lords, at no Influence cost (RULINGS R78);
    with Allied Networks (Ia, War I) only to his badge's box (1.3.1, 3.3.1)."""
    side = frame["side"]
    if side != "York" or not state["aow"]["York"]["in_effect"] or not fx.event_on(state, "exile_pact", "York"):
        return []
    lord = frame["lord"]
    here = state["lords"][lord]["locale"]
    return [box for box in sv.exile_boxes_for(state, lord) if box != here and not sv.enemy_lords_at(state, box, side)]


def merchants_choices(state: State, lord: str) -> list[str]:
    """L30 Merchants: the Depleted or Exhausted markers at or next to the Lord's Locale he may
    try to remove, two at once (``"A+B"``, map order), or the only one there (RULINGS R77)."""
    if not state["lords"][lord]["mat"]["capabilities"] or fx.capability(state, lord, "merchants") is None:
        return []
    here = state["lords"][lord]["locale"]
    ids = load().locale_ids.id
    marked = sorted((loc for loc in (here, *tables().near[here]) if loc in state["exhaustion"]), key=ids)
    if len(marked) < 2:
        return marked
    return [f"{a}+{b}" for i, a in enumerate(marked) for b in marked[i + 1:]]


def heralds_targets(state: State, frame: Frame) -> list[str]:
    """L4 Heralds: at a Port Stronghold, as the card's first action (it takes the whole card, like
    Sail 4.6.1), the Lord may try to move any Lord cylinder on the Calendar, of either side, that
    is not already there, to the next Turn's box (RULINGS R84)."""
    lord = frame["lord"]
    d = state["lords"][lord]
    if frame["used"] != 0 or d["where"] != Where.MAP or not d["mat"]["capabilities"] \
            or fx.capability(state, lord, "heralds") is None:
        return []
    loc = load().locales[d["locale"]]
    if loc["kind"] != "stronghold" or not loc["port"]:
        return []
    nxt = sv.calendar_place(state["box"] + 1)
    ids = load().lord_ids.ids
    return sorted((lid for lid, x in state["lords"].items() if x["where"] == Where.CALENDAR and x["box"] != nxt),
                  key=ids.__getitem__)


def forage_needs(state: State, lord: str) -> int | None:
    """The highest roll that Forages (4.6.2): None for a sure success (Friendly, no Enemy Lord
    adjacent), 4 at a Neutral Locale, 3 at an Enemy one or with an Enemy Lord adjacent."""
    side = sv.side_of(lord)
    here = state["lords"][lord]["locale"]
    enemy = other(side)
    near = any(sv.lords_at(state, b, enemy) for b in tables().near[here])
    if sv.is_enemy(state, here, side) or near:
        return 3
    return None if sv.is_friendly(state, here, side) else 4


class Actions(Step):
    """4.2.1-4.2.2: the Active Lord's Command actions, up to his Command rating; the card ends
    when they are spent, when he Passes, or at an Approach (4.3.5)."""

    name = "actions"
    phase = CAMPAIGN
    rule = "4.2"
    # a Parley shifts Favour (or opens its Boost, a frame); Supply and Forage change the Lord's
    # Provender and the markers of the Locales (4.5, 4.6.2); a Pass, and the card's actions
    # left, are the frame's
    # a March or a Sail only pushes its frames (Group, Haul, Move: the Lords move in Move's run)
    # or spends the card's actions when Y15 Naval Blockade cancels a Sail; a Tax at a Seat the
    # Lord's Coin and the Depletion (4.6.3), elsewhere the Influence check's frame (Boost)
    changes = {"parley": TRACKS_PART, "supply": LORDS_AND_BOARD, "forage": LORDS_AND_BOARD, "pass": frozenset(),
               "march": frozenset(), "sail": frozenset(), "tax": LORDS_AND_BOARD}
    run_changes = frozenset()  # the card is over: the frame popped

    def actors(self, state: State, frame: Frame) -> list[str]:
        if frame["left"] > 0 or frame["highway"] is not None:
            d = state["lords"].get(frame["lord"])  # placed(), inline
            if d is not None and d["where"] in _PLACED:
                return [frame["side"]]
        return []

    def run(self, state: State, frame: Frame) -> None:
        pop(state)

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        lord = frame["lord"]
        d = state["lords"][lord]
        out: list[Action] = [("march", b) for b in march_options(state, frame)]
        if frame.get("march_only"):  # L33 Surprise Landing: one free March action
            return out + [("pass", None)]
        if frame["left"] > 0:
            if frame["used"] == 0 or seamanship(state, frame["side"]):
                dests = sail_destinations(state, lord)  # none away from a Port, Exile box or Sea
                if dests and can_sail(state, lord):
                    out += [("sail", b) for b in dests]
            if d["where"] == Where.MAP:
                memo: sv.Memo = {}  # one Enemy scan and Route search for the whole menu
                out += [("supply", choice) for choice in sv.supply_choices(state, lord, memo)]
                if state["exhaustion"].get(d["locale"]) != "exhausted":  # is_exhausted
                    out.append(("forage", None))
                out += [("tax", t) for t in sv.tax_targets(state, lord, memo)]
                out += [("parley", t) for t in sv.parley_targets(state, lord, campaign=True, memo=memo)]
                caps = d["mat"]["capabilities"]  # Agitators, Merchants and Heralds are Capabilities
                if caps:
                    out += [("agitate", t) for t in agitator_targets(state, lord)]
                    out += [("merchants", t) for t in merchants_choices(state, lord)]
                if frame["side"] == "York" and state["aow"]["York"]["in_effect"]:  # Y8 Exile Pact
                    out += [("exile_pact", b) for b in exile_pact_boxes(state, frame)]
                if caps:
                    out += [("heralds", lid) for lid in heralds_targets(state, frame)]
            # Held Events played in one's own Command actions (RULINGS R51, R79): Y12/L20 Truce...
            if state["aow"][frame["side"]]["held"]:
                out += reactions.own_time_options(state, frame["side"], "actions")
        out.append(("pass", None))
        return out

    # ----- why an action is refused (all public: the Active Lord, his Locale, the map) --------
    def _spent(self, state: State, frame: Frame, verb: str) -> str | None:
        """Why no Command action but the free second Highway or the one March is open, if so."""
        if frame.get("march_only") and verb != "march":
            return "Surprise Landing gives the Lord one March only (L33)."
        if frame["left"] <= 0:
            return ("no Command actions are left on this card: only the free second Highway March may "
                    "follow (4.2.1, 4.3.3).")
        return None

    def why_not_march(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        lord = frame["lord"]
        d = state["lords"][lord]
        name = lord_name(lord)
        if not isinstance(arg, str) or arg not in load().locales:
            return f"{arg} is not a Locale of the map."
        if d["where"] != Where.MAP:
            return f"{name} is at Sea: he may Sail, not March (4.3, 4.6.1)."
        here = d["locale"]
        if (here, arg) not in tables().way:
            return f"{arg} is not adjacent to {here} by a Way (4.3.3)."
        way = dict(tables().march[here]).get(arg)
        if way is None:
            return f"{arg} is not a Stronghold: a March goes to an adjacent Stronghold (4.3, 4.3.3)."
        spent = self._spent(state, frame, "march")
        if spent is not None:
            return spent
        if here != "Scotland" and load().locales[here]["kind"] != "stronghold":
            return f"{name} is at {here}: Lords March only from a Stronghold or from Scotland (4.3)."
        if way == "Path" and frame["used"] > 0:
            return "a March along a Path takes all the actions of the card: only as its first action (4.3.3)."
        return ("an Event or a scenario rule in effect bars this March now (Y25 Owain Glyndwr, Y12/L20 "
                "Parliament's Truce, Shaky Allies).")

    def why_not_forage(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        spent = self._spent(state, frame, "forage")
        if spent is not None:
            return spent
        d = state["lords"][frame["lord"]]
        if d["where"] != Where.MAP:
            return f"{lord_name(frame['lord'])} is at Sea: a Lord Forages at a Locale (4.6.2)."
        return f"{d['locale']} is Exhausted (4.6.2)." if sv.is_exhausted(state, d["locale"]) else None

    def is_legal(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> bool:
        """The same answer as membership in :meth:`options`, checking only ``verb``."""
        if verb == "pass":
            return arg is None
        if verb == "march":
            return isinstance(arg, str) and arg in march_options(state, frame)
        if frame.get("march_only"):
            return False
        lord = frame["lord"]
        d = state["lords"][lord]
        if frame["left"] <= 0 or not isinstance(arg, (str, type(None))):
            return False
        if verb == "event":
            return (verb, arg) in reactions.own_time_options(state, frame["side"], "actions")
        if verb == "sail":
            return (frame["used"] == 0 or seamanship(state, frame["side"])) and arg in sail_destinations(state, lord) \
                and can_sail(state, lord)
        if d["where"] != Where.MAP:
            return False
        if verb == "forage":
            return arg is None and not sv.is_exhausted(state, d["locale"])
        if arg is None:
            return False
        if verb == "supply":
            return arg in sv.supply_choices(state, lord)
        if verb == "tax":
            return arg in sv.tax_targets(state, lord)
        if verb == "parley":
            return arg in sv.parley_targets(state, lord, campaign=True)
        if verb == "agitate":
            return arg in agitator_targets(state, lord)
        if verb == "merchants":
            return arg in merchants_choices(state, lord)
        if verb == "exile_pact":
            return arg in exile_pact_boxes(state, frame)
        if verb == "heralds":
            return arg in heralds_targets(state, frame)
        return False

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        lord = lord_name(frame["lord"])
        where = state["lords"][frame["lord"]]["locale"]
        extra = " (or March on along a second Highway for free)" if frame["highway"] else ""
        if role == frame["side"]:
            return (f"{lord} at {where}: {frame['left']} Command actions left{extra} — "
                    "March, Sail, Supply, Forage, Tax, Parley or Pass (4.2.2).")
        return f"{frame['side']}: {lord} at {where} is Active ({frame['left']} actions left)."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        if verb == "march":
            hw = frame["highway"]
            here = state["lords"][frame["lord"]]["locale"]
            way = tables().way.get((here, arg), "")
            free = hw is not None and as_highway(state, frame["side"], hw["group"], way)
            return f"March to {arg} ({'second Highway, free' if free else way})"
        if verb == "supply":
            src = str(arg).removesuffix(sv.BY_SHIP)
            return f"Supply from {src}" + (" (Port, with Ships)" if src != arg else "")
        lord = frame["lord"]
        if verb == "tax":
            return f"Tax {arg}" + (" (his Seat: sure)" if state["seats"].get(lord) == arg else " (Influence check)")
        if verb == "parley":
            sure = arg == state["lords"][lord]["locale"]
            return f"Parley {arg}" + (" (here: sure)" if sure else " (Influence check, 1 Way)")
        sail = "1 action, Seamanship" if seamanship(state, frame["side"]) else "the whole card"
        if verb == "event":
            return f"Play {arts.event_title(arg)} ({arg})"
        if verb == "heralds":
            box = state["lords"][arg]["box"]
            return f"Heralds: {lord_name(arg)} from box {box} to the next Turn (the whole card, Influence check)"
        text = {"sail": f"Sail to {arg} ({sail})", "forage": "Forage", "pass": "Pass (end the card)",
                "agitate": f"Agitators: Deplete {arg} (1 action)",
                "exile_pact": f"Exile Pact: go to the Exile box {arg} (1 action, no Influence)",
                "merchants": f"Merchants: remove the markers at {str(arg).replace('+', ' and ')} "
                             "(1 action, Influence check)"}
        return text.get(verb, verb)

    # ----- March (4.3) ------------------------------------------------------------------
    def on_march(self, state: State, frame: Frame, role: str, dest: Any) -> None:
        lord = frame["lord"]
        here = state["lords"][lord]["locale"]
        way = tables().way[(here, dest)]
        hw = frame["highway"]
        if hw is not None and dest != hw["from"] and as_highway(state, frame["side"], hw["group"], way):
            # 4.3.3 HIGHWAY: the same Lord or Group goes on along a second Highway for free.
            start_move(state, "march", frame["side"], list(hw["group"]), dest, way, cost=0, chained=True)
            return
        cost = frame["left"] if way == "Path" else 1  # 4.3.3 PATH: the whole card
        cands = group_candidates(state, lord)
        if cands:
            push(state, {"step": "group", "kind": "march", "side": frame["side"], "lord": lord, "dest": dest,
                         "way": way, "cost": cost, "cands": cands, "with": []})
            return
        start_move(state, "march", frame["side"], [lord], dest, way, cost=cost)

    # ----- Sail (4.6.1) ---------------------------------------------------------------------
    def on_sail(self, state: State, frame: Frame, role: str, dest: Any) -> None:
        lord = frame["lord"]
        cands = group_candidates(state, lord)
        if cands:
            push(state, {"step": "group", "kind": "sail", "side": frame["side"], "lord": lord, "dest": dest,
                         "way": "Sea", "cost": frame["left"], "cands": cands, "with": []})
            return
        start_sail(state, frame["side"], [lord], dest)

    # ----- Supply (4.5) ---------------------------------------------------------------------
    def on_supply(self, state: State, frame: Frame, role: str, choice: Any) -> None:
        lord = frame["lord"]
        if choice.endswith(sv.BY_SHIP) and cr.blockade_check(state, lord, cr.port_sea(choice.removesuffix(sv.BY_SHIP)),
                                                             "Supply by Ship"):
            take_action(frame)  # Y15 Naval Blockade: the action is spent (RULINGS R57, R85)
            return
        opt = sv.supply_from(state, lord, choice)
        n = opt["amount"]
        take_action(frame)
        carts = f", {n * opt['ways']} Carts over {opt['ways']} Ways" if opt["ways"] else ""
        how = "with Ships from the Port" if opt["kind"] == "port" else "from"
        declare(state, f"{lord_name(lord)} Supplies {n} Provender {how} {opt['source']}{carts} (4.5).")

    # ----- Forage (4.6.2) ---------------------------------------------------------------------
    def on_forage(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        lord = frame["lord"]
        here = state["lords"][lord]["locale"]
        need = forage_needs(state, lord)
        take_action(frame)
        if need is None:
            ok, how = True, "sure"
        else:
            r = rng.roll(state)
            ok, how = r <= need, f"rolls {r}, needs {need} or less"
        if ok:
            gain = 2 if fx.capability(state, lord, "scourers") else 1  # Y13 Scourers: 1 more
            state["lords"][lord]["mat"]["assets"]["provender"] += gain
            sv.deplete(state, here)
            public(state, f"{lord_name(lord)} Forages at {here} ({how}): +{gain} Provender, {here} "
                          f"{state['exhaustion'][here].capitalize()} (4.6.2).", SUPPLY)
        else:
            public(state, f"{lord_name(lord)} Forages at {here} ({how}): nothing (4.6.2).", SUPPLY)

    # ----- Held Events in one's own Command actions (RULINGS R51, R79) ---------------------------
    def on_event(self, state: State, frame: Frame, role: str, card: Any) -> None:
        reactions.play_own_time(state, frame["side"], card)

    # ----- Y10 Agitators ------------------------------------------------------------------------
    def on_agitate(self, state: State, frame: Frame, role: str, target: Any) -> None:
        lord = frame["lord"]
        take_action(frame)
        sv.deplete(state, target)
        public(state, f"Agitators (Y10): {lord_name(lord)} stirs up {target}: "
                      f"{state['exhaustion'][target].capitalize()} (1.3.1).", SUPPLY)

    # ----- Y8 Exile Pact ------------------------------------------------------------------------
    def on_exile_pact(self, state: State, frame: Frame, role: str, box: Any) -> None:
        lord = frame["lord"]
        here = state["lords"][lord]["locale"]
        take_action(frame)
        state["lords"][lord]["locale"] = box
        public(state, f"Exile Pact (Y8): {lord_name(lord)} goes from {here} to the Exile box {box}.", MOVE)

    # ----- L4 Heralds ---------------------------------------------------------------------------
    def on_heralds(self, state: State, frame: Frame, role: str, target: Any) -> None:
        lord = frame["lord"]
        take_action(frame, frame["left"])  # the whole card
        if cr.blockade_check(state, lord, cr.port_sea(state["lords"][lord]["locale"]), "Heralds"):
            return  # Y15 Naval Blockade (RULINGS R57, R85)
        push(state, {"step": "boost", "side": frame["side"], "lord": lord, "action": "heralds", "target": target})

    # ----- L30 Merchants ------------------------------------------------------------------------
    def on_merchants(self, state: State, frame: Frame, role: str, target: Any) -> None:
        lord = frame["lord"]
        take_action(frame)
        push(state, {"step": "boost", "side": frame["side"], "lord": lord, "action": "merchants",
                     "target": target})

    # ----- Tax (4.6.3) and Parley (4.6.4) ---------------------------------------------------------
    def on_tax(self, state: State, frame: Frame, role: str, target: Any) -> None:
        lord = frame["lord"]
        take_action(frame)
        if cr.blockade_check(state, lord, cr.sea_hop_seas(state, lord, target), f"Tax of {target}"):
            return  # Y15 Naval Blockade (RULINGS R57, R85)
        if state["seats"].get(lord) == target:
            collect_tax(state, lord, target, None)  # his own Seat: no check (4.6.3 EXCEPTION)
            return
        push(state, {"step": "boost", "side": frame["side"], "lord": lord, "action": "tax", "target": target})

    def on_parley(self, state: State, frame: Frame, role: str, target: Any) -> None:
        lord = frame["lord"]
        take_action(frame, parley_cost(state, frame))  # L10 New Act of Parliament: the whole card
        if cr.blockade_check(state, lord, cr.sea_hop_seas(state, lord, target), f"Parley of {target}"):
            return  # Y15 Naval Blockade (RULINGS R57, R85)
        if target == state["lords"][lord]["locale"]:
            sv.parley(state, lord, target, campaign=True)  # his own location: sure, free (4.6.4)
            public(state, f"{lord_name(lord)} Parleys at {target}: it shifts toward {frame['side']} "
                          f"({_favour_word(state, target)}) (4.6.4).", POLITICAL)
            return
        if lord == "devon" and state["lords"][lord]["locale"] == "Exeter" and fx.event_on(state, "dorset", "York"):
            sv.parley(state, lord, target, campaign=True)  # Y29 Dorset: free and sure, no points to add
            public(state, f"Dorset (Y29): {lord_name(lord)} Parleys {target} from Exeter at no cost: "
                          f"{_favour_word(state, target)} (4.6.4).", POLITICAL)
            return
        push(state, {"step": "boost", "side": frame["side"], "lord": lord, "action": "parley", "target": target})

    # ----- Pass (4.6.5) ---------------------------------------------------------------------
    def on_pass(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        public(state, f"{lord_name(frame['lord'])} Passes (4.6.5).", CARD)
        frame["left"] = 0
        frame["highway"] = None


def _favour_word(state: State, locale: str) -> str:
    f = sv.favour(state, locale)
    return f"now {f}" if f else "now Neutral"


def collect_tax(state: State, lord: str, target: str, extra: int | None) -> None:
    """4.6.3 PROCEDURE: check Influence (not at his own Seat), add the table's Coin, Deplete."""
    side = sv.side_of(lord)
    if extra is None:
        ok, how = True, "his Seat: no check"
    else:
        res = sv.influence_check(state, side, lord, extra=extra)
        ok = bool(res["success"])
        how = f"{res['cost']} Influence, rolls {res['roll']} vs {res['target']}"
    if not ok:
        bonus = 1 if cr.so_wise(state, lord) else 0  # Y34 So wise, so young: 1 Coin all the same
        state["lords"][lord]["mat"]["assets"]["coin"] += bonus
        public(state, f"{lord_name(lord)} Taxes {target} ({how}): fails"
                      + (" (So wise, so young: 1 Coin all the same)" if bonus else "") + " (4.6.3).", SUPPLY)
        return
    coin = cr.tax_coin(state, lord, target)  # the table's Coin, Y34 So wise and Y29 Stafford Branch
    state["lords"][lord]["mat"]["assets"]["coin"] += coin
    sv.deplete(state, target)
    public(state, f"{lord_name(lord)} Taxes {target} ({how}): +{coin} Coin, {target} "
                  f"{state['exhaustion'][target].capitalize()} (4.6.3).", SUPPLY)


class Boost(Step):
    """1.4.2: before the roll of an Influence check (Tax 4.6.3, Parley 4.6.4) the side may spend
    one or three more Influence points for +1 or +2."""

    name = "boost"
    phase = CAMPAIGN
    rule = "1.4.2"
    always_decides = True
    # the Influence check and what it buys: a Tax's Coin and Depletion (4.6.3), a Parley's
    # Favour (4.6.4), L4 Heralds' Calendar box, L30 Merchants' markers; never the cards
    changes = {"spend": NOT_CARDS}

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [frame["side"]]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("spend", n) for n in BOOSTS]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        what = {"tax": "Tax", "parley": "Parley", "heralds": "send Heralds for"}.get(frame["action"],
                                                                                     "use Merchants at")
        lord = lord_name(frame["lord"])
        target = lord_name(frame["target"]) if frame["action"] == "heralds" else frame["target"]
        if role == frame["side"]:
            return (f"{lord} checks Influence to {what} {target} (1.4.2): spend 0, 1 (+1) or "
                    "3 (+2) more Influence points?")
        return f"{frame['side']}: {lord} checks Influence to {what} {target}."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        return {0: "No extra points", 1: "1 more point: +1", 3: "3 more points: +2"}.get(arg, str(arg))

    def on_spend(self, state: State, frame: Frame, role: str, extra: Any) -> None:
        pop(state)
        lord, target = frame["lord"], frame["target"]
        if frame["action"] == "tax":
            collect_tax(state, lord, target, int(extra))
            return
        if frame["action"] == "heralds":  # L4 Heralds (RULINGS R84)
            res = sv.influence_check(state, frame["side"], lord, extra=int(extra))
            how = f"{res['cost']} Influence, rolls {res['roll']} vs {res['target']}"
            if res["success"]:
                state["lords"][target]["box"] = sv.calendar_place(state["box"] + 1)
            public(state, f"Heralds (L4): {lord_name(lord)} ({how}): "
                          + (f"{lord_name(target)} moves to the next Turn's box." if res["success"] else "fails."),
                   POLITICAL)
            return
        if frame["action"] == "merchants":  # L30 Merchants
            res = sv.influence_check(state, frame["side"], lord, extra=int(extra))
            how = f"{res['cost']} Influence, rolls {res['roll']} vs {res['target']}"
            places = str(target).split("+")
            if res["success"]:
                for loc in places:
                    state["exhaustion"].pop(loc, None)
            public(state, f"Merchants (L30): {lord_name(lord)} ({how}): "
                          + (f"the markers at {' and '.join(places)} are removed." if res["success"] else "fails."),
                   SUPPLY)
            return
        res = sv.parley(state, lord, target, extra=int(extra), campaign=True)
        how = f"{res['cost']} Influence, rolls {res['roll']} vs {res['target']}"
        if res["success"]:
            public(state, f"{lord_name(lord)} Parleys {target} ({how}): {_favour_word(state, target)} "
                          "(4.6.4).", POLITICAL)
        else:
            public(state, f"{lord_name(lord)} Parleys {target} ({how}): fails (4.6.4).", POLITICAL)


# ----- Group, Haul and moving ----------------------------------------------------------------------
class Group(Step):
    """4.3.1 Group March (and Sail 4.6.1, Intercept 4.3.4): which Lords at his Locale go with an
    Active (or Intercepting) Marshal or Lieutenant."""

    name = "group"
    phase = CAMPAIGN
    rule = "4.3.1"
    always_decides = True
    # taking, leaving and cancelling change only the frames (going may play Y2/L2 Flank Attack)
    changes = {"take": frozenset(), "leave": frozenset(), "cancel": frozenset()}

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [frame["side"]]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        chosen = frame["with"]
        out: list[Action] = []
        if frame["kind"] != "sail" or sail_fits(state, [frame["lord"], *chosen]):
            out.append(("go", None))
        out += [("leave", lid) if lid in chosen else ("take", lid) for lid in frame["cands"]
                if lid in chosen or not shaky_allies(state, [frame["lord"], *chosen, lid], frame["dest"])]
        out.append(("cancel", None))
        return out

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        what = {"march": "March", "sail": "Sail", "intercept": "Intercept"}[frame["kind"]]
        group = names([frame["lord"], *frame["with"]])
        if role == frame["side"]:
            tail = " (not enough Ships yet)" if frame["kind"] == "sail" and \
                not sail_fits(state, [frame["lord"], *frame["with"]]) else ""
            return f"{what} to {frame['dest']}: who goes with {lord_name(frame['lord'])}? Now: {group}{tail} (4.3.1)."
        return f"{frame['side']} chooses who goes with {lord_name(frame['lord'])}."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        if verb == "take":
            return f"Take {lord_name(arg)}"
        if verb == "leave":
            return f"Leave {lord_name(arg)} behind"
        return {"go": f"Go: {names([frame['lord'], *frame['with']])}", "cancel": "Cancel"}.get(verb, verb)

    # Taking, leaving and cancelling are told to the side (its view changes with each, so the
    # same choice is never offered on the very same view twice).
    def on_take(self, state: State, frame: Frame, role: str, lord: Any) -> None:
        frame["with"] = sorted([*frame["with"], lord])
        private(state, role, f"{lord_name(lord)} will go with {lord_name(frame['lord'])}.", MOVE)

    def on_leave(self, state: State, frame: Frame, role: str, lord: Any) -> None:
        frame["with"] = [lid for lid in frame["with"] if lid != lord]
        private(state, role, f"{lord_name(lord)} stays behind.", MOVE)

    def on_cancel(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        private(state, role, f"The {frame['kind'].capitalize()} to {frame['dest']} is called off.", MOVE)
        if frame["kind"] == "intercept":
            replace(state, frame["back"])
        else:
            pop(state)

    def on_go(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)
        lords = [frame["lord"], *frame["with"]]
        if frame["kind"] == "march":
            start_move(state, "march", frame["side"], lords, frame["dest"], frame["way"], cost=frame["cost"])
        elif frame["kind"] == "sail":
            start_sail(state, frame["side"], lords, frame["dest"])
        else:
            try_intercept(state, frame["side"], lords, frame["dest"], frame.get("flank"))


def haul_carts(state: State, lords: list[str]) -> int:
    """The Provender the Group's Carts can Haul (4.3.2): one per Cart; L8 Hay Wains counts its
    holder's Carts twice (RULINGS R70)."""
    lrec = state["lords"]
    total = 0
    for lid in lords:
        mat = lrec[lid]["mat"]
        n = mat["assets"]["carts"]
        total += 2 * n if mat["capabilities"] and fx.capability(state, lid, "hay_wains") else n
    return total


def start_move(state: State, kind: str, side: str, lords: list[str], dest: str, way: str, *,
               cost: int = 0, chained: bool = False) -> None:
    """Push the frames of a March or an Intercept move: Haul first (4.3.2: Provender beyond the
    Group's Carts is discarded), then the move itself."""
    here = state["lords"][lords[0]]["locale"]
    push(state, {"step": "move", "kind": kind, "side": side, "lords": lords, "from": here, "dest": dest,
                 "way": way, "cost": cost, "chained": chained})
    excess = assets(state, lords, "provender") - haul_carts(state, lords)
    if excess > 0 and not chained:
        push(state, {"step": "discard", "side": side, "lords": lords, "asset": "provender", "excess": excess,
                     "why": "Haul (4.3.2)"})


def start_sail(state: State, side: str, lords: list[str], dest: str) -> None:
    """Push the frames of a Sail (4.6.1): Provender and Carts beyond two per Ship are discarded
    (1.7.2), then the Lords move. Y15 Naval Blockade: a Lancastrian Sail from or to a Port of the
    blockaded Sea goes ahead only on a roll of 1-2; else the card's Sail cost is spent (R85)."""
    here = state["lords"][lords[0]]["locale"]
    if cr.blockade_check(state, lords[0], cr.port_sea(here) | cr.port_sea(dest), f"Sail to {dest}"):
        af = find(state, "actions")
        if af is not None:
            take_action(af, 1 if seamanship(state, side) else af["left"])
        return
    push(state, {"step": "move", "kind": "sail", "side": side, "lords": lords, "from": here, "dest": dest,
                 "way": "Sea", "cost": 0, "chained": False})
    room = SHIP_CARGO * sail_ships(state, lords)
    for asset in ("carts", "provender"):
        excess = assets(state, lords, asset) - room
        if excess > 0:
            push(state, {"step": "discard", "side": side, "lords": lords, "asset": asset, "excess": excess,
                         "why": "to Sail (4.6.1)"})


class Discard(Step):
    """Greed (1.7.2): Assets discarded to move: Haul (4.3.2) or Sail (4.6.1). Which Lord of a
    Group discards is the owner's choice; with one Lord holding that Asset it is done at once."""

    name = "discard"
    phase = CAMPAIGN
    rule = "1.7.2"
    changes = {"discard": LORDS_PART}  # a mat's Assets
    run_changes = LORDS_PART

    def _holders(self, state: State, frame: Frame) -> list[str]:
        lrec = state["lords"]
        return [lid for lid in frame["lords"] if lrec[lid]["mat"]["assets"][frame["asset"]] > 0]

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [frame["side"]] if len(self._holders(state, frame)) > 1 else []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("discard", lid) for lid in self._holders(state, frame)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        word = frame["asset"].capitalize()
        if role == frame["side"]:
            return f"Discard {frame['excess']} more {word} {frame['why']}: from which Lord?"
        return f"{frame['side']} discards {word} {frame['why']}."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        return f"Discard 1 {frame['asset'].capitalize()} of {lord_name(arg)}"

    def _discard(self, state: State, frame: Frame, lord: str, n: int) -> None:
        state["lords"][lord]["mat"]["assets"][frame["asset"]] -= n
        frame["excess"] -= n
        declare(state, f"{lord_name(lord)} discards {n} {frame['asset'].capitalize()} {frame['why']}.", MOVE)
        if frame["excess"] <= 0:
            pop(state)

    def on_discard(self, state: State, frame: Frame, role: str, lord: Any) -> None:
        self._discard(state, frame, lord, 1)

    def run(self, state: State, frame: Frame) -> None:
        holders = self._holders(state, frame)
        if not holders:  # cannot happen: the excess never exceeds what the Lords hold
            pop(state)
            return
        lord = holders[0]
        self._discard(state, frame, lord, min(frame["excess"], state["lords"][lord]["mat"]["assets"][frame["asset"]]))


class Move(Step):
    """Carry out a March (4.3), an Intercept move (4.3.4) or a Sail (4.6.1) once Haul or the
    Ships' room is settled, and mark the movers Moved (4.3 MOVED-FOUGHT)."""

    name = "move"
    phase = CAMPAIGN
    rule = "4.3"
    # the Lords' Locales and Y14/Y23 Burgundians' Troops (cards.burgundians_arrive); the Moved
    # markers, the card's actions and the windows are not kept parts
    run_changes = LORDS_PART

    def run(self, state: State, frame: Frame) -> None:
        lords: list[str] = frame["lords"]
        dest = frame["dest"]
        kind = frame["kind"]
        at_sea = load().locales[dest]["kind"] == "sea"
        lrec = state["lords"]
        for lid in lords:
            lrec[lid]["where"] = Where.SEA if at_sea else Where.MAP
            lrec[lid]["locale"] = dest
        mark_moved(state, lords)
        reactions.moved(state, lords)  # cards that act on arrival (Y14/Y23 Burgundians at a Port)
        prov, carts = assets(state, lords, "provender"), assets(state, lords, "carts")
        if kind == "sail":
            ships = sail_ships(state, lords)
            f = sum(forces(lrec[lid]["mat"]) for lid in lords)
            declare(state, f"{names(lords)} Sail from {frame['from']} to {dest}: {ships} Ships carry {f} Forces, "
                           f"{prov} Provender and {carts} Carts (4.6.1).", MOVE)
        elif frame["chained"]:
            public(state, f"{names(lords)} March on along a second Highway to {dest} (4.3.3).", MOVE)
        else:
            verb = "Intercept" if kind == "intercept" else "March"
            declare(state, f"{names(lords)} {verb} from {frame['from']} to {dest} by {frame['way']}, Hauling "
                           f"{prov} Provender with {carts} Carts (4.3.2).", MOVE)
        if kind == "intercept":
            pop(state)
            return
        af = find(state, "actions")
        if af is not None:
            if kind == "sail":  # 4.6.1: all actions of the card; one with Y6/L6 Seamanship
                take_action(af, 1 if seamanship(state, frame["side"]) else af["left"])
            else:
                take_action(af, frame["cost"])
                if not frame["chained"] and as_highway(state, frame["side"], lords, frame["way"]):
                    af["highway"] = {"group": lords, "from": frame["from"]}
        approach = kind == "sail" and sv.enemy_lords_at(state, dest, frame["side"])  # L29 High Admiral
        if kind == "sail" and not approach:
            pop(state)
        else:  # after a March, or a Sail into Enemy Lords (no Intercept then, 4.3.4 is for Marches)
            replace(state, {"step": "arrive", "side": frame["side"], "locale": dest, "lords": lords,
                            "checked": kind == "sail", "from": frame["from"]})
        port = load().locales[dest]
        if port["kind"] == "stronghold" and port["port"]:  # L28 Rebel Supply Depot (RULINGS R74)
            reactions.push_window(state, frame["side"], "supply_depot", lords=list(lords), locale=dest)
            if kind == "sail" and af is not None and af["lord"] in lords and not approach:  # L33 (R75)
                reactions.push_window(state, frame["side"], "surprise_landing", lords=list(lords), locale=dest)


def interceptors(state: State, side: str, locale: str) -> list[str]:
    """Enemy Lords who may Intercept a March to ``locale``: those at a Stronghold joined to it by
    a Highway or Road, not a Path (4.3.4)."""
    enemy = other(side)
    out: list[str] = []
    for b in tables().intercept[locale]:
        out += sv.lords_at(state, b, enemy)
    return sorted(lid for lid in out if not shaky_allies(state, [lid], locale))


class Arrive(Step):
    """After a March: the Inactive side may Intercept (4.3.4), then an Approach (4.3.5) if Enemy
    Lords are there, which ends the card's actions."""

    name = "arrive"
    phase = CAMPAIGN
    rule = "4.3.4"
    run_changes = LORDS_PART  # the frames of an Intercept or Approach; Lords sent back (R79)

    def run(self, state: State, frame: Frame) -> None:
        side, locale = frame["side"], frame["locale"]
        if not frame["checked"]:
            frame["checked"] = True
            cands = [] if truce(state) else interceptors(state, side, locale)  # R79: no Intercept
            if cands:
                push(state, {"step": "intercept", "side": other(side), "locale": locale, "cands": cands,
                             "marchers": frame["lords"]})
                return
        pop(state)
        if not sv.enemy_lords_at(state, locale, side):
            return
        af = find(state, "actions")
        card = af if af is not None and state["stack"][-1] is af else None
        attackers = [lid for lid in frame["lords"] if state["lords"][lid]["locale"] == locale]
        back = frame.get("from")
        if truce(state) and back is not None:  # Truce played at the Intercept: no Approach (R79)
            send_back(state, attackers, locale, back)
            if card is not None:  # no Exile, no Battle: the card goes on (4.3.5 RECOVERY does not apply)
                card["highway"] = None
            public(state, f"Parliament's Truce: no Approach; {names(attackers)} go back to {back}.", MOVE)
            return
        if card is not None:
            pop(state)  # 4.3.5 RECOVERY: the card's remaining actions are skipped
        public(state, f"{names(attackers)} Approach {names(sv.lords_at(state, locale, other(side)))} "
                      f"at {locale} (4.3.5).", MOVE)
        approach: Frame = {"step": "approach", "locale": locale, "attacker": side, "attackers": attackers,
                           "from": back}
        if card is not None:  # kept for Parliament's Truce, which cancels the Approach but not the card (R79)
            approach["card"] = card
        if frame.get("flank"):  # Y2/L2 Flank Attack: the Interceptors Attack in the Battle (R80)
            approach["battle_attacker"] = frame["flank"]
        push(state, approach)


class Intercept(Step):
    """4.3.4: one Enemy Lord adjacent to a March's destination by Highway or Road may try once to
    Intercept (roll at most his Valour), a Marshal or Lieutenant with a Group."""

    name = "intercept"
    phase = CAMPAIGN
    rule = "4.3.4"
    always_decides = True

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [frame["side"]]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        out: list[Action] = [("intercept", lid) for lid in frame["cands"]]
        if flank_card(state, frame["side"]):  # Y2/L2 Flank Attack, played as the Intercept is made
            out += [("flank", lid) for lid in frame["cands"]]
        return out + [("decline", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        marchers = names(frame["marchers"])
        if role == frame["side"]:
            return f"{marchers} March to {frame['locale']}: try to Intercept with one Lord (4.3.4)?"
        return f"{frame['side']} may Intercept {marchers} at {frame['locale']}."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        if verb == "intercept":
            v = sv.modified_rating(state, arg, "valour")
            return f"Intercept with {lord_name(arg)} from {state['lords'][arg]['locale']} (Valour {v})"
        if verb == "flank":
            return (f"Play Flank Attack ({flank_card(state, frame['side'])}): {lord_name(arg)} Intercepts from "
                    f"{state['lords'][arg]['locale']} with no roll and Attacks")
        return "Do not Intercept"

    def on_decline(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)

    def on_intercept(self, state: State, frame: Frame, role: str, lord: Any) -> None:
        self._intercept(state, frame, lord, None)

    def on_flank(self, state: State, frame: Frame, role: str, lord: Any) -> None:
        self._intercept(state, frame, lord, flank_card(state, frame["side"]))

    def _intercept(self, state: State, frame: Frame, lord: str, flank: str | None) -> None:
        cands = group_candidates(state, lord)
        if cands:
            replace(state, {"step": "group", "kind": "intercept", "side": frame["side"], "lord": lord,
                            "dest": frame["locale"], "way": tables().way[(state["lords"][lord]["locale"],
                                                                          frame["locale"])],
                            "cost": 0, "cands": cands, "with": [], "back": dict(frame), "flank": flank})
            return
        pop(state)
        try_intercept(state, frame["side"], [lord], frame["locale"], flank)


def flank_card(state: State, side: str) -> str | None:
    """The side's Held Y2/L2 Flank Attack, if it holds one."""
    return next((cid for cid in state["aow"][side]["held"] if fx.EVENT_KEYS[cid] == "flank_attack"), None)


def try_intercept(state: State, side: str, lords: list[str], dest: str, flank: str | None = None) -> None:
    """4.3.4: the Intercept is made (Y2/L2 Flank Attack played now, if chosen); the Marching side
    may answer with Parliament's Truce (window ``intercept``, RULINGS R79), then the roll
    (:class:`InterceptRoll`)."""
    if flank is not None:
        arts.play_held(state, side, flank)
    push(state, {"step": "intercept_roll", "side": side, "lords": lords, "dest": dest, "flank": flank is not None})
    reactions.push_window(state, other(side), "intercept", locale=dest)


class InterceptRoll(Step):
    """4.3.4 PROCEDURE: the Intercepting Lord rolls; at most his Valour, he (and his Group) move
    there as by a March (Haul, Moved); failure has no effect. Y2/L2 Flank Attack: no roll, it
    succeeds, and his side Attacks in the Battle that follows (RULINGS R80). Under Parliament's
    Truce there is no Intercept (R79)."""

    name = "intercept_roll"
    phase = CAMPAIGN
    rule = "4.3.4"

    def run(self, state: State, frame: Frame) -> None:
        pop(state)
        side, lords, dest = frame["side"], frame["lords"], frame["dest"]
        lord = lords[0]
        if truce(state):
            public(state, f"Parliament's Truce: {lord_name(lord)} does not Intercept at {dest} (4.3.4).", MOVE)
            return
        here = state["lords"][lord]["locale"]
        if frame["flank"]:
            public(state, f"Flank Attack: {lord_name(lord)} Intercepts at {dest} with no roll (4.3.4).", MOVE)
            arrive = find(state, "arrive")
            if arrive is not None:
                arrive["flank"] = side
            start_move(state, "intercept", side, lords, dest, tables().way[(here, dest)])
            return
        try_intercept_roll(state, side, lords, dest)


def try_intercept_roll(state: State, side: str, lords: list[str], dest: str) -> None:
    """The roll of 4.3.4 PROCEDURE (see :class:`InterceptRoll`)."""
    lord = lords[0]
    valour = sv.modified_rating(state, lord, "valour")
    roll = rng.roll(state)
    here = state["lords"][lord]["locale"]
    if roll > valour:
        public(state, f"{lord_name(lord)} tries to Intercept at {dest}: rolls {roll}, Valour {valour}: "
                      "fails (4.3.4).", MOVE)
        return
    public(state, f"{lord_name(lord)} Intercepts at {dest}: rolls {roll}, Valour {valour} (4.3.4).", MOVE)
    start_move(state, "intercept", side, lords, dest, tables().way[(here, dest)])


# ----- 4.8 End Campaign --------------------------------------------------------------------------
def collect_command_cards(state: State) -> None:
    """Every Command card back in its side's deck, face down (4.1, 4.1.2)."""
    codecs = load().command_ids
    for side in SIDES:
        cm = state["command"][side]
        if cm["revealed"] or cm["plan"]:
            cm["deck"] += cm["revealed"] + cm["plan"]
            cm["deck"].sort(key=codecs[side].ids.__getitem__)
            cm["revealed"], cm["plan"] = [], []


class BeginCampaign(Step):
    """4.0: the Campaign begins with every Command card in its deck for the Plan (4.1)."""

    name = "begin_campaign"
    phase = CAMPAIGN
    rule = "4.0"
    run_changes = CARDS_PART  # the Command cards back in their decks

    def run(self, state: State, frame: Frame) -> None:
        collect_command_cards(state)
        public(state, f"Turn {state['box']}: Campaign, Plan of {sv.plan_size(state['box'])} cards.", TURN)
        pop(state)
        plan = state["stack"][-1] if state["stack"] else None
        if plan is not None and plan["step"] == "plan":
            plan["limits"] = {side: plan_limits(state, side) for side in SIDES}


class TidesOfWar(Step):
    """4.8.1 Tides of War (:func:`services.apply_tides`); first the Yorkists may use Y4 We done
    deeds of charity (window ``tides``, RULINGS R83), which sets ``frame["charity"]``."""

    name = "tides_of_war"
    phase = CAMPAIGN
    rule = "4.8.1"
    run_changes = TRACKS_PART  # the Influence track (Y4's window is a frame)

    def run(self, state: State, frame: Frame) -> None:
        if not frame.get("asked"):
            frame["asked"] = True
            if reactions.push_window(state, "York", "tides"):
                return
        sv.apply_tides(state, frame.get("charity", 0))
        pop(state)


class Disembark(Step):
    """4.8.2 Disembark: each Lord at Sea, Rebel then King's side, rolls: 1-4 Shipwreck, 5-6 he
    lands at a Port of that Sea free of Enemy Lords (his side's choice) and Feeds at once; with
    no such Port he Disbands."""

    name = "disembark"
    phase = CAMPAIGN
    rule = "4.8.2"
    run_changes = frozenset()  # with no Lord at Sea, the frame alone; a Lord's roll counts its own

    def run(self, state: State, frame: Frame) -> None:
        if frame.get("todo") is None:
            order = {state["rebel"]: 0, state["king"]: 1}
            ids = load().lord_ids
            at_sea = [lid for lid, d in state["lords"].items() if d["where"] == Where.SEA]
            frame["todo"] = sorted(at_sea, key=lambda lid: (order[sv.side_of(lid)], ids.id(lid)))
        if not frame["todo"]:
            pop(state)
            return
        changed()  # Shipwreck, Disband or Landing: any part
        lord = frame["todo"].pop(0)
        side = sv.side_of(lord)
        sea = state["lords"][lord]["locale"]
        roll = rng.roll(state)
        if roll <= 4:
            lost = sv.unpaid_disband_penalty(state, [lord])
            sv.lose_influence(state, side, lost)
            sv.remove_lord(state, lord)
            public(state, f"{lord_name(lord)} at {sea} rolls {roll}: Shipwreck! {side} loses {lost} Influence "
                          "(4.8.2).", MOVE)
            return
        ports = [p for p in tables().ports[sea] if not sv.enemy_lords_at(state, p, side)]
        if not ports:
            sv.disband_lord(state, lord)
            public(state, f"{lord_name(lord)} at {sea} rolls {roll} but no Port of {sea} is free of Enemy Lords: "
                          "he Disbands (4.8.2).", MOVE)
            return
        public(state, f"{lord_name(lord)} at {sea} rolls {roll}: he lands (4.8.2).", MOVE)
        push(state, {"step": "land", "side": side, "lord": lord, "ports": ports})


class Land(Step):
    """4.8.2 Land: the side places its Lord at a Port of his Sea free of Enemy Lords (done at
    once when there is only one); he then Feeds (4.7)."""

    name = "land"
    phase = CAMPAIGN
    rule = "4.8.2"

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [frame["side"]] if len(frame["ports"]) > 1 else []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("land", p) for p in frame["ports"]]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role == frame["side"]:
            return f"Disembark (4.8.2): at which Port does {lord_name(frame['lord'])} land?"
        return f"{frame['side']} lands {lord_name(frame['lord'])}."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        return f"Land at {arg}"

    def run(self, state: State, frame: Frame) -> None:
        self.on_land(state, frame, frame["side"], frame["ports"][0])

    def on_land(self, state: State, frame: Frame, role: str, port: Any) -> None:
        lord = frame["lord"]
        d = state["lords"][lord]
        d["where"], d["locale"] = Where.MAP, port
        mark_moved(state, [lord])
        public(state, f"{lord_name(lord)} lands at {port} and must Feed (4.8.2).", MOVE)
        reactions.moved(state, [lord])
        replace(state, {"step": "feed", "side": frame["side"], "lords": [lord]})


class VictoryCheck(Step):
    """4.8.3: Campaign Victory, Threshold, final Turn."""

    name = "victory_check"
    phase = CAMPAIGN
    rule = "4.8.3"
    run_changes = frozenset()  # the Moved markers; an ending counts its own (a War's end: any part)

    def run(self, state: State, frame: Frame) -> None:
        state["moved"] = []  # the Feed after Disembark is over (4.7 REMOVE MARKERS)
        res = sv.victory_check(state)
        if res is not None:
            changed()
            end_game(state, res)
        else:
            pop(state)


class Grow(Step):
    """4.8.4 Grow after boxes 4, 9 and 14 (not with Ravaged Land, scenario III)."""

    name = "grow"
    phase = CAMPAIGN
    rule = "4.8.4"
    run_changes = BOARD_PART  # the Exhaustion and Depletion markers

    def run(self, state: State, frame: Frame) -> None:
        if state["box"] in load().tables["calendar"]["grow"] and "ravaged_land" not in state["special_rules"]:
            sv.grow(state)
            public(state, "Grow: Depleted markers removed, Exhausted turned to Depleted (4.8.4).")
        pop(state)


class Waste(Step):
    """4.8.5 Waste after boxes 5 and 10 (not with Ravaged Land or Brief Rebellion)."""

    name = "waste"
    phase = CAMPAIGN
    rule = "4.8.5"
    run_changes = LORDS_PART  # the mats

    def run(self, state: State, frame: Frame) -> None:
        rules = state["special_rules"]
        if state["box"] in load().tables["calendar"]["waste"] and "ravaged_land" not in rules \
                and "brief_rebellion" not in rules:
            sv.waste(state)
            public(state, "Waste: Lords' mats reset (4.8.5).")
        pop(state)


class Reset(Step):
    """4.8.6 Reset: "This Campaign" Events end, Rebel then King's side may discard Held Events,
    and play goes on to the next Calendar box."""

    name = "reset"
    phase = CAMPAIGN
    rule = "4.8.6"
    # This Campaign Events and the Command cards back to their decks, the next Calendar box
    run_changes = frozenset((CARDS, TRACKS))

    def run(self, state: State, frame: Frame) -> None:
        if not frame.get("held"):
            frame["held"] = True
            arts.discard_in_effect(state, "this_campaign")
            push_all(state, side_frames(state, "discard_held"))
            return
        collect_command_cards(state)  # the Campaign's played cards go back (4.1 builds from the deck)
        state["box"] += 1
        state["first_turn"] = False
        if state["box"] > state["last_box"]:  # pragma: no cover - the Victory check ends the last Turn
            changed()
            end_game(state, sv.scenario_end_winner(state))
            return
        pop(state)


def campaign_frames(state: State) -> list[Mapping[str, Any]]:
    """The frames of one Turn's Campaign, in order (4.0, 4.8; player order 2.2.4)."""
    begin: StepFrame = {"step": "begin_campaign"}
    plan: PlanFrame = {"step": "plan", "drafts": {s: [] for s in SIDES}, "locked": []}
    command: CommandFrame = {"step": "command", "next": state["rebel"], "feed": 0, "started": False}
    end: list[StepFrame] = [{"step": s} for s in ("tides_of_war", "disembark", "victory_check", "grow", "waste",
                                                   "reset")]
    return [begin, plan, command, *end]


#: The Campaign's steps, for the game's step table.
CAMPAIGN_STEPS: Final[list[Step]] = [
    BeginCampaign(), Plan(), Command(), Actions(), Boost(), Group(), Discard(), Move(), Arrive(), Intercept(),
    InterceptRoll(),
    TidesOfWar(), Disembark(), Land(), VictoryCheck(), Grow(), Waste(), Reset(),
]


# ----- what this part adds to views, secrets and invariants (joined in rules.py) -------------
def view_part(state: State, role: str) -> dict[str, Any]:
    """Entries this part adds to ``role``'s view (already redacted for ``role``): the role's own
    Plan while it is being built (4.1.2), the Active Lord and the Moved/Fought markers."""
    return {**public_view_part(state), **own_view_part(state, role)}


def public_view_part(state: State, frames: tuple[Frame | None, Frame | None] | None = None) -> dict[str, Any]:
    """The entries of :func:`view_part` that are the same for every role: the Moved/Fought
    markers, who has locked in a Plan, the Active Lord. ``frames``: the topmost Plan and
    Actions frames if the caller has them (else they are looked for)."""
    out: dict[str, Any] = {"moved": list(state["moved"])}
    plan, af = (find(state, "plan"), find(state, "actions")) if frames is None else frames
    if plan is not None:
        out["plan_locked"] = list(plan["locked"])
    if af is not None:
        out["activation"] = {"side": af["side"], "lord": af["lord"], "left": af["left"]}
    return out


def own_view_part(state: State, role: str, plan: Frame | None = None) -> dict[str, Any]:
    """The entries of :func:`view_part` that only ``role`` sees: its Plan being built (4.1.2).
    ``plan``: the Plan frame if the caller has it (else it is looked for)."""
    if plan is None:
        plan = find(state, "plan")
    if plan is not None and role in plan["drafts"]:
        return {"plan_draft": list(plan["drafts"][role])}
    return {}


def secrets_part(state: State, role: str) -> set[str]:
    """The other side's Plan while it is being built (4.1.2). Pass cards are alike on both sides
    (``pass-1``...), so only their number is secret and no view shows it."""
    plan = find(state, "plan")
    if plan is None:
        return set()
    return {f'"{cid}"' for side, cards in plan["drafts"].items() if side != role
            for cid in cards if not is_pass(cid)}


def invariants_part(state: State) -> list[str]:
    """Lords at Sea only during a Campaign (4.6.1, 4.8.2), Plans within the Calendar's size
    (4.1), Plans being built made of the side's own deck cards."""
    c = load()
    bad: list[str] = []
    command = find(state, "command")
    commanding = command is not None and bool(command.get("started"))
    # Lords may be at Sea from the first Command card to the end of Disembark (4.6.1, 4.8.2).
    campaign_on = commanding or (command is None and find(state, "disembark") is not None)
    for lid, d in state["lords"].items():
        if d["where"] == Where.SEA:
            if d["locale"] not in c.seas:
                bad.append(f"{lid}: at Sea but not at a Sea")
            if not campaign_on:
                bad.append(f"{lid}: at Sea outside the Campaign (4.8.2)")
        elif d["where"] == Where.MAP and c.locales.get(d["locale"], {}).get("kind") == "sea":
            bad.append(f"{lid}: on the map at a Sea")
    if state["box"] is not None:
        size = sv.plan_size(state["box"])
        for side in SIDES:
            cm = state["command"][side]
            if len(cm["plan"]) + len(cm["revealed"]) > size:
                bad.append(f"{side}: Plan and revealed cards exceed {size} (4.1)")
            if cm["plan"] and not commanding:
                bad.append(f"{side}: a Plan outside the Command cards (4.2)")
    plan = find(state, "plan")
    if plan is not None:
        for side, cards in plan["drafts"].items():
            deck = state["command"][side]["deck"]
            if len(set(cards)) != len(cards) or any(cid not in deck for cid in cards):
                bad.append(f"{side}: Plan being built holds cards not in its deck")
            if len(cards) > plan_target(state, side):
                bad.append(f"{side}: Plan being built is too big (4.1)")
    if state["moved"] != sorted(set(state["moved"])) or any(lid not in state["lords"] for lid in state["moved"]):
        bad.append("moved markers are not a sorted list of Lords")
    return bad
