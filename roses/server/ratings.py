"""Ratings, results and game histories of players and bots.

Ratings are Elo ratings kept **per game, scenario and role**: playing York in Richard III's
1483 scenario is one rating, Lancaster in it another, so that a side's advantage in a scenario
does not blur the players' strength. Every public finished game with at least two rated
seats counts:

* a seat is rated when a user or a bot holds it (a bot is rated under its name, ``easy``,
  ``ismcts:i500``...); a user holding several seats of one game (hot seat) makes it unrated,
  and so does a private game (its existence is not published);
* a seat scores 1 when its role is among the winners (``games.result``: the winning roles
  joined by ``", "``), 0.5 for a draw, 0 otherwise;
* each pair of seats with different roles is an Elo match between their ratings in their
  own roles: expected score ``1 / (1 + 10 ** ((Rb - Ra) / 400))``, change
  ``K * (score - expected)`` with ``K = 32`` divided by the number of opponents, everyone
  starting at 1500.

The ratings are a function of the finished games in the order they finished (ties by id):
they are computed from the database (no table of their own, so a rebuilt or imported game
counts like any other) and kept in memory until a game finishes (:class:`RatingBook`).

Routes: ``GET /api/ratings`` (a leaderboard), ``GET /api/players/{name}`` and
``GET /api/bots/{name}`` (ratings, statistics and game history of one player or bot).
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, FastAPI, Query, Request
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from roses.engine.registry import available_games
from roses.server import db
from roses.server.deps import optional_user
from roses.server.errors import NotFound

START = 1500.0
K = 32.0
DRAW = "Draw"

#: A rated participant: ("user", user id) or ("bot", bot name).
Player = tuple[str, Any]


@dataclass
class Seat:
    role: str
    player: Player
    name: str


@dataclass
class Finished:
    """A finished game as the ratings see it."""

    id: int
    game: str
    scenario: str
    title: str
    result: str
    finished_at: float
    private: bool
    seats: list[Seat]

    def score(self, role: str) -> float:
        if self.result == DRAW:
            return 0.5
        return 1.0 if role in self.result.split(", ") else 0.0

    @property
    def rated(self) -> bool:
        users = [s.player for s in self.seats if s.player[0] == "user"]
        return (not self.private and len(self.seats) >= 2 and len(users) == len(set(users))
                and len({s.role for s in self.seats}) >= 2)


@dataclass
class Rating:
    rating: float = START
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0


@dataclass
class Outcome:
    """One seat's part in a finished game: score and, if rated, the rating before and after."""

    game: Finished
    role: str
    score: float
    before: float | None = None
    after: float | None = None


@dataclass
class RatingBook:
    """Every rating and every player's outcomes, computed from the finished games."""

    ratings: dict[tuple[str, str, str], dict[Player, Rating]] = field(default_factory=dict)
    outcomes: dict[Player, list[Outcome]] = field(default_factory=lambda: defaultdict(list))
    names: dict[Player, str] = field(default_factory=dict)

    def add(self, g: Finished) -> None:
        """Count one finished game (games must come in the order they finished)."""
        for s in g.seats:
            self.names[s.player] = s.name
        if not g.rated:
            for s in g.seats:
                self.outcomes[s.player].append(Outcome(g, s.role, g.score(s.role)))
            return
        table = {s.role: self.ratings.setdefault((g.game, g.scenario, s.role), {}) for s in g.seats}
        now = {s.role: table[s.role].setdefault(s.player, Rating()) for s in g.seats}
        before = {s.role: now[s.role].rating for s in g.seats}
        opponents = len(g.seats) - 1
        for s in g.seats:
            change = 0.0
            for o in g.seats:
                if o.role == s.role:
                    continue
                mine, theirs = g.score(s.role), g.score(o.role)
                actual = 0.5 if mine == theirs else 1.0 if mine > theirs else 0.0
                expected = 1.0 / (1.0 + 10 ** ((before[o.role] - before[s.role]) / 400.0))
                change += (K / opponents) * (actual - expected)
            r = now[s.role]
            r.rating = before[s.role] + change
            r.games += 1
            score = g.score(s.role)
            if g.result == DRAW:
                r.draws += 1
            elif score == 1.0:
                r.wins += 1
            else:
                r.losses += 1
            self.outcomes[s.player].append(Outcome(g, s.role, score, before[s.role], r.rating))

    def leaderboard(self, game: str, scenario: str, role: str, limit: int = 50) -> list[dict[str, Any]]:
        rows = sorted(self.ratings.get((game, scenario, role), {}).items(),
                      key=lambda kv: (-kv[1].rating, -kv[1].games, self.names.get(kv[0], "")))
        return [{"rank": i + 1, "player": self.names.get(p, str(p[1])), "bot": p[0] == "bot",
                 "rating": round(r.rating), "games": r.games, "wins": r.wins, "losses": r.losses,
                 "draws": r.draws} for i, (p, r) in enumerate(rows[:limit])]

    def ratings_of(self, player: Player) -> list[dict[str, Any]]:
        out = []
        for (game, scenario, role), table in sorted(self.ratings.items()):
            r = table.get(player)
            if r is None:
                continue
            ordered = sorted(table.values(), key=lambda x: -x.rating)
            out.append({"game": game, "scenario": scenario, "role": role, "rating": round(r.rating),
                        "games": r.games, "wins": r.wins, "losses": r.losses, "draws": r.draws,
                        "rank": ordered.index(r) + 1, "of": len(table)})
        return out


