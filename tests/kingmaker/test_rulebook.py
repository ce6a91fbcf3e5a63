"""Rule references cite the campaign rules by section (``§<heading>``); the table of sections
(roses/games/kingmaker/rulebook.py, shown in docs/kingmaker/rulebook.md) is the one place
that ties them to the rulebook's lines."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from roses.games.kingmaker import rulebook
from roses.games.kingmaker.rulebook import ALIASES, RULEBOOK, SECTIONS, section, section_at

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "roses" / "games" / "kingmaker"
CITING = [*sorted(PACKAGE.glob("*.py")), PACKAGE / "RULINGS.md", *sorted((ROOT / "docs" / "kingmaker").glob("*.md"))]


def _rulebook_text() -> list[str] | None:
    for folder in (os.environ.get("ROSES_RULEBOOKS"), "/work/shared/seeds"):
        if folder and (Path(folder) / RULEBOOK).is_file():
            return (Path(folder) / RULEBOOK).read_text().splitlines()
    return None


def test_sections_tile_the_rulebook_in_order() -> None:
    assert SECTIONS[0].first == 5 and SECTIONS[-1].last == 519
    for a, b in zip(SECTIONS, SECTIONS[1:], strict=False):
        assert b.first == a.last + 1, (a.heading, b.heading)
    assert section_at(334).heading == "Calling Parliament"
    assert section("Refuges").first == 140


def test_each_heading_opens_its_first_line_of_the_rulebook() -> None:
    lines = _rulebook_text()
    if lines is None:
        pytest.skip(f"{RULEBOOK} is not on this machine (set ROSES_RULEBOOKS)")
    assert len(lines) == SECTIONS[-1].last
    for s in SECTIONS:
        text = re.sub(r"^\((E1|EI|E2)\) ", "", lines[s.first - 1])
        assert text.startswith(s.heading), (s.heading, s.first, text[:60])


def _names() -> list[str]:
    return sorted([*rulebook.BY_HEADING, *ALIASES], key=len, reverse=True)


def test_every_section_reference_names_a_section() -> None:
    names = _names()
    bad = []
    for path in CITING:
        text = path.read_text()
        for m in re.finditer("§", text):
            rest = text[m.end():]
            if rest[:1].isdigit() or rest[:1] in "`' <":
                continue  # the research notes' own sections (kingmaker.md §5, §7.2), or the sign itself
            if not any(rest.startswith(n) for n in names):
                bad.append(f"{path.name}: {rest[:40]!r}")
    assert bad == []


def test_no_rulebook_line_numbers_are_cited_in_the_package() -> None:
    found = []
    for path in CITING:
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\bL\d{1,3}(-\d{1,3})?\b", line) and "tests/" not in line and "test_" not in line:
                found.append(f"{path.name}:{i}: {line.strip()[:80]}")
    assert found == []


def test_docs_table_matches_the_sections() -> None:
    doc = (ROOT / "docs" / "kingmaker" / "rulebook.md").read_text()
    for s in SECTIONS:
        assert f"| {s.heading} | {s.first}-{s.last} |" in doc, s.heading
