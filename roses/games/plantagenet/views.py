"""The parts of Plantagenet's views that are kept from one position to the next.

Views are made after every action, for every role. Most of what they show does not change at
most actions (in random play of Ia the Lords change at one action in five, each side's cards
at one in ten, the Exhaustion markers at one in twenty, the Vassals, Seats and Exile boxes
almost never): the Plan, the Command cards and the Muster are decided one card, one action at
a time. So each part below is kept with a snapshot of the state's part it was made from (a
copy of its dicts and lists), and reused while the state's part is equal to its snapshot: a
comparison made in C instead of some thirty small dicts rebuilt in Python. The parts made from
kept parts are kept by the identity of those (the static entries of a view, each role's
entries, the redaction of Hidden Mats).

What makes it sound:

* the key is the content: a part is reused while the state's part equals the snapshot it was
  made from, whatever state it comes from (a copy, a state read back from storage, another game
  with the same Lords). The revisions below only spare that comparison for the very state a
  part was made for, while no step that may change the part has run since;
* a kept part is made from its snapshot, never from the state: the views share nothing with the
  state, so a view handed out does not change when play goes on (views are read only: their
  parts are shared between roles and between positions; no consumer changes them, and
  ``Game.views`` replaces its view's ``actions`` rather than changing them);
* the state's records keep their key order (each is made by one function and changed in
  place), so within a game an equal part is also written in the same order: the views are the
  same text as views made afresh, not only the same JSON value. A state read back from storage
  has its keys sorted: its views are then the same JSON value as views made afresh, their keys
  possibly in the order of the equal part kept before (``tests/plantagenet/test_views.py``
  checks both, at every step of random games of every scenario, with and without Hidden Mats).
  Equal numbers of different types (``1`` and ``True``) would compare equal; the state never
  holds both kinds in one field (its records are typed, :mod:`.records`), and the recorded-game
  corpus pins the views' canonical text.

Kept in the game's memo (:mod:`roses.engine.memo`) while a game renders its views, else in
:data:`_KEPT`, shared by every state rendered outside a game (each kept tuple is replaced whole,
never changed, so a thread always reads a snapshot with the part made from it).

Found unchanged without comparing: the content is the key, but comparing the static part and
the cards with the state at every view is most of what keeping them costs. So the views also
keep, with the static part and with the cards, the state they were made for (the object) and
its revisions (``Steps.revision_of``: a ticket the engine draws whenever an action or an
automatic step may change that part, by what each step declares its handlers and its ``run``
change, ``Step.changes`` and ``Step.run_changes``, whatever it does not declare counting as a
change of every part; by a step that counts a wider change on one of its paths itself,
``common.changed``; or by hand, ``Steps.changed``): the parts are ``common.CARDS``,
``LORDS``, ``BOARD`` and ``TRACKS``. While the state is that object and a part's revision has
not moved, the part is the state's without a comparison (the static part as a whole, or its
Lords' and board's parts alone). Half of the actions of random play are Plan edits (4.1.2),
which change no kept part (:class:`.campaign.Plan`). The contract is that of
``Steps.keep_options``: a state changed other than through the steps says so
(``Steps.changed``). A declaration that leaves out a change would show a stale part: with
:func:`check_revisions` on
(``ROSES_CHECK_REVISIONS=1``; the tests turn it on for the whole Plantagenet suite, the
recorded-game corpus and the fuzz games among them), every part found unchanged by its revision
is also compared with the state, and a difference raises
:class:`~roses.engine.errors.RevisionMissed`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, Final

from roses.engine.contract import State
from roses.engine.errors import RevisionMissed
from roses.engine.memo import current_entries
from roses.games.plantagenet.components import SIDES
from roses.games.plantagenet.setup import threshold

#: The name of the kept parts in a game's memo.
MEMO_NAME: Final = "plantagenet.views"

_KEPT: Final[dict[str, Any]] = {}

#: A Lord's name and side by id (:func:`lords_part`'s callers give it).
Names = dict[str, tuple[str, str]]
#: The Favour markers as views give them and the Net Stronghold Favour markers they make.
FavourView = Callable[[dict[str, str]], tuple[dict[str, str], dict[str, Any]]]


#: Whether a part found unchanged by its revision is also compared with the state
#: (:func:`check_revisions`; on from the start with ``ROSES_CHECK_REVISIONS=1``).
_CHECK: Final[list[bool]] = [os.environ.get("ROSES_CHECK_REVISIONS", "") not in ("", "0")]

#: The revision of a part (``Steps.revision_of``), or None to compare the part with the state.
Revision = tuple[int, int] | None
#: The revisions of the Lords, the board and the tracks (:func:`static_part`): that of any
#: part, then those of the three (``Steps.revision``, ``Steps.part_revisions``), or None.
StaticRevision = tuple[int, int, int, int] | None


def check_revisions(on: bool) -> bool:
    """Compare every part found unchanged by its revision with the state too (tests, the
    fuzzer); returns the previous setting."""
    was = _CHECK[0]
    _CHECK[0] = on
    return was


def kept() -> dict[str, Any]:
    """Where the kept parts are: the current game's memo, else the shared :data:`_KEPT`."""
    entries = current_entries()
    if entries is None:
        return _KEPT
    mine: dict[str, Any] | None = entries.get(MEMO_NAME)
    if mine is None:
        mine = entries[MEMO_NAME] = {}
    return mine


