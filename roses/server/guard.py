"""The secrets guard's search: which of a role's secret tokens occur in a text about to be sent.

:func:`leaks` answers exactly what ``[t for t in tokens if t in text]`` answers, in a few
passes over the text instead of one per token. Tokens are put in groups that share an
anchor, a short prefix or suffix (in Richard III the enemy's block keys share the suffix
``/L`` or ``/Y`` and the card tags the prefix ``card#``); each anchor is searched once, and
only where it occurs are the group's tokens compared, by slicing the text around the
occurrence. A token that occurs in the text contains its anchor there, so no occurrence is
missed. An anchor that occurs too often falls back to one search per token of its group.

The grouping (a :class:`Plan`) depends only on the set of tokens; plans are cached, since a
role's secrets change only now and then (a card dealt or played, a block revealed); the
cache is bounded by the number of tokens its plans hold.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable

#: Length of the prefix and of the suffix a token may be grouped by.
PREFIX = 4
SUFFIX = 2
#: Tokens of the plans held in memory, all plans together (a plan takes about 200 bytes per
#: token: some 10 MB in all). Kingmaker's seats have about 110 secrets each, Richard III's 40.
PLAN_TOKENS = 50_000
#: An anchor found more than this many times more than its group has tokens: the rest of the
#: group is searched token by token.
OCCURRENCES_PER_TOKEN = 4


class Group:
    """Tokens sharing an anchor at their start (``prefix``) or at their end."""

    __slots__ = ("anchor", "by_length", "prefix", "tokens")

    def __init__(self, anchor: str, prefix: bool, tokens: list[str]) -> None:
        self.anchor = anchor
        self.prefix = prefix
        self.tokens = tokens
        by_length: dict[int, set[str]] = {}
        for t in tokens:
            by_length.setdefault(len(t), set()).add(t)
        self.by_length = sorted(by_length.items())

    def found(self, text: str) -> list[str]:
        """The tokens of this group that occur in ``text``."""
        anchor = self.anchor
        pos = text.find(anchor)
        if pos < 0:
            return []
        out: set[str] = set()
        budget = OCCURRENCES_PER_TOKEN * len(self.tokens) + 8
        prefix, size, by_length = self.prefix, len(anchor), self.by_length
        while pos >= 0:
            budget -= 1
            if budget < 0:  # a common anchor: one search per token is cheaper
                return [t for t in self.tokens if t in text]
            if prefix:
                for n, tokens in by_length:
                    piece = text[pos:pos + n]
                    if piece in tokens:
                        out.add(piece)
            else:
                end = pos + size
                for n, tokens in by_length:
                    if n <= end:
                        piece = text[end - n:end]
                        if piece in tokens:
                            out.add(piece)
            pos = text.find(anchor, pos + 1)
        return sorted(out)


class Plan:
    """A set of tokens put in groups by anchor: each token goes with the tokens that share its
    first :data:`PREFIX` characters or with those that share its last :data:`SUFFIX`, whichever
    group is larger (the prefix on a tie: it is the longer anchor)."""

    __slots__ = ("groups", "single", "size")

    def __init__(self, tokens: Iterable[str]) -> None:
        toks = sorted({t for t in tokens if t})
        self.size = len(toks)
        self.single = [t for t in toks if len(t) < SUFFIX]
        toks = [t for t in toks if len(t) >= SUFFIX]
        heads: dict[str, int] = {}
        tails: dict[str, int] = {}
        for t in toks:
            heads[t[:PREFIX]] = heads.get(t[:PREFIX], 0) + 1
            tails[t[-SUFFIX:]] = tails.get(t[-SUFFIX:], 0) + 1
        members: dict[tuple[str, bool], list[str]] = {}
        for t in toks:
            head, tail = t[:PREFIX], t[-SUFFIX:]
            key = (head, True) if heads[head] >= tails[tail] else (tail, False)
            members.setdefault(key, []).append(t)
        self.groups = [Group(a, p, ts) for (a, p), ts in members.items()]

    def found(self, text: str) -> list[str]:
        out = [t for t in self.single if t in text]
        for g in self.groups:
            out += g.found(text)
        return out


_plans: OrderedDict[frozenset[str], Plan] = OrderedDict()
_tokens = 0  # the tokens of the plans in _plans
_lock = threading.Lock()


def plan(tokens: Iterable[str]) -> Plan:
    """The (cached) plan of a set of tokens."""
    key = frozenset(tokens)
    with _lock:
        hit = _plans.get(key)
        if hit is not None:
            _plans.move_to_end(key)
            return hit
    made = Plan(key)
    global _tokens
    with _lock:
        old = _plans.pop(key, None)
        _tokens -= 0 if old is None else old.size
        _plans[key] = made
        _tokens += made.size
        while _tokens > PLAN_TOKENS and len(_plans) > 1:
            _tokens -= _plans.popitem(last=False)[1].size
    return made


def leaks(text: str, tokens: Iterable[str]) -> list[str]:
    """The tokens (non-empty strings) that occur in ``text``: the same as
    ``[t for t in tokens if t and t in text]``, in another order."""
    return plan(tokens).found(text)
