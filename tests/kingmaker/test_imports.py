"""The modules of ``roses.games.kingmaker`` import one another without a cycle, and no import
sits inside a function to dodge one: shared helpers live in lower modules (``common``,
``ops``, ``queries``) that the step modules import."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = "roses.games.kingmaker"
ROOT = Path(__file__).resolve().parents[2] / "roses" / "games" / "kingmaker"


def _imported_modules(node: ast.AST, names: set[str]) -> set[str]:
    """The package's modules an import node names (``from pkg import mod`` counts too)."""
    out: set[str] = set()
    if isinstance(node, ast.ImportFrom) and node.module:
        if node.module == PACKAGE:
            out |= {a.name for a in node.names if a.name in names}
        elif node.module.startswith(PACKAGE + "."):
            out.add(node.module.split(".")[3])
    elif isinstance(node, ast.Import):
        for a in node.names:
            if a.name.startswith(PACKAGE + "."):
                out.add(a.name.split(".")[3])
    return out


def import_graph(root: Path = ROOT) -> tuple[dict[str, set[str]], list[tuple[str, int]]]:
    """Module -> the package's modules it imports at module level; and every import of the
    package found inside a function (module, line)."""
    names = {p.stem for p in root.glob("*.py")}
    graph: dict[str, set[str]] = {}
    nested: list[tuple[str, int]] = []
    for mod in sorted(names):
        tree = ast.parse((root / f"{mod}.py").read_text())
        deps: set[str] = set()
        for node in tree.body:
            deps |= _imported_modules(node, names)
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if _imported_modules(node, names):
                        nested.append((mod, node.lineno))
        graph[mod] = deps - {mod}
    return graph, nested


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a path (first module repeated at the end), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                return path[path.index(d):] + [d]
            if d not in state:
                got = visit(d)
                if got:
                    return got
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            got = visit(m)
            if got:
                return got
    return None


def test_kingmaker_modules_import_one_another_without_a_cycle() -> None:
    graph, _ = import_graph()
    assert "play" in graph and "queries" in graph
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_no_import_of_the_package_inside_a_function() -> None:
    _, nested = import_graph()
    assert nested == []


def test_the_cycle_finder_finds_a_cycle(tmp_path: Path) -> None:
    """The check itself: two modules that import each other are reported."""
    (tmp_path / "a.py").write_text(f"from {PACKAGE} import b\n")
    (tmp_path / "b.py").write_text(f"from {PACKAGE}.a import x\n\ndef f():\n    from {PACKAGE} import a\n")
    graph, nested = import_graph(tmp_path)
    assert graph == {"a": {"b"}, "b": {"a"}}
    assert find_cycle(graph) == ["a", "b", "a"]
    assert nested == [("b", 4)]
