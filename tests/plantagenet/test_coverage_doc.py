"""The coverage documents hold what they claim: docs/plantagenet/coverage.md lists the 110 rules
items (research §1) as done with tests that exist, RULINGS.md names only tests that exist, and
every one of the 148 Arts of War card halves (1.9.1) has a test naming it and a rule section."""

from __future__ import annotations

import ast
import json
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests/plantagenet"


@dataclass(frozen=True)
class CollectedTest:
    module: str
    name: str
    doc: str
    #: Card ids (``Y12``, ``L20``) written in the test's code (string literals, its decorators
    #: included, its docstring not).
    cards: frozenset[str]


@cache
def collected_tests() -> tuple[CollectedTest, ...]:
    out = []
    for f in sorted(TESTS.glob("test_*.py")):
        for node in ast.parse(f.read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                doc = ast.get_docstring(node)
                body = node.body[1:] if doc is not None else node.body
                literals = [n.value for part in [*node.decorator_list, *body] for n in ast.walk(part)
                            if isinstance(n, ast.Constant) and isinstance(n.value, str)]
                cards = frozenset(c for text in literals for c in re.findall(r"\b[YL]\d{1,2}\b", text))
                out.append(CollectedTest(f.stem, node.name, doc or "", cards))
    return tuple(out)


def exists(ref: str) -> bool:
    """Whether a test named in a doc exists: ``test_x``, ``test_mod.py::test_x``; a name ending in
    ``...`` or ``*`` stands for the tests it begins."""
    module, _, name = ref.rpartition("::")
    module = module.removesuffix(".py")
    prefix = name.endswith(("...", "*"))
    name = name.rstrip(".*")
    return any((not module or t.module == module) and (t.name.startswith(name) if prefix else t.name == name)
               for t in collected_tests())


def refs(text: str) -> list[str]:
    return re.findall(r"`((?:test_[a-z0-9_]+\.py::)?test_[A-Za-z0-9_]+(?:\.\.\.|\*)?)`", text)


def test_coverage_doc_lists_every_item_done_with_existing_tests() -> None:
    text = (ROOT / "docs/plantagenet/coverage.md").read_text()
    rows = {int(m.group(1)): m.group(2).strip() for m in re.finditer(r"^\| (\d+) \|[^|]*\|([^|]*)\|", text, re.M)}
    assert sorted(rows) == list(range(1, 111))
    assert {n: s for n, s in rows.items() if s != "done"} == {}
    named = refs(text)
    assert len(named) > 150
    assert [r for r in named if not exists(r)] == []


def test_every_ruling_names_existing_tests() -> None:
    """Each ruling of RULINGS.md (R1...) names at least one test, and every test named exists."""
    text = (ROOT / "roses/games/plantagenet/RULINGS.md").read_text()
    rulings = re.split(r"\n(?=\*\*R\d+\.)", text)[1:]
    assert len(rulings) > 70
    assert [r[:8] for r in rulings if not refs(r)] == []
    named = refs(text)
    assert [r for r in named if not exists(r)] == []


# ----- one test per card half ----------------------------------------------------------------------
def plain(text: str) -> str:
    """Lower case ASCII words: accents, apostrophes and punctuation dropped (``Muster'd`` is
    ``musterd``, ``Chandée`` is ``chandee``)."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", " ", text.replace("'", "").replace("\u2019", "")).strip()


def names_card(test: CollectedTest, card: str, title: str) -> bool:
    """The test's name or docstring names the card and its half's title: the card id followed by
    the title, other card ids may stand between ("Y3, Y9 and L3 Escape Ship")."""
    text = plain(test.name.replace("_", " ") + " . " + test.doc)
    pattern = rf"\b{card.lower()}\b(?: (?:and )?[yl]\d+\b)* (?:and )?{re.escape(plain(title))}\b"
    return re.search(pattern, text) is not None


def names_section(test: CollectedTest) -> bool:
    """A rule section in the name (``..._4_3_4``) or in the docstring (``4.3.4``)."""
    return bool(re.search(r"(?:^|_)[1-6]_\d+(?:_\d+)*(?:_|$)", test.name)
                or re.search(r"(?<![\d.])[1-6]\.\d+(?:\.\d+)*\b", test.doc))


def card_halves() -> list[tuple[str, str, str]]:
    cards = json.loads((ROOT / "roses/games/plantagenet/data/cards.json").read_text())
    return [(cid, half, card[half]["title"]) for cid, card in cards.items() for half in ("event", "capability")]


def test_every_card_half_has_a_test_naming_it_and_a_section_1_9_1() -> None:
    """Each of the 148 card halves (74 cards, 1.2) has a test that names it (card id and title),
    cites a rule section, and plays that very card (its id is in the test)."""
    halves = card_halves()
    assert len(halves) == 148
    missing = []
    for cid, half, title in halves:
        if not any(cid in t.cards and names_card(t, cid, title) and names_section(t) for t in collected_tests()):
            missing.append(f"{cid} {half} {title}")
    assert missing == []


def test_card_half_checker_reads_names_and_docstrings() -> None:
    t = CollectedTest("m", "test_y3_y9_l3_escape_ship_event_4_4_3", "", frozenset({"Y3"}))
    assert names_card(t, "Y9", "Escape Ship") and names_section(t) and not names_card(t, "Y9", "Barricades")
    t = CollectedTest("m", "test_l33_philibert", "L33 Philibert de Chandée: near a Channel Port (4.4.1).", frozenset())
    assert names_card(t, "L33", "Philibert de Chandée") and names_section(t)
    assert not names_card(t, "L3", "Philibert de Chandée")
    assert not names_section(CollectedTest("m", "test_x", "RULINGS R50, 1 or 2 Provender", frozenset()))