def forget() -> None:
    """Drop the parts kept outside a game (tests; the next views are made afresh)."""
    _KEPT.clear()


def lords_part(lords: dict[str, Any], names: Names, store: dict[str, Any]) -> dict[str, Any]:
    """The Lords' part of a view with every mat shown (:func:`_kept_lords`)."""
    return _kept_lords(lords, names, store)[1]


def _kept_lords(lords: dict[str, Any], names: Names, store: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The Lords' part of a view with every mat shown: ``{lord: {box, exile, locale[, mat],
    name, side, where}}`` (no ``mat`` while the Lord has none; keys sorted at every depth, like
    every kept part: :func:`_copy_record`). Kept per Lord: when a Lord's record changes, only
    his entry is made again. Returns the snapshot with the part (another thread may replace
    the kept pair at any time: a caller keeps the snapshot it was given)."""
    pair: tuple[dict[str, Any], dict[str, Any]] | None = store.get("lords")
    if pair is not None:
        snap, part = pair
    else:
        snap, part = {}, {}
    # each Lord compared with his snapshot up to the first that changed (the kept pair if
    # none did); from there on, each Lord compared and, where changed, copied again
    same_lords = snap.keys() == lords.keys()
    order = list(snap) if same_lords else sorted(lords)  # the snapshot's are sorted
    start = 0
    if pair is not None and same_lords:
        for lid in order:
            if snap[lid] != lords[lid]:
                break
            start += 1
        else:
            return pair
    new_snap: dict[str, Any] = {}
    new_part: dict[str, Any] = {}
    for lid in order[:start]:  # unchanged
        new_snap[lid] = snap[lid]
        new_part[lid] = part[lid]
    for lid in order[start:]:
        d = lords[lid]
        old = snap.get(lid)
        if old is not None and old == d:
            new_snap[lid] = old
            new_part[lid] = part[lid]
            continue
        copied = _copy_record(d)
        name, side = names[lid]
        if copied.keys() == _RECORD_KEYS:
            entry: dict[str, Any] = {"box": copied["box"], "exile": copied["exile"], "locale": copied["locale"],
                                     "mat": copied["mat"], "name": name, "side": side, "where": copied["where"]}
        else:
            entry = dict(sorted({**copied, "name": name, "side": side}.items()))
        if copied["mat"] is None:
            del entry["mat"]
        new_snap[lid] = copied
        new_part[lid] = entry
    store["lords"] = made = (new_snap, new_part)
    return made


def hidden_lords_part(lords: dict[str, Any], names: Names, role: str, battle: dict[str, Any] | None,
                      store: dict[str, Any]) -> dict[str, Any]:
    """The Lords' part of ``role``'s view with Hidden Mats (1.5.3): the other side's mats are
    ``"hidden"`` except those of Lords in the Battle being fought. Made from :func:`lords_part`'s
    entries (a hidden entry is a new dict; the others are shared); kept per role while those
    entries and the Lords in the Battle are the same."""
    shown = lords_part(lords, names, store)
    fighting = tuple(battle["lords"]) if battle is not None else ()
    key = "hidden lords " + role
    pair: tuple[dict[str, Any], tuple[str, ...], dict[str, Any]] | None = store.get(key)
    if pair is not None and pair[0] is shown and pair[1] == fighting:
        return pair[2]
    out: dict[str, Any] = {}
    for lid, entry in shown.items():
        if "mat" in entry and entry["side"] != role and lid not in fighting:
            entry = {**entry, "mat": "hidden"}
        out[lid] = entry
    store[key] = (shown, fighting, out)
    return out


def board_part(state: State, store: dict[str, Any]) -> dict[str, Any]:
    """The view entries of the markers and records every role sees alike (:func:`_kept_board`)."""
    return _kept_board(state, store)[1]


def _kept_board(state: State, store: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The view entries of the markers and records every role sees alike and that rarely
    change: Exhaustion and Depletion markers (by Locale), the Exile boxes, the Seats, the
    Vassals, the special rules and the game's options. Each entry is a copy of the state's
    part (the Vassals' records copied one by one), its keys sorted, and is its own snapshot;
    kept while the state's parts are equal to them. Returns the snapshots with the part."""
    st: Any = state
    parts = (st["exhaustion"], st["exile_boxes"], st["seats"], st["vassals"], st["special_rules"], st["options"])
    pair: tuple[tuple[Any, ...], dict[str, Any]] | None = store.get("board")
    if pair is not None:
        if pair[0] == parts:
            return pair
        snap = pair[0]
    else:
        snap = (None,) * len(parts)
    exhaustion, exile_boxes, seats, vassals, special_rules, options = (
        old if old == new else None for old, new in zip(snap, parts, strict=True))
    exhaustion = exhaustion if exhaustion is not None else dict(sorted(parts[0].items()))
    exile_boxes = exile_boxes if exile_boxes is not None else dict(sorted(parts[1].items()))
    seats = seats if seats is not None else dict(sorted(parts[2].items()))
    vassals = vassals if vassals is not None else {
        vid: dict(sorted(d.items())) for vid, d in sorted(parts[3].items())}
    special_rules = special_rules if special_rules is not None else list(parts[4])
    options = options if options is not None else dict(sorted(parts[5].items()))
    part = {"exhaustion": exhaustion, "exile_boxes": exile_boxes, "seats": seats, "vassals": vassals,
            "special_rules": special_rules, "options": options}
    made = ((exhaustion, exile_boxes, seats, vassals, special_rules, options), part)
    store["board"] = made
    return made