def _player(seat: Any, names: dict[int, str]) -> tuple[Player, str] | None:
    if seat.user_id is not None and seat.user_id in names:
        return ("user", int(seat.user_id)), names[int(seat.user_id)]
    if seat.bot:
        return ("bot", str(seat.bot)), f"bot: {seat.bot}"
    return None


def finished_games(conn: sa.Connection) -> list[Finished]:
    """Every finished game with its seats, in the order the games finished."""
    g = db.games.c
    rows = conn.execute(sa.select(g.id, g.game, g.scenario, g.title, g.result, g.finished_at,
                                  g.updated_at, g.is_private)
                        .where(g.status == "finished", g.result.is_not(None))).all()
    if not rows:
        return []
    names = {int(r.id): str(r.name) for r in conn.execute(sa.select(db.users.c.id, db.users.c.name))}
    seats: dict[int, list[Seat]] = defaultdict(list)
    for s in conn.execute(sa.select(db.seats.c.game_id, db.seats.c.role, db.seats.c.user_id, db.seats.c.bot,
                                    db.seats.c.position).order_by(db.seats.c.game_id, db.seats.c.position)):
        found = _player(s, names)
        if found is not None:
            seats[int(s.game_id)].append(Seat(str(s.role), found[0], found[1]))
    out = [Finished(int(r.id), str(r.game), str(r.scenario), str(r.title), str(r.result),
                    float(r.finished_at if r.finished_at is not None else r.updated_at), bool(r.is_private),
                    seats.get(int(r.id), [])) for r in rows]
    out.sort(key=lambda f: (f.finished_at, f.id))
    return out


def compute(games: list[Finished]) -> RatingBook:
    book = RatingBook()
    for g in games:
        book.add(g)
    return book


class Ratings:
    """The rating book of a database, recomputed when the set of finished games changes."""

    def __init__(self, database: db.Database) -> None:
        self.db = database
        self._lock = threading.Lock()
        self._key: tuple[Any, ...] | None = None
        self._book = RatingBook()

    def book(self) -> RatingBook:
        g = db.games.c
        with self.db.read() as conn:
            key = tuple(conn.execute(sa.select(sa.func.count(), sa.func.max(g.finished_at), sa.func.max(g.id))
                                     .where(g.status == "finished")).one())
            with self._lock:
                if key == self._key:
                    return self._book
            games = finished_games(conn)
        book = compute(games)
        with self._lock:
            self._key, self._book = key, book
        return book

    # ----- what the pages and the API show ------------------------------------------------
    def leaderboard(self, game: str, scenario: str, role: str, limit: int = 50) -> list[dict[str, Any]]:
        return self.book().leaderboard(game, scenario, role, limit)

    def tables(self) -> list[tuple[str, str, str]]:
        """(game, scenario, role) of every rating table with a rated game."""
        return sorted(self.book().ratings)

    def user_id(self, name: str) -> tuple[int, str, float]:
        with self.db.read() as conn:
            row = conn.execute(sa.select(db.users.c.id, db.users.c.name, db.users.c.created_at)
                               .where(db.users.c.name_key == name.lower())).first()
        if row is None:
            raise NotFound(f"There is no player {name!r}.", code="unknown_user")
        return int(row.id), str(row.name), float(row.created_at)

    def record(self, player: Player, viewer_ids: tuple[int, ...] = (), limit: int = 200) -> dict[str, Any]:
        """Ratings, statistics and history (newest first) of a player. Private games are
        listed only to a viewer who sat in them."""
        book = self.book()
        history: list[dict[str, Any]] = []
        totals = {"games": 0, "wins": 0, "losses": 0, "draws": 0}
        by_game: dict[tuple[str, str], dict[str, int]] = {}
        for o in reversed(book.outcomes.get(player, [])):
            g = o.game
            seated = {s.player[1] for s in g.seats if s.player[0] == "user"}
            if g.private and not seated & set(viewer_ids):
                continue
            outcome = "draw" if g.result == DRAW else "won" if o.score == 1.0 else "lost"
            key = "draws" if outcome == "draw" else "wins" if outcome == "won" else "losses"
            totals["games"] += 1
            totals[key] += 1
            per = by_game.setdefault((g.game, o.role), {"games": 0, "wins": 0, "losses": 0, "draws": 0})
            per["games"] += 1
            per[key] += 1
            if len(history) < limit:
                history.append({
                    "game_id": g.id, "title": g.title, "game": g.game, "scenario": g.scenario, "role": o.role,
                    "result": g.result, "outcome": outcome, "finished_at": g.finished_at,
                    "opponents": [{"role": s.role, "player": s.name, "bot": s.player[0] == "bot"}
                                  for s in g.seats if s.role != o.role],
                    "rated": o.before is not None,
                    "rating_before": None if o.before is None else round(o.before),
                    "rating_after": None if o.after is None else round(o.after),
                    "change": None if o.before is None or o.after is None else round(o.after - o.before, 1),
                })
        stats = {**totals, "win_rate": round(totals["wins"] / totals["games"], 3) if totals["games"] else None,
                 "by_role": [{"game": game, "role": role, **counts} for (game, role), counts in sorted(by_game.items())]}
        return {"ratings": book.ratings_of(player), "stats": stats, "history": history}


