"""``roses arena --cluster``: the games as tasks on a local Ray instance give the local run's
report (results, seeds, the JSON), but for times."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from typing import Any

import pytest

from roses.cli import main

pytest.importorskip("ray", reason="the cluster extra (ray) is not installed")


def _arena(*extra: str) -> dict[str, Any]:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["arena", "richard3", "--bots", "random,random", "--games", "8", "--seed", "7",
                     "--json", *extra]) == 0
    report = json.loads(out.getvalue())
    report.pop("seconds")
    for bot in report["bots"].values():
        bot.pop("think_s_per_move")
        bot.pop("think_s_per_choice", None)
    return report


@pytest.mark.slow
def test_arena_on_a_local_ray_gives_the_local_report() -> None:
    local = _arena()
    on_ray = _arena("--cluster", "local")
    assert on_ray == local
    assert sum(b["wins"] for b in local["bots"].values()) + local["draws"] + local["unfinished"] == 8


def _pid(_task: int) -> int:
    import os

    return os.getpid()


@pytest.mark.slow
def test_the_games_run_in_ray_workers_in_order() -> None:
    import os

    from roses.ai.cluster import ray_map

    assert os.getpid() not in set(ray_map(_pid, list(range(4)), "local"))
    assert list(ray_map(lambda t: t * t, list(range(300)), "local")) == [t * t for t in range(300)]
