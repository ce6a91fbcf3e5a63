"""Richard III's observation tensor for the research adapters (roses.ai); the action
catalogue is :func:`roses.games.richard3.ai.action_space`.

Every field is read from the role's view and put from the role's side: "own" is the role's
side, "enemy" the other one (an Observer's vector puts York first). The layout is the same
for every scenario.
"""

from __future__ import annotations

import functools
from array import array

from roses.engine.contract import View
from roses.engine.tensor import Kept, Layout, TensorCodec, one_hot, positions, scaled, zeros
from roses.games.richard3 import data as D

#: Where a block may be: an area, or one of the boxes after the areas (pool, dead...).
N_WHERE = max(D.N_AREAS, D.POOL, D.DEAD, D.OFF, D.PRISON) + 1
N_OWN = max(len(D.BLOCKS_OF[0]), len(D.BLOCKS_OF[1])) + 1  # a side's blocks and the rebel


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
        self.rows = (("counts", self.o_counts, D.N_AREAS, scaled(1 / 6)),
                     ("border_counts", self.o_border, D.N_BORDERS, scaled(1 / 4)))
        self.where_kept = Kept(self._where)
        self.column_kept = (scaled(1 / 4), scaled(1), scaled(1 / 4), scaled(1))

    def _where(self, where: tuple[int, ...]) -> array[float]:
        """The own blocks' part for the blocks at ``where``: one-hot place, present."""
        per = self.per
        seg = zeros(len(where) * per)
        for i, w in enumerate(where):
            if 0 <= w < N_WHERE:
                seg[i * per + w] = 1.0
            seg[i * per + N_WHERE + 4] = 1.0
        return seg

    def encode(self, view: View) -> array[float]:
        # Runs of numbers go in by slice assignment from C iterators (``map`` of a bound
        # float method), a block column by one extended slice: no Python frame per number.
        out = self.blank[:]
        role = view.get("role")
        own = role if role in D.ROLES else D.ROLES[0]
        enemy = D.ROLES[1] if own == D.ROLES[0] else D.ROLES[0]
        s_own = D.ROLES.index(own)
        order = (s_own, 1 - s_own)
        sizes = view.get("hand_size") or {}
        o = self.o_scalar
        out[o] = float(view.get("campaign") or 0) / 3
        out[o + 1] = float(view.get("last_campaign") or 0) / 3
        out[o + 2] = float(view.get("turn") or 0) / 7
        out[o + 3] = float(view.get("king") == own)
        out[o + 4] = float(view.get("p1") == own)
        out[o + 5] = float(bool(view.get("prisoner")))
        out[o + 6] = float(sizes.get(own, 0)) / 7
        out[o + 7] = float(sizes.get(enemy, 0)) / 7
        mull = view.get("mulligan_used") or {}
        out[self.o_mull] = float(bool(mull.get(own)))
        out[self.o_mull + 1] = float(bool(mull.get(enemy)))
        one_hot(out, self.o_phase, self.phases, view.get("phase", ""))
        active = view.get("active") or []
        out[self.o_active] = float(own in active)
        out[self.o_active + 1] = float(enemy in active)
        for card in view.get("hand") or []:
            out[self.o_hand + int(card["id"])] = 1.0
        played = view.get("played") or {}
        for k, side in enumerate((own, enemy)):
            card = played.get(side)
            if isinstance(card, dict):
                out[self.o_played + k * D.N_CARDS + int(card["id"])] = 1.0
        for name, off, n, kept in self.rows:
            rows = view.get(name) or []
            for k, s in enumerate(order):
                if s < len(rows):
                    row = tuple(rows[s][:n])
                    out[off + k * n: off + k * n + len(row)] = kept(row)
        for battle in view.get("battles") or []:
            area = battle[0] if isinstance(battle, list) else battle
            if isinstance(area, int) and 0 <= area < D.N_AREAS:
                out[self.o_battles + area] = 1.0
        heirs = (view.get("heirs") or [])[:10]
        out[self.o_heirs: self.o_heirs + len(heirs)] = array("f", map(N_WHERE.__rtruediv__, heirs))
        blocks = view.get("own") or {}
        if blocks:
            where = tuple(blocks["where"][:N_OWN])
            columns = [tuple(blocks[c]) for c in ("steps", "down", "moved", "reserve")]
            n = min(len(where), *map(len, columns))
            seg = self.where_kept(where[:n])[:]
            per = self.per
            for j, (column, kept) in enumerate(zip(columns, self.column_kept, strict=True)):
                seg[N_WHERE + j::per] = kept(column[:n])
            out[self.o_own:self.o_own + len(seg)] = seg
        for entry in view.get("shown") or []:
            key = self.keys.get(entry[0]) if isinstance(entry, list) and entry else None
            if key is not None:
                out[self.o_shown + 2 * key] = 1.0
                out[self.o_shown + 2 * key + 1] = float(entry[3]) / 4
        return out


@functools.cache
def _codec(phases: tuple[str, ...]) -> Richard3Codec:
    return Richard3Codec(phases)


def tensor_codec(phases: tuple[str, ...]) -> Richard3Codec:
    return _codec(phases)


__all__ = ["Richard3Codec", "tensor_codec"]
