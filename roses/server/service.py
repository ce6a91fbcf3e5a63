"""The game service: every game operation, thread-safe; HTTP handlers, WebSockets, bots and
the CLI use it. It is made of parts over one store (:mod:`roses.server.gamestore`: the
database, the games in memory, locks):

- the lobby (:mod:`roses.server.lobby`): create, list, join, leave, seat bots, start;
- play (:mod:`roses.server.play`): views, actions (one way in: ``act``, awaitable as
  ``act_async`` on an event loop), undo, resignation, the bots' turns;
- chat and notes (:mod:`roses.server.chat`);
- replay and export (:mod:`roses.server.replay`);
- administration (:mod:`roses.server.admin`): admin export and seating, rebuild, import.
"""

from __future__ import annotations

from roses.server.admin import Administration
from roses.server.chat import ChatAndNotes
from roses.server.gamestore import (
    _NEEDS_ESCAPE,
    ACTIVE,
    DEFAULT_CACHE_MB,
    EXPORT_FORMAT,
    FINISHED_STATUS,
    GAME_MEMORY_BASE,
    IDEMPOTENCY_KEYS,
    LOCK_STRIPES,
    MAX_CHAT,
    MAX_NOTE,
    MAX_UPLOAD,
    OPEN,
    REFUSED,
    STATE_MEMORY_FACTOR,
    UPLOAD,
    VIEW_CACHE,
    Acted,
    Rendered,
    Seat,
    _active_list,
    _arg_json,
    _cache_bytes_from_env,
    _Cached,
    _check_bot,
    _check_options,
    _check_text,
    _check_upload,
    _describe_rules,
    _encode,
    _estimate_bytes,
    _GameLock,
    _label,
    _log_len,
    _now,
    _Repeated,
    _request_texts,
    _safe_message,
    _view_body,
    _withheld_view,
    seat_changes,
    setup_refused,
    state_message,
)
from roses.server.play import Play
from roses.server.replay import ReplayAndExport

__all__ = [
    "Acted",
    "ACTIVE",
    "DEFAULT_CACHE_MB",
    "EXPORT_FORMAT",
    "FINISHED_STATUS",
    "GAME_MEMORY_BASE",
    "GameService",
    "IDEMPOTENCY_KEYS",
    "LOCK_STRIPES",
    "MAX_CHAT",
    "MAX_NOTE",
    "MAX_UPLOAD",
    "OPEN",
    "REFUSED",
    "Rendered",
    "STATE_MEMORY_FACTOR",
    "Seat",
    "UPLOAD",
    "VIEW_CACHE",
    "_Cached",
    "_GameLock",
    "_NEEDS_ESCAPE",
    "_Repeated",
    "_active_list",
    "_arg_json",
    "_cache_bytes_from_env",
    "_check_bot",
    "_check_options",
    "_check_text",
    "_check_upload",
    "_describe_rules",
    "_encode",
    "_estimate_bytes",
    "_label",
    "_log_len",
    "_now",
    "_request_texts",
    "_safe_message",
    "_view_body",
    "_withheld_view",
    "seat_changes",
    "setup_refused",
    "state_message",
]


class GameService(Play, ChatAndNotes, ReplayAndExport, Administration):
    """All game operations (module docstring): the store with the lobby, play, chat and notes,
    replay and export, and administration."""
