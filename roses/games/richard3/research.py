"""Richard III's observation tensor and what the other side cannot see of an action, for the
research adapters (roses.ai); the action catalogue is :func:`roses.games.richard3.ai.action_space`.

Every field is read from the role's view and put from the role's side: "own" is the role's
side, "enemy" the other one (an Observer's vector puts York first). The layout is the same
for every scenario.
"""

from __future__ import annotations

import functools
from array import array
from itertools import compress
from operator import ne
from typing import Any

from roses.engine.contract import Action, View
from roses.engine.tensor import Kept, Layout, TensorCodec, one_hot, positions, zeros
from roses.games.richard3 import data as D

#: Where a block may be: an area, or one of the boxes after the areas (pool, dead...).
N_WHERE = max(D.N_AREAS, D.POOL, D.DEAD, D.OFF, D.PRISON) + 1
#: The view's columns of the own blocks (``view["own"]``), where first.
OWN_COLUMNS = ("where", "steps", "down", "moved", "reserve")
OWN_SCALES = (1.0, 1 / 4, 1.0, 1 / 4, 1.0)
N_OWN = max(len(D.BLOCKS_OF[0]), len(D.BLOCKS_OF[1])) + 1  # a side's blocks and the rebel


def _row(n: int, scale: float, row: tuple[int, ...]) -> array[float]:
    """A row of ``n`` counts (it may be shorter) times ``scale``."""
    out = zeros(n)
    for i in compress(range(min(n, len(row))), row):  # mostly zeros: only the others are set
        out[i] = row[i] * scale                        # (array's own conversion of a whole row takes longer)
    return out


class _BlockBytes(dict[tuple[Any, ...], bytes]):
    """``{(where, steps, down, moved, reserve): the block's numbers as 32-bit float bytes}``,
    made when first asked (a few thousand at most: the values are small)."""

    def __init__(self, per: int) -> None:
        super().__init__()
        self.per = per

    def __missing__(self, key: tuple[Any, ...]) -> bytes:
        where, steps, down, moved, reserve = key
        seg = zeros(self.per)
        if 0 <= where < N_WHERE:
            seg[where] = 1.0
        seg[N_WHERE:] = array("f", (steps / 4, down, moved / 4, reserve, 1.0))
        got = self[key] = seg.tobytes()
        return got


