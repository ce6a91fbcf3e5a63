"""Kingmaker setup (campaign rules §Setup): options, the deal, arranging the factions, the
heirs' and nobles' starting places, the ships, the first player.

Verbs of the setup steps (arguments are card, noble, place and ship ids):
    ``give`` [card, noble]   arrange: award a title, office, bishop, mercenary, town or ship
                             card of the hand to a noble (§Preparing to Play)
    ``asset`` card           arrange: keep a town or ship card as a faction asset (§Preparing to Play)
    ``done``                 arrange: finished (surplus titles and offices go to Chancery)
    ``place`` [noble, place] choose a noble's starting castle among those on his cards (§Setting out Counters)
"""

from __future__ import annotations

from typing import Any, cast

from roses.engine import log, rng
from roses.engine.contract import Action, State, copy_json
from roses.engine.errors import BadOptions
from roses.engine.steps import Frame, pop, push
from roses.games.kingmaker import cards as K
from roses.games.kingmaker import ops
from roses.games.kingmaker.board import BoardError, board_from_data, board_key
from roses.games.kingmaker.common import (
    E_DECK,
    E_REMOVED,
    LEVEL_OF,
    Z_ASIDE,
    Z_ASSET,
    Z_AWARD,
    Z_CHANC,
    Z_DECK,
    Z_HAND,
    Z_NOBLE,
    Z_REMOVED,
    W,
    World,
    card_name,
    faction_nobles,
    noble_strength,
    owner_of_card,
    player_of_role,
    role_of,
    uploaded_world,
    world,
)
from roses.games.kingmaker.ops import place_active
from roses.games.kingmaker.queries import (
    award_targets,
    card_reason,
    hand,
    tolerant,
)
from roses.games.kingmaker.state import KingmakerState
from roses.games.kingmaker.wording import Labelled

SCENARIO = "campaign"

#: The schema's mark of an option given as an uploaded file (its ``contentMediaType`` says
#: which kind): a generic client offers a file field and sends the parsed JSON object.
UPLOAD = "roses-upload"

OPTIONS_SCHEMA: dict[str, Any] = {
    "players": {"type": "int", "default": 4, "min": 2, "max": 8,
                "label": "Number of players (2 to 8)"},
    "rules": {"type": "choice", "default": "basic", "choices": ["basic", "e1", "e2"],
              "label": "Rules: basic, basic + first expansion (E1), or + second expansion (E2)"},
    "rounds": {"type": "int", "default": 30, "min": 0, "max": 1000,
               "label": "Round limit: the campaign ends undecided after this many rounds (0: no limit)"},
    "umpire": {"type": "bool", "default": False,
               "label": "An umpire's seat: he sees every hand and the Chancery, publishes rulings and may end the campaign"},
    "tabletop": {"type": "bool", "default": False,
                 "label": "With an umpire: before each combat he decides whether it is fought on a table, and enters its result"},
    "event_deck": {"type": "object", "default": None, "format": UPLOAD, "contentMediaType": "application/json",
                   "label": "An Event deck file in the roses-kingmaker-events/1 format (default: the open deck)"},
    "board": {"type": "object", "default": None, "format": UPLOAD, "contentMediaType": "application/json",
              "label": "A board file in the roses-kingmaker-board format of docs/kingmaker/board.md "
                       "(default: the open board); checked as `roses kingmaker check-board` does"},
}

#: Cards dealt by player count (§Preparing to Play): 36 for 2-6 players, 35 for 7, 40 for 8.
def deal_size(players: int) -> int:
    return 35 if players == 7 else 40 if players == 8 else 36


def role_names(players: int) -> list[str]:
    return [f"P{i + 1}" for i in range(players)]


