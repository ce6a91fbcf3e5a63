"""The compiled variant of the hot modules (mypyc), used only when asked and only while current.

``tools/compile.py`` (``./dev compile``) compiles some modules of this package with mypyc, from the
same typed source, into a directory of their own (``build/mypyc`` beside the package), never next
to the ``.py`` files: the pure-Python package is the default and needs no compiler. With
``ROSES_COMPILED=1`` in the environment, ``import roses`` reads that directory's manifest and, when
every source file of the package is byte for byte the one the build was made from (SHA-256) and the
interpreter takes the same extension files, puts a finder first on ``sys.meta_path`` that loads
the compiled modules from there. Otherwise it says why on stderr and everything runs as pure
Python: an edited source is never shadowed by an older build. ``ROSES_COMPILED=require`` raises
``ImportError`` instead. ``ROSES_COMPILED_DIR`` names another build directory.

Every source file counts, not only the compiled ones: mypyc builds a module against the types of
what it imports (class layouts, ``Final`` values copied in), so an edit anywhere may change it.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

GROUP = "roses_compiled"  # the mypyc group: its shared library is ``roses_compiled__mypyc``
MANIFEST = "manifest.json"
ENV = "ROSES_COMPILED"
PACKAGE = Path(__file__).resolve().parent
DEFAULT_DIR = PACKAGE.parent / "build" / "mypyc"

#: What ``activate`` found: ``used`` (bool), ``dir`` and, when not used, ``reason``.
STATUS: dict[str, object] = {"used": False, "reason": f"{ENV} not set"}


def source_hashes(package: Path = PACKAGE) -> dict[str, str]:
    """The SHA-256 of every ``.py`` file of ``package``, by path from its parent, sorted."""
    return {
        path.relative_to(package.parent).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(package.rglob("*.py"))
    }


class CompiledFinder:
    """Finds the modules a build compiled, in the build's directory (a ``sys.meta_path`` finder)."""

    def __init__(self, root: Path, files: dict[str, str]) -> None:
        self.root = root
        self.files = files

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        rel = self.files.get(fullname)
        if rel is None:
            return None
        location = str(self.root / rel)
        loader = importlib.machinery.ExtensionFileLoader(fullname, location)
        return importlib.util.spec_from_file_location(fullname, location, loader=loader)


def check(root: Path, package: Path = PACKAGE) -> tuple[dict[str, str] | None, str]:
    """The build in ``root`` as {module: extension file}, if it may be used, else None and why."""
    try:
        manifest = json.loads((root / MANIFEST).read_text())
    except (OSError, ValueError):
        return None, f"no compiled build in {root} (run ./dev compile)"
    if manifest.get("ext_suffix") != sysconfig.get_config_var("EXT_SUFFIX"):
        return None, f"the compiled build in {root} is for another interpreter (run ./dev compile)"
    if manifest.get("sources") != source_hashes(package):
        return None, f"the compiled build in {root} is older than the source (run ./dev compile)"
    files: dict[str, str] = manifest.get("modules", {})
    missing = sorted(rel for rel in files.values() if not (root / rel).is_file())
    if not files or missing:
        return None, f"the compiled build in {root} is incomplete (run ./dev compile)"
    return files, ""


def activate(root: Path | None = None, require: bool = False) -> bool:
    """Load the compiled modules of ``root`` from now on, if current; say why not on stderr."""
    root = Path(os.environ.get("ROSES_COMPILED_DIR") or DEFAULT_DIR) if root is None else root
    STATUS.clear()
    STATUS["dir"] = str(root)
    files, reason = check(root)
    if files is None:
        STATUS.update(used=False, reason=reason)
        if require:
            raise ImportError(f"{ENV}=require: {reason}")
        print(f"roses: pure Python: {reason}", file=sys.stderr)
        return False
    if not any(isinstance(f, CompiledFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, CompiledFinder(root, files))
    STATUS.update(used=True, modules=sorted(m for m in files if m.startswith("roses.")))
    return True


def activate_from_environment() -> None:
    """``activate`` as ``ROSES_COMPILED`` asks: unset, empty or 0 is pure Python."""
    value = os.environ.get(ENV, "")
    if value not in ("", "0"):
        activate(require=value == "require")


def compiled_modules() -> list[str]:
    """The modules of this package running compiled now (loaded from a compiled build), sorted."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return sorted(
        name for name, module in list(sys.modules.items())
        if name.startswith("roses.") and str(getattr(module, "__file__", "") or "").endswith(suffix)
    )


def compiled_summary() -> dict[str, object]:
    """What a benchmark ran: ``compiled`` (any module compiled), ``compiled_modules`` and, when
    the compiled build was asked for but not used, ``compiled_note`` (why)."""
    modules = compiled_modules()
    out: dict[str, object] = {"compiled": bool(modules), "compiled_modules": modules}
    if not modules and os.environ.get(ENV, "") not in ("", "0"):
        out["compiled_note"] = STATUS.get("reason", "")
    return out


def describe(summary: dict[str, object]) -> str:
    """``compiled_summary`` in words, for a benchmark's line."""
    modules = summary.get("compiled_modules") or []
    assert isinstance(modules, list)
    if modules:
        return f"compiled: {len(modules)} modules (mypyc)"
    note = summary.get("compiled_note")
    return f"pure Python ({note})" if note else "pure Python"