# ----- routes -----------------------------------------------------------------------------------
class RatingRow(BaseModel):
    rank: int
    player: str
    bot: bool
    rating: int
    games: int
    wins: int
    losses: int
    draws: int


class PlayerRating(BaseModel):
    game: str
    scenario: str
    role: str
    rating: int
    games: int
    wins: int
    losses: int
    draws: int
    rank: int = Field(description="Place in this table (1 = best).")
    of: int = Field(description="Players rated in this table.")


class HistoryRow(BaseModel):
    game_id: int
    title: str
    game: str
    scenario: str
    role: str
    result: str
    outcome: str = Field(description="won, lost or draw")
    finished_at: float
    opponents: list[dict[str, Any]]
    rated: bool
    rating_before: int | None
    rating_after: int | None
    change: float | None


class PlayerOut(BaseModel):
    name: str
    bot: bool
    joined: float | None
    ratings: list[PlayerRating]
    stats: dict[str, Any]
    history: list[HistoryRow]


router = APIRouter(prefix="/api", tags=["ratings"])


def ratings(request: Request) -> Ratings:
    found: Ratings = request.app.state.ratings
    return found


@router.get("/ratings", response_model=list[RatingRow])
async def leaderboard(request: Request, game: str | None = None, scenario: str | None = None,
                      role: str | None = None,
                      limit: Annotated[int, Query(ge=1, le=500)] = 50) -> list[dict[str, Any]]:
    """The best ratings of one role in one game and scenario (defaults: the first installed
    game, and its first scenario and role that has rated games)."""
    r = ratings(request)
    if game is None:
        installed = available_games()
        game = installed[0] if installed else ""

    def run() -> list[dict[str, Any]]:
        tables = [t for t in r.tables() if t[0] == game and (scenario is None or t[1] == scenario)
                  and (role is None or t[2] == role)]
        if not tables:
            return []
        g, s, ro = tables[0]
        return r.leaderboard(g, s, ro, limit)

    return await run_in_threadpool(run)


@router.get("/players/{name}", response_model=PlayerOut)
async def player(request: Request, name: str) -> dict[str, Any]:
    """A player's ratings (per game, scenario and role), statistics and finished games."""
    r = ratings(request)
    viewer = await optional_user(request)

    def run() -> dict[str, Any]:
        uid, real, joined = r.user_id(name)
        return {"name": real, "bot": False, "joined": joined,
                **r.record(("user", uid), (viewer.id,) if viewer is not None else ())}

    return await run_in_threadpool(run)


@router.get("/bots/{name}", response_model=PlayerOut)
async def bot(request: Request, name: str) -> dict[str, Any]:
    """A bot's ratings, statistics and finished games."""
    r = ratings(request)

    def run() -> dict[str, Any]:
        rec = r.record(("bot", name))
        if not rec["history"] and not rec["ratings"]:
            raise NotFound(f"The bot {name!r} has played no finished game.", code="unknown_bot")
        return {"name": f"bot: {name}", "bot": True, "joined": None, **rec}

    return await run_in_threadpool(run)


def install(app: FastAPI) -> Ratings:
    """Add the ratings of the app's database and their routes."""
    found = Ratings(services_of(app).db)
    app.state.ratings = found
    app.include_router(router)
    return found


def services_of(app: FastAPI) -> Any:
    return app.state.roses


__all__ = ["Finished", "RatingBook", "Ratings", "Seat", "compute", "install"]