def static_part(state: State, names: Names, favour_view: FavourView, store: dict[str, Any],
                revision: StaticRevision = None) -> dict[str, Any]:
    """The entries of a view that change only with the board and the tracks, in one dict:
    the scenario, King and Rebel, the Calendar box and the scenario's first and last, the
    Influence track (1.4.1) and the threshold in force (5.2), the Favour markers and the Net
    Stronghold Favour they make (1.3.1, ``favour_view``), :func:`board_part` and, unless mats
    are hidden, :func:`lords_part`. Kept while those are unchanged. ``revision``: that of any
    part, then those of the ``LORDS``, ``BOARD`` and ``TRACKS`` parts; while ``state`` is the
    object the part was made for, the part is found unchanged without a comparison if none
    moved, and the Lords' and the board's parts are taken without comparing them if theirs did
    not."""
    if revision is None:
        return _static_by_content(state, names, favour_view, store)[0]
    mark: tuple[State, tuple[int, int, int, int], dict[str, Any], dict[str, Any], dict[str, Any] | None] | None = \
        store.get("static mark")
    board = lords = None
    reused = False
    if mark is not None and mark[0] is state:
        seen = mark[1]
        if seen == revision:
            if _CHECK[0] and _static_by_content(state, names, favour_view, {})[0] != mark[2]:  # made afresh
                raise RevisionMissed("the board, the Lords or the tracks changed, but not their revision")
            return mark[2]
        if seen[0] == revision[0]:  # then the Lords' and the board's own
            if seen[2] == revision[2]:
                board, reused = mark[3], True
            if seen[1] == revision[1] and mark[4] is not None:
                lords, reused = mark[4], True
    part, board, lords = _static_by_content(state, names, favour_view, store, board, lords)
    if reused and _CHECK[0] and _static_by_content(state, names, favour_view, {})[0] != part:
        raise RevisionMissed("the board or the Lords changed, but not their revision")
    store["static mark"] = (state, revision, part, board, lords)
    return part


