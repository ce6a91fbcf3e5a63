"""The seeded random generator that lives inside a game state.

All randomness of a game comes from here, so the same seed and the same actions give the
same state, byte for byte. The generator is SplitMix64: one 64-bit integer of state, kept in
``state["rng"]``; every draw advances it. Tests may *rig* dice: values put in
``state["rigged"]`` are returned by :func:`roll` first, in order, before the generator is used.
A rigged value still counts as a die roll for undo purposes (see :mod:`roses.engine.game`).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any, Final, TypeVar

MASK64: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
T = TypeVar("T")

State = dict[str, Any]


def seed_state(state: State, seed: int) -> None:
    """Store a fresh generator seeded with ``seed`` in ``state``."""
    state["rng"] = seed & MASK64
    state["rolls"] = 0
    state["rigged"] = []


def next_u64(state: State) -> int:
    x = (state["rng"] + _GAMMA) & MASK64
    state["rng"] = x
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def randbelow(state: State, n: int) -> int:
    """A uniform integer in ``range(n)`` (n >= 1)."""
    if n <= 0:
        raise ValueError("randbelow needs n >= 1")
    # Rejection sampling keeps the draw exactly uniform.
    limit = MASK64 - (MASK64 + 1) % n
    while True:
        v = next_u64(state)
        if v <= limit:
            return v % n


def roll(state: State, sides: int = 6) -> int:
    """Roll one die (1..sides). Rigged values are used first."""
    state["rolls"] = state.get("rolls", 0) + 1
    rigged = state.get("rigged")
    if rigged:
        return int(rigged.pop(0))
    return randbelow(state, sides) + 1


def shuffle(state: State, items: MutableSequence[T]) -> None:
    """Fisher-Yates shuffle in place: for i from the end down to 1, swap item i with item
    :func:`randbelow` (i + 1). The generator is run inline here (the same draws, the same
    rejections, the same final ``state["rng"]``), since decks are shuffled often."""
    state["rolls"] = state.get("rolls", 0) + 1
    x = state["rng"]
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = MASK64 - (MASK64 + 1) % n
        while True:  # next_u64, inline
            x = (x + _GAMMA) & MASK64
            v = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            v = ((v ^ (v >> 27)) * 0x94D049BB133111EB) & MASK64
            v ^= v >> 31
            if v <= limit:
                break
        j = v % n
        items[i], items[j] = items[j], items[i]
    state["rng"] = x


def rig(state: State, values: list[int]) -> None:
    """Make the next die rolls return ``values`` (for tests and scripted scenarios)."""
    state.setdefault("rigged", []).extend(int(v) for v in values)
