"""What a Kingmaker gazette says changed on the board between two rounds (the rules'
``gazette_changes``): nobles entering play, changing hands, moving, gaining or losing troops,
captured or freed; places changing owner; heirs dying, crowned or changing hands. Read from two
observer views only, so it holds nothing hidden."""

from __future__ import annotations

from typing import Any


def changes(before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    """What changed on the board between two observer views (nobles, places, heirs), in the
    game's own words (a square is never named by its grid id)."""
    if before is None:
        return []
    out: list[str] = []

    def nobles(view: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
        return {n["id"]: (p["role"], n) for p in view.get("players") or [] for n in p.get("nobles") or []}

    a, b = nobles(before), nobles(after)
    for nid, (role, n) in sorted(b.items()):
        if nid not in a:
            out.append(f"{n['name']} enters play for {role}.")
            continue
        r0, n0 = a[nid]
        if r0 != role:
            out.append(f"{n['name']} passes from {r0} to {role}.")
        # "where": the game's words for the place (a square is never shown by its grid id)
        where0 = n0.get("where") or n0.get("inside") or n0.get("square") or n0.get("ship")
        where1 = n.get("where") or n.get("inside") or n.get("square") or n.get("ship")
        if where0 != where1:
            out.append(f"{n['name']} ({role}) moves from {where0} to {where1}.")
        if n0.get("troops") != n.get("troops"):
            out.append(f"{n['name']} ({role}) has {n.get('troops')} troops (was {n0.get('troops')}).")
        if n0.get("captive_of") != n.get("captive_of"):
            out.append(f"{n['name']} ({role}) is captive of {n['captive_of']}." if n.get("captive_of")
                       else f"{n['name']} ({role}) is free.")
    for nid, (role, n) in sorted(a.items()):
        if nid not in b:
            out.append(f"{n['name']} ({role}) is out of play.")
    p0, p1 = before.get("places") or {}, after.get("places") or {}
    for pid in sorted(set(p0) | set(p1)):
        o0, o1 = (p0.get(pid) or {}).get("owner"), (p1.get(pid) or {}).get("owner")
        if o0 != o1:
            name = (p1.get(pid) or p0.get(pid) or {}).get("name") or pid
            out.append(f"{name}: held by {o1}." if o1 else f"{name}: no longer held by {o0}.")
    h0 = {h["id"]: h for h in before.get("heirs") or []}
    for h in after.get("heirs") or []:
        old = h0.get(h["id"])
        if old is None:
            continue
        if h.get("dead") and not old.get("dead"):
            out.append(f"{h['name']} is dead.")
        if h.get("crowned") and not old.get("crowned"):
            out.append(f"{h['name']} is crowned.")
        if h.get("controller") != old.get("controller") and not h.get("dead"):
            out.append(f"{h['name']} is held by {h.get('controller') or 'nobody'}.")
    return out
