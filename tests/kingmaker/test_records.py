"""The records agree with the code: every test RULINGS.md and docs/kingmaker/coverage.md name
exists, every ruling coverage.md cites is in RULINGS.md, and coverage.md has the 150 items."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULINGS = ROOT / "roses" / "games" / "kingmaker" / "RULINGS.md"
COVERAGE = ROOT / "docs" / "kingmaker" / "coverage.md"


def _test_names() -> set[str]:
    names: set[str] = set()
    for f in (ROOT / "tests").rglob("test_*.py"):
        names.update(re.findall(r"^def (test_\w+)", f.read_text(), re.M))
    return names


def test_every_named_test_exists() -> None:
    names = _test_names()
    missing = []
    for doc in (RULINGS, COVERAGE):
        for m in re.finditer(r"::(test_\w+)(\*?)", doc.read_text()):
            if not m.group(2) and m.group(1) not in names:
                missing.append(f"{doc.name}: {m.group(1)}")
    assert missing == []


def test_every_cited_ruling_exists_and_the_checklist_is_whole() -> None:
    rulings = set(re.findall(r"^\| (K\d+) \|", RULINGS.read_text(), re.M))
    text = COVERAGE.read_text()
    cited = set(re.findall(r"\b(K\d+)\b", text))
    assert cited <= rulings, sorted(cited - rulings)
    checklist = text.split("## Beyond the checklist")[0]
    items = [int(n) for n in re.findall(r"^\| (\d+) \|", checklist, re.M)]
    assert items == list(range(1, 151))
    for line in checklist.splitlines():
        if re.match(r"^\| \d+ \|", line):
            tests = line.rstrip(" |").rsplit(" | ", 1)[1]
            assert "test_" in tests or tests == "same", line[:60]
