"""Fixed-shape number vectors of a view, for learners (the research adapters, roses.ai).

A game's :meth:`~roses.engine.contract.Rules.tensor_codec` gives a :class:`TensorCodec`:
a :class:`Layout` (named fields, each a run of numbers at a fixed offset, the same for every
view of a game of the given scenario and options) and ``encode(view)``. The codec reads only
the view it is given, so a role's vector holds nothing its view does not: what is hidden from
the role cannot reach it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from array import array
from collections.abc import Callable, Hashable, Iterable, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any

from roses.engine.contract import View


@dataclass(frozen=True)
class Field:
    name: str
    offset: int
    size: int
    doc: str


@dataclass
class Layout:
    """Named fields of a vector, in order."""

    fields: list[Field] = field(default_factory=list)

    @property
    def size(self) -> int:
        return self.fields[-1].offset + self.fields[-1].size if self.fields else 0

    def add(self, name: str, size: int, doc: str) -> int:
        """Append a field of ``size`` numbers; returns its offset."""
        if any(f.name == name for f in self.fields):
            raise ValueError(f"field {name!r} twice")
        offset = self.size
        self.fields.append(Field(name, offset, size, doc))
        return offset

    def markdown(self) -> str:
        """The layout as a Markdown table (docs/ai.md)."""
        rows = ["| field | offset | size | what |", "|---|---:|---:|---|"]
        rows += [f"| `{f.name}` | {f.offset} | {f.size} | {f.doc} |" for f in self.fields]
        return "\n".join(rows)


class TensorCodec(ABC):
    """A game's view-to-vector encoding for one scenario and set of options."""

    layout: Layout

    @abstractmethod
    def encode(self, view: View) -> array[float]:
        """The vector of ``view``: ``layout.size`` 32-bit floats (an ``array("f")``, which numpy
        reads without a copy: ``numpy.frombuffer(v, numpy.float32)``)."""


def zeros(size: int) -> array[float]:
    """A vector of ``size`` 32-bit zeros."""
    return array("f", bytes(4 * size))


def floats(values: Iterable[float]) -> array[float]:
    """32-bit floats, for a slice of a vector: ``out[a:b] = floats(...)``."""
    return array("f", values)


def one_hot(out: MutableSequence[float], offset: int, domain: dict[Any, int], value: Any) -> None:
    """Set ``out[offset + domain[value]]`` to 1 (nothing for a value outside the domain)."""
    i = domain.get(value)
    if i is not None:
        out[offset + i] = 1.0


def multi_hot(out: MutableSequence[float], offset: int, domain: dict[Any, int], values: Iterable[Any]) -> None:
    for v in values:
        one_hot(out, offset, domain, v)


class Kept:
    """Vectors made from a part of a view by ``make``, kept by the part's content (a tuple, or
    anything hashable) for the next views that hold the same part: a side's block counts or a
    column of its blocks repeat from one step to the next more often than not, and converting
    numbers one by one is what an encoder spends its time on. The result depends only on the
    content (equal keys make equal vectors), never on what was kept before; at most ``limit``
    results are kept (then all are dropped). Callers must not change a vector they are given."""

    __slots__ = ("kept", "limit", "make")

    def __init__(self, make: Callable[[Any], array[float]], limit: int = 4096) -> None:
        self.make = make
        self.limit = limit
        self.kept: dict[Hashable, array[float]] = {}

    def __call__(self, key: Hashable) -> array[float]:
        got = self.kept.get(key)
        if got is None:
            if len(self.kept) >= self.limit:
                self.kept.clear()
            got = self.kept[key] = self.make(key)
        return got


def scaled(scale: float) -> Kept:
    """A :class:`Kept` of ``values`` (a tuple of numbers) times ``scale`` as 32-bit floats."""
    mul = float(scale).__mul__
    return Kept(lambda values: array("f", map(mul, values)))


def positions(values: Sequence[Any]) -> dict[Any, int]:
    """``{value: index}`` of a domain."""
    return {v: i for i, v in enumerate(values)}


__all__ = ["Field", "Kept", "Layout", "TensorCodec", "floats", "multi_hot", "one_hot", "positions", "scaled", "zeros"]
