"""The seeded random generator that lives inside a game state.

All randomness of a game comes from here, so the same seed and the same actions give the
same state, byte for byte. The generator is SplitMix64: one 64-bit integer of state, kept in
``state["rng"]``; every draw advances it. Tests may *rig* dice: values put in
``state["rigged"]`` are returned by :func:`roll` first, in order, before the generator is used.
A rigged value still counts as a die roll for undo purposes (see :mod:`roses.engine.game`).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from types import FunctionType
from typing import Any, Final, TypeVar

try:
    from mypy_extensions import i64
except ImportError:  # no mypy installed: i64 matters only to mypyc (tools/compile.py)
    i64 = int  # type: ignore[misc]

MASK64: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_MUL1: Final = 0xBF58476D1CE4E5B9
_MUL2: Final = 0x94D049BB133111EB
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
    rejections, the same final ``state["rng"]``), since decks are shuffled often. Compiled
    (mypyc), the 64-bit numbers are worked as 32-bit words (:func:`shuffle_words`)."""
    if _WORDS and len(items) <= _WORDS_MAX:
        shuffle_words(state, items)
        return
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


# ----- The same shuffle in 32-bit words ------------------------------------------------------
#
# Compiled by mypyc, an integer wider than 62 bits is a boxed Python integer and each step of
# SplitMix64 on the 64-bit state is Python integer arithmetic (a deck's shuffle some 150,000
# machine instructions). Worked as two 32-bit words, with the multipliers in 16-bit parts, no
# value exceeds 2**50 and every operation is a machine operation on the build: the same draws,
# bit for bit. In pure Python the 64-bit arithmetic is faster (fewer operations), so the words
# are used only where this module is compiled.

_M32: Final = 0xFFFFFFFF
_M16: Final = 0xFFFF
# The gamma's words and the multipliers' 16-bit parts, written out (a literal is a machine
# constant on the build); tests/engine/test_engine.py checks them against the 64-bit values.
_GAMMA_HI: Final = 0x9E3779B9
_GAMMA_LO: Final = 0x7F4A7C15
_MUL1_HI0: Final = 0x476D
_MUL1_HI1: Final = 0xBF58
_MUL1_LO0: Final = 0xE5B9
_MUL1_LO1: Final = 0x1CE4
_MUL2_HI0: Final = 0x49BB
_MUL2_HI1: Final = 0x94D0
_MUL2_LO0: Final = 0x11EB
_MUL2_LO1: Final = 0x1331
#: The longest list :func:`shuffle_words` takes: ``2**32 % n`` squared stays under 2**62.
_WORDS_MAX: Final = 1 << 30


def _times(zh: i64, zl: i64, ch0: i64, ch1: i64, cl0: i64, cl1: i64) -> tuple[i64, i64]:
    """``z * c`` modulo 2**64 for ``z = zh * 2**32 + zl`` and ``c``'s four 16-bit parts, low first
    (``c = ch1 * 2**48 + ch0 * 2**32 + cl1 * 2**16 + cl0``): the high and the low word."""
    p0 = zl * cl0
    p1 = zl * cl1
    t = p0 + ((p1 & _M16) << 16)
    hi = (t >> 32) + (p1 >> 16) + zh * cl0 + (((zh * cl1) & _M16) << 16) \
        + zl * ch0 + (((zl * ch1) & _M16) << 16)
    return hi & _M32, t & _M32


def mix_words(xh: i64, xl: i64) -> tuple[i64, i64]:
    """SplitMix64's output for the state ``xh * 2**32 + xl``, as its high and low word (the
    function :func:`next_u64` applies after adding the gamma)."""
    zh = xh ^ (xh >> 30)
    zl = xl ^ (((xh << 2) & _M32) | (xl >> 30))
    zh, zl = _times(zh, zl, _MUL1_HI0, _MUL1_HI1, _MUL1_LO0, _MUL1_LO1)
    zl ^= ((zh << 5) & _M32) | (zl >> 27)
    zh ^= zh >> 27
    zh, zl = _times(zh, zl, _MUL2_HI0, _MUL2_HI1, _MUL2_LO0, _MUL2_LO1)
    zl ^= ((zh << 1) & _M32) | (zl >> 31)
    zh ^= zh >> 31
    return zh, zl


def below_words(vh: i64, vl: i64, n: i64) -> i64:
    """What :func:`randbelow` makes of the draw ``vh * 2**32 + vl`` for ``n``: ``v % n``, or -1
    where it rejects the draw (``v`` above ``MASK64 - 2**64 % n``)."""
    w = (1 << 32) % n  # 2**32 % n
    if vh == _M32 and vl > _M32 - (w * w) % n:
        return -1
    return ((vh % n) * w + vl) % n


def shuffle_words(state: State, items: MutableSequence[T]) -> None:
    """:func:`shuffle` with the generator's numbers as 32-bit words (lists of at most
    ``2**30`` items): the same swaps, draws and final ``state["rng"]``."""
    state["rolls"] = state.get("rolls", 0) + 1
    x: int = state["rng"]
    xh: i64 = x >> 32
    xl: i64 = x & _M32
    i: i64 = len(items) - 1
    while i > 0:
        while True:  # next_u64 in words: x += gamma, then the mix
            t = xl + _GAMMA_LO
            xl = t & _M32
            xh = (xh + _GAMMA_HI + (t >> 32)) & _M32
            vh, vl = mix_words(xh, xl)
            j = below_words(vh, vl, i + 1)
            if j >= 0:
                break
        items[i], items[j] = items[j], items[i]
        i -= 1
    state["rng"] = (int(xh) << 32) | int(xl)


#: True where this module is compiled (its functions are not Python functions): the shuffle then
#: works in 32-bit words.
_WORDS: Final = not isinstance(mix_words, FunctionType)


def rig(state: State, values: list[int]) -> None:
    """Make the next die rolls return ``values`` (for tests and scripted scenarios)."""
    state.setdefault("rigged", []).extend(int(v) for v in values)
