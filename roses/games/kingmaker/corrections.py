"""The umpire's corrections (§The Campaign Umpire is Always Correct: his decisions are fact).

With the option ``umpire``, the umpire amends a running campaign with the standing verb
``correct``, whose argument is an object with a ``kind``, what the kind takes, and a ``reason``
(a text of 1 to 2000 characters) that is published with it:

=============  =====================================================================================
kind           takes
=============  =====================================================================================
``move``       ``piece`` (a noble, an heir or a ship id), ``to`` (a place id: inside it; a square id:
               in the open; for a ship a port's place id or a sea square). A noble or heir moved
               is no longer aboard a ship; an escorted heir is left alone where he is put.
``remove``     ``piece`` (a noble or an heir): he is out of the campaign, as if killed (§Nobles Killed:
               his awards go to their piles; an heir: the Plantagenet succession follows).
``card``       ``card`` (a Crown card id), ``to``: a player's role (a noble card in play changes
               faction; any other card goes to that player's hand), ``asset:<role>`` (a faction
               asset), a noble id (awarded to that noble: title, office, bishop, town...),
               ``deck`` (shuffled back into the Crown deck), ``discard`` or ``chancery``.
``place``      ``place`` (a place id), ``to``: a player's role or ``none`` (neutral): who holds the
               town, city or castle (its town card follows, §Transfers).
``track``      ``track``: ``round`` (the round counter, read by the round limit) or
               ``catastrophe`` (E1 Catastrophe's turns left), ``value`` (a whole number >= 0).
``takeback``   ``role``: that player's last order is taken back, even after others acted: every
               piece, card, place and counter it changed is put back as it was. Refused when
               something it changed has changed again since (the umpire then corrects those
               parts one by one). Whose turn it is does not change.
``undo``       nothing: the umpire's last correction not yet undone is undone the same way (refused
               likewise when what it changed has changed again).
=============  =====================================================================================

Each correction is an action of the game (the action log holds it, a replay repeats it), logged
for every player with its reason ("The umpire corrects: ... Reason: ..."). A card whose face
is hidden (in a hand, the deck or Chancery, before or after) is named only to the players whose
hand it leaves or joins and to the umpire; the others read "a card". Bad input is refused
(``IllegalAction``) and changes nothing, and so is a correction that would leave a position the
rules' invariants reject (a card in two places, a pile out of step with its cards). ``state["corrections"]`` keeps each correction: its
round, kind, public text, reason, whether it was undone, and what it changed (the ``patch``
that ``undo`` puts back); views show the first four (``view["corrections"]``).

A *patch* is what an action changed in the state, key by key (``diff``): the items of a list
of the same length that changed, the entries of a dict, or the whole value. In a campaign with
an umpire, each player's last order that changed the position keeps its patch in
``state["last_orders"]`` for ``takeback``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from roses.engine import log, rng
from roses.engine.contract import State, copy_json
from roses.engine.errors import IllegalAction
from roses.games.kingmaker import cards as K
from roses.games.kingmaker import ops
from roses.games.kingmaker.common import (
    UMPIRE,
    Z_ASSET,
    Z_AWARD,
    Z_CHANC,
    Z_DECK,
    Z_DISC,
    Z_HAND,
    Z_NOBLE,
    W,
    card_name,
    place_name,
    player_of_role,
    role_of,
)

KINDS = ("move", "remove", "card", "place", "track", "takeback", "undo")
TRACKS = ("round", "catastrophe")
MAX_REASON = 2000

#: Keys a patch never holds: what describes the game rather than its position, the log, and
#: the records of the corrections themselves.
META = frozenset(("log", "roles", "opts", "level", "board", "board_data", "deck_key", "deck_data", "result",
                  "end", "rng", "rolls", "rigged", "rulings", "corrections", "last_orders", "standing",
                  "offers", "offer_seq", "reveals"))
#: Keys a takeback leaves as they are: whose turn and decision it is.
FLOW = frozenset(("stack", "round", "tno", "rstart", "order", "turn"))
#: Zones of a Crown card whose face only its holder (and the umpire) sees.
HIDDEN_ZONES = (Z_HAND, Z_DECK, Z_CHANC)


# ----------------------------------------------------------------------------- patches
def snapshot(state: State, skip: frozenset[str]) -> dict[str, Any]:
    return {k: copy_json(v) for k, v in state.items() if k not in skip}


def diff(before: dict[str, Any], state: State, skip: frozenset[str]) -> dict[str, Any]:
    """What changed from ``before`` (a :func:`snapshot`) to ``state``, key by key in sorted order:
    ``["items", [[i, old, new], ...]]`` for a list of the same length, ``["keys", [[k, had, old,
    has, new], ...]]`` for a dict, else ``["set", had, old, new]``."""
    patch: dict[str, Any] = {}
    for k in sorted(set(before) | {k for k in state if k not in skip}):
        had, has = k in before, k in state
        old, new = before.get(k), state.get(k)
        if had == has and old == new:
            continue
        if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
            patch[k] = ["items", [[i, copy_json(a), copy_json(b)]
                                  for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]]
        elif isinstance(old, dict) and isinstance(new, dict):
            patch[k] = ["keys", [[x, x in old, copy_json(old.get(x)), x in new, copy_json(new.get(x))]
                                 for x in sorted(set(old) | set(new)) if (x in old, old.get(x)) != (x in new, new.get(x))]]
        else:
            patch[k] = ["set", had, copy_json(old), has, copy_json(new)]
    return patch


def conflicts(state: State, patch: dict[str, Any]) -> int:
    """How many parts of what ``patch`` changed were changed again since."""
    n = 0
    for k, (how, *rest) in sorted(patch.items()):
        cur = state.get(k)
        if how == "items":
            n += sum(1 for i, _, new in rest[0] if not (isinstance(cur, list) and i < len(cur) and cur[i] == new))
        elif how == "keys":
            n += 1 if not isinstance(cur, dict) else sum(
                1 for x, _, _, has, new in rest[0] if (x in cur, cur.get(x)) != (has, new if has else None))
        else:
            has, new = rest[2], rest[3]
            n += (k in state, cur) != (has, new if has else None)
    return n


def revert(state: State, patch: dict[str, Any]) -> int:
    """Put back what ``patch`` changed, where it is still as the patch left it; returns how many
    parts were changed again since and are kept."""
    kept = 0
    for k, (how, *rest) in sorted(patch.items()):
        if how == "items":
            cur = state.get(k)
            for i, old, new in rest[0]:
                if isinstance(cur, list) and i < len(cur) and cur[i] == new:
                    cur[i] = copy_json(old)
                else:
                    kept += 1
        elif how == "keys":
            cur = state.get(k)
            if not isinstance(cur, dict):
                kept += 1
                continue
            for x, had, old, has, new in rest[0]:
                if (x in cur, cur.get(x)) == (has, new if has else None):
                    if had:
                        cur[x] = copy_json(old)
                    else:
                        cur.pop(x, None)
                else:
                    kept += 1
        else:
            had, old, has, new = rest
            if (k in state, state.get(k)) == (has, new if has else None):
                if had:
                    state[k] = copy_json(old)
                else:
                    state.pop(k, None)
            else:
                kept += 1
    return kept


# ----------------------------------------------------------------------------- last orders
def watching(state: State, role: str) -> bool:
    """Whether ``role``'s actions keep their patch for a takeback (a player, with an umpire)."""
    return bool(state["opts"].get("umpire")) and role in state["roles"]


