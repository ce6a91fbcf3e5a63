"""The compiled variant (mypyc, ``./dev compile``) and the pure-Python package beside it.

Pure Python is the default and needs no compiler; a compiled build is used only with
``ROSES_COMPILED`` set and only while every source file is the one it was built from
(``roses/_compiled.py``). CI builds it and runs this file, the Plantagenet corpus
(``tests/plantagenet/test_corpus.py``) and some engine tests again with ``ROSES_COMPILED=require``,
so the compiled modules must replay every recorded game to the same digests.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from roses import _compiled
from roses._compiled import GROUP, MANIFEST, CompiledFinder, activate, check, source_hashes

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")
COMPILED = os.environ.get(_compiled.ENV, "") not in ("", "0")


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter, with ``env`` and no ``ROSES_COMPILED*`` of our own."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("ROSES_COMPILED")}
    environ.update(env)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environ, capture_output=True,
                          text=True, timeout=300)


def fake_build(root: Path, package: Path, modules: list[str]) -> Path:
    """A build directory as ``tools/compile.py`` writes it, for ``package`` as it is now, with
    placeholder extension files (enough for the checks; never loaded)."""
    files = {m: Path(*m.split(".")).as_posix() + SUFFIX for m in [*modules, f"{GROUP}__mypyc"]}
    for rel in files.values():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(b"not a real extension")
    manifest = {"modules": files, "group": GROUP, "ext_suffix": SUFFIX,
                "sources": source_hashes(package)}
    (root / MANIFEST).write_text(json.dumps(manifest))
    return root


PLAY = """
import sys
import roses._compiled as c
from roses.games.plantagenet import RULES
from roses.engine.fuzz import bench
out = bench(RULES, "ia-henry-vi", 0, fixed_games=2, views=True)
assert out["actions"] > 100 and out["games"] == 2, out
print(out["compiled"], c.compiled_modules(), out.get("compiled_note", ""))
loaded = [n for n, m in sys.modules.items() if n.startswith("roses.")]
assert all(str(getattr(sys.modules[n], "__file__", "") or "").endswith(".py") for n in loaded)
assert not any(n.split(".")[0] in ("mypy", "mypyc", "setuptools") for n in sys.modules)
"""


def test_the_pure_package_plays_without_compiled_modules(tmp_path: Path) -> None:
    """The default: every module from its ``.py`` file, no compiler or mypyc imported, even with a
    current build directory beside the source (it is used only when asked for)."""
    done = run_python(PLAY, ROSES_COMPILED_DIR=str(fake_build(tmp_path, _compiled.PACKAGE,
                                                              ["roses.engine.rng"])))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "[]"]
    assert done.stderr == ""


def test_the_pure_package_plays_without_mypy_installed() -> None:
    """Where mypy (and so ``mypy_extensions``) is not installed, the engine's steps still load:
    their ``mypyc_attr`` decorator is then one that changes nothing, and every game plays."""
    code = "import sys\nsys.modules['mypy_extensions'] = None  # as if not installed\n" + PLAY + """
from roses.engine.registry import get_rules
for game in ("richard3", "kingmaker"):
    out = bench(get_rules(game), get_rules(game).scenarios[0], 0, fixed_games=1, views=True)
    assert out["actions"] > 0, out
