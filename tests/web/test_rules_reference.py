"""The rules references of roses/web/rules (our own words, numbered like each rulebook): every
game has one, every section number the Plantagenet engine writes in its log and prompts leads
to that exact section, the Kingmaker reference covers the turn's six phases and has a text for
every Event card kind of the open deck, and the /rules pages serve them."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from roses.engine import get_rules
from roses.web import rulesref

REF = re.compile(r"\((?:[^()]*?\b)?(\d+\.\d+(?:\.\d+)*)(?:, \d+\.\d+(?:\.\d+)*)*\)")
NUMBER = re.compile(r"\d+\.\d+(?:\.\d+)*")


def _key(number: str) -> tuple[int, tuple[str, ...]]:
    """Rulebook order: the chapter as a number, the rest as decimals (2.7 < 2.71 < 2.8)."""
    first, *rest = number.split(".")
    return int(first), tuple(rest)


@pytest.mark.parametrize("game", ["richard3", "plantagenet", "kingmaker"])
def test_every_game_has_a_reference_in_section_order_with_text(game: str) -> None:
    ref = rulesref.reference(game)
    assert ref is not None and game in rulesref.available()
    numbers = [s.number for s in ref.sections]
    assert numbers == sorted(numbers, key=_key), "sections out of rulebook order"
    assert len(set(numbers)) == len(numbers)
    empty = [s.number for s in ref.sections if not s.blocks and not any(
        t.number.startswith(s.number.removesuffix(".0") + ".") for t in ref.sections)]
    assert not empty, f"sections without text: {empty}"
    assert len(ref.about) > 80


def test_plantagenet_log_and_prompt_sections_lead_to_that_section() -> None:
    """Random play of ia-henry-vi (with Hidden Mats) and ib-towton: every section number in a
    log line or prompt of either side names a section of the reference exactly (not a
    neighbour found by falling back)."""
    rules = get_rules("plantagenet")
    ref = rulesref.reference("plantagenet")
    assert ref is not None
    have = {s.number for s in ref.sections}
    cited: set[str] = set()
    for scenario, seed in (("ia-henry-vi", 4), ("ib-towton", 5)):
        state = rules.setup(seed, scenario, {"hidden_mats": True} if scenario == "ia-henry-vi" else None)
        rnd = random.Random(seed)
        for _ in range(700):
            active = rules.active(state)
            if not active or rules.result(state) is not None:
                break
            role = active[0]
            texts = [str(rules.view(state, role).get("prompt") or "")]
            legal = rules.legal_actions(state, role)
            forward = [a for a in legal if a[0] not in ("remove", "cancel", "leave")] or legal
            state = rules.action(state, role, *rnd.choice(forward))
            texts += [e if isinstance(e, str) else str(e) for e in rules.log_for(state, role)[-5:]]
            for text in texts:
                for m in REF.finditer(text):
                    cited.update(NUMBER.findall(m.group(0)))
    assert len(cited) >= 10, cited
    missing = sorted(c for c in cited if c not in have and f"{c}.0" not in have)
    assert not missing, missing


def test_kingmaker_reference_covers_the_phases_and_every_event_kind() -> None:
    ref = rulesref.reference("kingmaker")
    assert ref is not None
    titles = {s.number: s.title for s in ref.sections}
    for number, word in (("5.0", "Chance"), ("6.0", "Movement"), ("8.0", "Combat"),
                         ("12.0", "Parliament"), ("13.0", "Coronation"), ("14.0", "Crown")):
        assert word in titles[number]
    deck = json.loads((Path(rulesref.__file__).parents[1] / "games" / "kingmaker" / "data"
                       / "events-default.json").read_text(encoding="utf-8"))
    # the engine names an Event card by its kind, e.g. "free_move" -> "Free Move"
    kinds = {c["kind"].replace("_", " ").title() for c in deck["cards"]}
    assert not kinds - set(ref.cards), sorted(kinds - set(ref.cards))


@pytest.mark.parametrize("game", ["plantagenet", "kingmaker"])
def test_rules_pages_serve_the_reference(game: str, tmp_path: Path) -> None:
    from roses.app import create_app
    from roses.server.config import Settings

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'roses.sqlite3'}", bots=False,
                              secure_cookies=False))
    with TestClient(app) as client:
        page = client.get(f"/rules/{game}")
        assert page.status_code == 200
        ref = rulesref.reference(game)
        assert ref is not None
        for s in ref.sections[:5]:
            assert f'id="{s.anchor}"' in page.text
        data = client.get(f"/rules/{game}.json").json()
        assert [s["number"] for s in data["sections"]] == [s.number for s in ref.sections]
