"""Server settings, from arguments or ``ROSES_*`` environment variables."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from roses.server.botcaps import BotCaps


def _env_bool(name: str) -> bool | None:
    value = os.environ.get(name)
    if value is None or value == "":
        return None
    return value.lower() in ("1", "true", "yes", "on")


@dataclass
class Settings:
    #: SQLAlchemy or plain PostgreSQL URL; None: the SQLite file in the user data directory.
    database_url: str | None = field(default_factory=lambda: os.environ.get("ROSES_DATABASE_URL"))
    #: Create/upgrade the schema at start.
    migrate: bool = True
    #: Secure flag on cookies: True, False, or None to follow the request scheme (https).
    secure_cookies: bool | None = field(default_factory=lambda: _env_bool("ROSES_SECURE_COOKIES"))
    #: Failed logins before back-off, per (name, client address) and per name (the latter not
    #: for a browser the user logged in from before), and per client address; the back-off
    #: doubles from 1 s up to ``login_backoff_cap``; failures are forgotten after ``login_window``.
    login_limit: int = 10
    login_ip_limit: int = 50
    login_window: float = 900.0
    login_backoff_cap: float = 300.0
    #: Sign-up requests one client address may make per hour.
    signup_limit: int = 100
    #: Per user: chat messages per minute, invitations per hour, test notifications per hour.
    chat_limit: int = 20
    invite_limit: int = 30
    test_notify_limit: int = 6
    #: Threads that run bot moves.
    bot_threads: int = 2
    #: Processes bots think in (0: in the bot threads). Search bots want a process pool.
    bot_processes: int = field(default_factory=lambda: int(os.environ.get("ROSES_BOT_PROCESSES") or 0))
    #: Run bots at all (tests may turn them off).
    bots: bool = True
    #: Caps on bot thought per move and per game (ROSES_BOT_MOVE_SECONDS,
    #: ROSES_BOT_MOVE_ITERATIONS, ROSES_BOT_GAME_SECONDS; roses.server.botcaps).
    bot_caps: BotCaps = field(default_factory=BotCaps)
    #: Check every view against Rules.secrets before sending it; a leaking view is withheld.
    #: Costs one ``secrets()`` call per (game version, role) rendered; ROSES_GUARD_VIEWS=0 turns it off.
    guard_views: bool = field(default_factory=lambda: _env_bool("ROSES_GUARD_VIEWS") is not False)