def _static_by_content(state: State, names: Names, favour_view: FavourView, store: dict[str, Any],
                       board: dict[str, Any] | None = None, lords: dict[str, Any] | None = None,
                       ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]:
    """:func:`static_part`, found kept by comparing its sources with their snapshots (the board's
    and the Lords' parts taken as given, when given); with the board's and the Lords' parts."""
    st: Any = state
    hidden = bool(st["options"].get("hidden_mats"))
    favour = st["favour"]
    head = (st["scenario"], st["king"], st["rebel"], st["box"], st["first_box"], st["last_box"],
            st["influence"], st.get("war"))
    # each part compared once with its snapshot: the board and the Lords by their kept parts
    # (the same dicts while unchanged), the rest with the snapshot kept here
    if board is None:
        board = _kept_board(state, store)[1]
    if hidden:
        lords = None
    elif lords is None:
        lords = _kept_lords(st["lords"], names, store)[1]
    kept: tuple[tuple[Any, ...], dict[str, str], dict[str, Any], dict[str, Any] | None, dict[str, Any]] | None = \
        store.get("static")
    if kept is not None and kept[2] is board and kept[0] == head and kept[1] == favour:
        if kept[3] is lords:
            return kept[4], board, lords
        if lords is not None and kept[3] is not None:  # only the Lords changed: the rest as kept
            relorded = kept[4].copy()
            relorded["lords"] = lords  # (in its place: the same key order)
            store["static"] = (kept[0], kept[1], board, lords, relorded)
            return relorded, board, lords
    net = int(st["influence"])
    box = st["box"]
    shown, markers = favour_view(favour)  # (kept by the markers' placement: sorted only when made)
    part: dict[str, Any] = {
        "scenario": st["scenario"],
        "king": st["king"], "rebel": st["rebel"],
        "box": box,
        "first_box": st["first_box"], "last_box": st["last_box"],
        "influence": {"net": st["influence"], "York": max(0, net), "Lancaster": max(0, -net)},  # 1.4.1
        "threshold": threshold(state) if box is not None else None,
        "favour": shown,
        "stronghold_markers": markers,
        **board,  # exhaustion, exile_boxes, seats, vassals, special_rules, options
    }
    if lords is not None:
        part["lords"] = lords
    store["static"] = (head, dict(favour), board, lords, part)
    return part, board, lords


def _copy_record(d: dict[str, Any]) -> dict[str, Any]:
    """A copy of a Lord's record (:class:`~.records.LordRecord`) and of his mat's fields
    (:class:`~.records.Mat`: flat dicts and lists), every dict's keys sorted: the text of a kept
    part does not depend on the order in which the state's dicts were made (a state read back
    from storage has them sorted, a mat Mustered in play has them in the order of its type)."""
    mat = d["mat"]
    if mat is not None:
        if mat.keys() == _MAT_KEYS:
            mat = {"assets": _sorted_assets(mat["assets"]), "capabilities": mat["capabilities"][:],
                   "events": mat["events"][:], "routed": _sorted_troops(mat["routed"]),
                   "special_vassals": mat["special_vassals"][:], "troops": _sorted_troops(mat["troops"]),
                   "vassals": mat["vassals"][:]}
        else:
            mat = {k: dict(sorted(v.items())) if type(v) is dict else v[:] for k, v in sorted(mat.items())}
    if d.keys() == _RECORD_KEYS:  # (the keys sorted, spelt out)
        return {"box": d["box"], "exile": d["exile"], "locale": d["locale"], "mat": mat, "where": d["where"]}
    out = {k: d[k] for k in sorted(d)}
    out["mat"] = mat
    return out


def _sorted_troops(troops: dict[str, int]) -> dict[str, int]:
    """A copy of a mat's troops (or routed troops), its keys sorted: spelt out for the five
    troop types (the fields of every mat), else sorted."""
    if troops.keys() == _TROOP_KEYS:
        return {"handgunners": troops["handgunners"], "longbowmen": troops["longbowmen"],
                "men_at_arms": troops["men_at_arms"], "mercenaries": troops["mercenaries"],
                "militia": troops["militia"]}
    return dict(sorted(troops.items()))


def _sorted_assets(assets: dict[str, int]) -> dict[str, int]:
    """A copy of a mat's assets, its keys sorted (spelt out for the four asset types)."""
    if assets.keys() == _ASSET_KEYS:
        return {"carts": assets["carts"], "coin": assets["coin"], "provender": assets["provender"],
                "ships": assets["ships"]}
    return dict(sorted(assets.items()))


