"""Several ``roses serve`` processes behind HAProxy on one PostgreSQL database.

``python -m roses.server.cluster --db postgresql://... --servers 3`` (or
``deploy/start-cluster.sh``) starts the servers on consecutive loopback ports, writes the
HAProxy configuration for them (:func:`haproxy_config`, the text of ``deploy/haproxy.cfg``)
and runs HAProxy in the foreground of this process; Ctrl-C stops everything. On separate hosts
each host runs ``roses serve --host 0.0.0.0 --port P --db URL`` and the balancer's host runs
HAProxy with one ``server`` line per host.

The cluster test (tests/server/test_cluster.py) and ``roses bench server --balancer N`` use
:class:`Cluster`.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from roses.server.loadbench import ServerProcess, free_port

HEADER = """\
# HAProxy in front of several `roses serve` processes (each on its own host, or its own port)
# that share one PostgreSQL database. Sample for three servers; `deploy/start-cluster.sh`
# (python -m roses.server.cluster) writes the same file with the servers it starts.
#
#   haproxy -f deploy/haproxy.cfg          (Debian: apt-get install haproxy)
#
# What each part does:
# - every request that names a game (/api/games/ID/..., /games/ID...) goes to the server chosen
#   by a consistent hash of the game id: a game's sockets, actions and pages are in one server
#   process (its games stay in that server's memory); other requests are spread in turn;
# - a server that fails its health check (GET /api/health) is taken out within about two
#   seconds: its games are hashed to the servers that remain (only its games move), and the
#   clients reconnect by themselves; when it is back its games come back to it;
# - a WebSocket stays on the server it was opened on (the connection is a tunnel);
# - scheduled work (clocks, deadlines, reminders, vacations, mail) is shared through the
#   database (row leases, a leader lock): no balancer setting is needed for it.
"""

BODY = """
global
    # connections at once (each takes two file descriptors: raise `ulimit -n` for more)
    maxconn 8000

defaults
    mode http
    option forwardfor
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    # an open WebSocket (the server's clients ping it) may stay quiet this long
    timeout tunnel 1h
    timeout http-keep-alive 10s
    # a connection that could not be made is tried again on another server; a request that
    # reached a server is never sent twice (actions are not idempotent)
    retries 2
    option redispatch 1

frontend roses
    bind {bind}
    default_backend roses

backend roses
    # the game id of the path: /api/games/ID/... and /games/ID...
    http-request set-var(txn.game) path,field(4,/) if {{ path_beg /api/games/ }}
    http-request set-var(txn.game) path,field(3,/) if {{ path_beg /games/ }}
    balance hash var(txn.game)
    hash-type consistent
    option httpchk GET /api/health
    http-check expect status 200
    # which server answered (for operators and the cluster test)
    http-response set-header X-Roses-Server %s
    default-server inter {inter} fall 2 rise 2 on-marked-down shutdown-sessions
"""


def haproxy_config(servers: Sequence[tuple[str, str]], bind: str = "127.0.0.1:8080", *,
                   inter: str = "1s") -> str:
    """The HAProxy configuration for ``servers`` ([(name, "host:port")]) listening on ``bind``;
    ``inter`` is the period of the health checks (a server is out after two failed ones)."""
    lines = [f"    server {name} {address} check" for name, address in servers]
    return HEADER + BODY.format(bind=bind, inter=inter) + "\n".join(lines) + "\n"


def _wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"haproxy exited with status {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.05)
    raise RuntimeError(f"haproxy did not listen on port {port} within {timeout:.0f} s")


class Cluster:
    """``count`` servers on one database behind one HAProxy (all on loopback)."""

    def __init__(self, db_url: str, count: int, *, port: int | None = None, first_port: int | None = None,
                 workdir: Path | None = None, env: dict[str, str] | None = None, inter: str = "1s",
                 log_level: str = "warning") -> None:
        if shutil.which("haproxy") is None:
            raise RuntimeError("haproxy is not installed (Debian: apt-get install haproxy)")
        self.workdir = workdir or Path(tempfile.mkdtemp(prefix="roses-cluster-"))
        self.port = port or free_port()
        ports = [first_port + i for i in range(count)] if first_port else [free_port() for _ in range(count)]
        self.servers = [ServerProcess(db_url, p, log_path=self.workdir / f"s{i + 1}.log", env=env,
                                      log_level=log_level) for i, p in enumerate(ports)]
        self.inter = inter
        self.haproxy: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def names(self) -> list[str]:
        return [f"s{i + 1}" for i in range(len(self.servers))]

    def config(self) -> str:
        return haproxy_config([(n, f"127.0.0.1:{s.port}") for n, s in zip(self.names(), self.servers, strict=True)],
                              f"127.0.0.1:{self.port}", inter=self.inter)

    def start(self, timeout: float = 60.0) -> None:
        # one after the other: the first migrates the schema
        for server in self.servers:
            server.start(timeout)
        path = self.workdir / "haproxy.cfg"
        path.write_text(self.config())
        log = open(self.workdir / "haproxy.log", "ab")  # noqa: SIM115 - closed with the process
        self.haproxy = subprocess.Popen(["haproxy", "-db", "-f", str(path)], stdout=log, stderr=log,
                                        start_new_session=True)
        log.close()
        _wait_port(self.port, self.haproxy, timeout)

    def rss_bytes(self) -> int:
        """Resident memory of the servers (not HAProxy)."""
        return sum(s.rss_bytes() for s in self.servers)

    def cpu_seconds(self) -> float:
        """CPU time of the servers and of HAProxy so far."""
        from roses.server.loadbench import _cpu

        own = _cpu(self.haproxy.pid) if self.haproxy is not None else 0.0
        return own + sum(s.cpu_seconds() for s in self.servers)

    def stop(self) -> None:
        if self.haproxy is not None and self.haproxy.poll() is None:
            self.haproxy.send_signal(signal.SIGTERM)
            try:
                self.haproxy.wait(10)
            except subprocess.TimeoutExpired:
                self.haproxy.kill()
                self.haproxy.wait(10)
        for server in self.servers:
            server.stop()

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m roses.server.cluster",
                                description="Start N roses servers on one PostgreSQL database behind HAProxy.")
    p.add_argument("--db", required=True, help="postgresql://user:password@host/database")
    p.add_argument("--servers", type=int, default=3)
    p.add_argument("--port", type=int, default=8080, help="the balancer's port")
    p.add_argument("--first-port", type=int, default=8001, help="the servers' ports: this one and the next")
    p.add_argument("--workdir", type=Path, help="where the configuration and the logs go (default: a temporary directory)")
    args = p.parse_args(argv)
    cluster = Cluster(args.db, args.servers, port=args.port, first_port=args.first_port, workdir=args.workdir,
                      log_level="info")
    def _stop(*_: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _stop)  # stopped by a service manager: stop everything
    cluster.start()
    print(f"{args.servers} servers behind http://127.0.0.1:{args.port}/ (config and logs: {cluster.workdir})",
          flush=True)
    try:
        assert cluster.haproxy is not None
        cluster.haproxy.wait()
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