def remember_order(state: State, role: str, before: dict[str, Any], what: str) -> None:
    patch = diff(before, state, META | FLOW)
    if patch:
        state.setdefault("last_orders", {})[role] = {"round": state["round"], "what": what, "patch": patch}


# ----------------------------------------------------------------------------- the verb
def correct(state: State, arg: Any, check_invariants: Callable[[State], list[str]]) -> None:
    """Apply the umpire's correction ``arg``; IllegalAction (nothing changed) for bad input, and
    for a correction after which ``check_invariants`` (views.check_invariants) finds the
    position impossible."""
    if state["result"] is not None:
        raise IllegalAction("The game is over.")
    if not isinstance(arg, dict) or arg.get("kind") not in KINDS:
        raise IllegalAction("A correction is an object with a kind (" + ", ".join(KINDS) + ") and a reason.")
    reason = arg.get("reason")
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON:
        raise IllegalAction(f"A correction states its reason: a text of 1 to {MAX_REASON} characters.")
    if any(ord(ch) < 32 and ch not in "\n\t" for ch in reason):
        raise IllegalAction("A reason may not hold control characters.")
    reason = reason.strip()
    kind = arg["kind"]
    work = {k: copy_json(v) if k not in ("log", "board_data", "deck_data") else v for k, v in state.items()}
    work["log"] = []
    before = snapshot(work, META)
    text, private = _APPLY[kind](work, arg)
    problems = check_invariants(work)
    if problems:
        raise IllegalAction("That correction would leave an impossible position (" + "; ".join(problems[:3])
                            + "): correct it another way.")
    patch = diff(before, work, META)
    # everything checked and done on the copy: now the state itself
    lines = work["log"]
    for k in [k for k in state if k not in work]:
        del state[k]
    for k, v in work.items():
        if k != "log":
            state[k] = v
    tail = f" Reason: {reason}"
    log.public(state, f"The umpire corrects: {text}.{tail}", log.RESULT)
    for role, secret in private:
        log.private(state, role, f"The umpire corrects: {secret}.{tail}", log.RESULT)
    state["log"].extend(lines)
    state.setdefault("corrections", []).append(
        {"round": state["round"], "kind": kind, "text": text, "reason": reason, "undone": False, "patch": patch})


