"""The load benchmark, small: a real server subprocess, bot players over HTTP and WebSocket,
nothing lost or duplicated (no timing assertions)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from roses import cli
from roses.server import loadbench
from roses.server.loadbench import Accepted, check_log, percentile

KEYS = {"games", "actions", "actions_per_s", "p50_ms", "p95_ms", "p99_ms", "lost", "duplicated"}


def test_percentile() -> None:
    assert percentile([], 99) == 0.0
    assert percentile([5.0], 50) == 5.0
    values = [float(i) for i in range(1, 101)]
    assert percentile(values, 50) in (50.0, 51.0)
    assert percentile(values, 99) == 99.0


def test_cli_registration() -> None:
    parser = cli.build_parser()
    args = parser.parse_args(["bench", "server", "--games", "3", "--db", "sqlite:///x.db", "--json"])
    assert (args.target, args.games, args.db, args.json) == ("server", 3, "sqlite:///x.db", True)
    assert "server" in cli.BENCH_TARGETS


def test_module_entry_point_finds_the_bench_targets(monkeypatch: pytest.MonkeyPatch) -> None:
    """`python -m roses.cli bench server` finds the target the server's extension registers
    (the module runs as __main__; the extension registers with roses.cli)."""
    import runpy
    import sys

    from roses.server import loadbench as bench_module

    seen: list[int] = []
    monkeypatch.setattr(bench_module, "cmd_bench_server", lambda args: seen.append(args.games) or 0)
    monkeypatch.setattr(sys, "argv", ["roses.cli", "bench", "server", "--games", "3"])
    with pytest.warns(RuntimeWarning), pytest.raises(SystemExit) as ended:  # roses.cli is imported already
        runpy.run_module("roses.cli", run_name="__main__")
    assert ended.value.code == 0 and seen == [3]


@pytest.mark.slow
def test_small_bench_run(capsys: pytest.CaptureFixture[str]) -> None:
    args = cli.build_parser().parse_args(["bench", "server", "--games", "5", "--moves", "12", "--think",
                                          "0.01", "--max-seconds", "60", "--json"])
    assert cli.BENCH_TARGETS["server"](args) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert set(out) >= KEYS
    assert out["games"] == 5 and out["actions"] > 0
    assert out["lost"] == 0 and out["duplicated"] == 0
    assert out["refused"] == 0 and out["errors"] == []
    # what else used the machine meanwhile: the client played, no local PostgreSQL was asked
    assert out["client_cpu_s"] > 0 and out["database_cpu_s"] >= 0
    assert 0 < out["machine_busy"] <= 1 and out["machine_cores"] >= 1 and isinstance(out["pinned"], bool)
    # every socket brought its first view; the actions sent afterwards are a part of all
    assert out["sockets_open_s"] is not None and 0 <= out["sockets_open_s"] <= out["seconds"]
    assert 0 <= out["after_open_actions"] <= out["actions"]
    assert out["after_open_p99_ms"] <= out["max_ms"]


def test_latencies_after_the_sockets_opened() -> None:
    """The split of the latencies at the moment the last socket brought its first view."""
    stats = loadbench.Stats(latencies=[0.5, 0.01, 0.02], sent=[10.5, 12.0, 13.0], started=10.0,
                            first_views=[10.2, 11.0])
    opened, later = loadbench.after_open(stats, 2)
    assert opened == pytest.approx(1.0)
    assert later == pytest.approx([10.0, 20.0])  # the action sent at 10.5 waited for the openings
    # a socket that never brought a view: no split, every action counts
    assert loadbench.after_open(stats, 3) == (None, pytest.approx([500.0, 10.0, 20.0]))
    assert loadbench.after_open(stats, 0)[0] is None


def test_the_client_collector_is_kept_quiet_while_the_games_are_played() -> None:
    """Only the youngest generation is collected during play, what set-up made is frozen,
    and the thresholds are handed back afterwards, also after a failure."""
    import gc

    saved = gc.get_threshold()
    kept = [[i] for i in range(1000)]  # containers made before play: frozen out of sight
    with loadbench.quiet_collector():
        young, middle, oldest = gc.get_threshold()
        assert young == saved[0] and middle == oldest == loadbench.NEVER
        assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold() == saved
    with pytest.raises(RuntimeError), loadbench.quiet_collector():
        raise RuntimeError("a failed run")
    assert gc.get_threshold() == saved and gc.get_freeze_count() == 0


def test_check_log_counts(sqlite_db: Any) -> None:
    """lost/duplicated as the bench counts them, on a hand-made log."""
    import sqlalchemy as sa

    from roses.server import db

    with sqlite_db.write() as conn:
        conn.execute(db.users.insert().values(id=1, name="u", name_key="u", password_hash="!", notify=False,
                                              created_at=0))
        conn.execute(db.games.insert().values(id=1, game="toy", scenario="standard", options="{}", title="t",
                                              is_private=False, status="active", version=3, active="[]",
                                              created_at=0, updated_at=0))
        conn.execute(db.actions.insert(), [
            {"game_id": 1, "seq": 1, "role": "North", "verb": "pick", "arg": "1", "created_at": 0},
            {"game_id": 1, "seq": 2, "role": "South", "verb": "pick", "arg": "2", "created_at": 0},
            {"game_id": 1, "seq": 3, "role": "North", "verb": "roll", "arg": "null", "created_at": 0},
        ])
        assert conn.execute(sa.select(sa.func.count()).select_from(db.actions)).scalar() == 3
    seen = [Accepted(1, 1, "North", "pick", 1), Accepted(1, 2, "South", "pick", 2)]
    assert check_log(sqlite_db, seen, [1]) == (0, 1)  # seq 3 was never seen accepted
    seen.append(Accepted(1, 3, "North", "roll", None))
    assert check_log(sqlite_db, seen, [1]) == (0, 0)
    seen.append(Accepted(1, 4, "South", "roll", None))  # accepted but not stored
    seen.append(Accepted(1, 3, "North", "roll", None))  # accepted twice
    assert check_log(sqlite_db, seen, [1]) == (1, 1)


def test_pick_game() -> None:
    assert loadbench.pick_game(None) == "richard3"
    assert loadbench.pick_game("plantagenet") == "plantagenet"


def test_machine_and_database_cpu_figures() -> None:
    """The figures that tell whether the server or the machine was the limit: the machine's
    busy and total clock ticks only grow, busy within total; the database's CPU is a time."""
    busy0, total0 = loadbench._machine_ticks()
    sum(i * i for i in range(200_000))  # some work between the two readings
    busy1, total1 = loadbench._machine_ticks()
    assert 0 <= busy0 <= total0 and 0 <= busy1 <= total1
    assert busy1 >= busy0 and total1 >= total0
    assert loadbench._database_cpu() >= 0.0


def test_the_bench_pins_one_server_process_and_the_client_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """One server process gets a core of its own, the client the others; several processes,
    or a single core, are not pinned."""
    monkeypatch.setattr(loadbench.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    assert loadbench.split_cpus(1) == ({0}, {1, 2, 3})
    assert loadbench.split_cpus(2) is None
    monkeypatch.setattr(loadbench.os, "sched_getaffinity", lambda pid: {5}, raising=False)
    assert loadbench.split_cpus(1) is None


def test_a_pinned_server_runs_on_its_core(tmp_path: Any) -> None:
    """The server and everything it starts inherit the CPUs it was given."""
    import os

    if not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs CPU affinity and two CPUs")
    core = min(os.sched_getaffinity(0))
    server = loadbench.ServerProcess(f"sqlite:///{tmp_path}/pin.db", cpus={core})
    with server:
        assert server.proc is not None
        for pid in loadbench._tree(server.proc.pid):
            assert os.sched_getaffinity(pid) == {core}
