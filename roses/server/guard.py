"""The secrets guard's search: which of a role's secret tokens occur in a text about to be sent.

:func:`leaks` answers exactly what ``[t for t in tokens if t in text]`` answers, in a few
passes over the text instead of one per token. Tokens are put in groups by a short prefix
or suffix they share, and each group's anchor is the longest start or end its tokens share
(in Richard III the enemy's block keys share the suffix ``/L`` or ``/Y`` and the card tags
the prefix ``card#``; in Kingmaker the Crown and Event card tags the prefixes ``c#`` and
``e#``); each anchor is searched once, and
only where it occurs are the group's tokens compared, by slicing the text around the
occurrence. A token that occurs in the text contains its anchor there, so no occurrence is
missed. An anchor that occurs too often falls back to one search per token of its group.

Where the anchor cannot overlap itself and no token holds it anywhere but at its anchoring
end, the text is cut at the anchor's occurrences (``str.split``) and the pieces next to each
cut are compared with the group's tokens as sets, without a Python step per occurrence; a
piece between two occurrences that is shorter than the longest token falls back to the
search by occurrence (a token could straddle the next occurrence there).

The grouping (a :class:`Plan`) depends only on the set of tokens; plans are cached, and the
cache is bounded by the number of tokens its plans hold. A role's secrets change often (a
card dealt or played, a block revealed in battle), so a caller may name a *family* (e.g. the
game and the role): the family's plan is made for every token the family has had lately and
its finds are filtered by the tokens of the moment, so that a change of secrets seldom costs a
new plan (:func:`leaks`).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable

#: Length of the prefix and of the suffix a token may be grouped by.
PREFIX = 4
SUFFIX = 2
#: Tokens of the plans held in memory, all plans together (a plan takes about 200 bytes per
#: token: some 10 MB in all). Kingmaker's seats have about 110 secrets each, Richard III's 40.
PLAN_TOKENS = 50_000
#: An anchor found more than this many times more than its group has tokens: the rest of the
#: group is searched token by token.
OCCURRENCES_PER_TOKEN = 4
#: Families whose plans are kept (:func:`leaks`).
FAMILIES = 256
#: A family's plan holds the tokens it has had lately, as long as they are at most twice the
#: tokens of the moment and this many more; past that it starts again from the tokens of the
#: moment (a family whose tokens keep changing does not grow without end).
FAMILY_SLACK = 64


def _common(tokens: list[str], prefix: bool) -> str:
    """The longest start (``prefix``) or end that all ``tokens`` share."""
    if prefix:
        return os.path.commonprefix(tokens)
    return os.path.commonprefix([t[::-1] for t in tokens])[::-1]


def _overlaps_itself(anchor: str) -> bool:
    """Whether two occurrences of ``anchor`` can overlap (a proper prefix is also a suffix)."""
    return any(anchor[:i] == anchor[-i:] for i in range(1, len(anchor)))


class Group:
    """Tokens sharing an anchor at their start (``prefix``) or at their end."""

    __slots__ = ("anchor", "by_length", "by_rest", "longest", "prefix", "tokens")

    def __init__(self, anchor: str, prefix: bool, tokens: list[str]) -> None:
        self.anchor = anchor
        self.prefix = prefix
        self.tokens = tokens
        by_length: dict[int, set[str]] = {}
        for t in tokens:
            by_length.setdefault(len(t), set()).add(t)
        self.by_length = sorted(by_length.items())
        size = len(anchor)
        # The part of each token beside its anchor, by length (for the search by cutting):
        # only when no token holds the anchor elsewhere and occurrences cannot overlap.
        self.by_rest: list[tuple[int, frozenset[str]]] | None = None
        self.longest = 0
        if not _overlaps_itself(anchor) and all(
                (t.find(anchor, 1) if prefix else t.find(anchor, 0, len(t) - 1)) < 0 for t in tokens):
            rests: dict[int, set[str]] = {}
            for t in tokens:
                rest = t[size:] if prefix else t[:len(t) - size]
                rests.setdefault(len(rest), set()).add(rest)
            self.by_rest = sorted((n, frozenset(r)) for n, r in rests.items())
            self.longest = self.by_rest[-1][0]

    def found(self, text: str) -> list[str]:
        """The tokens of this group that occur in ``text``."""
        if self.by_rest is None:
            return self._found_by_occurrence(text)
        anchor = self.anchor
        parts = text.split(anchor)
        cuts = len(parts) - 1
        if not cuts:
            return []
        if cuts > OCCURRENCES_PER_TOKEN * len(self.tokens) + 8:  # a common anchor
            return [t for t in self.tokens if t in text]
        longest = self.longest
        # The pieces beside the occurrences: after each one (prefix) or before it.
        pieces = parts[1:] if self.prefix else parts[:-1]
        for p in parts[1:-1]:  # between two occurrences: a token could straddle the next
            if len(p) < longest:
                return self._found_by_occurrence(text)
        out: list[str] = []
        for n, rests in self.by_rest:
            if n == 0:  # the anchor itself is a token
                out.append(anchor)
            elif self.prefix:
                out += [anchor + r for r in rests.intersection([p[:n] for p in pieces])]
            else:
                out += [r + anchor for r in rests.intersection([p[-n:] for p in pieces])]
        return sorted(out)

    def _found_by_occurrence(self, text: str) -> list[str]:
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


#: Characters that end the kind of a tag (Kingmaker's card tags ``c#012``, ``e#034``).
TAG_MARKS = "#"


def _head(token: str) -> str:
    """What a token is grouped by at its start: its first :data:`PREFIX` characters, cut after
    the last tag mark among them, so that every tag of a kind (``c#012``, ``c#113``...) is in
    one group with the anchor ``c#`` (one search of the text) rather than in one group per
    first digit."""
    head = token[:PREFIX]
    for i in range(len(head) - 1, 0, -1):
        if head[i] in TAG_MARKS:
            return head[:i + 1]
    return head


class Plan:
    """A set of tokens put in groups by anchor: each token goes with the tokens that share its
    start (:func:`_head`: its first :data:`PREFIX` characters, or its kind for a tag) or with
    those that share its last :data:`SUFFIX`, whichever group is larger (the start on a tie).
    """

    __slots__ = ("groups", "single", "size", "tokens")

    def __init__(self, tokens: Iterable[str]) -> None:
        self.tokens = frozenset(tokens)
        toks = sorted(t for t in self.tokens if t)
        self.size = len(toks)
        self.single = [t for t in toks if len(t) < SUFFIX]
        toks = [t for t in toks if len(t) >= SUFFIX]
        heads: dict[str, int] = {}
        tails: dict[str, int] = {}
        for t in toks:
            head = _head(t)
            heads[head] = heads.get(head, 0) + 1
            tails[t[-SUFFIX:]] = tails.get(t[-SUFFIX:], 0) + 1
        members: dict[tuple[str, bool], list[str]] = {}
        for t in toks:
            head, tail = _head(t), t[-SUFFIX:]
            key = (head, True) if heads[head] >= tails[tail] else (tail, False)
            members.setdefault(key, []).append(t)
        # Each group's anchor is the longest start (or end) its tokens share: a longer anchor
        # is found less often in a text that holds none of them (Richard III's card tags share
        # "card#", where "card" alone is in every "has played a card" of the log) and the
        # search for it skips further.
        self.groups = [Group(_common(ts, p), p, ts) for (_, p), ts in members.items()]

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


_families: OrderedDict[Hashable, Plan] = OrderedDict()


def leaks(text: str, tokens: Iterable[str], family: Hashable | None = None) -> list[str]:
    """The tokens (non-empty strings) that occur in ``text``: the same as
    ``[t for t in tokens if t and t in text]``, in another order.

    ``family`` names where the tokens come from (the server passes the game and the role): its
    plan is made for the tokens the family has had lately, so that the next call with a few
    tokens more or less finds it ready; what it finds is filtered by ``tokens``."""
    if family is None:
        return plan(tokens).found(text)
    wanted = tokens if isinstance(tokens, (set, frozenset)) else set(tokens)
    with _lock:
        made = _families.get(family)
        if made is not None:
            _families.move_to_end(family)
    if made is None or not wanted <= made.tokens:
        union = wanted if made is None else made.tokens | wanted
        if len(union) > 2 * len(wanted) + FAMILY_SLACK:
            union = wanted
        made = plan(union)
        with _lock:
            _families[family] = made
            _families.move_to_end(family)
            while len(_families) > FAMILIES:
                _families.popitem(last=False)
    if len(made.tokens) == len(wanted):  # the plan is the tokens' own
        return made.found(text)
    return [t for t in made.found(text) if t in wanted]