def view_part(state: State) -> list[dict[str, Any]]:
    """The corrections as every seat sees them (no patch)."""
    return [{"round": c["round"], "kind": c["kind"], "text": c["text"], "reason": c["reason"], "undone": c["undone"]}
            for c in state.get("corrections", ())]


def options(state: State) -> dict[str, Any]:
    """What ``correct`` takes (the umpire's view)."""
    return {"kinds": list(KINDS), "tracks": list(TRACKS), "reason": f"a text of 1 to {MAX_REASON} characters",
            "takeback": sorted(state.get("last_orders", {})),
            "undo": any(not c["undone"] and c["kind"] != "undo" for c in state.get("corrections", ()))}


Private = list[tuple[str, str]]


def _noble(state: State, ident: Any) -> int:
    w = W(state)
    try:
        c = w.cid(ident)
    except (KeyError, ValueError, TypeError):
        return -1
    return c if w.cards[c].is_noble else -1


def _heir(state: State, ident: Any) -> int:
    w = W(state)
    return next((h for h, heir in enumerate(w.heirs) if heir.id == ident), -1)


def _ship(state: State, ident: Any) -> int:
    return next((s for s, ship in enumerate(W(state).ships) if ship.id == ident), -1)


def _where(state: State, to: Any) -> tuple[str, str | None]:
    """(square, place) of a place id or a land square id."""
    w = W(state)
    if isinstance(to, str) and to in w.board.places and ops.place_active(state, to):
        return w.board.places[to].square, to
    if isinstance(to, str) and to in w.board.squares and w.board.squares[to].land:
        return to, None
    raise IllegalAction(f"{to!r} is not a place or a land square of this board.")


def _do_move(state: State, arg: dict[str, Any]) -> tuple[str, Private]:
    w = W(state)
    piece, to = arg.get("piece"), arg.get("to")
    n, h, s = _noble(state, piece), _heir(state, piece), _ship(state, piece)
    if n >= 0:
        if state["cz"][n] != Z_NOBLE:
            raise IllegalAction(f"{card_name(w, n)} is not in play.")
        sq, inside = _where(state, to)
        ops.put_noble(state, n, sq, inside)
        return f"{card_name(w, n)} is moved to {place_name(w, inside or sq)}", []
    if h >= 0:
        if state["hdead"][h]:
            raise IllegalAction(f"{w.heirs[h].name} is dead.")
        sq, inside = _where(state, to)
        state["hesc"][h], state["hship"][h] = -1, -1
        state["hsq"][h], state["hin"][h] = sq, inside
        return f"{w.heirs[h].name} is moved to {place_name(w, inside or sq)}", []
    if s >= 0:
        if state["spos"][s] is None:
            raise IllegalAction(f"The {w.ships[s].name} is not on the board.")
        port = isinstance(to, str) and to in w.board.places and w.board.places[to].port and ops.place_active(state, to)
        sea = isinstance(to, str) and to in w.board.squares and not w.board.squares[to].land
        if not (port or sea):
            raise IllegalAction(f"{to!r} is not a port or a sea square of this board.")
        state["spos"][s] = to
        return f"the {w.ships[s].name} is moved to {place_name(w, to)}", []
    raise IllegalAction(f"{piece!r} is not a noble, an heir or a ship.")