def normalise_options(options: dict[str, Any] | None) -> dict[str, Any]:
    opts: dict[str, Any] = {k: v["default"] for k, v in OPTIONS_SCHEMA.items()}
    for k, v in (options or {}).items():
        if k == "board":
            if v is not None and not isinstance(v, (str, dict)):
                raise BadOptions("Option 'board' must be a board (a JSON object) or a board file's path.")
            opts[k] = v
            continue
        if k not in OPTIONS_SCHEMA:
            raise BadOptions(f"Kingmaker has no option {k!r}.")
        spec = OPTIONS_SCHEMA[k]
        if spec["type"] == "int":
            if isinstance(v, bool) or not isinstance(v, int) and not (isinstance(v, str) and v.isdigit()):
                raise BadOptions(f"Option {k!r} must be a whole number.")
            v = int(v)
            if not spec["min"] <= v <= spec["max"]:
                raise BadOptions(f"Option {k!r} must be from {spec['min']} to {spec['max']}.")
        elif spec["type"] == "choice":
            if v not in spec["choices"]:
                raise BadOptions(f"Option {k!r} must be one of {', '.join(spec['choices'])}.")
        elif spec["type"] == "bool" and not isinstance(v, bool):
            raise BadOptions(f"Option {k!r} must be true or false.")
        elif spec["type"] == "object" and v is not None and not isinstance(v, dict):
            raise BadOptions(f"Option {k!r} must be a JSON object.")
        opts[k] = v
    if opts["tabletop"] and not opts["umpire"]:
        raise BadOptions("Option 'tabletop' needs an umpire (option 'umpire').")
    return opts


# ----------------------------------------------------------------------------- the new state
class BadBoard(BadOptions, BoardError):
    """The option ``board`` is not a valid board: ``faults`` lists every problem (a ValueError
    as well as BadOptions, so the caller may show the list)."""


def option_summary(options: dict[str, Any] | None) -> list[str]:
    """The options in words (KingmakerRules.option_summary): "Board: <its name>" first."""
    try:
        opts = normalise_options(options)
        _, _, w = load_board_option(opts["board"])
        board = w.board.name
    except BadOptions:
        return ["Board: not a valid board"]
    deck = opts["event_deck"]
    cards = len(deck.get("cards", ())) if isinstance(deck, dict) else 0
    level = {"basic": "basic rules", "e1": "basic rules and the first expansion",
             "e2": "basic rules and both expansions"}[opts["rules"]]
    return [f"Board: {board}",
            f"Event deck: {'their own (' + str(cards) + ' cards)' if deck else 'the open deck'}",
            f"{opts['players']} players, {level}" + (", round limit " + str(opts["rounds"]) if opts["rounds"] else ""),
            *(["An umpire" + (", combats fought on a table" if opts["tabletop"] else "")] if opts["umpire"] else [])]


def load_board_option(option: Any) -> tuple[str | None, dict[str, Any] | None, World]:
    """The option ``board`` as (key, data, world): the open board is ``(None, None, ...)``; a
    board file's path is ``(path, None, ...)`` (the file is read again when the state is
    loaded: local games and tests); a board given as a JSON object (uploaded) is checked as
    ``roses kingmaker check-board --no-rulebook --no-cards`` checks a file (ruling K92) and
    kept in the state, keyed by its hash."""
    if option is None or option == "":
        return None, None, world(None)
    if isinstance(option, str):
        try:
            return option, None, world(option)
        except BoardError as exc:
            raise BadBoard(exc.faults, "Board") from exc
        except OSError as exc:
            raise BadOptions(f"Board: cannot read {option!r} ({exc.strerror}).") from exc
    try:
        board_from_data(option, source="Board")
    except BoardError as exc:
        raise BadBoard(exc.faults, "Board") from exc
    data = copy_json(option)
    key = board_key(data)
    return key, data, uploaded_world(key, data)


