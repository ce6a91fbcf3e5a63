"""Richard III's compact views (roses/games/richard3/views.py, 4.2): what each role is shown,
as numbers beside the public facts, and the full layout :func:`views.expand` makes of them
(the layout the web client and the terminal draw).

* The full views of random games, every role at every step, are pinned by digest
  (``full_view_digests.json``): they are those of the view builder that came before the
  compact views (a dict per block), so the compact views say exactly what it said. After a
  deliberate change of what a view shows, write the digests again:
  ``.venv/bin/python tests/richard3/test_compact_views.py --write``.
* A compact view carries nothing its full view does not: a role's compact view is the same in
  two states whose differences that role may not know (4.2), and the enemy's blocks appear in
  it only as counts per area unless revealed in the battle (6.3).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from roses.engine.contract import canonical_json
from roses.engine.fuzz import game_seed
from roses.games.richard3 import RULES
from roses.games.richard3 import views as V
from roses.games.richard3.data import BLOCK_KEY, N_AREAS, N_BLOCKS

DIGESTS = Path(__file__).with_name("full_view_digests.json")
#: (scenario, seed) of the pinned games: every scenario, three games each.
GAMES = [(scenario, seed) for scenario in ("richard-iii", "wars-of-the-roses", "kingmaker") for seed in (1, 2, 3)]
ROLES = ("York", "Lancaster", "Observer")


def _play(scenario: str, seed: int) -> Iterator[dict[str, Any]]:
    """Every state of a random game (the choices drawn from ``seed``), the last included."""
    picker = random.Random(seed)
    st = RULES.setup(game_seed(seed, 0), scenario)
    while True:
        yield st
        if RULES.result(st) is not None:
            return
        active = RULES.active(st)
        role = active[0] if len(active) == 1 else picker.choice(active)
        legal = RULES.legal_actions(st, role)
        st = RULES.action(st, role, *legal[picker.randrange(len(legal))])


def full_view_digest(scenario: str, seed: int) -> str:
    """One digest of the full views of every role at every step of a game."""
    h = hashlib.sha256()
    for st in _play(scenario, seed):
        for role in ROLES:
            h.update(canonical_json(V.expand(RULES.view(st, role))).encode())
            h.update(b"\n")
    return h.hexdigest()


@pytest.mark.parametrize(("scenario", "seed"), GAMES)
def test_full_views_are_those_pinned(scenario: str, seed: int) -> None:
    """4.2: the full view of every role at every step, as pinned."""
    pinned = json.loads(DIGESTS.read_text(encoding="utf-8"))
    assert full_view_digest(scenario, seed) == pinned[f"{scenario}:{seed}"]


def test_a_compact_view_shows_enemy_blocks_only_as_counts() -> None:
    """4.2: a side's compact view names its own blocks; of the enemy's, only those revealed in
    the battle (6.3), the others only counted per area."""
    seen_shown = 0
    for st in _play("richard-iii", 4):
        for side, role in enumerate(ROLES[:2]):
            v = RULES.view(st, role)
            own = set(v["own"]["keys"])
            assert own == {BLOCK_KEY[b] for b in V._OWN[side][st["king"]]}
            revealed = set(st["battle"]["revealed"]) if st["battle"] is not None else set()
            shown = {row[0] for row in v["shown"]}
            assert shown <= {BLOCK_KEY[b] for b in revealed}
            seen_shown += len(shown)
            enemy = {BLOCK_KEY[b] for b in range(N_BLOCKS) if BLOCK_KEY[b] not in own} - shown
            text = canonical_json(v)
            assert not [k for k in enemy if f'"{k}"' in text]
            assert [list(x) for x in v["counts"]] == [list(x) for x in RULES.view(st, "Observer")["counts"]]
            assert all(len(x) == N_AREAS for x in v["counts"])
    assert seen_shown  # the game had battles


def _hide(st: dict[str, Any], side: int) -> dict[str, Any]:
    """A state ``side`` cannot tell from ``st``: the enemy's hand exchanged with as many cards
    of the deck, the deck in another order, and the enemy's blocks not revealed in the battle
    one step weaker."""
    w = RULES.copy_state(st)
    foe = 1 - side
    hand, deck = w["hands"][foe], w["deck"]
    if len(deck) >= len(hand):
        w["hands"][foe], w["deck"] = deck[: len(hand)], hand + deck[len(hand):]
    w["deck"] = list(reversed(w["deck"]))
    revealed = set(st["battle"]["revealed"]) if st["battle"] is not None else set()
    for b in V._OWN[foe][st["king"]]:
        if b not in revealed and w["steps"][b] > 1:
            w["steps"][b] -= 1
    return w


def test_a_compact_view_is_the_same_in_states_its_role_cannot_tell_apart() -> None:
    """4.2: what a role may not know (the enemy's hand, the deck, the strength of unrevealed
    enemy blocks) changes nothing in its view."""
    checked = 0
    for i, st in enumerate(_play("wars-of-the-roses", 5)):
        if i % 3:
            continue
        for side, role in enumerate(ROLES[:2]):
            w = _hide(st, side)
            # the role's options and prompt follow the state; the rest may not
            a, b = ({k: x for k, x in RULES.view(s, role).items() if k not in ("actions", "prompt")}
                    for s in (st, w))
            assert canonical_json(a) == canonical_json(b)
            checked += 1
    assert checked > 20


def _write() -> None:
    digests = {f"{scenario}:{seed}": full_view_digest(scenario, seed) for scenario, seed in GAMES}
    DIGESTS.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__" and "--write" in sys.argv:
    _write()


def test_own_columns_are_the_owned_blocks_entries_in_order() -> None:
    """The ``own`` columns are taken by slices of the per-block lists: for every side and
    crown (the Rebel is the Pretender's, 3.26), the same entries as block by block."""
    values = [1000 + b for b in range(N_BLOCKS)]
    for side in (0, 1):
        for king in (0, 1):
            owned = V.C.owned_blocks(side, king)
            assert V._column(values, V._OWN_RUNS[side][king]) == [values[b] for b in owned]
    assert len(V._OWN_RUNS[0][1]) == 2  # York as Pretender: its blocks and the Rebel
    assert V.C.id_runs([3, 4, 5, 9, 11, 12]) == ((3, 6), (9, 10), (11, 13))
