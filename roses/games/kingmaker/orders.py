"""Kingmaker standing orders and defaults played for a seat.

A campaign by mail stalls on the questions put to a player in the middle of someone else's
turn: may this noble enter your castle, will you pay this ransom, which port does the storm
drive your ship into, how do you vote. Two things keep it moving:

**Defaults by deadline** (``by_default``): when a seat's deadline passes, the server sends the
verb ``by_default`` for it (argument ``"deadline"``, or ``"vacation"`` for a player away
without a stand-in). The rules play the decision's published default (its step's default_option)
as that seat's answer and say so in the game log: "P2's deadline passed: deny (the published
default)." A secret answer (a ballot, the card given back in a trade, a Treachery pick) is not
named in the public line, only in the seat's own log.

**Standing orders** (``set_order`` / ``clear_order``): a player sets in advance the answer to a
kind of recurring question. Whenever that seat is asked such a question and the order gives
one of its options, the rules play it at once as that seat's answer and log it "by standing
order" (the ballot of a vote only in the seat's own log). A standing order never answers what
it does not name: a question it does not fit is asked as usual. The kinds (:data:`KINDS`):

``permit``, ``permit:<role>``  ``allow`` or ``deny``: a request of any player (or of that one,
    which wins over ``permit``) to enter a place of yours or to let a ship leave your port
    (§Faction, §Ship Counters, §Town, Cities, and Castles);
``ransom_answer``  0-3: pay a ransom demand of at most so many cards (or Crown draws, E1 §Booty)
    for a noble of yours, refuse a larger one (§Capture of Noble Counters, ruling K27: a refusal means execution);
    when it pays in hand cards it gives those other than nobles first, in hand order (ruling K70);
``ransom_demand``  ``execute``, ``release`` or 1-3: what you, as captor, do with each captive
    (ask so many cards of his owner's hand, when he holds as many);
``storm_port``  a port or a list of ports in order of preference: the first of them among the
    equally close ports a storm drives your ship to (Storms at Sea, §Event Card Key);
``vote:<motion>``  ``yes``, ``no`` or ``abstain`` on a kind of motion in Parliament
    (``victory``, ``award``, ``bishop``, ``pardon``, ``ships``; §Voting on Cards Distributed, §Sea Transportation);
``accept_award``  ``accept`` or ``decline`` a Chancery card proposed for a noble of yours (§Voting on Cards Distributed);
``pardon``  ``pardon`` or ``decline``: whether to play your King's Pardon for a noble about to
    be executed (§Crown Card Key);
``alliance``, ``alliance:<role>``  ``accept`` or ``decline`` an alliance proposed from the
    dealing menu (§Alliances; ruling K94);
``offer``, ``offer:<role>``  ``accept`` or ``decline`` any other offer of the dealing menu: a card,
    a ship lent, a transferable for a noble, an heir, a place, a command (§Transfers, §Alliances);
``exchange``, ``exchange:<role>``  ``decline``: a negotiated exchange (offers.py) proposed to
    you is declined at once (its acceptance needs the cards you choose, so it is never
    accepted in advance).

Standing orders are private: kept in the state under ``standing`` by seat, shown only in that
seat's view (``standing_orders``) and logged only to it when set; each setting is an action of
the action log, so a replay reproduces every answer. The umpire (who sees everything) sees them
too. Bots' determinisations drop the other players' orders (ai.py).
"""

from __future__ import annotations

from typing import Any

from roses.engine import log
from roses.engine.contract import Action, State, mark_reveal
from roses.engine.errors import IllegalAction, NotYourTurn
from roses.games.kingmaker.common import UMPIRE, W, has_umpire, player_of_role, role_of
from roses.games.kingmaker.wording import plain