def new_state(seed: int, options: dict[str, Any] | None) -> State:
    opts = normalise_options(options)
    try:
        deck_key, deck_data = K.load_deck_option(opts["event_deck"])
    except (OSError, ValueError) as exc:
        raise BadOptions(f"Event deck: {exc}") from exc
    board_key, board_data, w = load_board_option(opts["board"])
    n = int(opts["players"])
    lv = LEVEL_OF[opts["rules"]]
    deck = K.deck_for(deck_key, deck_data)
    nc = len(w.cards)
    ne = len(deck.cards)
    nh = len(w.heirs)
    record: KingmakerState = {  # every key is explained in state.py
        "roles": role_names(n), "log": [], "result": None, "end": None, "stack": [], "rng": 0, "rolls": 0, "rigged": [],
        "opts": {**{k: v for k, v in opts.items() if k != "event_deck"}, "board": board_key},
        "level": lv, "board": board_key, "board_data": board_data, "deck_key": deck_key, "deck_data": deck_data,
        "round": 0, "tno": 0, "rstart": 0, "order": list(range(n)), "turn": 0,
        "cz": [Z_REMOVED] * nc, "ch": [-1] * nc, "cdeck": [], "cdisc": [], "chancery": [],
        "ez": [E_REMOVED] * ne, "eh": [-1] * ne, "edeck": [], "edisc": [],
        "nsq": [None] * nc, "nin": [None] * nc, "nship": [-1] * nc, "ncap": [-1] * nc,
        "nmv": [-1] * nc, "nact": [-1] * nc, "nvac": [-1] * nc,
        "hsq": [None] * nh, "hin": [None] * nh, "hship": [-1] * nh, "hesc": [-1] * nh,
        "hdead": [False] * nh, "hcrown": [False] * nh, "beaufort_crowned": False, "supported": None,
        "spos": [None] * len(w.ships), "sctl": [-1] * len(w.ships), "smv": [-1] * len(w.ships),
        "pown": {}, "siege": {}, "ally": [[0] * n for _ in range(n)],
        "catastrophe": 0, "both_since": [-1] * n, "refuges": [], "peace": [],
        "new_awards": [], "defended": [], "obliged": [], "guests": {}, "nfo": [-1] * nc,
        "treaty": -1, "scots_tried": False, "booty": {}, "tdisc": [], "freed": [],
        "excommunicated": [], "defeatism": {}, "rogue": None, "lent": {}, "truce": [], "sfought": [], "sail_leave": [], "sail_denied": [], "raiders": [], "fresh": [], "traded": [], "blockades": {}, "command": {},
    }
    state: State = cast(State, record)
    rng.seed_state(state, seed)
    if board_key is not None:
        log.public(state, f"The campaign is played on the board {w.board.name}.", log.SETUP)
    # Event deck (§Preparing to Play): the cards of the rules level in play, shuffled.
    for e, card in enumerate(deck.cards):
        if LEVEL_OF[card.level] <= lv and not (card.dublin and lv < 2):
            state["ez"][e] = E_DECK
            state["edeck"].append(e)
    rng.shuffle(state, state["edeck"])
    _deal(state, w, n, lv)
    return state


def _deal(state: State, w: World, n: int, lv: int) -> None:
    """§Preparing to Play: set aside the Plantagenets, French Aid, the Pardons (and E1/E2 mercenaries),
    deal, redraw for a player without a noble, put the set-aside cards back (ruling K5: the
    Plantagenets stay aside) and reshuffle."""
    cz, ch = state["cz"], state["ch"]
    aside: list[int] = []
    deck: list[int] = []
    for c, card in enumerate(w.cards):
        if LEVEL_OF[card.level] > lv:
            cz[c] = Z_REMOVED
            continue
        if card.kind in (K.PLANTAGENET, K.FRENCH_AID, K.PARDON) or card.lies_in:
            aside.append(c)
            cz[c] = Z_ASIDE
        else:
            deck.append(c)
            cz[c] = Z_DECK
    rng.shuffle(state, deck)
    size = deal_size(n)
    each = size // n  # ruling K1: an uneven remainder stays in the deck (5 players: 7 each)
    hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(each * n):
        c = deck.pop()
        hands[i % n].append(c)
    for p in range(n):
        drawn_back: list[int] = []
        while not any(w.cards[c].is_noble for c in hands[p]) and deck:
            c = deck.pop()
            if w.cards[c].is_noble:
                hands[p].append(c)
            else:
                drawn_back.append(c)
        deck.extend(drawn_back)
        for c in hands[p]:
            # §Preparing to Play: nobles are placed face up at once; the rest is arranged (Arrange).
            cz[c], ch[c] = (Z_NOBLE if w.cards[c].is_noble else Z_HAND), p
    for c in aside:
        if w.cards[c].kind != K.PLANTAGENET:
            deck.append(c)
            cz[c] = Z_DECK
    rng.shuffle(state, deck)
    state["cdeck"] = deck
    log.public(state, f"The Crown deck is dealt: {each} cards to each of {n} players.", log.SETUP)
    for p in range(n):
        names = ", ".join(card_name(w, c) for c in hands[p])
        log.private(state, role_of(state, p), f"You are dealt: {names}.", log.CARD)