"""
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "[]"]


def test_an_edited_source_is_never_shadowed_by_an_older_build(tmp_path: Path) -> None:
    """The build is checked against every source file of the package: one edit anywhere (here in
    a module that is not itself compiled) and the build is refused."""
    package = tmp_path / "src" / "roses"
    shutil.copytree(_compiled.PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    build = fake_build(tmp_path / "build", package, ["roses.engine.rng"])
    files, reason = check(build, package)
    assert files == {"roses.engine.rng": f"roses/engine/rng{SUFFIX}",
                     f"{GROUP}__mypyc": f"{GROUP}__mypyc{SUFFIX}"}
    assert reason == ""
    fuzz = package / "engine" / "fuzz.py"
    fuzz.write_text(fuzz.read_text() + "# edited\n")
    files, reason = check(build, package)
    assert files is None
    assert "older than the source" in reason


def test_a_build_for_another_interpreter_or_incomplete_is_refused(tmp_path: Path) -> None:
    build = fake_build(tmp_path, _compiled.PACKAGE, ["roses.engine.rng"])
    manifest = json.loads((build / MANIFEST).read_text())
    (build / MANIFEST).write_text(json.dumps({**manifest, "ext_suffix": ".cpython-99.so"}))
    assert check(build) == (None, f"the compiled build in {build} is for another interpreter "
                                  "(run ./dev compile)")
    (build / MANIFEST).write_text(json.dumps(manifest))
    (build / manifest["modules"]["roses.engine.rng"]).unlink()
    assert check(build)[0] is None
    assert check(tmp_path / "nothing")[1].startswith("no compiled build")


def test_a_stale_build_falls_back_to_pure_python_or_fails_when_required(tmp_path: Path) -> None:
    """``ROSES_COMPILED=1`` with a stale build: said on stderr, pure Python runs (the bench says
    so too); ``ROSES_COMPILED=require``: the import fails."""
    build = fake_build(tmp_path, _compiled.PACKAGE, ["roses.engine.rng"])
    manifest = json.loads((build / MANIFEST).read_text())
    manifest["sources"]["roses/engine/rng.py"] = "0" * 64
    (build / MANIFEST).write_text(json.dumps(manifest))
    done = run_python(PLAY, ROSES_COMPILED="1", ROSES_COMPILED_DIR=str(build))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[:2] == ["False", "[]"]
    assert "older than the source" in done.stdout
    assert done.stderr == (f"roses: pure Python: the compiled build in {build} is older than the "
                           "source (run ./dev compile)\n")
    done = run_python("import roses", ROSES_COMPILED="require", ROSES_COMPILED_DIR=str(build))
    assert done.returncode != 0
    assert "ImportError: ROSES_COMPILED=require: the compiled build" in done.stderr


def test_a_current_build_is_found_first(tmp_path: Path) -> None:
    """With a current build, the finder put first on ``sys.meta_path`` names the build's file
    for each compiled module and leaves every other module to the ordinary import."""
    build = fake_build(tmp_path, _compiled.PACKAGE, ["roses.engine.rng"])
    files, _ = check(build)
    assert files is not None
    finder = CompiledFinder(build, files)
    spec = finder.find_spec("roses.engine.rng")
    assert spec is not None and spec.origin == str(build / "roses" / "engine" / f"rng{SUFFIX}")
    assert finder.find_spec("roses.engine.steps") is None
    assert finder.find_spec(f"{GROUP}__mypyc") is not None


@pytest.mark.skipif(not COMPILED, reason="the compiled build is not asked for (ROSES_COMPILED unset)")
def test_the_compiled_build_is_what_is_imported() -> None:
    """Run with ``ROSES_COMPILED`` set (CI, after ``./dev compile``): every module of the build is
    the extension from the build directory, not the ``.py`` file."""
    import roses.games.plantagenet  # noqa: F401  (imports the game's compiled modules)

    assert _compiled.STATUS["used"] is True, _compiled.STATUS
    root = Path(str(_compiled.STATUS["dir"]))
    files, reason = check(root)
    assert files is not None, reason
    wanted = sorted(m for m in files if m.startswith("roses."))
    assert "roses.games.plantagenet.services" in wanted
    for name in wanted:
        __import__(name)
        assert sys.modules[name].__file__ == str(root / files[name])
    assert _compiled.compiled_modules() == wanted
    assert roses.__file__ is not None and roses.__file__.endswith(".py")


def test_activate_without_a_build_changes_nothing(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    finders = list(sys.meta_path)
    status = dict(_compiled.STATUS)
    try:
        assert activate(tmp_path) is False
        assert sys.meta_path == finders
        assert "no compiled build" in capsys.readouterr().err
        with pytest.raises(ImportError):
            activate(tmp_path, require=True)
    finally:
        _compiled.STATUS.clear()
        _compiled.STATUS.update(status)


REPLAY = """
import roses._compiled as c
import roses.ai.ismcts  # (the search's compiled modules: loaded too, as every module of the build)
from roses.games.plantagenet import RULES
from tests.corpus_io import read_records
from tests.plantagenet.corpus_tools import CORPUS, digests
records = read_records(CORPUS)[::20]
for r in records:
    got = digests(RULES, r)
    assert got == {k: r[k] for k in got}, (r["scenario"], r["seed"], r["options"])