#: The verb the server sends when a deadline passes (deadlines.py), and its arguments.
BY_DEFAULT = "by_default"
DEFAULT_REASONS = ("deadline", "vacation")
#: The players' standing-order verbs.
VERBS = ("set_order", "clear_order")
#: The motions a ``vote:`` order may name (parliament.push_vote).
MOTIONS = ("victory", "award", "bishop", "pardon", "ships")
#: Steps whose answer is secret: their public log line does not name it (a ballot, a card given
#: back in a trade, Treachery's face-down pick, a ransom card, which passes unseen, §Capture of Noble Counters).
SECRET_STEPS = frozenset(("vote", "trade_back", "treachery", "ransom_pay"))
#: The log kind of an answer, by the step it answers (the page styles lines by kind).
STEP_KINDS = {"permit": log.MOVE, "vote": log.POLITICAL, "propose": log.POLITICAL, "accept": log.POLITICAL,
              "attend": log.POLITICAL, "disperse": log.POLITICAL, "parl_place": log.POLITICAL,
              "ransom": log.BATTLE, "ransom_pay": log.BATTLE, "captive": log.BATTLE, "pardon": log.BATTLE,
              "spoils": log.BATTLE, "scuttle": log.BATTLE, "vac_port": log.BATTLE, "storm_port": log.EVENT,
              "treachery": log.EVENT, "summons": log.EVENT, "hunt": log.EVENT}
#: How many standing answers one settling may play (a guard: each answer ends a decision).
MAX_ANSWERS = 10_000


# ============================================================================ defaults by deadline
def play_default(rules: Any, state: State, role: str, reason: Any) -> None:
    """``by_default``: play ``role``'s published default now and log it as such."""
    if state["result"] is not None:
        raise IllegalAction("The game is over.")
    why = "deadline" if reason is None else reason
    if why not in DEFAULT_REASONS:
        raise IllegalAction(f"{BY_DEFAULT} takes one of {', '.join(DEFAULT_REASONS)}.")
    if role not in rules.active(state):
        raise NotYourTurn(f"It is not {role}'s turn.")
    found = rules.default_action(state, role)
    if found is None:
        raise IllegalAction(f"{role}'s decision now has no published default.")
    verb, arg = found
    text = rules.label(state, role, verb, arg)
    step = state["stack"][-1]["step"]
    head = f"{role}'s deadline passed" if why == "deadline" else f"{role} is away"
    kind = STEP_KINDS.get(step)
    if step in SECRET_STEPS:
        log.public(state, f"{head}: the published default is played.", kind)
        log.private(state, role, f"The published default played for you: {text}.", kind)
    else:
        log.public(state, f"{head}: {text} (the published default).", kind)
    mark_reveal(state)  # played for the seat by the server: its player may not take it back by undo
    rules.steps.act(state, role, verb, arg)


# ============================================================================ standing orders
def is_player(state: State, role: str) -> bool:
    return role != UMPIRE and role in state["roles"]


def kinds(state: State, role: str) -> dict[str, dict[str, Any]]:
    """The kinds of standing order ``role`` may set, with a short text and what each takes
    (shown in his view; kept short: every view of his carries it)."""
    others = [r for r in state["roles"] if r != role]
    allow = ["allow", "deny"]
    out: dict[str, dict[str, Any]] = {
        "permit": {"text": "Anyone asks to enter your place or leave your port (§Faction, §Ship Counters, §Town, Cities, and Castles)", "values": allow}}
    for r in others:
        out[f"permit:{r}"] = {"text": f"{r} asks to enter your place or leave your port", "values": allow}
    out["ransom_answer"] = {"text": "Ransom asked for your noble: pay at most (§Capture of Noble Counters)", "values": [0, 1, 2, 3]}
    out["ransom_demand"] = {"text": "Your captive: execute, release or ask cards (§Capture of Noble Counters)",
                            "values": ["execute", "release", 1, 2, 3]}
    out["storm_port"] = {"text": "Storm: your ship's port, by preference", "values": [], "ports": True}
    names = {"victory": "one and only King", "award": "title or office", "bishop": "bishopric",
             "pardon": "King's Pardon to the discard", "ships": "lost ships restored"}
    for m in MOTIONS:
        out[f"vote:{m}"] = {"text": f"Vote on: {names[m]} (§Voting on Cards Distributed)", "values": ["yes", "no", "abstain"]}
    out["accept_award"] = {"text": "Chancery card proposed for your noble (§Voting on Cards Distributed)", "values": ["accept", "decline"]}
    out["pardon"] = {"text": "Play your King's Pardon (§Crown Card Key)", "values": ["pardon", "decline"]}
    answers = ["accept", "decline"]
    out["alliance"] = {"text": "Anyone proposes an alliance (§Alliances)", "values": answers}
    for r in others:
        out[f"alliance:{r}"] = {"text": f"{r} proposes an alliance", "values": answers}
    out["offer"] = {"text": "Anyone offers a card, a ship, a place, an heir or a command (§Transfers, §Alliances)",
                    "values": answers}
    for r in others:
        out[f"offer:{r}"] = {"text": f"{r} offers a card, a ship, a place, an heir or a command", "values": answers}
    out["exchange"] = {"text": "Anyone proposes a negotiated exchange: decline it at once", "values": ["decline"]}
    for r in others:
        out[f"exchange:{r}"] = {"text": f"{r} proposes a negotiated exchange: decline it at once",
                                "values": ["decline"]}
    return out