def _do_remove(state: State, arg: dict[str, Any]) -> tuple[str, Private]:
    w = W(state)
    piece = arg.get("piece")
    n, h = _noble(state, piece), _heir(state, piece)
    if n >= 0:
        if state["cz"][n] != Z_NOBLE:
            raise IllegalAction(f"{card_name(w, n)} is not in play.")
        ops.kill_noble(state, n, "is removed from the campaign by the umpire")
        return f"{card_name(w, n)} is removed from the campaign", []
    if h >= 0:
        if state["hdead"][h]:
            raise IllegalAction(f"{w.heirs[h].name} is dead already.")
        ops.kill_heir(state, h, "is removed from the campaign by the umpire")
        return f"{w.heirs[h].name} is removed from the campaign", []
    raise IllegalAction(f"{piece!r} is not a noble or an heir.")


def _holder_text(state: State, c: int) -> str:
    w = W(state)
    z, h = state["cz"][c], state["ch"][c]
    return {Z_HAND: lambda: f"{role_of(state, h)}'s hand", Z_DECK: lambda: "the Crown deck",
            Z_CHANC: lambda: "Chancery", Z_DISC: lambda: "the discard",
            Z_NOBLE: lambda: f"{role_of(state, h)}'s faction", Z_ASSET: lambda: f"{role_of(state, h)}'s assets",
            Z_AWARD: lambda: card_name(w, h)}.get(z, lambda: "out of play")()


def _take(state: State, c: int) -> None:
    """Card ``c`` leaves its pile or holder (its ships leave with an award or asset)."""
    for pile in ("cdeck", "cdisc", "chancery", "tdisc"):
        if c in state[pile]:
            state[pile].remove(c)
    if state["cz"][c] in (Z_AWARD, Z_ASSET):
        ops.card_leaves(state, c)


def _do_card(state: State, arg: dict[str, Any]) -> tuple[str, Private]:
    w = W(state)
    try:
        c = w.cid(arg.get("card"))  # type: ignore[arg-type]
    except (KeyError, ValueError, TypeError):
        raise IllegalAction(f"{arg.get('card')!r} is not a Crown card.") from None
    to = arg.get("to")
    card = w.cards[c]
    z0, h0 = state["cz"][c], state["ch"][c]
    if z0 == Z_NOBLE and state["ncap"][c] >= 0:
        raise IllegalAction(f"{card_name(w, c)} is a captive: free or remove him first.")
    src = _holder_text(state, c)
    p = player_of_role(state, to) if isinstance(to, str) and to in state["roles"] else -1
    asset = player_of_role(state, to[6:]) if isinstance(to, str) and to.startswith("asset:") else -1
    target = _noble(state, to)
    if z0 == Z_NOBLE and p < 0:
        raise IllegalAction(f"{card_name(w, c)} is in play: he changes faction (to a player's role) or is removed "
                            "(kind remove).")
    if p >= 0 and z0 == Z_NOBLE:
        if h0 == p:
            raise IllegalAction(f"{card_name(w, c)} is already {to}'s.")
        state["ch"][c] = p  # his awards and the heirs he escorts follow him
    elif p >= 0:
        if z0 == Z_HAND and h0 == p:
            raise IllegalAction(f"That card is already in {to}'s hand.")
        _take(state, c)
        state["cz"][c], state["ch"][c] = Z_HAND, p
    elif asset >= 0:
        if card.kind not in (K.TOWN, K.SHIP, K.ROYAL_CASTLE):
            raise IllegalAction("Only a town, ship or royal castle card is kept as a faction asset.")
        _take(state, c)
        state["cz"][c], state["ch"][c] = Z_ASSET, asset
        if card.kind == K.SHIP:
            ops.ship_to_port(state, w.ship_of_card[c])
    elif target >= 0:
        if card.is_noble:
            raise IllegalAction("A noble card is not awarded to a noble.")
        if state["cz"][target] != Z_NOBLE:
            raise IllegalAction(f"{card_name(w, target)} is not in play.")
        _take(state, c)
        state["cz"][c], state["ch"][c] = Z_AWARD, target
        if card.kind == K.SHIP:
            ops.ship_to_port(state, w.ship_of_card[c])
        for s in w.office_ships.get(c, ()):
            ops.ship_to_port(state, s)
    elif to in ("deck", "discard", "chancery"):
        _take(state, c)
        if to == "deck":
            state["cz"][c], state["ch"][c] = Z_DECK, -1
            state["cdeck"].append(c)
            rng.shuffle(state, state["cdeck"])
        elif to == "discard":
            ops.discard_crown(state, c)
        else:
            ops.to_chancery(state, c)
    else:
        raise IllegalAction("A card goes to a player's role, 'asset:<role>', a noble, 'deck', 'discard' or 'chancery'.")
    dst = _holder_text(state, c)
    name = card_name(w, c)
    hidden = z0 in HIDDEN_ZONES or state["cz"][c] in HIDDEN_ZONES
    if not hidden:
        return f"{name} passes from {src} to {dst}", []
    seers = [role_of(state, q) for q in sorted({h0 if z0 == Z_HAND else -1,
                                                state["ch"][c] if state["cz"][c] == Z_HAND else -1}) if q >= 0]
    public = f"a card passes from {src} to {dst}"
    return public, [(r, f"{name} passes from {src} to {dst} (only you and the umpire are told which)")
                    for r in [*seers, UMPIRE]]


