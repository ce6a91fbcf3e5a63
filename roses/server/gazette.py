"""The gazette: after each round, a public account of what happened, and a private report to
each seat of what only it may know.

An edition is built from the game's action log, replayed from its seed (the same replay as
the record and ``roses replay``):

- **which round**: the rules' ``round`` in the state; an edition runs from the log line that
  opens its round (the first line of kind ``turn`` written when the round changes) to the one
  that opens the next; edition 0 is the setup. An edition is published once its round is over
  (the next round has begun, or the game has ended): the round in progress has none;
- **public**: the log lines every observer may read, in order (events, moves, combats and the
  cards drawn, captures, ransoms, executions, Parliament's minutes with the votes), what changed
  on the board since the previous edition (the rules' ``gazette_changes``), and the board as an
  observer sees it at the end of the round (the page draws it with the game's board module);
- **private** (``/report``): the lines of that round only the seat may read.

Published history never changes: an edition depends only on the actions of its round and those
before, which no later action alters (undo never crosses another player's turn, so never a
round's end). Each edition carries the SHA-256 ``digest`` of its content and the ``previous``
edition's digest, a chain a reader can keep to see that nothing was rewritten. The commitment to
the seed (:mod:`roses.server.audit`) is printed in every edition.

By e-mail (:class:`GazetteMailer`), for a game whose rules declare ``rounds``: each edition,
once, to every seated player whose address is confirmed and who turned notifications on, with his own seats' private reports.

Routes: ``GET /api/games/{id}/gazette`` (the list), ``/gazette/{round}`` (an edition),
``/gazette/{round}/report?role=R`` (the seat's private report, for its holder). The pages
``/games/{id}/gazette`` and ``/games/{id}/gazette/{round}`` are the web layer's
(``roses/web/gazette.py``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import queue
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from threading import Lock
from typing import TYPE_CHECKING, Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam

from roses.engine import log as L
from roses.engine.contract import OBSERVER, canonical_json
from roses.engine.game import Game
from roses.engine.registry import get_rules
from roses.server import db
from roses.server.auth import User
from roses.server.deps import optional_user, services
from roses.server.errors import Forbidden, NotFound
from roses.server.events import FINISHED, ROUND, STARTED, Event
from roses.server.jobs import PeriodicJob

if TYPE_CHECKING:
    from roses.server.service import GameService

GameId = Annotated[int, PathParam(ge=-db.INT_MAX, le=db.INT_MAX)]
Round = Annotated[int, PathParam(ge=0, le=100_000)]
OptionalUser = Annotated[User | None, Depends(optional_user)]

#: View keys left out of every edition's board (the log is the edition's own text), beside
#: those the game's rules name (``Rules.gazette_skip``).
_VIEW_SKIP = ("log", "log_kinds", "log_more", "actions", "labels", "prompt", "active", "default")


@dataclass
class Edition:
    round: int
    start: int  # index in the state's log where the round opens
    end: int  # index where the next opens (exclusive)
    board: dict[str, Any] = field(default_factory=dict)  # the observer's view at the round's end


@dataclass
class Gazette:
    """Every published edition of a game (and the log they index)."""

    game: str
    log: list[Any]
    editions: list[Edition]
    finished: bool
    commitment: str | None = None
    public: list[dict[str, Any]] = field(default_factory=list)  # rendered editions, in order
    #: Round -> sentences saying that a move was a published default (roses.server.deadlines).
    defaults: dict[int, list[str]] = field(default_factory=dict)


def _round(state: dict[str, Any]) -> int:
    r = state.get("round")
    return int(r) if isinstance(r, int) and not isinstance(r, bool) else 0


class Builder:
    """Replays a game's actions one by one and cuts its log into editions (module docstring);
    fed incrementally, so a long campaign is not replayed from the start at every turn."""

    def __init__(self, rules_id: str, seed: int, scenario: str, options: dict[str, Any] | None) -> None:
        self.rules_id = rules_id
        self.rules = get_rules(rules_id)
        self.game = Game.new(self.rules, int(seed), str(scenario), options)
        self.actions: list[dict[str, Any]] = []
        #: The round each action was played in (the round in progress when it was made).
        self.action_rounds: list[int] = []
        self.editions: list[Edition] = []
        self.current = _round(self.game.state)
        self.start = 0
        #: What the builder was made for (game, seed, scenario, options as stored).
        self.ident: tuple[Any, ...] = ()

    def _board(self) -> dict[str, Any]:
        view = self.rules.view(self.game.state, OBSERVER)
        skip = set(_VIEW_SKIP) | set(self.rules.gazette_skip)
        return {k: v for k, v in view.items() if k not in skip}

    def feed(self, entry: dict[str, Any]) -> None:
        state = self.game.state
        before_log = len(state.get("log") or [])
        self.game.apply(str(entry["role"]), str(entry["verb"]), entry.get("arg"))
        self.actions.append(entry)
        self.action_rounds.append(self.current)
        now = _round(self.game.state)
        if now != self.current:
            entries = self.game.state.get("log") or []
            opening = next((i for i in range(before_log, len(entries)) if L.entry_kind(entries[i]) == L.TURN), before_log)
            # the board as the observer sees it when the next round opens
            self.editions.append(Edition(self.current, self.start, opening, self._board()))
            self.current, self.start = now, opening

    def gazette(self, finished: bool) -> Gazette:
        log = list(self.game.state.get("log") or [])
        editions = list(self.editions)
        if finished:  # the last round is over too
            editions.append(Edition(self.current, self.start, len(log), self._board()))
        return Gazette(self.rules_id, log, editions, finished)


def build(rules_id: str, record: dict[str, Any], finished: bool) -> Gazette:
    """Replay ``record`` and cut its log into editions (module docstring)."""
    b = Builder(rules_id, int(record["seed"]), str(record["scenario"]), record.get("options"))
    for entry in record.get("actions") or []:
        b.feed(entry)
    return b.gazette(finished)


def render(gz: Gazette, commitment: str | None) -> list[dict[str, Any]]:
    """The public editions, each with its digest and the previous one's (module docstring)."""
    rules = get_rules(gz.game)
    out: list[dict[str, Any]] = []
    previous: str | None = None
    prev_board: dict[str, Any] | None = None
    for ed in gz.editions:
        lines = [{"text": L.entry_text(e), "kind": L.entry_kind(e) or None}
                 for e in gz.log[ed.start:ed.end] if L.readable(e, OBSERVER)]
        body = {"round": ed.round, "title": "Setup" if ed.round == 0 else f"Round {ed.round}",
                "lines": lines, "changes": rules.gazette_changes(prev_board, ed.board), "board": ed.board,
                "seed_commitment": commitment, "previous": previous}
        if gz.defaults.get(ed.round):  # only when there are some: older editions keep their digest
            body["defaults"] = list(gz.defaults[ed.round])
        digest = hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
        out.append({**body, "digest": digest})
        previous, prev_board = digest, ed.board
    return out


