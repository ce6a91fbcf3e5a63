"""`roses` takes each game's own sub-commands from its rules' declaration (``cli_commands``),
not from a list of games."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator

import pytest

from roses import cli
from roses.engine.registry import available_games, get_rules


def test_each_declared_module_is_loaded() -> None:
    declared = [get_rules(g).cli_commands for g in available_games()]
    assert [m for m in declared if m]  # some game (Kingmaker) brings commands
    assert cli.extensions() == list(cli.EXTENSIONS) + [m for m in declared if m]
    assert not any(m.startswith("roses.games.") for m in cli.EXTENSIONS)


@pytest.fixture
def stub_commands() -> Iterator[str]:
    """A game's commands module: ``roses stubgame hello``."""
    module = types.ModuleType("tests.stub_commands")

    def register(sub: object, parser: object) -> None:
        p = sub.add_parser("stubgame", help="the stub game's commands")  # type: ignore[attr-defined]
        p.set_defaults(func=lambda args: print("hello from the stub game") or 0)

    module.register = register  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    yield module.__name__
    sys.modules.pop(module.__name__, None)


def test_a_game_declaring_commands_gets_them(stub_commands: str, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    first = available_games()[0]
    rules = get_rules(first)
    monkeypatch.setattr(type(rules), "cli_commands", stub_commands)
    assert cli.main(["stubgame"]) == 0
    assert capsys.readouterr().out == "hello from the stub game\n"
