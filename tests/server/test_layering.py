"""The server, the web layer and the CLI know games only through the contract: no game id in
their code, no import of a game's modules; and the server never imports the web layer (the
web layer depends on the server; the site is put together in ``roses/app.py`` alone)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from roses.engine.registry import KNOWN_GAMES, available_games

ROOT = Path(__file__).resolve().parents[2] / "roses"
SERVER = sorted((ROOT / "server").rglob("*.py"))
WEB = sorted((ROOT / "web").glob("*.py"))
CLI = [ROOT / "cli.py"]


def _imports(path: Path) -> list[tuple[str, int]]:
    """Every module ``path`` imports, at any depth (inside functions too), with its line."""
    out: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.module, node.lineno))
            out += [(f"{node.module}.{a.name}", node.lineno) for a in node.names]
    return out


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT.parent))


def test_no_game_id_in_server_web_or_cli() -> None:
    """As ``grep -rn "kingmaker\\|plantagenet\\|richard3" roses/server roses/web/*.py roses/cli.py``:
    nothing (the installed games' ids too)."""
    ids = sorted(set(KNOWN_GAMES) | set(available_games()))
    pattern = re.compile("|".join(map(re.escape, ids)))
    found = [f"{_rel(p)}:{n}: {line.strip()}" for p in SERVER + WEB + CLI
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert found == []


def test_the_page_loads_each_game_module_its_rules_declare() -> None:
    """The generic client's module loader (static/js/games/index.js) and the page's board
    loader name no game: every game with a client module declares it in its rules."""
    ids = sorted(set(KNOWN_GAMES) | set(available_games()))
    pattern = re.compile("|".join(map(re.escape, ids)))
    for path in (ROOT / "web" / "static" / "js" / "games" / "index.js", ROOT / "web" / "static" / "js" / "board.js"):
        code = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.lstrip().startswith("//")]
        assert [line for line in code if pattern.search(line)] == [], path
    from roses.engine.registry import get_rules
    for game in available_games():
        module = get_rules(game).client_module
        assert module is not None and (ROOT / "web" / "static" / module).is_file(), (game, module)


def test_server_web_and_cli_import_no_game_module() -> None:
    found = [f"{_rel(p)}:{n}: {m}" for p in SERVER + WEB + CLI for m, n in _imports(p)
             if m == "roses.games" or m.startswith("roses.games.")]
    assert found == []


def test_server_never_imports_the_web_layer_or_the_site() -> None:
    found = [f"{_rel(p)}:{n}: {m}" for p in SERVER for m, n in _imports(p)
             if m.split(".")[:2] in (["roses", "web"], ["roses", "app"])]
    assert found == []


def test_the_site_is_assembled_in_one_place() -> None:
    """Only ``roses/app.py`` imports both the server and the web layer's pages to make the site."""
    both = []
    for p in sorted(ROOT.rglob("*.py")):
        mods = {m for m, _ in _imports(p)}
        if any(m.startswith("roses.web") for m in mods) and any(m.startswith("roses.server.app") for m in mods):
            both.append(_rel(p))
    assert both == ["roses/app.py"]
