"""Auditable chance on the server (:mod:`roses.engine.chance`): the commitment to each game's
seed, published from the start, and the seed with its nonce once the game is over.

Routes (anyone who may see the game):

- ``GET /api/games/{id}/chance``: ``{"scheme", "commitment", "seed", "nonce"}``; the seed and
  the nonce are null until the game is over;
- ``GET /api/games/{id}/audit``: a finished game's record (the export) with ``chance``, ready
  for ``roses replay FILE``, which checks it; a player may add the logs he saved during the
  game (``logs: {role: [lines]}``): the replay must give them.

The nonce of a game is derived from a server key (:func:`roses.engine.chance.derived_nonce`),
so no nonce is stored per game: ``ROSES_CHANCE_KEY`` (any text; every worker of a server must
share it and keep it: a new key changes every running game's commitment), or else a random key
kept in the file ``chance.key`` of the server's data directory (created on first use). The same
key makes the seats' order keys of orders by e-mail (:func:`roses.server.mailin.order_key`).
"""

from __future__ import annotations

import os
import secrets
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam

from roses.engine import chance
from roses.server import db
from roses.server.auth import User
from roses.server.deps import optional_user, services
from roses.server.errors import Conflict

router = APIRouter(prefix="/api", tags=["play"])
GameId = Annotated[int, PathParam(ge=-db.INT_MAX, le=db.INT_MAX)]
OptionalUser = Annotated[User | None, Depends(optional_user)]


def key_file() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("roses", appauthor=False)) / "chance.key"


@lru_cache(maxsize=4)
def _key(env: str | None, path: str) -> bytes:
    if env:
        return env.encode("utf-8")
    file = Path(path)
    if not file.exists():
        file.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    return file.read_text().strip().encode("utf-8")


def server_key() -> bytes:
    """The key the nonces are derived from (module docstring)."""
    return _key(os.environ.get("ROSES_CHANCE_KEY") or None, str(key_file()))


def chance_of(game_id: int, seed: int, finished: bool) -> dict[str, Any]:
    nonce = chance.derived_nonce(server_key(), game_id, seed)
    return {"scheme": chance.SCHEME, "commitment": chance.commitment(seed, nonce),
            "seed": seed if finished else None, "nonce": nonce if finished else None}


def _seed(request: Request, game_id: int) -> int | None:
    games = services(request).games
    with games.db.read() as conn:
        seed = conn.execute(sa.select(db.games.c.seed).where(db.games.c.id == game_id)).scalar()
    return None if seed is None else int(seed)


@router.get("/games/{game_id}/chance")
def game_chance(request: Request, game_id: GameId, user: OptionalUser, invite: str | None = None) -> dict[str, Any]:
    """The commitment to the game's seed (from the start); the seed and nonce when it is over."""
    info = services(request).games.game(user, game_id, invite)  # refuses games the user may not see
    seed = _seed(request, game_id)
    if info["status"] == "open" or seed is None:
        raise Conflict("The game has not started: it has no seed yet.", code="not_started")
    return chance_of(game_id, seed, info["status"] == "finished")


@router.get("/games/{game_id}/audit")
def game_audit(request: Request, game_id: GameId, user: OptionalUser, invite: str | None = None) -> dict[str, Any]:
    """A finished game's record with its seed commitment, for ``roses replay``."""
    games = services(request).games
    record = games.export(user, game_id, invite)  # finished games only
    record["chance"] = {k: v for k, v in chance_of(game_id, int(record["seed"]), True).items() if k != "seed"}
    return record