def orders_of(state: State, role: str) -> dict[str, Any]:
    got: dict[str, Any] = state.get("standing", {}).get(role, {})
    return got


def check_value(state: State, role: str, kind: Any, value: Any) -> Any:
    """The value of a standing order of ``kind`` as stored (IllegalAction for a bad one)."""
    known = kinds(state, role)
    if not isinstance(kind, str) or kind not in known:
        raise IllegalAction(f"There is no standing order {kind!r}; the kinds are: {', '.join(known)}.")
    allowed = known[kind]["values"]
    if kind == "storm_port":
        ports = [value] if isinstance(value, str) else value
        board = W(state).board
        if (not isinstance(ports, list) or not ports or len(ports) > 20
                or any(not isinstance(p, str) or p not in board.ports for p in ports)):
            raise IllegalAction("A storm-port order names one or more ports of the board, in order of preference.")
        return list(dict.fromkeys(ports))
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if value not in allowed or isinstance(value, bool):
        raise IllegalAction(f"A standing order {kind!r} takes one of: {', '.join(str(v) for v in allowed)}.")
    return value


def standing_action(state: State, role: str, verb: str, arg: Any) -> None:
    """``set_order`` {"kind", "value"} or ``clear_order`` kind, by a player at any time."""
    if state["result"] is not None:
        raise IllegalAction("The game is over.")
    if not is_player(state, role):
        raise IllegalAction("Only a player sets standing orders.")
    if verb == "set_order":
        if not isinstance(arg, dict) or set(arg) != {"kind", "value"}:
            raise IllegalAction('set_order takes {"kind": ..., "value": ...}.')
        kind = arg["kind"]
        value = check_value(state, role, kind, arg["value"])
        state.setdefault("standing", {}).setdefault(role, {})[kind] = value
        log.private(state, role, f"Standing order set: {describe(state, role, kind, value)}.")
    elif verb == "clear_order":
        mine = orders_of(state, role)
        if not isinstance(arg, str) or arg not in mine:
            raise IllegalAction(f"You have no standing order {arg!r}.")
        del mine[arg]
        log.private(state, role, f"Standing order cleared: {arg.replace('_', ' ')}; you will be asked.")
    else:
        raise IllegalAction(f"No standing-order verb {verb!r}.")


def describe(state: State, role: str, kind: str, value: Any) -> str:
    w = W(state)
    if kind == "storm_port":
        return "storm port: " + ", then ".join(w.board.places[p].name for p in value)
    if kind.startswith("permit"):
        who = kind.split(":", 1)[1] if ":" in kind else "any player"
        return f"{value} {who} to enter your places or take ships out of your ports"
    if kind == "ransom_answer":
        return "refuse every ransom" if value == 0 else f"pay a ransom of at most {value}"
    if kind == "ransom_demand":
        return f"captives: {value}" if isinstance(value, str) else f"captives: ask a ransom of {value} card(s)"
    if kind.startswith("vote:"):
        return f"vote {value} on motions of kind {kind.split(':', 1)[1]}"
    if kind.split(":", 1)[0] in ("alliance", "offer", "exchange"):
        base, _, who = kind.partition(":")
        what = {"alliance": "alliances", "offer": "offers", "exchange": "negotiated exchanges"}[base]
        return f"{value} {what} proposed by {who or 'any player'}"
    return f"{kind.replace('_', ' ')}: {value}"