# ------------------------------------------------------------------------------ arranging


def arrange_options(state: State, p: int) -> list[Action]:
    w = W(state)
    out: list[Action] = []
    for c in hand(state, p):
        card = w.cards[c]
        if card.is_noble:
            continue
        for n in award_targets(state, p, c, setup=True):
            out.append(("give", [card.id, w.cards[n].id]))
        if card.kind in (K.TOWN, K.SHIP, K.ROYAL_CASTLE):
            out.append(("asset", card.id))
    if _arranged(state, p):
        out.append(("done", None))
    return out


def _arranged(state: State, p: int) -> bool:
    """§Preparing to Play: every title that can go to an untitled noble, every office that can go to a
    titled one, and every bishop, mercenary, town and ship card is placed."""
    w = W(state)
    for c in hand(state, p):
        card = w.cards[c]
        if card.is_noble:
            continue
        if card.kind in (K.TITLE, K.OFFICE):
            if award_targets(state, p, c, setup=True):
                return False
        else:
            return False
    return True


class Arrange(Labelled):
    """Every player arranges his dealt cards at once (§Preparing to Play); the placements are public,
    what goes to Chancery is not."""

    name = "arrange"
    phase = "setup"
    rule = "§Preparing to Play"
    labels = {"give": "award {} to {}", "asset": "keep {} as a faction asset", "done": "done"}

    # ----- why an order is refused (§Preparing to Play)
    def why_not_done(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return ("every title that can go to an untitled noble, every office that can go to a titled one, and "
                "every bishop, mercenary, town and ship card must be placed first (§Preparing to Play)")

    @tolerant
    def why_not_give(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return card_reason(state, player_of_role(state, role), "give", arg, setup=True)

    @tolerant
    def why_not_assign(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return card_reason(state, player_of_role(state, role), "assign", arg, setup=True)

    @tolerant
    def why_not_asset(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return card_reason(state, player_of_role(state, role), "asset", arg, setup=True)

    @tolerant
    def why_not_play(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return card_reason(state, player_of_role(state, role), "play", arg, setup=True)

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, p) for p, d in enumerate(frame["done"]) if not d]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return arrange_options(state, player_of_role(state, role))

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        p = player_of_role(state, role)
        if p >= 0 and not frame["done"][p]:
            return ("Arrange your faction: titles to untitled nobles, offices to titled nobles, "
                    "bishops and mercenaries to nobles, towns and ships to the faction or a noble.")
        return "The players arrange their factions."

    def on_give(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        c, n = w.cid(arg[0]), w.cid(arg[1])
        state["cz"][c], state["ch"][c] = Z_AWARD, n
        log.public(state, f"{role} awards {card_name(w, c)} to {card_name(w, n)}.", log.SETUP)

    def on_asset(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        c = w.cid(arg)
        p = player_of_role(state, role)
        state["cz"][c], state["ch"][c] = Z_ASSET, p
        log.public(state, f"{role} keeps {card_name(w, c)} as a faction asset.", log.SETUP)

    def on_done(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        p = player_of_role(state, role)
        left = [c for c in hand(state, p) if not w.cards[c].is_noble]
        for c in left:
            state["cz"][c], state["ch"][c] = Z_CHANC, -1
            state["chancery"].append(c)
        if left:
            log.public(state, f"{role} places {len(left)} card(s) in Chancery.", log.SETUP)
        frame["done"][p] = True
        if all(frame["done"]):
            pop(state)
            finish_setup(state)


# ---------------------------------------------------------------------- counters on the board
def start_places(state: State, n: int) -> list[str]:
    """The castles on noble ``n``'s own, title and office cards (§Setting out Counters) present on this board."""
    w = W(state)
    out: list[str] = []
    for c in [n, *[a for a in range(len(state["cz"])) if state["cz"][a] == Z_AWARD and state["ch"][a] == n]]:
        card = w.cards[c]
        if c == n or card.kind in (K.TITLE, K.OFFICE):
            for p in card.castles:
                if place_active(state, p) and p not in out:
                    out.append(p)
    return out


def finish_setup(state: State) -> None:
    """After the arrangement: ships, heirs, then the nobles' starting castles."""
    w = W(state)
    for c, card in enumerate(w.cards):
        if state["cz"][c] in (Z_ASSET, Z_AWARD) and card.kind == K.SHIP:
            ops.ship_to_port(state, w.ship_of_card[c])
        if state["cz"][c] == Z_AWARD and card.kind == K.OFFICE:
            for s in w.office_ships.get(c, ()):
                ops.ship_to_port(state, s)
    place_heirs(state)
    pending = []
    for n in w.nobles:
        if state["cz"][n] != Z_NOBLE:
            continue
        opts = start_places(state, n)
        if len(opts) == 1:
            ops.put_noble(state, n, w.board.places[opts[0]].square, opts[0])
        elif not opts:
            ops.enter_play(state, n)
        else:
            pending.append(n)
    if pending:
        push(state, {"step": "place", "todo": pending})
    else:
        begin_play(state)


def place_heirs(state: State) -> None:
    """§Setting out Counters: each heir's place by 1d6 (E2: an Edmund rolled to Ireland starts in Dublin;
    without E2 Dublin is no place and he stands in the open of its square)."""
    w = W(state)
    for h, heir in enumerate(w.heirs):
        r = rng.roll(state, 6)
        place = next(p for lo, hi, p in heir.start if lo <= r <= hi)
        sq = w.square_of(place)
        if sq is None:
            state["hdead"][h] = True
            log.public(state, f"{heir.name} has no place {place!r} on this board and is out of ops.", log.SETUP)
            continue
        state["hsq"][h] = sq
        state["hin"][h] = place if place_active(state, place) else None
        log.public(state, f"{heir.name} (d6 {r}) starts at {w.board.places[place].name}.", log.SETUP)
    henry = w.heir_codec.id("henry_vi")
    state["hcrown"][henry] = True  # §Victory Conditions: Henry VI is King at the start


class PlaceNobles(Labelled):
    """Each player puts his nobles in one of the castles on their cards (§Setting out Counters)."""

    name = "place"
    phase = "setup"
    labels = {"place": "{} starts at {}"}

    def actors(self, state: State, frame: Frame) -> list[str]:
        players = sorted({state["ch"][n] for n in frame["todo"]})
        return [role_of(state, p) for p in players]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        w = W(state)
        p = player_of_role(state, role)
        return [("place", [w.cards[n].id, pl]) for n in frame["todo"] if state["ch"][n] == p
                for pl in start_places(state, n)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Choose the starting castle of each of your nobles."

    def on_place(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        n = w.cid(arg[0])
        ops.put_noble(state, n, w.board.places[arg[1]].square, arg[1])
        log.public(state, f"{card_name(w, n)} starts in {w.board.places[arg[1]].name}.", log.SETUP)
        frame["todo"].remove(n)
        if not frame["todo"]:
            pop(state)
            begin_play(state)


def first_player(state: State) -> int:
    """§Sequence of Play: the Chancellor's player; else the senior bishop's; else the most troops
    (ties: the lower seat)."""
    w = W(state)
    for c in (w.chancellor, *w.bishops_senior):
        o = owner_of_card(state, c)
        if o >= 0 and state["cz"][c] == Z_AWARD:
            return o
    troops = [sum(noble_strength(state, n) for n in faction_nobles(state, p)) for p in range(len(state["roles"]))]
    return max(range(len(troops)), key=lambda p: (troops[p], -p))


def begin_play(state: State) -> None:
    n = len(state["roles"])
    first = first_player(state)
    state["order"] = [(first + i) % n for i in range(n)]  # ruling K33: seat order from the first
    state["round"] = 1
    state["turn"] = 0
    log.public(state, f"{role_of(state, first)} plays first; then "
               + ", ".join(role_of(state, p) for p in state["order"][1:]) + ".", log.SETUP)
    push(state, {"step": "turn", "stage": 0})