def _do_place(state: State, arg: dict[str, Any]) -> tuple[str, Private]:
    w = W(state)
    place, to = arg.get("place"), arg.get("to")
    if not isinstance(place, str) or place not in w.board.places or not ops.place_active(state, place):
        raise IllegalAction(f"{place!r} is not a place of this board.")
    if to == "none":
        p = -1
    elif isinstance(to, str) and to in state["roles"]:
        p = player_of_role(state, to)
    else:
        raise IllegalAction("A place goes to a player's role or to 'none' (neutral).")
    ops.set_place_owner(state, place, p)
    return f"{w.board.places[place].name} is held by {to if p >= 0 else 'no faction'}", []


def _do_track(state: State, arg: dict[str, Any]) -> tuple[str, Private]:
    track, value = arg.get("track"), arg.get("value")
    if track not in TRACKS:
        raise IllegalAction(f"A track is one of {', '.join(TRACKS)}.")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10000:
        raise IllegalAction("A track's value is a whole number from 0 to 10000.")
    if track == "round" and (value < 1 or state["round"] < 1):
        raise IllegalAction("The round is set only once the campaign is under way, to 1 or more.")
    state[track] = value
    return f"the {track} track is set to {value}", []


def _do_takeback(state: State, arg: dict[str, Any]) -> tuple[str, Private]:
    role = arg.get("role")
    last = state.get("last_orders", {}).get(role) if isinstance(role, str) else None
    if last is None:
        raise IllegalAction(f"{role!r} has no order to take back.")
    _refuse_conflicts(state, last["patch"], f"{role}'s last order ({last['what']})")
    del state["last_orders"][role]
    revert(state, last["patch"])
    return f"{role}'s last order ({last['what']}) is taken back", []


def _refuse_conflicts(state: State, patch: dict[str, Any], what: str) -> None:
    n = conflicts(state, patch)
    if n:
        raise IllegalAction(f"{what} changed things that have changed again since ({n} part(s)): correct them "
                            "one by one instead (move, card, place, track).")


def _do_undo(state: State, arg: dict[str, Any]) -> tuple[str, Private]:
    todo = [c for c in state.get("corrections", ()) if not c["undone"] and c["kind"] != "undo"]
    if not todo:
        raise IllegalAction("There is no correction to undo.")
    last = todo[-1]
    _refuse_conflicts(state, last["patch"], f"The correction \u201c{last['text']}\u201d")
    last["undone"] = True
    revert(state, last["patch"])
    return f"the correction \u201c{last['text']}\u201d is undone", []


_APPLY = {"move": _do_move, "remove": _do_remove, "card": _do_card, "place": _do_place, "track": _do_track,
          "takeback": _do_takeback, "undo": _do_undo}
