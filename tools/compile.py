"""Build the compiled variant of Roses' hot modules with mypyc, beside the source.

    python tools/compile.py [--out DIR] [MODULE ...]

compiles the modules of ``MODULES`` (or those named) from the same typed Python source into one
mypyc group, in a separate directory (``build/mypyc`` by default), never next to the ``.py``
files. The directory's ``manifest.json`` names each compiled module's extension file and the
SHA-256 of every source file of the ``roses`` package at build time; ``roses._compiled`` loads the
compiled modules only when asked (``ROSES_COMPILED=1``) and only while every one of those files is
unchanged, so an edited source is never shadowed by an older build. ``./dev compile`` runs this.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from roses._compiled import GROUP, MANIFEST, source_hashes  # noqa: E402

#: The modules compiled, found by trial (bench/plantagenet.md, "Compiled modules"): the
#: Plantagenet rules and its search's copies and evaluation, the search (``roses.ai.ismcts``,
#: ``roses.ai.sim``) and the engine modules they call. ``roses.engine.steps``'s classes, which
#: the other games and the tests subclass in Python, allow interpreted subclasses
#: (``mypyc_attr``). ``roses.engine.contract`` is not compiled. ``components`` stays Python: it
#: finds its data files beside its ``__file__``.
MODULES: list[str] = [
    "roses.ai.ismcts",
    "roses.ai.sim",
    "roses.engine.log",
    "roses.engine.logview",
    "roses.engine.memo",
    "roses.engine.rng",
    "roses.engine.steps",
    *(f"roses.games.plantagenet.{name}" for name in (
        "ai", "arts", "battle", "campaign", "card_rules", "cards", "common", "decks", "effects",
        "endings", "hidden", "levy", "reactions", "records", "rules", "services", "setup",
        "upkeep", "views", "wars",
    )),
]


def build(modules: list[str], out: Path) -> float:
    """Compile ``modules`` into ``out`` (replaced whole), write its manifest; the seconds taken."""
    from mypyc.build import mypycify
    from setuptools import setup

    paths = [str(Path(*m.split(".")).with_suffix(".py")) for m in modules]
    work = out.parent / (out.name + ".work")
    stage = out.parent / (out.name + ".new")
    for d in (work, stage):
        shutil.rmtree(d, ignore_errors=True)
    hashes = source_hashes(ROOT / "roses")
    started = time.perf_counter()
    cwd = Path.cwd()
    # A cache of its own: the type check of `./dev test` may run beside the build (CI does).
    os.environ["MYPY_CACHE_DIR"] = str(work / "mypy_cache")
    os.chdir(ROOT)
    try:
        extensions = mypycify(paths, opt_level="3", target_dir=str(work / "c"), group_name=GROUP)
        os.chdir(work)  # setuptools would read the project's pyproject.toml in the root
        setup(name="roses-compiled", ext_modules=extensions, script_name="tools/compile.py",
              script_args=["--quiet", "build_ext", "--build-lib", str(stage),
                           "--build-temp", str(work / "obj")])
    finally:
        os.chdir(cwd)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    files = {}
    for name in [*modules, f"{GROUP}__mypyc"]:
        rel = Path(*name.split(".")).as_posix() + suffix
        if not (stage / rel).is_file():
            raise SystemExit(f"compile: {rel} was not built")
        files[name] = rel
    if source_hashes(ROOT / "roses") != hashes:
        raise SystemExit("compile: the sources changed during the build; run it again")
    import mypy.version

    manifest = {
        "modules": files,
        "group": GROUP,
        "ext_suffix": suffix,
        "mypy": mypy.version.__version__,
        "sources": hashes,
    }
    (stage / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    shutil.rmtree(out, ignore_errors=True)
    stage.rename(out)
    shutil.rmtree(work, ignore_errors=True)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("modules", nargs="*", help=f"modules to compile (default: {len(MODULES)} hot modules)")
    p.add_argument("--out", type=Path, default=ROOT / "build" / "mypyc",
                   help="the build directory (default build/mypyc)")
    args = p.parse_args(argv)
    modules: list[str] = args.modules or MODULES
    out: Path = args.out.resolve()
    seconds = build(modules, out)
    print(f"compiled {len(modules)} modules into {out} in {seconds:.1f} s; use them with "
          "ROSES_COMPILED=1")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