def report(gz: Gazette, round_no: int, role: str) -> dict[str, Any]:
    """What only ``role`` may read of that round: its private log lines."""
    ed = next((e for e in gz.editions if e.round == round_no), None)
    if ed is None:
        raise NotFound(f"Round {round_no} has no edition (yet).", code="no_edition")
    lines = [{"text": L.entry_text(e), "kind": L.entry_kind(e) or None}
             for e in gz.log[ed.start:ed.end] if L.readable(e, role) and not L.readable(e, OBSERVER)]
    return {"round": ed.round, "role": role, "lines": lines}


# ---------------------------------------------------------------------------- the server side
class _Cache:
    """Built gazettes by (game, version): an edition never changes, so neither does a build."""

    def __init__(self, size: int = 16) -> None:
        self.items: OrderedDict[tuple[int, int, int, str], Gazette] = OrderedDict()
        self.size = size
        self.lock = Lock()

    def get(self, key: tuple[int, int, int, str]) -> Gazette | None:
        with self.lock:
            g = self.items.get(key)
            if g is not None:
                self.items.move_to_end(key)
            return g

    def put(self, key: tuple[int, int, int, str], g: Gazette) -> None:
        with self.lock:
            self.items[key] = g
            while len(self.items) > self.size:
                self.items.popitem(last=False)


_cache = _Cache()
#: Each recently read game's builder, fed as the game goes on (oldest dropped first).
_builders: OrderedDict[int, Builder] = OrderedDict()
_builders_lock = Lock()


def gazette_of(request: Request, user: User | None, game_id: int, invite: str | None) -> tuple[Gazette, dict[str, Any]]:
    games = services(request).games
    info = games.game(user, game_id, invite)  # refuses games the user may not see
    if info["status"] == "open":
        raise NotFound("The game has not started: no gazette yet.", code="no_edition")
    return load(games, game_id), info


