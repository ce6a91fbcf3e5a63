"""Storage: the schema (SQLAlchemy Core), engines for SQLite and PostgreSQL, migrations.

SQLite (the default) runs in WAL mode with ``synchronous=FULL`` (every commit is on disk
before it is acknowledged) and a busy timeout; every write transaction starts
with ``BEGIN IMMEDIATE`` so that read-then-write transactions never fail half way with
``SQLITE_BUSY``. PostgreSQL is reached through psycopg 3. The schema is created and upgraded
by the Alembic migrations in :mod:`roses.server.migrations`; :data:`metadata` mirrors them
(a test checks that the two agree).

Tables
    ``users``, ``sessions`` and ``api_tokens`` (only hashes of session and API tokens are
    stored), ``games`` (one row per game with its ``version`` and who may act),
    ``seats`` (a user or a bot per role; ``clock``/``active_since`` for time control),
    ``actions`` (the append-only action log: the authority), ``snapshots`` (the state without
    its log each time the set of active roles changes), ``log_entries`` (the game log, a row
    per entry), ``chat`` and ``notes`` (private per player and role).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

metadata = sa.MetaData()

#: The largest value of an ``Integer`` column on every supported database (PostgreSQL's
#: ``integer``); ids and counters from requests are checked against it.
INT_MAX = 2**31 - 1

users = sa.Table(
    "users", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("name_key", sa.String(40), nullable=False, unique=True),
    sa.Column("password_hash", sa.Text, nullable=False),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("is_admin", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("notify", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("created_at", sa.Float, nullable=False),
    # Migration 0002 (notifications)
    sa.Column("webhook_url", sa.String(500), nullable=True),
    sa.Column("webhook_format", sa.String(16), nullable=True),
    sa.Column("webhook_error", sa.Text, nullable=True),
    sa.Column("webhook_error_at", sa.Float, nullable=True),
    # Migration 0006 (e-mail verification): the address was confirmed by its link; the pending
    # link's secret (SHA-256) and when it was sent.
    sa.Column("email_verified", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("email_token", sa.String(64), nullable=True),
    sa.Column("email_token_at", sa.Float, nullable=True),
    sa.Index("ix_users_email_token", "email_token", unique=True),
)

sessions = sa.Table(
    "sessions", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

api_tokens = sa.Table(
    "api_tokens", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("last_used", sa.Float, nullable=True),
)

games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("scenario", sa.String(80), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("title", sa.String(120), nullable=False),
    sa.Column("owner_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    sa.Column("is_private", sa.Boolean, nullable=False),
    sa.Column("invite_token", sa.String(64), nullable=True),
    # "open" (waiting for players), "active", "finished"
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("seed", sa.BigInteger, nullable=True),
    # Number of actions in the log; requests carry it and a stale one is refused.
    sa.Column("version", sa.Integer, nullable=False, server_default="0"),
    # Not written: the state lives in ``snapshots`` and ``log_entries`` (roses.server.store).
    sa.Column("state", sa.Text, nullable=True),
    sa.Column("active", sa.Text, nullable=False, server_default=""),
    sa.Column("result", sa.String(200), nullable=True),
    sa.Column("pace", sa.String(16), nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Column("started_at", sa.Float, nullable=True),
    sa.Column("finished_at", sa.Float, nullable=True),
    # Migration 0002 (clocks): earliest time an active seat's clock runs out; scheduler lease.
    sa.Column("clock_deadline", sa.Float, nullable=True, index=True),
    sa.Column("lease_until", sa.Float, nullable=True),
)

seats = sa.Table(
    "seats", metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("role", sa.String(40), primary_key=True),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True),
    sa.Column("bot", sa.String(80), nullable=True),
    # Time control (seconds left; when this seat last became active).
    sa.Column("clock", sa.Float, nullable=True),
    sa.Column("active_since", sa.Float, nullable=True),
    # Migration 0007: seconds its bot has thought in this game (the per-game cap).
    sa.Column("bot_seconds", sa.Float, nullable=False, server_default="0"),
)

actions = sa.Table(
    "actions", metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("role", sa.String(40), nullable=False),
    sa.Column("verb", sa.String(80), nullable=False),
    sa.Column("arg", sa.Text, nullable=False),
    sa.Column("user_id", sa.Integer, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

snapshots = sa.Table(
    "snapshots", metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    # The state after action ``seq`` (0: after setup).
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("active", sa.Text, nullable=False),
    sa.Column("state", sa.Text, nullable=False),
    # Migration 0008: the state is stored with an empty log; its log is the first ``log_len``
    # rows of ``log_entries``. NULL: ``state`` holds its whole log (roses.server.store).
    sa.Column("log_len", sa.Integer, nullable=True),
)

# Migration 0008: the log (``state["log"]``) of each game at its current version, one row per
# entry, so that an action appends its entries instead of rewriting the whole log.
log_entries = sa.Table(
    "log_entries", metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("entry", sa.Text, nullable=False),
)

chat = sa.Table(
    "chat", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

# Migration 0004: a note belongs to the player who wrote it (whoever holds the seat later
# does not see it).
notes = sa.Table(
    "notes", metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("role", sa.String(40), primary_key=True),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)

# Migration 0002: queued notifications and live connections (owned by notify.py / ws presence).
outbox = sa.Table(
    "outbox", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("channel", sa.String(16), nullable=False),
    sa.Column("target", sa.String(500), nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("next_at", sa.Float, nullable=False),
    sa.Column("lease_until", sa.Float, nullable=True),
    sa.Column("lease_owner", sa.String(64), nullable=True),
    sa.Column("last_error", sa.Text, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Index("ix_outbox_status_next_at", "status", "next_at"),
)

presence = sa.Table(
    "presence", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("worker", sa.String(64), nullable=False),
    sa.Column("seen_at", sa.Float, nullable=False),
)

# Migration 0005: atomic rate limits (roses.server.limits) and browsers users logged in from.
throttle = sa.Table(
    "throttle", metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("count", sa.Integer, nullable=False),
    sa.Column("since", sa.Float, nullable=False, index=True),
    sa.Column("blocked_until", sa.Float, nullable=False),
)

login_devices = sa.Table(
    "login_devices", metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

# Migration 0009: reminders sent before deadlines, and vacations (roses.server.attendance).
reminders_sent = sa.Table(
    "reminders_sent", metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("role", sa.String(40), primary_key=True),
    sa.Column("due", sa.Float, primary_key=True),
    sa.Column("sent_at", sa.Float, nullable=False),
)

vacations = sa.Table(
    "vacations", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("role", sa.String(40), nullable=False),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("start", sa.Float, nullable=False),
    sa.Column("until", sa.Float, nullable=False, index=True),
    sa.Column("bot", sa.String(80), nullable=True),
    sa.Column("seated", sa.Boolean, nullable=False, server_default=sa.false()),
)

# Migration 0010: the actions the server played as a published default (roses.server.deadlines).
defaults_played = sa.Table(
    "defaults_played", metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("role", sa.String(40), nullable=False),
    sa.Column("reason", sa.String(16), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

# Migration 0011: private messages between seats (roses.server.messages): a channel is a set of
# seats (members, a JSON list) with or without the umpire's copy.
channels = sa.Table(
    "channels", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("members", sa.Text, nullable=False),
    sa.Column("umpire", sa.Integer, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

channel_messages = sa.Table(
    "channel_messages", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("channel_id", sa.Integer, sa.ForeignKey("channels.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("role", sa.String(40), nullable=False),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

# Migration 0012: every change of a running game's seats, public to whoever may see the game
# (roses.server.tables); e-mail orders already processed, by Message-ID and content digest
# (roses.server.mailin).
seat_changes = sa.Table(
    "seat_changes", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("role", sa.String(40), nullable=False),
    sa.Column("from_user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    sa.Column("from_name", sa.String(80), nullable=True),
    sa.Column("to_user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    sa.Column("to_name", sa.String(80), nullable=True),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

mail_seen = sa.Table(
    "mail_seen", metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False, index=True),
)

ALL_TABLES = ("mail_seen", "seat_changes", "channel_messages", "channels", "defaults_played", "reminders_sent", "vacations", "throttle", "login_devices", "outbox", "presence", "notes", "chat", "log_entries", "snapshots", "actions", "seats", "games", "api_tokens", "sessions", "users")


def default_sqlite_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("roses", appauthor=False)) / "roses.db"


def normalize_url(url: str | None) -> str:
    """A SQLAlchemy URL from what a user gives: a SQLite/PostgreSQL URL, or nothing (default file)."""
    if not url:
        path = default_sqlite_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    if url.startswith("sqlite:///"):
        path = Path(url[len("sqlite:///"):])
        if str(path) and str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
    return url


def database_url_from_env(url: str | None = None) -> str:
    return normalize_url(url or os.environ.get("ROSES_DATABASE_URL"))


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


#: ``PRAGMA synchronous`` values ``ROSES_SQLITE_SYNCHRONOUS`` may choose.
SYNCHRONOUS = ("FULL", "EXTRA", "NORMAL")


def sqlite_synchronous() -> str:
    """SQLite's ``synchronous`` setting: ``FULL`` unless ``ROSES_SQLITE_SYNCHRONOUS`` says
    otherwise. In WAL mode ``FULL`` syncs the log at every commit, so an acknowledged action
    survives an operating-system crash or a power cut; ``NORMAL`` syncs only at checkpoints
    and may lose the last commits then (bench/server.md measures the difference)."""
    value = (os.environ.get("ROSES_SQLITE_SYNCHRONOUS") or "FULL").strip().upper()
    if value not in SYNCHRONOUS:
        raise ValueError(f"ROSES_SQLITE_SYNCHRONOUS is one of {', '.join(SYNCHRONOUS)}, not {value!r}")
    return value


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for ``url`` (already normalized), with the SQLite settings applied."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                                  **kwargs)

        @event.listens_for(engine, "connect")
        def _connect(dbapi_conn: Any, _record: Any) -> None:
            # Let SQLAlchemy's "begin" event emit BEGIN itself (pysqlite would defer it).
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA synchronous={sqlite_synchronous()}")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            if conn.get_execution_options().get("roses_readonly"):
                conn.exec_driver_sql("BEGIN")
            else:
                conn.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    kwargs.setdefault("pool_pre_ping", True)
    # Request handlers run in Starlette's thread pool (40 threads): keep that many connections
    # open rather than opening and closing overflow connections under load. Several workers on
    # one PostgreSQL multiply this: lower ROSES_DB_POOL_SIZE to stay under max_connections.
    kwargs.setdefault("pool_size", int(os.environ.get("ROSES_DB_POOL_SIZE", "30")))
    kwargs.setdefault("max_overflow", int(os.environ.get("ROSES_DB_MAX_OVERFLOW", "10")))
    return sa.create_engine(url, **kwargs)


class Database:
    """An engine plus the two kinds of transactions the server uses."""

    def __init__(self, url: str, **kwargs: Any) -> None:
        self.url = normalize_url(url)
        self.engine = make_engine(self.url, **kwargs)
        # SQLite: one writer at a time per process, queued on a lock that wakes the next waiter
        # at once; SQLite's own busy handler makes waiters sleep in growing steps.
        self._write_lock = threading.Lock() if self.url.startswith("sqlite") else None

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def _writer(self) -> contextlib.AbstractContextManager[Any]:
        return self._write_lock if self._write_lock is not None else contextlib.nullcontext()

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One write transaction (``BEGIN IMMEDIATE`` on SQLite); commits on success."""
        with self._writer(), self.engine.begin() as conn:
            yield conn

    @contextmanager
    def write_on(self, conn: Connection) -> Iterator[Connection]:
        """:meth:`write` on a connection the caller holds (no checkout from the pool)."""
        with self._writer(), conn.begin():
            yield conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """One read-only transaction."""
        with self.engine.connect().execution_options(roses_readonly=True) as conn, conn.begin():
            yield conn

    def migrate(self) -> None:
        migrate(self.engine)

    def dispose(self) -> None:
        self.engine.dispose()


def alembic_config(engine: Engine | None = None) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    if engine is not None:
        cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    return cfg


def migrate(engine: Engine, revision: str = "head") -> None:
    """Create or upgrade the schema to ``revision`` with Alembic."""
    from alembic import command

    cfg = alembic_config(engine)
    with engine.connect() as conn:
        sqlite = is_sqlite(engine)
        if sqlite:
            # A migration may rebuild a table (Alembic's batch mode: copy, drop, rename); with
            # foreign keys on, dropping e.g. ``users`` would cascade into every table that
            # refers to it. The pragma works only outside a transaction, hence the raw call.
            conn.connection.dbapi_connection.execute("PRAGMA foreign_keys=OFF")  # type: ignore[union-attr]
        try:
            with conn.begin():
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, revision)
        finally:
            if sqlite:
                conn.connection.dbapi_connection.execute("PRAGMA foreign_keys=ON")  # type: ignore[union-attr]
