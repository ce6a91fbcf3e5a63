"""Standing orders written as text, for orders by e-mail (mailin.py).

A game whose rules declare standing orders (``Rules.standing_verbs``: the verbs that set and
clear one) and whose view gives a seat ``standing_orders`` (``{"orders": {...}, "kinds": {kind:
{"text", "values"}}}``) lets its player set them with those verbs at any time. By e-mail they
are written one per line:

``standing permit:P3 allow``        set the order of that kind to that value
``standing ransom_answer 2``        (numbers as numbers)
``standing storm_port hull bristol`` several values (a list), in order of preference
``standing clear permit:P3``        clear it: the question is asked again

The line is read against the view's kinds only (what the rules publish for the seat); the rules
check it again when it is applied.
"""

from __future__ import annotations

from typing import Any

#: The word that starts a standing-order line.
WORD = "standing"


def parse(view: dict[str, Any], line: str, verbs: tuple[str, str] | None) -> tuple[str, Any] | str | None:
    """The standing verb of an order ``line``: ``(verb, arg)`` with ``verbs`` (the rules' set and
    clear verbs); a text saying what is wrong; or None when the line is not a standing order."""
    words = line.split()
    if not words or words[0].lower() != WORD:
        return None
    so = view.get("standing_orders")
    if verbs is None or not isinstance(so, dict) or not isinstance(so.get("kinds"), dict):
        return "this seat has no standing orders."
    set_verb, clear_verb = verbs
    kinds: dict[str, Any] = so["kinds"]
    if len(words) == 3 and words[1].lower() == "clear":
        return (clear_verb, words[2]) if words[2] in kinds else f"there is no standing order {words[2]!r}."
    if len(words) < 3:
        return "write: standing KIND VALUE, or standing clear KIND (kinds: " + ", ".join(kinds) + ")."
    kind = words[1]
    if kind not in kinds:
        return f"there is no standing order {kind!r}; the kinds are: {', '.join(kinds)}."
    values = [int(v) if v.isdigit() else v for v in words[2:]]
    allowed = kinds[kind].get("values") or []
    lowered = {str(a).lower(): a for a in allowed}
    values = [lowered.get(str(v).lower(), v) for v in values]
    # a kind whose values are ports takes a list, in order of preference
    value: Any = values if kinds[kind].get("ports") else values[0] if len(values) == 1 else values
    return set_verb, {"kind": kind, "value": value}


def help_lines(view: dict[str, Any]) -> list[str]:
    """How the seat's standing orders are written, and those set now (for a reply)."""
    so = view.get("standing_orders")
    if not isinstance(so, dict) or not isinstance(so.get("kinds"), dict):
        return []
    orders = so.get("orders") or {}
    out = ["", "Standing orders (answers given in advance; one per line: standing KIND VALUE, or standing clear KIND):"]
    for kind, info in so["kinds"].items():
        values = info.get("values") or []
        shown = "port ids, in order" if info.get("ports") else ", ".join(str(v) for v in values[:8]) + (
            ", ..." if len(values) > 8 else "")
        now = orders.get(kind)
        out.append(f"  {kind} ({shown})" + (f": set to {now}" if now is not None else ""))
    return out