#: The fields of a Lord's record and of a mat (records.LordRecord, records.Mat; pinned by
#: tests/plantagenet/test_views.py): the copies above spell them out (any other set of fields is
#: copied field by field).
_RECORD_KEYS: Final = frozenset(("where", "locale", "box", "exile", "mat"))
_MAT_KEYS: Final = frozenset(("troops", "routed", "assets", "vassals", "special_vassals", "capabilities", "events"))
#: The troop and asset types (components.TROOP_TYPES, ASSET_TYPES; pinned by the same test).
_TROOP_KEYS: Final = frozenset(("men_at_arms", "longbowmen", "militia", "mercenaries", "handgunners"))
_ASSET_KEYS: Final = frozenset(("provender", "coin", "carts", "ships"))


def _copy_zones(zones: dict[str, list[str]]) -> dict[str, list[str]]:
    return {zone: cards[:] for zone, cards in zones.items()}


#: A side's Arts of War and Command cards as it sees them and as the other side sees them.
SideCards = tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]

#: Each role's Arts of War and Command cards: ``(aow, command)`` by side, and those of a role
#: that is neither (an observer: the hidden zones of both sides counted only).
Cards = tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]], dict[str, Any], dict[str, Any]]


def _side_cards(side: str, a: dict[str, list[str]], cm: dict[str, list[str]], store: dict[str, Any]) -> SideCards:
    """``side``'s cards (1.9): ``(aow as the side sees it, command as the side sees it, aow as
    the other side sees it, command as the other side sees it)``; the other side sees the
    hidden zones (the Arts of War deck, drawn and held cards; the Command deck and Plan) by
    their number only. Kept while the side's zones are unchanged."""
    key = "cards " + side
    pair: tuple[dict[str, list[str]], dict[str, list[str]], SideCards] | None = store.get(key)
    if pair is not None and pair[0] == a and pair[1] == cm:
        return pair[2]
    a_snap, cm_snap = _copy_zones(a), _copy_zones(cm)
    made: SideCards = (
        {"deck": a_snap["deck"], "drawn": a_snap["drawn"], "held": a_snap["held"],
         "in_effect": a_snap["in_effect"], "set_aside": a_snap["set_aside"]},
        {"deck": cm_snap["deck"], "plan": cm_snap["plan"], "revealed": cm_snap["revealed"]},
        {"deck": len(a_snap["deck"]), "drawn": len(a_snap["drawn"]), "held": len(a_snap["held"]),
         "in_effect": a_snap["in_effect"], "set_aside": a_snap["set_aside"]},
        {"deck": len(cm_snap["deck"]), "plan": len(cm_snap["plan"]), "revealed": cm_snap["revealed"]},
    )
    store[key] = (a_snap, cm_snap, made)
    return made


def cards_part(state: State, store: dict[str, Any], revision: Revision = None) -> Cards:
    """Each side's cards as it sees them and as the other side sees them (1.9): ``(aow by
    side, command by side, aow of an observer, command of an observer)``, each
    ``{side: zones}`` (:func:`_side_cards`). Kept while neither side's zones change: found
    unchanged without a comparison while ``state`` is the object they were made for and
    ``revision`` (that of the ``CARDS`` part) has not moved."""
    if revision is None:
        return _cards_by_content(state, store)
    mark: tuple[State, tuple[int, int], Cards] | None = store.get("cards mark")
    if mark is not None and mark[0] is state and mark[1] == revision:
        if _CHECK[0] and _cards_by_content(state, {}) != mark[2]:  # made afresh
            raise RevisionMissed("a side's cards changed, but not their revision")
        return mark[2]
    cards = _cards_by_content(state, store)
    store["cards mark"] = (state, revision, cards)
    return cards


def _cards_by_content(state: State, store: dict[str, Any]) -> Cards:
    """:func:`cards_part`, found kept by comparing each side's zones with their snapshots."""
    st: Any = state
    aow, command = st["aow"], st["command"]
    first, second = SIDES
    a = _side_cards(first, aow[first], command[first], store)
    b = _side_cards(second, aow[second], command[second], store)
    pair: tuple[SideCards, SideCards, Cards] | None = store.get("cards")
    # the same kept parts of both sides: known by their first dict (compiled, mypyc passes a
    # tuple by value and boxes it again where it is stored, so the tuples are never the same)
    if pair is not None and pair[0][0] is a[0] and pair[1][0] is b[0]:
        return pair[2]
    aow_open = {first: a[2], second: b[2]}
    command_open = {first: a[3], second: b[3]}
    cards: Cards = ({first: {first: a[0], second: b[2]}, second: {first: a[2], second: b[0]}},
                    {first: {first: a[1], second: b[3]}, second: {first: a[3], second: b[1]}},
                    aow_open, command_open)
    store["cards"] = (a, b, cards)
    return cards
