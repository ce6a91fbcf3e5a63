"""The rules references of the games: our own summaries, numbered like each rulebook.

A reference is ``roses/web/rules/<game id>.md`` in a small text format:

* a header of ``key: value`` lines (``title``, ``about``, ``summary``: what the game is, for
  the front page) up to the first blank line;
* sections opened by ``## <number> <title>`` or ``### <number> <title>`` (the number is the
  rulebook's, e.g. ``6.9``; ``##`` for a chapter, ``###`` for a section in it);
* paragraphs of text, and lists of lines starting with ``- ``; ``**bold**`` and section
  numbers in parentheses, ``(6.9)``, become emphasis and links;
* an optional section ``## cards Cards`` whose list lines ``- **Name** (...): text`` give the
  text of each card (several names separated by commas share one text).

:func:`reference` returns it parsed (sections in order, card texts), :func:`section_html`
one section as HTML. The page ``/rules/<game>`` shows it all, ``/rules/<game>.json`` gives it
to the game page, which links every section number of the log and prompts to it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

RULES_DIR = Path(__file__).parent / "rules"
_HEADING = re.compile(r"^(#{2,3}) (\S+) (.+)$")
_REF = re.compile(r"\((?:rule |rules |see )?(\d+(?:\.\d+)*)([a-z]?)\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CARD = re.compile(r"^\*\*(.+?)\*\*(?: \(([^)]*)\))?: (.+)$")


@dataclass
class Section:
    """One numbered section: ``number`` as in the rulebook, ``level`` 2 (chapter) or 3."""

    number: str
    title: str
    level: int
    blocks: list[tuple[str, list[str]]] = field(default_factory=list)  # ("p"|"ul", lines)

    @property
    def anchor(self) -> str:
        return section_anchor(self.number)


@dataclass
class Reference:
    game: str
    title: str
    about: str
    sections: list[Section]
    cards: dict[str, str]
    summary: str = ""

    def find(self, number: str) -> Section | None:
        """The section ``number``, else its first subsection, else the nearest one above it
        (6.91 -> 6.9 -> 6.0); a chapter is numbered like the rulebook, ``6.0``, and ``6``
        finds it too."""
        by = {s.number: s for s in self.sections}
        if number not in by:  # a heading the reference leaves out: its first subsection (1.9 -> 1.9.1)
            child = next((s for s in self.sections if s.number.startswith(number + ".")), None)
            if child is not None:
                return child
        parts = number.split(".")
        while parts:
            key = ".".join(parts)
            found = by.get(key) or (by.get(f"{key}.0") if len(parts) == 1 else None)
            if found is not None:
                return found
            last = parts[-1]
            if len(parts) > 1 and len(last) > 1:
                parts[-1] = last[:-1]  # 6.91 -> 6.9
            else:
                parts.pop()
        return None


def section_anchor(number: str) -> str:
    """The HTML id of a section: ``s6-9`` for 6.9."""
    return "s" + number.replace(".", "-")


def available() -> list[str]:
    """Games that have a rules reference."""
    return sorted(p.stem for p in RULES_DIR.glob("*.md"))


@cache
def reference(game: str) -> Reference | None:
    """The parsed reference of ``game``, or None when it has none."""
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", game):  # a game id; a longer name is no file name
        return None
    path = RULES_DIR / f"{game}.md"
    if not path.is_file():
        return None
    return parse(game, path.read_text(encoding="utf-8"))


def parse(game: str, text: str) -> Reference:
    head, _, body = text.partition("\n\n")
    meta = dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)
    sections: list[Section] = []
    cards: dict[str, str] = {}
    current: Section | None = None
    para: list[str] = []
    items: list[str] = []

    def flush() -> None:
        nonlocal para, items
        if current is not None:
            if para:
                current.blocks.append(("p", [" ".join(para)]))
            if items:
                current.blocks.append(("ul", items))
        para, items = [], []

    for line in body.splitlines():
        m = _HEADING.match(line)
        if m:
            flush()
            current = Section(m.group(2), m.group(3).strip(), len(m.group(1)))
            sections.append(current)
        elif not line.strip():
            flush()
        elif line.startswith("- "):
            if para:
                flush()
            items.append(line[2:].strip())
        elif items:
            items[-1] += " " + line.strip()
        else:
            para.append(line.strip())
    flush()
    for s in sections:
        if s.number != "cards":
            continue
        for kind, lines in s.blocks:
            for line in lines if kind == "ul" else []:
                m = _CARD.match(line)
                if m:
                    text = (f"{m.group(2)}: " if m.group(2) else "") + m.group(3)
                    for name in m.group(1).split(", "):
                        cards[name.strip()] = text
    return Reference(game, meta.get("title", game), meta.get("about", ""),
                     [s for s in sections if s.number != "cards"], cards, meta.get("summary", ""))


def inline_html(text: str, game: str) -> str:
    """Escape ``text``; bold and section-number links (``(6.9)``) as HTML."""
    out = html.escape(text, quote=False)
    out = _BOLD.sub(r"<strong>\1</strong>", out)

    ref = reference(game)

    def link(m: re.Match[str]) -> str:
        number = m.group(1)
        found = ref.find(number) if ref is not None else None
        if found is None:
            return f'<span class="rule-ref">{m.group(0)}</span>'
        return (f'<a class="rule-ref rule-link" href="/rules/{game}#{found.anchor}" '
                f'data-section="{found.number}">{m.group(0)}</a>')

    return _REF.sub(link, out)


def section_html(section: Section, game: str) -> str:
    """The body of a section as HTML (paragraphs and lists, links to other sections)."""
    parts = []
    for kind, lines in section.blocks:
        if kind == "p":
            parts.append(f"<p>{inline_html(lines[0], game)}</p>")
        else:
            parts.append("<ul>" + "".join(f"<li>{inline_html(x, game)}</li>" for x in lines) + "</ul>")
    return "".join(parts)


def as_json(ref: Reference) -> dict[str, object]:
    """What the game page loads: sections (number, title, level, HTML) and card texts."""
    return {"game": ref.game, "title": ref.title, "about": ref.about,
            "sections": [{"number": s.number, "title": s.title, "level": s.level,
                          "anchor": s.anchor, "html": section_html(s, ref.game)} for s in ref.sections],
            "cards": ref.cards}
