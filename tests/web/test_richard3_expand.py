"""The web client expands Richard III's views as the rules do (4.2): ``expand`` of
``static/js/games/richard3.js``, in Chromium, gives for every view of random games (each role,
battles, face-down blocks and revealed blocks included) the full view that
``roses.games.richard3.views.expand`` gives; the tables it needs come from
``GET /api/rules/richard3/tables``."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from roses.engine import get_rules
from roses.engine.contract import canonical_json
from roses.engine.fuzz import game_seed
from roses.games.richard3.data import BLOCK_ID, POOL
from roses.games.richard3.views import expand
from tests.web.conftest import module_page

RULES = get_rules("richard3")


def _kinds(v: dict[str, Any]) -> set[str]:
    """The kinds of parts a view has that expand must fill in."""
    out = {k for k in ("shown", "face_down", "battles") if v[k]}
    own = v.get("own")
    if own:
        out |= {"reserve"} if any(own["reserve"]) else set()
        out |= {"recruited"} if 3 in own["moved"] else set()
        out |= {"moved"} if any(m in (1, 2) for m in own["moved"]) else set()
        out |= {"pool"} if any(w == POOL for w in own["where"]) else set()
    return out


def _views() -> list[dict[str, Any]]:
    """Views of random games, with at least one of every kind of part expand fills in."""
    picker = random.Random(2)
    out: list[dict[str, Any]] = []
    kinds: set[str] = set()
    for i, scenario in enumerate(("richard-iii", "wars-of-the-roses", "kingmaker")):
        st = RULES.setup(game_seed(9, i), scenario)
        step = 0
        while RULES.result(st) is None:
            for role in ("York", "Lancaster", "Observer"):
                v = RULES.view(st, role)
                new = _kinds(v) - kinds
                if new or step % 40 == 0:
                    kinds |= new
                    out.append(v)
            active = RULES.active(st)
            role = active[0] if len(active) == 1 else picker.choice(active)
            legal = RULES.legal_actions(st, role)
            st = RULES.action(st, role, *legal[picker.randrange(len(legal))])
            step += 1
        out.extend(RULES.view(st, role) for role in ("York", "Lancaster", "Observer"))
    # a mercenary lying face down at home (6.85), seen by each role
    st = RULES.setup(3, "wars-of-the-roses")
    st["down"][BLOCK_ID["Scots/L"]] = 1
    for role in ("York", "Lancaster", "Observer"):
        v = RULES.view(st, role)
        kinds |= _kinds(v)
        out.append(v)
    assert kinds == {"shown", "face_down", "battles", "reserve", "recruited", "moved", "pool"}
    return out


def test_the_tables_route_gives_the_rules_tables(live_server: Any) -> None:
    """GET /api/rules/richard3/tables: the rules' view tables, cacheable; an unknown game is 404."""
    import httpx

    r = httpx.get(f"{live_server.url}/api/rules/richard3/tables")
    assert r.status_code == 200 and r.json() == json.loads(json.dumps(RULES.view_tables()))
    assert "max-age" in r.headers["cache-control"]
    assert httpx.get(f"{live_server.url}/api/rules/nosuchgame/tables").status_code == 404


@pytest.mark.browser
def test_the_client_expands_views_as_the_rules_do(browser: Any, static_server: str) -> None:
    views = _views()
    page, errors = module_page(browser, static_server, "", """
        import { expand } from "/js/games/richard3.js";
        window.expand = expand;""")
    tables = json.loads(json.dumps(RULES.view_tables()))
    got = page.evaluate("([views, tables]) => views.map((v) => expand(v, tables))",
                        [[json.loads(json.dumps(v)) for v in views], tables])
    assert len(got) == len(views)
    for view, full in zip(views, got, strict=True):
        assert canonical_json(full) == canonical_json(expand(view)), view["role"]
    # a full view is taken as it is
    assert page.evaluate("([v, t]) => expand(v, t) === v ? 'same' : 'new'", [got[0], tables]) == "same"
    assert not errors, errors