def answer(state: State, role: str, legal: list[Action]) -> Action | None:
    """The answer ``role``'s standing orders give to the decision on top, if any and legal."""
    mine = orders_of(state, role)
    if not mine:
        return None
    frame = state["stack"][-1]
    step = frame["step"]
    got: Action | None = None
    if step == "permit":
        v = mine.get(f"permit:{role_of(state, frame['asker'])}", mine.get("permit"))
        got = (v, None) if v else None
    elif step == "ransom":
        v = mine.get("ransom_answer")
        if v is not None:
            got = ("pay", None) if frame["k"] <= v else ("refuse", None)
    elif step == "ransom_pay":
        if frame.get("standing"):
            w = W(state)
            cards = [a for v, a in legal if v == "give_card"]
            cards.sort(key=lambda cid: w.cards[w.cid(cid)].is_noble)  # ruling K70: nobles last
            got = ("give_card", cards[0]) if cards else None
    elif step == "captive":
        v = mine.get("ransom_demand")
        if v is not None:
            nid = W(state).cards[frame["queue"][0]].id
            got = (v, nid) if isinstance(v, str) else ("ransom", [nid, v])
    elif step == "storm_port":
        for port in mine.get("storm_port", ()):
            if ("port", port) in legal:
                return ("port", port)
    elif step == "vote":
        v = mine.get(f"vote:{frame['motion']}")
        got = ("vote", v) if v else None
    elif step == "accept":
        v = mine.get("accept_award")
        got = (v, None) if v else None
    elif step == "pardon":
        v = mine.get("pardon")
        got = (v, None) if v else None
    elif step == "offer":  # ruling K94: alliances and offers answered in advance
        kind = "alliance" if frame["kind"] == "alliance" else "offer"
        v = mine.get(f"{kind}:{role_of(state, frame['from'])}", mine.get(kind))
        got = (v, None) if v else None
    return got if got is not None and got in legal else None


def pending(steps: Any, state: State) -> tuple[str, Action] | None:
    """The first seat asked now whose standing orders answer it, with the answer."""
    if not state.get("standing") or state["result"] is not None or not state["stack"]:
        return None
    frame = state["stack"][-1]
    step = steps.by_name[frame["step"]]
    for role in step.actors(state, frame):
        if role in state["standing"]:
            got = answer(state, role, step.options(state, frame, role))
            if got is not None:
                return role, got
    return None


def apply_standing(steps: Any, state: State) -> None:
    """Play every answer the standing orders give, one decision after another (called after
    each settling: ``KingmakerSteps.settle``, which passes ``settle`` without this step)."""
    for _ in range(MAX_ANSWERS):
        found = pending(steps, state)
        if found is None:
            return
        role, (verb, arg) = found
        text = steps.label(state, role, verb, arg) or plain(state, verb, arg)
        frame = state["stack"][-1]
        step_name = frame["step"]
        kind = STEP_KINDS.get(step_name)
        if step_name in SECRET_STEPS:
            log.public(state, f"{role} answers by standing order.", kind)
            log.private(state, role, f"Your standing order answered: {text}.", kind)
        else:
            log.public(state, f"{role} answers by standing order: {text}.", kind)
        if step_name == "ransom" and verb == "pay":
            frame["standing"] = True  # the cards are then given by the order too (ruling K70)
        mark_reveal(state)  # another seat's answer: undo may not cross it
        steps.by_name[step_name].handle(state, frame, role, verb, arg)
        steps.settle_plain(state)
    raise RuntimeError("standing orders did not come to a decision")


def view_part(state: State, role: str) -> dict[str, Any] | None:
    """``standing_orders`` of ``role``'s view: his own orders and the kinds he may set; the
    umpire sees every seat's orders. None for an observer."""
    if is_player(state, role):
        return {"orders": dict(orders_of(state, role)), "kinds": kinds(state, role)}
    if role == UMPIRE and has_umpire(state):
        return {"by_seat": {r: dict(o) for r, o in state.get("standing", {}).items()}}
    return None


def determinized(state: State, role: str) -> dict[str, Any]:
    """The standing orders a determinisation for ``role`` keeps: his own only."""
    p = player_of_role(state, role)
    mine = state.get("standing", {}).get(role)
    return {role: dict(mine)} if p >= 0 and mine else {}