print(len(records), len(c.compiled_modules()))
"""


@pytest.mark.skipif(check(_compiled.DEFAULT_DIR)[0] is None,
                    reason="no current compiled build in build/mypyc (./dev compile)")
def test_the_current_build_replays_recorded_games_to_their_digests() -> None:
    """Where ``./dev compile`` has made a build of this very source, the suite also replays
    every twentieth recorded Plantagenet game on it (CI replays them all)."""
    done = run_python(REPLAY, ROSES_COMPILED="require")
    assert done.returncode == 0, done.stderr
    games, modules = map(int, done.stdout.split())
    files, _ = check(_compiled.DEFAULT_DIR)
    assert files is not None
    assert games >= 15 and modules == len([m for m in files if m.startswith("roses.")])


def test_roses_bench_says_whether_it_ran_compiled(capsys: pytest.CaptureFixture[str]) -> None:
    """``roses bench`` names what it measured: the compiled modules, or pure Python."""
    from roses.cli import main

    assert main(["bench", "plantagenet", "--seconds", "0.2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["compiled"] is COMPILED
    assert out["compiled_modules"] == _compiled.compiled_modules()
    assert main(["bench", "plantagenet", "--seconds", "0.2"]) == 0
    line = capsys.readouterr().out
    if COMPILED:
        assert line.rstrip().endswith(f"; compiled: {len(out['compiled_modules'])} modules (mypyc))")
    else:
        assert out["compiled_modules"] == []
        assert line.rstrip().endswith("; pure Python)")


def test_python_subclasses_of_the_engines_steps_keep_their_class_settings() -> None:
    """The engine's steps may be compiled (``roses.engine.steps`` is in the build) while Richard
    III, Kingmaker and the tests subclass them in Python: what such a subclass sets in its class
    body (a step's rule section, a table's ``keep_options``) is what the engine's own code reads,
    compiled or not."""
    from roses.engine.errors import IllegalAction
    from roses.engine.registry import get_rules
    from roses.engine.steps import Step, StepRules, Steps

    class Ask(Step):
        name = "ask"
        rule = "9.9"

        def actors(self, state: dict[str, object], frame: dict[str, object]) -> list[str]:
            return ["North"]

        def options(self, state: dict[str, object], frame: dict[str, object], role: str) -> list[tuple[str, object]]:
            return [("go", None)]

        def on_go(self, state: dict[str, object], frame: dict[str, object], role: str, arg: object) -> None:
            state["result"] = role

    class Kept(Steps):
        keep_options = True

    plain, kept = Steps(Ask()), Kept(Ask())
    assert (plain.keep_options, kept.keep_options) == (False, True)
    assert Ask.verbs == frozenset({"go"})
    state: dict[str, object] = {"result": None, "stack": [{"step": "ask"}], "log": []}
    with pytest.raises(IllegalAction, match=r"not a choice at this point \(9\.9\)"):
        kept.act(state, "North", "stop")
    assert kept.kept_options(state, state["stack"][-1], "North") is None  # type: ignore[index]
    assert kept.options_of(state, state["stack"][-1], Ask(), "North") == [("go", None)]  # type: ignore[index]
    kept.act(state, "North", "go")
    assert state["result"] == "North"
    # the games that set keep_options (Kingmaker in its class body, Richard III on its table)
    for game in ("richard3", "kingmaker"):
        rules = get_rules(game)
        assert isinstance(rules, StepRules) and rules.steps.keep_options is True
