"""Id codecs: one table per kind of component that turns names into small ints and back.

A game state holds components (areas, blocks, cards, lords...) as small ints; actions and views
name them (``"Kent"``, ``"Warwick/Y"``). A game makes one :class:`IdCodec` per kind, from its
data, and uses it in the state, in the decoding of action arguments and in the views alike, so
the three never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence


class IdCodec:
    """Names <-> ids for one kind of component (ids are positions in ``names``)."""

    __slots__ = ("kind", "names", "ids")

    def __init__(self, kind: str, names: Iterable[str]) -> None:
        self.kind = kind
        self.names: tuple[str, ...] = tuple(names)
        self.ids: dict[str, int] = {}
        for i, n in enumerate(self.names):
            if n in self.ids:
                raise ValueError(f"two {kind}s are named {n!r}")
            self.ids[n] = i

    def id(self, name: str) -> int:
        """The id of ``name`` (KeyError names the kind)."""
        try:
            return self.ids[name]
        except (KeyError, TypeError):
            raise KeyError(f"no {self.kind} named {name!r}") from None

    def get(self, name: object, default: int = -1) -> int:
        """The id of ``name``, or ``default`` for anything that is not a known name."""
        if type(name) is not str:
            return default
        return self.ids.get(name, default)

    def name(self, i: int) -> str:
        return self.names[i]

    def __contains__(self, name: object) -> bool:
        return type(name) is str and name in self.ids

    def __len__(self) -> int:
        return len(self.names)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __getitem__(self, i: int) -> str:
        return self.names[i]

    def __repr__(self) -> str:
        return f"IdCodec({self.kind!r}, {len(self.names)} names)"


def codec(kind: str, names: Sequence[str]) -> IdCodec:
    return IdCodec(kind, names)