class Richard3Codec(TensorCodec):
    def __init__(self, phases: tuple[str, ...]) -> None:
        lay = Layout()
        self.phases = positions(phases)
        self.o_scalar = lay.add("scalars", 8, "campaign/3, last campaign/3, turn/7, own side is King, own side "
                                "is first player, Royal heir prisoner, own hand size/7, enemy hand size/7")
        self.o_mull = lay.add("mulligan_used", 2, "own, enemy: mulligan taken (5.1)")
        self.o_phase = lay.add("phase", len(phases), "one-hot phase of play: " + ", ".join(p or "(none)" for p in phases))
        self.o_active = lay.add("active", 2, "own, enemy: may act now")
        self.o_hand = lay.add("hand", D.N_CARDS, "own hand, multi-hot by card id")
        self.o_played = lay.add("played", 2 * D.N_CARDS, "own, enemy card played this turn (when shown), one-hot by card id")
        self.o_counts = lay.add("counts", 2 * D.N_AREAS, "own, enemy blocks per area /6 (public counts)")
        self.o_border = lay.add("border_counts", 2 * D.N_BORDERS, "own, enemy blocks that crossed each border this turn /4")
        self.o_battles = lay.add("battles", D.N_AREAS, "areas with a battle to fight, multi-hot")
        self.o_heirs = lay.add("heirs", 10, "where each heir is /N_WHERE (public)")
        per = N_WHERE + 5
        self.per = per
        self.o_own = lay.add("own_blocks", N_OWN * per, f"per own block (view order, {N_OWN} slots): one-hot where "
                             f"({N_WHERE}), steps/4, face down, moved/4, reserve, present")
        self.keys = positions(D.BLOCK_KEY)
        self.o_shown = lay.add("shown", 2 * D.N_BLOCKS, "blocks of the other side revealed now (in battle), by block "
                               "id: present, steps/4")
        self.layout = lay
        self.blank = zeros(lay.size)
        # conversions kept by content (roses.engine.tensor.Kept): rows of counts and the
        # columns of the own blocks mostly repeat from one step to the next
        #: (offset, row length, kept vectors of one side's row) of the counts and the border
        #: counts (a move changes one side's counts: the other's row is found again)
        self.rows: tuple[tuple[int, int, Kept], ...] = (
            (self.o_counts, D.N_AREAS, Kept(functools.partial(_row, D.N_AREAS, 1 / 6))),
            (self.o_border, D.N_BORDERS, Kept(functools.partial(_row, D.N_BORDERS, 1 / 4))))
        self.head_kept = Kept(self._head)
        self.block_bytes = _BlockBytes(per)
        #: per side: the own columns of its last view and their numbers
        self.last_own: dict[str, list[Any]] = {}
        #: per role: its last vector and the parts of the view it was made from (encode)
        self.last: dict[Any, tuple[array[float], tuple[Any, ...], Any]] = {}

    def _head(self, key: tuple[Any, ...]) -> array[float]:
        """The first fields (scalars to active) from their inputs, as :meth:`encode` keys them."""
        out = zeros(self.o_hand)
        o = self.o_scalar
        for k, scale in enumerate((3, 3, 7)):
            out[o + k] = float(key[k] or 0) / scale
        out[o + 3: o + 6] = array("f", key[3:6])
        out[o + 6] = float(key[6]) / 7
        out[o + 7] = float(key[7]) / 7
        out[self.o_mull: self.o_mull + 2] = array("f", key[8:10])
        one_hot(out, self.o_phase, self.phases, key[10])
        out[self.o_active: self.o_active + 2] = array("f", key[11:13])
        return out

    def _own(self, side: str, columns: list[Any]) -> array[float]:
        """The own blocks' field from the view's columns (:data:`OWN_COLUMNS`): kept per side
        with the columns it was made from, and brought up to date column by column (a step
        moves a few blocks: only their place changes); made afresh when the blocks differ."""
        last = self.last_own.get(side)
        n = len(columns[0])
        if last is not None and n <= N_OWN and len(last[1]) == n * self.per and all(map(n.__eq__, map(len, columns))):
            old, seg = last
            if old != columns:
                per = self.per
                where, where0 = columns[0], old[0]
                if where != where0:  # the blocks that moved, found by C calls (a few of them)
                    for i in compress(range(n), map(ne, where, where0)):
                        w, w0 = where[i], where0[i]
                        if 0 <= w0 < N_WHERE:
                            seg[i * per + w0] = 0.0
                        if 0 <= w < N_WHERE:
                            seg[i * per + w] = 1.0
                for j in range(1, len(OWN_COLUMNS)):
                    if columns[j] != old[j]:
                        scale = OWN_SCALES[j]
                        seg[N_WHERE + j - 1::per] = array("f", columns[j] if scale == 1.0 else map(scale.__mul__, columns[j]))
                last[0] = columns  # (the view's own lists, new at each view, which nothing changes)
            return seg
        # each block's numbers depend on its five values only: bytes made once per values
        seg = array("f", b"".join(map(self.block_bytes.__getitem__, zip(*[c[:N_OWN] for c in columns], strict=False))))
        self.last_own[side] = [columns, seg]
        return seg

    def encode(self, view: View) -> array[float]:
        # A role's vector is its last one brought up to date: each field is written again only
        # when its part of the view differs from the one it was made from (parts are compared
        # whole, by C calls), zeroed first. Runs of numbers go in by slice assignment, made
        # once per content and kept (Kept): converting numbers one by one is what an encoder
        # spends its time on. The result is the same as a fresh codec's (tested).
        get = view.get
        role = get("role")
        if role == "Lancaster":
            own, enemy, s_own = "Lancaster", "York", 1
        else:
            own, enemy, s_own = "York", "Lancaster", 0
        sizes = get("hand_size") or {}
        mull = get("mulligan_used") or {}
        active = get("active") or ()
        parts: tuple[Any, ...] = (
            (get("campaign"), get("last_campaign"), get("turn"), get("king") == own, get("p1") == own,
             bool(get("prisoner")), sizes.get(own, 0), sizes.get(enemy, 0), bool(mull.get(own)),
             bool(mull.get(enemy)), get("phase", ""), own in active, enemy in active),
            get("hand"), get("played"), get("counts"), get("border_counts"), get("battles"), get("heirs"),
            get("own"), get("shown"))
        last = self.last.pop(role, None)  # (put back at the end: none is left if encoding fails)
        if last is None:
            out = self.blank[:]
            old: tuple[Any, ...] = (None,) * len(parts)
            old_columns: Any = None
        else:
            out, old, old_columns = last  # (the codec's own vector: brought up to date in place)
        blank = self.blank
        if parts[0] != old[0]:
            out[:self.o_hand] = self.head_kept(parts[0])
        hand = parts[1]
        if hand is not old[1] and hand != old[1]:
            o = self.o_hand
            out[o:o + D.N_CARDS] = blank[o:o + D.N_CARDS]
            for card in hand or ():
                out[o + int(card["id"])] = 1.0
        played = parts[2]
        if played != old[2]:
            o = self.o_played
            out[o:o + 2 * D.N_CARDS] = blank[o:o + 2 * D.N_CARDS]
            if played:
                for k, side in enumerate((own, enemy)):
                    card = played.get(side)
                    if isinstance(card, dict):
                        out[o + k * D.N_CARDS + int(card["id"])] = 1.0
        for (off, n, kept), at in zip(self.rows, (3, 4), strict=True):
            rows: Any = parts[at]
            was: Any = old[at]
            if rows is not was and rows != was:
                if not rows:
                    out[off:off + 2 * n] = blank[off:off + 2 * n]
                    continue
                for k, at_side in enumerate((s_own, 1 - s_own)):  # own row, then the enemy's
                    row = rows[at_side] if at_side < len(rows) else ()
                    if not was or at_side >= len(was) or row != was[at_side]:
                        out[off + k * n:off + (k + 1) * n] = kept(tuple(row))
        battles = parts[5]
        if battles != old[5]:
            o = self.o_battles
            out[o:o + D.N_AREAS] = blank[o:o + D.N_AREAS]
            for battle in battles or ():
                area = battle[0] if isinstance(battle, list) else battle
                if isinstance(area, int) and 0 <= area < D.N_AREAS:
                    out[o + area] = 1.0
        heirs = parts[6]
        if heirs != old[6]:
            o = self.o_heirs
            out[o:o + 10] = blank[o:o + 10]
            heirs = (heirs or [])[:10]
            out[o:o + len(heirs)] = array("f", map(N_WHERE.__rtruediv__, heirs))
        blocks = parts[7]
        columns = [blocks[c] for c in OWN_COLUMNS] if blocks else None
        if columns != old_columns:  # (brought up to date column by column, kept per side: _own)
            o = self.o_own
            if columns:
                seg = self._own(own, columns)
                out[o:o + len(seg)] = seg
                if len(seg) < N_OWN * self.per:
                    out[o + len(seg):self.o_shown] = blank[o + len(seg):self.o_shown]
            else:
                out[o:self.o_shown] = blank[o:self.o_shown]
        shown = parts[8]
        if shown != old[8]:
            o = self.o_shown
            out[o:] = blank[o:]
            for entry in shown or ():
                key = self.keys.get(entry[0]) if isinstance(entry, list) and entry else None
                if key is not None:
                    out[o + 2 * key] = 1.0
                    out[o + 2 * key + 1] = float(entry[3]) / 4
        self.last[role] = (out, parts, columns)
        return out[:]  # a copy is given out (a caller may change it)


def unseen_choices() -> list[list[Action]]:
    """:meth:`Rules.unseen_choices`: what the other side cannot tell apart when a side plays
    it. The mulligan, kept or redealt, until both sides have decided (5.1); the card played
    face down (C2-C5: shown once both are played, but which card of the hand was chosen is a
    draw until then); the block moved by land or sea, recruited, reduced or disbanded in
    supply (blocks stand facing their owner). Everything else is seen: areas, borders,
    battles, the blocks revealed in battle."""
    groups: list[list[Action]] = [[("keep", None), ("redeal", None)], [("play", c) for c in range(D.N_CARDS)]]
    groups += [[(verb, key) for key in D.BLOCK_KEY] for verb in ("block", "sea", "recruit", "reduce", "disband")]
    return groups


@functools.cache
def _codec(phases: tuple[str, ...]) -> Richard3Codec:
    return Richard3Codec(phases)


def tensor_codec(phases: tuple[str, ...]) -> Richard3Codec:
    return _codec(phases)


__all__ = ["Richard3Codec", "tensor_codec", "unseen_choices"]
