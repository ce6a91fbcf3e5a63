"""A helper for tests of state copies: the containers inside a value."""

from __future__ import annotations


def containers(value: object, out: dict[int, object] | None = None) -> dict[int, object]:
    """Every list, dict and tuple inside ``value`` (itself included), by id."""
    out = {} if out is None else out
    if isinstance(value, (list, dict, tuple)):
        out[id(value)] = value
        for x in value.values() if isinstance(value, dict) else value:
            containers(x, out)
    return out