def load(games: GameService, game_id: int) -> Gazette:
    """The gazette of a started game, built from its stored action log: the game's builder is
    kept and fed the new actions (rebuilt when an undo took some back); cached by version."""
    with games.db.read() as conn:
        row = conn.execute(sa.select(db.games.c.version, db.games.c.seed, db.games.c.scenario, db.games.c.options,
                                     db.games.c.game, db.games.c.status).where(db.games.c.id == game_id)).one()
        key = (game_id, int(row.seed), int(row.version), str(row.status))
        gz = _cache.get(key)
        if gz is not None:
            return gz
        acts = [{"role": a.role, "verb": a.verb, "arg": json.loads(a.arg)} for a in conn.execute(
            sa.select(db.actions.c.role, db.actions.c.verb, db.actions.c.arg)
            .where(db.actions.c.game_id == game_id, db.actions.c.seq <= row.version).order_by(db.actions.c.seq))]
    with _builders_lock:
        b = _builders.pop(game_id, None)
        ident = (row.game, int(row.seed), row.scenario, row.options)
        if b is None or b.ident != ident or len(b.actions) > len(acts) or b.actions != acts[:len(b.actions)]:
            b = Builder(row.game, int(row.seed), row.scenario, json.loads(row.options))
            b.ident = ident
        for entry in acts[len(b.actions):]:
            b.feed(entry)
        _builders[game_id] = b
        while len(_builders) > 16:
            _builders.popitem(last=False)
        gz = b.gazette(row.status == "finished")
        rounds = list(b.action_rounds)
    from roses.server.audit import chance_of
    from roses.server.deadlines import defaults_of, describe

    for d in defaults_of(games, game_id):
        if d["seq"] <= len(rounds):
            gz.defaults.setdefault(rounds[d["seq"] - 1], []).append(describe(d["role"], d["reason"]))

    gz.commitment = chance_of(game_id, int(row.seed), False)["commitment"]
    gz.public = render(gz, gz.commitment)
    _cache.put(key, gz)
    return gz


api = APIRouter(prefix="/api", tags=["play"])


@api.get("/games/{game_id}/gazette")
def list_editions(request: Request, game_id: GameId, user: OptionalUser, invite: str | None = None) -> dict[str, Any]:
    """The published editions: round, title, digest, and the chain's previous digest."""
    gz, info = gazette_of(request, user, game_id, invite)
    return {"game_id": game_id, "title": info.get("title"), "seed_commitment": gz.commitment,
            "editions": [{k: e[k] for k in ("round", "title", "digest", "previous")} for e in gz.public]}


def edition(gz: Gazette, round_no: int) -> dict[str, Any]:
    ed = next((e for e in gz.public if e["round"] == round_no), None)
    if ed is None:
        raise NotFound(f"Round {round_no} has no edition (yet): an edition is published when its round is over.",
                       code="no_edition")
    return ed


@api.get("/games/{game_id}/gazette/{round_no}")
def get_edition(request: Request, game_id: GameId, round_no: Round, user: OptionalUser,
                invite: str | None = None) -> dict[str, Any]:
    gz, _ = gazette_of(request, user, game_id, invite)
    return edition(gz, round_no)


@api.get("/games/{game_id}/gazette/{round_no}/report")
def get_report(request: Request, game_id: GameId, round_no: Round, user: OptionalUser, role: str,
               invite: str | None = None) -> dict[str, Any]:
    """A seat's private report of a round: only for the seat's holder."""
    gz, info = gazette_of(request, user, game_id, invite)
    if user is None or role not in (info.get("my_roles") or []):
        raise Forbidden("Only the holder of a seat may read its report.", code="not_seated")
    return report(gz, round_no, role)


# ---------------------------------------------------------------------------- by e-mail
log = logging.getLogger("roses.server.gazette")

def edition_text(ed: dict[str, Any], reports: list[dict[str, Any]], title: str, link: str) -> str:
    """An edition as plain text (the e-mail), with the reader's own private reports."""
    out = [f"{title}: {ed['title']}", "", "What happened:"]
    out += [f"  {line['text']}" for line in ed["lines"]] or ["  nothing"]
    out += ["", "What changed since the last edition:"]
    out += [f"  {c}" for c in ed["changes"]] or ["  nothing on the board"]
    for r in reports:
        out += ["", f"Private report for {r['role']} (only you receive it):"]
        out += [f"  {line['text']}" for line in r["lines"]] or ["  nothing private this round"]
    out += ["", f"The board and every edition: {link}", f"Seed commitment: {ed['seed_commitment']}",
            f"Edition digest: {ed['digest']}"]
    return "\n".join(out) + "\n"


