"""Reading aids a view carries for a person choosing from a list (the terminal game, e-mail):
what each verb on offer does (``verb_help``) and what stands on each square a move offers
(``option_notes``). Both are public facts or the role's own options; a client shows them beside
the labels (``roses/terminal.py`` prints a verb's help the first time the verb is offered and a
note after its option's label).
"""

from __future__ import annotations

from typing import Any

from roses.engine.contract import State, canonical_json
from roses.games.kingmaker import memo
from roses.games.kingmaker.common import Z_NOBLE, W, card_name, place_owner, role_of
from roses.games.kingmaker.ops import place_active

#: One line for each verb a player may be offered: what choosing it does (the rules' section).
VERB_HELP: dict[str, str] = {
    "give": "award a title, office, bishop, mercenary, town or ship card of your hand to a noble (§Preparing to Play)",
    "asset": "keep a town or ship card as an asset of your faction, held by no noble (§Preparing to Play)",
    "done": "finish this part: the cards left go where the rules send them",
    "place": "put a noble in one of the castles printed on his cards (§Setting out Counters)",
    "select": "choose a noble (or his group) to move; then choose squares one by one, or back (§Noble Counters)",
    "sail": "choose a ship to sail; then choose sea squares or a port (§Sea Transportation)",
    "to": "move the chosen noble or ship one square (or into a place or port)",
    "back": "stop choosing and return to the list before",
    "enter": "take a noble of yours from the open into a town, city or castle on his square; "
             "another player's place asks its owner's leave (§Town, Cities, and Castles)",
    "leave": "take a noble out of the place he is in, into the open of the same square",
    "embark": "put a noble aboard a ship in the port where he stands (§Sea Transportation)",
    "escort": "hand a royal heir to another of your nobles beside him",
    "deal": "open the dealing menu: offer cards, lend ships, transfer awards, heirs or places, "
            "propose or end alliances; the other player accepts or declines (§Transfers, §Alliances)",
    "end": "end this phase of your turn and go on to the next",
    "pass": "do nothing now",
    "battle": "attack another faction's nobles in the open of a square (§Combat Phase)",
    "ambush": "attack as an ambush (§Combat Phase)",
    "siege": "besiege a place: fight its garrison and the nobles inside (§Siege)",
    "storm": "storm a besieged place (§Siege)",
    "announce": "announce a siege, resolved in your next turn (§Siege)",
    "town_fight": "fight inside a town you entered (§Town, Cities, and Castles)",
    "town_attack": "attack the nobles inside a town (§Town, Cities, and Castles)",
    "sea_battle": "attack ships at sea (E1 §Sea Battles)",
    "blockade": "blockade a port with a ship (E1)",
    "fight": "fight the combat now: an Event card decides it (§Combat Phase)",
    "drop": "leave a noble out of the combat",
    "call_off": "call the attack off before the card is drawn (§Town Acquisition)",
    "allow": "let the asking player's noble enter your place, or his ship leave your port",
    "deny": "refuse the request (the published default)",
    "accept": "agree to what is offered",
    "decline": "refuse what is offered",
    "pay": "pay the ransom asked and free your noble (§Capture of Noble Counters)",
    "refuse": "refuse the ransom: your noble is executed (§Capture of Noble Counters)",
    "ransom": "ask (or, when answering, offer instead) a number of cards of the owner's hand for a captive",
    "ransom_draws": "ask (or offer instead) the owner's next Crown draws for a captive (E1 §Booty)",
    "ransom_draws_held": "ask the owner's next Crown draws, keeping the captive until they are taken (E1 §Booty)",
    "execute": "execute the captive (§Capture of Noble Counters)",
    "release": "set the captive free for nothing, or let a noble leave his commander",
    "give_card": "hand over this card",
    "give_back": "give this card back in the trade",
    "assign": "award a card of your hand to a noble, or keep a town or ship as a faction asset",
    "play": "bring a noble card of your hand into play at his castle (§Crown Deck Phase)",
    "crown": "crown the royal heir (§Coronation Phase)",
    "execute_heir": "execute a royal heir you hold",
    "free_move": "play a Free Move card: the noble or ship may move again (§Chance Phase)",
    "offer_card": "offer a card of your hand to another player, as a gift or in trade for a card of his",
    "lend_ship": "lend a ship of yours to another player (§Transfers)",
    "recall": "take back a ship you lent",
    "transfer": "give an award (town, ship, mercenary) to a noble beside its holder (§Transfers)",
    "give_heir": "hand a royal heir to another faction's noble beside him",
    "give_place": "give a place you hold to another player whose noble is there",
    "ally": "propose an alliance (public; §Alliances)",
    "end_alliance": "end an alliance: one round of peace follows (§Alliances)",
    "command": "ask that an ally's noble beside yours serve under your noble's command (§Alliances)",
    "vote": "cast your vote on the motion (§Voting on Cards Distributed)",
    "summon": "summon Parliament (§Calling Parliament)",
    "meet": "choose where Parliament meets",
    "writ": "send a Writ of summons to a noble (§Chance Phase)",
    "propose": "propose a card for a noble in Parliament (§Voting on Cards Distributed)",
    "attend": "send a noble to Parliament",
    "pardon": "play your King's Pardon: the noble is saved (§Crown Card Key)",
    "port": "choose the port the storm drives your ship into",
    "scuttle": "scuttle a ship (E1 §Sea Battles)",
    "home": "send a noble home free after Parliament (§Ending Parliament)",
    "undo": "take back your last choice",
}


def verb_help(actions: dict[str, Any]) -> dict[str, str]:
    """The help of each verb among ``actions`` (a view's options), in the options' order."""
    return {v: VERB_HELP[v] for v in actions if v in VERB_HELP}


def _occupants(state: State) -> dict[str, list[str]]:
    """What every player sees on each square: nobles (with their faction, inside a place or in
    the open), royal heirs standing alone, and the places with who holds or besieges them."""
    w = W(state)
    out: dict[str, list[str]] = {}
    for n in w.nobles:
        sq = state["nsq"][n]
        if sq is None or state["cz"][n] != Z_NOBLE:
            continue
        inside = state["nin"][n]
        where = f" in {w.board.places[inside].name}" if inside in w.board.places else ""
        captive = " (captive)" if state["ncap"][n] >= 0 else ""
        out.setdefault(sq, []).append(f"{card_name(w, n)} of {role_of(state, state['ch'][n])}{where}{captive}")
    for h, heir in enumerate(w.heirs):
        sq = state["hsq"][h]
        if sq is not None and not state["hdead"][h] and state["hesc"][h] < 0:
            inside = state["hin"][h]
            where = f" in {w.board.places[inside].name}" if inside in w.board.places else " in the open"
            out.setdefault(sq, []).append(f"{heir.name} (alone{where})")
    for pid, pl in w.board.places.items():
        if not place_active(state, pid):
            continue
        o = place_owner(state, pid)
        held = f"{pl.name} (held by {role_of(state, o)})" if o >= 0 else f"{pl.name} (neutral)"
        if pid in state["siege"]:
            held = held[:-1] + f", besieged by {role_of(state, state['siege'][pid])})"
        out.setdefault(pl.square, []).append(held)
    return out


def option_notes(state: State, actions: dict[str, Any]) -> dict[str, dict[str, str]]:
    """What stands on each square or place a move offers (``{"to": {json of the square: text}}``;
    squares with nothing on them have no note)."""
    dests = actions.get("to")
    if not isinstance(dests, list):
        return {}
    occ = memo.memoised(state, "occupants", lambda: _occupants(state))
    w = W(state)
    notes: dict[str, str] = {}
    for d in dests:
        sq = w.board.places[d].square if isinstance(d, str) and d in w.board.places else d
        there = occ.get(sq) if isinstance(sq, str) else None
        if there:
            notes[canonical_json(d)] = "; ".join(there)
    return {"to": notes} if notes else {}