class GazetteMailer(PeriodicJob):
    """Mails each published edition, once, to every seated player with a confirmed address who
    turned notifications on, with his own seats' private reports. Hooked to the service's
    notifiers, which tell it when a game starts, begins a round or ends; the mails go through
    the notifier's outbox (retries, leases: :mod:`roses.server.notify`). An edition already
    queued for a user (its mark in the outbox) is not queued again. A game whose mailing
    failed (say, the database busy) is tried again at the next ticks, at most
    :attr:`attempts` times in all."""

    label = "gazette-mail"
    #: How many ticks in a row one game's mailing is tried before it waits for the next event.
    attempts = 5

    def __init__(self, games: GameService, *, interval: float = 1.0) -> None:
        super().__init__(interval)
        self.games = games
        self.pending: queue.SimpleQueue[int] = queue.SimpleQueue()
        #: Games whose mailing failed, with the attempts made (touched by the job's thread only).
        self.failed: dict[int, int] = {}

    def notify(self, event: Event) -> None:
        # an edition is published when its round ends (a new one begins) or the game does
        if event.kind in (STARTED, ROUND, FINISHED):
            self.pending.put(event.game_id)

    def mail_game(self, game_id: int) -> int:
        """Queue the editions of ``game_id`` not yet queued; returns the mails queued."""
        from roses.server.notify import EMAIL, PENDING, NotifyConfig

        config = NotifyConfig.from_env()
        if not config.smtp_host:
            return 0
        with self.games.db.read() as conn:
            row = conn.execute(sa.select(db.games.c.game, db.games.c.status, db.games.c.title)
                               .where(db.games.c.id == game_id)).first()
            # only games whose rules declare rounds have editions to mail
            if row is None or not get_rules(row.game).rounds or row.status == "open":
                return 0
            u, st = db.users.c, db.seats.c
            readers = conn.execute(sa.select(u.id, u.email, st.role).join_from(db.seats, db.users, st.user_id == u.id)
                                   .where(st.game_id == game_id, u.email_verified.is_(True), u.notify.is_(True),
                                          u.email.is_not(None))).all()
        if not readers:
            return 0
        gz = load(self.games, game_id)
        roles: dict[tuple[int, str], list[str]] = {}
        for r in readers:
            roles.setdefault((int(r.id), str(r.email)), []).append(str(r.role))
        title = row.title or f"Game #{game_id}"
        link = f"{config.base_url}/games/{game_id}/gazette"
        now = time.time()
        rows = []
        with self.games.db.read() as conn:
            for ed in gz.public:
                for (uid, address), mine in roles.items():
                    mark = f"g{game_id}r{ed['round']}u{uid}"
                    seen = conn.execute(sa.select(db.outbox.c.id).where(
                        db.outbox.c.user_id == uid, db.outbox.c.payload.like(f'%"gazette": "{mark}"%')).limit(1)).first()
                    if seen is not None:
                        continue
                    text = edition_text(ed, [report(gz, ed["round"], r) for r in mine], title, f"{link}/{ed['round']}")
                    rows.append({"user_id": uid, "channel": EMAIL, "target": address, "status": PENDING,
                                 "attempts": 0, "next_at": now, "created_at": now,
                                 "payload": json.dumps({"subject": f"Gazette: {title}, {ed['title']} (game #{game_id})",
                                                        "text": text, "gazette": mark})})
        if not rows:
            return 0
        # Checked again and queued in one write transaction with the game's row locked: two
        # servers mailing the same game at once (each told of one of its turns) queue each
        # edition once.
        with self.games.db.write() as conn:
            if self.games.db.dialect == "postgresql":
                conn.execute(sa.select(db.games.c.id).where(db.games.c.id == game_id).with_for_update())
            rows = [r for r in rows if conn.execute(sa.select(db.outbox.c.id).where(
                db.outbox.c.user_id == r["user_id"],
                db.outbox.c.payload.like(f'%"gazette": "{json.loads(str(r["payload"]))["gazette"]}"%')).limit(1)).first() is None]
            if rows:
                conn.execute(db.outbox.insert(), rows)
        return len(rows)

    def run_once(self) -> int:
        ids: set[int] = set(self.failed)
        while True:
            try:
                ids.add(self.pending.get_nowait())
            except queue.Empty:
                break
        sent = 0
        for gid in sorted(ids):
            try:
                sent += self.mail_game(gid)
            except Exception as exc:  # noqa: BLE001 - one game must not stop the others
                tries = self.failed.get(gid, 0) + 1
                log.error("gazette mail of game %s failed (attempt %d of %d): %s", gid, tries, self.attempts,
                          type(exc).__name__)
                if tries < self.attempts:
                    self.failed[gid] = tries
                else:
                    self.failed.pop(gid, None)
            else:
                self.failed.pop(gid, None)
        return sent


def install(app: Any) -> None:
    """Add the gazette's API routes to the app, and its mailer (a notifier). The pages are the
    web layer's (``roses/web/gazette.py``)."""
    app.include_router(api)
    games = app.state.roses.games
    mailer = GazetteMailer(games)
    games.notifiers.add(mailer)
    background = getattr(app.state, "background", None)
    if background is None:
        background = app.state.background = []
    background.append(mailer)
    app.state.gazette_mailer = mailer
