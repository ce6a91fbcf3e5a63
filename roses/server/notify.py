"""Notifications: webhooks (Discord, Slack, generic JSON) and e-mail, to players not connected.

Flow (nothing here runs on the request path):

1. The service calls :meth:`Notifier.notify` after each committed change that matters (game
   started, turn changed, game over) and this module's invitation route adds ``invited``
   events. ``notify`` only puts the event on an in-process queue.
2. The delivery task turns queued events into rows of the ``outbox`` table, one per recipient
   and channel, for users who turned notifications on and are **not connected** to that game
   (the ``presence`` table, kept by the play WebSocket, knows who is).
3. The delivery task claims due outbox rows with a row lease (see :func:`lease_rows`; exactly
   one worker sends each row) and sends them: webhooks with httpx, e-mail with aiosmtplib.
   A failure is retried with exponential backoff and jitter, at most ``max_attempts`` times;
   the last webhook failure is stored on the user (``users.webhook_error``) and shown by
   ``GET /api/me/settings``; a later success clears it.

Configuration (environment; ``roses serve --smtp-host ...`` sets the same variables):
``ROSES_SMTP_HOST`` (no host: no e-mail), ``ROSES_SMTP_PORT`` (25), ``ROSES_SMTP_FROM``,
``ROSES_SMTP_USER``, ``ROSES_SMTP_PASSWORD``, ``ROSES_SMTP_TLS`` (``none``, ``starttls``,
``ssl``, ``auto``), ``ROSES_BASE_URL`` (for links), ``ROSES_NOTIFY_ATTEMPTS`` (5),
``ROSES_NOTIFY_RETRY_BASE`` (seconds, 5), ``ROSES_NOTIFY_RETRY_CAP`` (seconds, 600),
``ROSES_WEBHOOK_ALLOW_LOCAL`` (1: webhooks to localhost allowed; tests and development).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import os
import queue
import random
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from types import SimpleNamespace
from typing import TYPE_CHECKING, Annotated, Any

import sqlalchemy as sa
from email_validator import EmailNotValidError, validate_email
from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Connection
from starlette.concurrency import run_in_threadpool

from roses.server import db, webhooks
from roses.server.auth import User, hash_secret
from roses.server.clocks import lease_rows
from roses.server.deps import require_user, services
from roses.server.errors import BadRequest, Conflict, Forbidden, NotFound
from roses.server.events import FINISHED, STARTED, TURN, Event
from roses.server.limits import Throttle

if TYPE_CHECKING:
    from fastapi import FastAPI

    from roses.server.service import GameService
    from roses.server.store import GroupCommit

log = logging.getLogger("roses.server.notify")

INVITED = "invited"
REMINDER = "reminder"  # a deadline is near (roses.server.attendance)
PRIVATE = "message"  # a private message to one's seat (roses.server.messages): never its text
TEST = "test"
FORMATS = ("json", "discord", "slack")
WEBHOOK, EMAIL = "webhook", "email"
PENDING, SENT, FAILED = "pending", "sent", "failed"
#: Presence rows not refreshed for this long belong to a dead worker.
PRESENCE_STALE = 90.0
PRESENCE_HEARTBEAT = 30.0


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name) or default)
    except ValueError:
        return default


@dataclass
class NotifyConfig:
    smtp_host: str | None = None
    smtp_port: int = 25
    smtp_from: str = "roses@localhost"
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_tls: str = "none"
    base_url: str = "http://127.0.0.1:8000"
    max_attempts: int = 5
    retry_base: float = 5.0
    retry_cap: float = 600.0
    #: How often the delivery task looks for due rows of other workers and retries.
    poll: float = 2.0
    timeout: float = 10.0
    lease: float = 60.0

    @classmethod
    def from_env(cls) -> NotifyConfig:
        e = os.environ
        port = int(e.get("ROSES_SMTP_PORT") or 25)
        tls = e.get("ROSES_SMTP_TLS") or ("ssl" if port == 465 else "starttls" if port == 587 else "none")
        return cls(
            smtp_host=e.get("ROSES_SMTP_HOST") or None, smtp_port=port,
            smtp_from=e.get("ROSES_SMTP_FROM") or "roses@localhost",
            smtp_user=e.get("ROSES_SMTP_USER") or None, smtp_password=e.get("ROSES_SMTP_PASSWORD") or None,
            smtp_tls=tls, base_url=(e.get("ROSES_BASE_URL") or "http://127.0.0.1:8000").rstrip("/"),
            max_attempts=max(1, int(_env_float("ROSES_NOTIFY_ATTEMPTS", 5))),
            retry_base=_env_float("ROSES_NOTIFY_RETRY_BASE", 5.0),
            retry_cap=_env_float("ROSES_NOTIFY_RETRY_CAP", 600.0),
            poll=_env_float("ROSES_NOTIFY_POLL", 2.0),
        )

    def backoff(self, attempts: int) -> float:
        """Delay before retry number ``attempts`` (1, 2, ...): exponential, capped, jittered."""
        delay = min(self.retry_cap, self.retry_base * (2 ** max(0, attempts - 1)))
        return delay * (0.5 + random.random())  # noqa: S311 - jitter, not a secret


# ----- settings -----------------------------------------------------------------------------
def check_webhook_url(url: str) -> str:
    """https to a public host (see :mod:`roses.server.webhooks`: every spelling of a local or
    private address is refused; the address is checked again when a webhook is sent)."""
    return webhooks.check_url(url)


def check_email(email: str) -> str:
    """A syntactically valid address (``email-validator``; no CR/LF or other control
    characters that could inject mail headers), normalised; else :class:`BadRequest`."""
    email = (email or "").strip()
    if any(ord(c) < 32 or ord(c) == 127 for c in email) or len(email) > 254:
        raise BadRequest("That is not an e-mail address.", code="bad_email")
    try:
        # test_environment: addresses under the reserved .test domain are accepted (tests, demos).
        return str(validate_email(email, check_deliverability=False, test_environment=True).normalized)
    except EmailNotValidError as exc:
        raise BadRequest(f"That is not an e-mail address: {exc}", code="bad_email") from None


#: A verification link is valid this long (seconds).
VERIFY_SECONDS = 48 * 3600
#: Verification mails one user may cause per hour (each address change sends one).
VERIFY_MAILS = 5


def request_verification(conn: Connection, user_id: int, email: str | None,
                         config: NotifyConfig | None = None) -> bool:
    """Mark ``email`` unverified and queue a mail with its verification link (in ``conn``'s
    transaction). False when no mail can be sent (no address, or no mail server)."""
    config = config or NotifyConfig.from_env()
    token = secrets.token_urlsafe(32)
    now = time.time()
    conn.execute(db.users.update().where(db.users.c.id == user_id).values(
        email_verified=False, email_token=hash_secret(token) if email else None,
        email_token_at=now if email else None))
    if not email or not config.smtp_host:
        return False
    link = f"{config.base_url}/api/auth/verify-email?token={token}"
    text = (f"Someone (we hope you) gave this address to Roses. To get game notifications here, "
            f"confirm it within {VERIFY_SECONDS // 3600} hours:\n\n{link}\n\n"
            f"If it was not you, ignore this mail: nothing more will be sent to you.\n")
    conn.execute(db.outbox.insert().values(
        user_id=user_id, channel=EMAIL, target=email, status=PENDING, attempts=0, next_at=now,
        created_at=now, payload=json.dumps({"subject": "Roses: confirm your e-mail address", "text": text})))
    return True


def verify_email(database: db.Database, token: str) -> str:
    """Confirm the address whose link carries ``token``; the address, else :class:`BadRequest`."""
    u = db.users.c
    now = time.time()
    with database.write() as conn:
        row = conn.execute(sa.select(u.id, u.email, u.email_token_at).where(
            u.email_token == hash_secret(token or ""))).first()
        if row is None or not row.email or (row.email_token_at or 0) < now - VERIFY_SECONDS:
            raise BadRequest("This confirmation link is unknown, used or expired: ask for a new one "
                             "on your profile page.", code="bad_email_token")
        conn.execute(db.users.update().where(u.id == row.id).values(
            email_verified=True, email_token=None, email_token_at=None))
    return str(row.email)


def get_settings(database: db.Database, user_id: int) -> dict[str, Any]:
    u = db.users.c
    with database.read() as conn:
        row = conn.execute(sa.select(u.email, u.email_verified, u.notify, u.webhook_url, u.webhook_format,
                                     u.webhook_error, u.webhook_error_at).where(u.id == user_id)).one()
        o = db.outbox.c
        retrying = conn.execute(sa.select(o.channel, o.last_error).where(
            o.user_id == user_id, o.status == PENDING, o.attempts > 0, o.last_error.is_not(None))
            .order_by(o.id.desc()).limit(1)).first()
    return {"email": row.email, "email_verified": bool(row.email and row.email_verified),
            "notify": bool(row.notify), "webhook_url": row.webhook_url,
            "webhook_format": row.webhook_format or "json", "webhook_error": row.webhook_error,
            "webhook_error_at": row.webhook_error_at,
            "retrying_error": None if retrying is None else f"{retrying.channel}: {retrying.last_error}"}


def put_settings(database: db.Database, user_id: int, changes: dict[str, Any],
                 throttle: Throttle | None = None) -> dict[str, Any]:
    values: dict[str, Any] = {}
    if "email" in changes:
        values["email"] = check_email(changes["email"]) if changes["email"] else None
    if "notify" in changes:
        values["notify"] = bool(changes["notify"])
    if "webhook_format" in changes:
        fmt = changes["webhook_format"] or "json"
        if fmt not in FORMATS:
            raise BadRequest(f"webhook_format is one of {', '.join(FORMATS)}.", code="bad_webhook_format")
        values["webhook_format"] = fmt
    if "webhook_url" in changes:
        url = (changes["webhook_url"] or "").strip() or None
        values["webhook_url"] = None if url is None else check_webhook_url(url)
    if values.get("email") and throttle is not None:
        with database.read() as conn:
            old_email = conn.execute(sa.select(db.users.c.email).where(db.users.c.id == user_id)).scalar()
        if old_email != values["email"]:  # each new address gets a confirmation mail: limited
            throttle.hit(f"verify-mail:{user_id}", VERIFY_MAILS, 3600.0, "address changes")
    with database.write() as conn:
        if "email" in values:
            old_email = conn.execute(sa.select(db.users.c.email).where(db.users.c.id == user_id)).scalar()
            if old_email != values["email"]:  # a new address is unverified until its link is followed
                request_verification(conn, user_id, values["email"])
        if "webhook_url" in values:
            old = conn.execute(sa.select(db.users.c.webhook_url).where(db.users.c.id == user_id)).scalar()
            if old != values["webhook_url"]:
                values.update(webhook_error=None, webhook_error_at=None)
        if values:
            conn.execute(db.users.update().where(db.users.c.id == user_id).values(**values))
    return get_settings(database, user_id)


# ----- presence -----------------------------------------------------------------------------
class Presence:
    """Who is connected to which game's WebSocket, in the database (shared by all workers)."""

    def __init__(self, database: db.Database, worker: str | None = None) -> None:
        self.db = database
        self.worker = worker or f"{os.getpid()}-{secrets.token_hex(4)}"
        self._mine: set[int] = set()
        self._lock = threading.Lock()
        self._task: asyncio.Task[None] | None = None
        #: The game service's group commit (set by :func:`install`).
        self.committer: GroupCommit | None = None

    def _write(self, work: Callable[[Connection], Any]) -> Any:
        """Run ``work`` in a write transaction: the game service's group commit when it has
        one (a thousand sockets opening at once share a few commits), else one of its own."""
        if self.committer is not None:
            return self.committer.run(work)
        with self.db.write() as conn:
            return work(conn)

    def enter(self, game_id: int, user_id: int) -> int:
        now = time.time()
        pid = int(self._write(lambda conn: conn.execute(db.presence.insert().values(
            game_id=game_id, user_id=user_id, worker=self.worker, seen_at=now
        ).returning(db.presence.c.id)).scalar_one()))
        with self._lock:
            self._mine.add(pid)
        return pid

    def leave(self, pid: int) -> None:
        with self._lock:
            self._mine.discard(pid)
        self._write(lambda conn: conn.execute(db.presence.delete().where(db.presence.c.id == pid)))

    def connected(self, game_id: int | None, user_ids: Sequence[int], now: float | None = None) -> set[int]:
        """The users among ``user_ids`` connected to ``game_id`` (to any game when None)."""
        if not user_ids:
            return set()
        now = time.time() if now is None else now
        p = db.presence.c
        q = sa.select(p.user_id).where(p.user_id.in_(list(user_ids)), p.seen_at > now - PRESENCE_STALE)
        if game_id is not None:
            q = q.where(p.game_id == game_id)
        with self.db.read() as conn:
            return {int(r.user_id) for r in conn.execute(q)}

    def heartbeat(self) -> None:
        now = time.time()
        with self._lock:
            mine = bool(self._mine)
        with self.db.write() as conn:
            if mine:
                conn.execute(db.presence.update().where(db.presence.c.worker == self.worker)
                             .values(seen_at=now))
            # Rows of workers that died long ago.
            conn.execute(db.presence.delete().where(db.presence.c.seen_at < now - 10 * PRESENCE_STALE))

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="roses-presence")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with self._lock:
            ids = list(self._mine)
            self._mine.clear()
        if ids:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self._drop, ids)

    def _drop(self, ids: list[int]) -> None:
        with self.db.write() as conn:
            conn.execute(db.presence.delete().where(db.presence.c.id.in_(ids)))

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_HEARTBEAT)
            try:
                await asyncio.to_thread(self.heartbeat)
            except Exception:  # noqa: BLE001
                log.exception("presence heartbeat failed")


# ----- messages -------------------------------------------------------------------------------
def _text(kind: str, title: str, game_id: int, data: dict[str, Any]) -> tuple[str, str]:
    """(subject, one-line text) of a notification."""
    where = f"{title} (game #{game_id})"
    if kind == TURN:
        return f"Your turn: {title}", f"It is your turn in {where}."
    if kind == STARTED:
        return f"Game started: {title}", f"{where} has started."
    if kind == FINISHED:
        result = data.get("result")
        return f"Game over: {title}", f"{where} is over" + (f": {result}." if result else ".")
    if kind == INVITED:
        by = data.get("by") or "Someone"
        return f"Invitation: {title}", f"{by} invites you to play {where}."
    if kind == REMINDER:
        role, left = data.get("role") or "your seat", data.get("left") or "soon"
        return (f"Reminder: {title}", f"{role}'s decision in {where} is due in {left}; then the published "
                "default is played for you if the decision has one, or the seat loses on time.")
    if kind == PRIVATE:
        sender = data.get("from") or "A seat"
        return f"Private message: {title}", f"{sender} sent you a private message in {where}."
    if kind == TEST:
        return "Roses test notification", "This is a test notification from Roses."
    return f"{title}", f"News in {where}."


def webhook_body(fmt: str, kind: str, text: str, url: str, game_id: int | None, title: str,
                 data: dict[str, Any]) -> dict[str, Any]:
    """The JSON body of a webhook in the user's format."""
    line = f"{text} {url}" if url else text
    if fmt == "discord":
        return {"content": line, "username": "Roses", "allowed_mentions": {"parse": []}}
    if fmt == "slack":
        return {"text": f"{text} <{url}|Open the game>" if url else text}
    return {"event": kind, "text": text, "url": url, "game_id": game_id, "title": title,
            **{k: v for k, v in data.items() if k in ("result", "by", "version", "active")}}


# ----- the notifier and delivery task ---------------------------------------------------------
@dataclass
class Delivered:
    """What the delivery task did (for tests and logs)."""

    sent: int = 0
    failed: int = 0
    retried: int = 0
    errors: list[str] = field(default_factory=list)


#: After a wake-up by an event, the notifier waits this long for more events, and queues them
#: together (a busy server changes turns many times a second).
BATCH_SECONDS = 0.2
#: Users found without a channel that wants notifications are not asked about again for this
#: long (seconds): on a busy server most players have none, and the same ones are asked about
#: many times a second. A change of settings made through this process forgets them at once;
#: one made through another worker process is seen within this time.
QUIET_SECONDS = 10.0
#: The most users remembered that way (the memory is dropped when it is full).
QUIET_USERS = 100_000


class Notifier:
    """The service's notifier: queues events; :meth:`start` runs the delivery task."""

    def __init__(self, database: db.Database, presence: Presence | None = None,
                 config: NotifyConfig | None = None, worker: str | None = None) -> None:
        self.db = database
        self.presence = presence
        self.config = config or NotifyConfig.from_env()
        self.worker = worker or f"{os.getpid()}-{secrets.token_hex(4)}"
        self.stats = Delivered()
        self._queue: queue.SimpleQueue[tuple[Event, bool]] = queue.SimpleQueue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._client: Any = None
        #: User id -> time (monotonic) until which that user is known to want no notification.
        self._quiet: dict[int, float] = {}
        self._quiet_lock = threading.Lock()

    # Called by the service after commit (any thread): must be quick and never raise.
    def notify(self, event: Event) -> None:
        if event.kind not in (STARTED, TURN, FINISHED, INVITED, TEST, REMINDER, PRIVATE) or not event.users:
            return
        self._queue.put((event, event.kind == TEST))
        self._poke()

    def _poke(self) -> None:
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(wake.set)

    # ----- events -> outbox rows ---------------------------------------------------------
    def queue_events(self) -> int:
        """Turn the queued events into outbox rows (blocking); the number of rows made.

        The events waiting are taken together: one query finds which of their users want
        notifications at all (most players of a busy server do not), and only the events of
        those users are looked at one by one."""
        pending: list[tuple[Event, bool]] = []
        while True:
            try:
                pending.append(self._queue.get_nowait())
            except queue.Empty:
                break
        if not pending:
            return 0
        now = time.monotonic()
        asked = {uid for event, always in pending if not always for uid in event.users}
        with self._quiet_lock:
            asked = {uid for uid in asked if self._quiet.get(uid, 0.0) <= now}
        try:
            wanting = self._wanting(asked)
        except Exception:  # noqa: BLE001 - a notification must never break anything
            log.exception("could not read the notification settings of %d event(s)", len(pending))
            return 0
        with self._quiet_lock:
            if len(self._quiet) > QUIET_USERS:
                self._quiet.clear()
            for uid in asked - wanting:
                self._quiet[uid] = now + QUIET_SECONDS
        made = 0
        for event, always in pending:
            if not always and not wanting.intersection(event.users):
                continue
            try:
                made += self._enqueue(event, always)
            except Exception:  # noqa: BLE001 - a notification must never break anything
                log.exception("could not queue notifications for %s of game %s", event.kind, event.game_id)
        return made

    def forget(self, user_id: int | None = None) -> None:
        """Ask about ``user_id``'s settings again at the next event (everyone's when None):
        they have just changed."""
        with self._quiet_lock:
            if user_id is None:
                self._quiet.clear()
            else:
                self._quiet.pop(user_id, None)

    def _wanting(self, user_ids: set[int]) -> set[int]:
        """Those of ``user_ids`` whose notifications are on with a channel that can carry them
        (a webhook, or a confirmed address; :meth:`_enqueue` decides the rest)."""
        if not user_ids:
            return set()
        u = db.users.c
        with self.db.read() as conn:
            rows = conn.execute(sa.select(u.id).where(
                u.id.in_(sorted(user_ids)), u.notify == sa.true(),
                sa.or_(u.webhook_url.is_not(None), sa.and_(u.email.is_not(None), u.email_verified == sa.true())))
            ).all()
        return {int(r.id) for r in rows}

    def _enqueue(self, event: Event, always: bool) -> int:
        u = db.users.c
        with self.db.read() as conn:
            # a test goes to the channels that are set even while turn notifications are off
            wanted = sa.true() if event.kind == TEST else u.notify == sa.true()
            found = conn.execute(sa.select(u.id, u.email, u.email_verified, u.webhook_url, u.webhook_format)
                                 .where(u.id.in_(list(set(event.users))), wanted)).all()
            # Mail goes only to confirmed addresses (request_verification).
            users: list[Any] = [SimpleNamespace(id=r.id, email=r.email if r.email_verified else None,
                                                webhook_url=r.webhook_url, webhook_format=r.webhook_format)
                                for r in found]
            users = [r for r in users if r.email or r.webhook_url]
            if not users:
                return 0
            title = ""
            if event.game_id:
                title = conn.execute(sa.select(db.games.c.title).where(db.games.c.id == event.game_id)).scalar() or ""
        if self.presence is not None and not always and event.game_id:
            here = self.presence.connected(event.game_id, [int(r.id) for r in users])
            users = [r for r in users if int(r.id) not in here]
        if not users:
            return 0
        subject, text = _text(event.kind, title, event.game_id, event.data)
        link = f"{self.config.base_url}/games/{event.game_id}" if event.game_id else ""
        if event.data.get("invite"):
            link += f"?invite={event.data['invite']}"
        now = time.time()
        rows = []
        for r in users:
            if r.webhook_url:
                body = webhook_body(r.webhook_format or "json", event.kind, text, link, event.game_id or None,
                                    title, {**event.data, "version": event.version,
                                            "active": list(event.active)})
                rows.append({"user_id": r.id, "channel": WEBHOOK, "target": r.webhook_url,
                             "payload": json.dumps(body)})
            if r.email and self.config.smtp_host:
                rows.append({"user_id": r.id, "channel": EMAIL, "target": r.email,
                             "payload": json.dumps({"subject": subject, "text": f"{text}\n\n{link}\n"})})
        if not rows:
            return 0
        with self.db.write() as conn:
            conn.execute(db.outbox.insert(), [
                {**row, "status": PENDING, "attempts": 0, "next_at": now, "created_at": now} for row in rows])
        return len(rows)

    # ----- delivery -----------------------------------------------------------------------
    def claim(self, now: float | None = None, limit: int = 20) -> list[Any]:
        now = time.time() if now is None else now
        o = db.outbox.c
        return lease_rows(self.db, db.outbox, sa.and_(o.status == PENDING, o.next_at <= now), o.next_at,
                          now, self.config.lease, limit, owner=self.worker)

    async def deliver_once(self) -> int:
        """Queue pending events, then send every due outbox row this worker can claim."""
        await asyncio.to_thread(self.queue_events)
        rows = await asyncio.to_thread(self.claim)
        if rows:
            await asyncio.gather(*(self._deliver(r) for r in rows))
        return len(rows)

    async def _deliver(self, row: Any) -> None:
        error: str | None = None
        try:
            if row.channel == WEBHOOK:
                await self._post(row.target, json.loads(row.payload))
            elif row.channel == EMAIL:
                await self._mail(row.target, json.loads(row.payload))
            else:
                error = f"unknown channel {row.channel!r}"
        except Exception as exc:  # noqa: BLE001 - every failure is recorded and retried
            error = _describe(exc)
        await asyncio.to_thread(self._record, row, error)

    async def _post(self, url: str, body: dict[str, Any]) -> None:
        if self._client is None:
            self._client = webhooks.client(self.config.timeout)
        res = await self._client.post(webhooks.check_url(url), json=body)
        if 300 <= res.status_code < 400:
            raise RuntimeError(f"HTTP {res.status_code} {res.reason_phrase}: redirects are not followed".strip())
        if res.status_code >= 300:
            raise RuntimeError(f"HTTP {res.status_code} {res.reason_phrase}".strip())

    async def _mail(self, to: str, body: dict[str, Any]) -> None:
        import aiosmtplib  # imported on use: keeps `roses` start-up fast

        c = self.config
        if not c.smtp_host:
            raise RuntimeError("no SMTP server configured")
        msg = EmailMessage()
        msg["From"] = c.smtp_from
        msg["To"] = to
        msg["Subject"] = str(body.get("subject", "Roses"))
        msg["Auto-Submitted"] = "auto-generated"  # RFC 3834: autoresponders do not answer it
        msg.set_content(str(body.get("text", "")))
        await aiosmtplib.send(msg, hostname=c.smtp_host, port=c.smtp_port, username=c.smtp_user,
                              password=c.smtp_password, use_tls=c.smtp_tls == "ssl",
                              start_tls=True if c.smtp_tls == "starttls" else None if c.smtp_tls == "auto" else False,
                              timeout=c.timeout)

    def _record(self, row: Any, error: str | None) -> None:
        now = time.time()
        o = db.outbox
        with self.db.write() as conn:
            if error is None:
                conn.execute(o.update().where(o.c.id == row.id).values(
                    status=SENT, attempts=row.attempts + 1, lease_until=None, last_error=None))
                if row.channel == WEBHOOK:
                    conn.execute(db.users.update().where(db.users.c.id == row.user_id,
                                                         db.users.c.webhook_error.is_not(None))
                                 .values(webhook_error=None, webhook_error_at=None))
                self.stats.sent += 1
                return
            attempts = row.attempts + 1
            log.warning("%s notification %s to user %s failed (attempt %s): %s", row.channel, row.id,
                        row.user_id, attempts, error)
            self.stats.errors.append(error)
            if attempts >= self.config.max_attempts:
                conn.execute(o.update().where(o.c.id == row.id).values(
                    status=FAILED, attempts=attempts, lease_until=None, last_error=error))
                self.stats.failed += 1
                if row.channel == WEBHOOK:
                    conn.execute(db.users.update().where(db.users.c.id == row.user_id).values(
                        webhook_error=f"{error} (gave up after {attempts} attempts)", webhook_error_at=now))
            else:
                conn.execute(o.update().where(o.c.id == row.id).values(
                    attempts=attempts, lease_until=None, last_error=error,
                    next_at=now + self.config.backoff(attempts)))
                self.stats.retried += 1

    # ----- background task ------------------------------------------------------------------
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._stopping = False
        self._task = asyncio.create_task(self._run(), name="roses-notify")

    async def stop(self) -> None:
        # The flag ends the loop even when a cancellation is lost in a race with the wake-up
        # (asyncio.wait_for on Python 3.11 can swallow one), so shutdown never hangs.
        self._stopping = True
        if self._task is not None:
            if self._wake is not None:
                self._wake.set()
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        self._loop = None
        if self._client is not None:
            with contextlib.suppress(Exception):
                await self._client.aclose()
            self._client = None

    async def _run(self) -> None:
        assert self._wake is not None
        # Woken by new events, the outbox is claimed only when they made rows; after a quiet
        # poll interval it is claimed anyway (retries, rows queued by other workers).
        claim = True
        while not self._stopping:
            self._wake.clear()
            try:
                if claim or await asyncio.to_thread(self.queue_events) > 0:
                    busy = await self.deliver_once()
                else:
                    busy = 0
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - keep delivering; the error is logged
                log.exception("notification delivery failed")
                busy = 0
            if busy:
                claim = True
                continue
            claim = True
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.config.poll):
                    await self._wake.wait()
                    claim = False
            if not claim and not self._stopping:
                # Woken by an event: the events of the next moment go with it (one read of
                # the users' settings and one thread hop for all of them, not one per event).
                await asyncio.sleep(BATCH_SECONDS)


def _describe(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return f"{type(exc).__name__}: {text}"[:500] if text != type(exc).__name__ else text[:500]


# ----- routes -----------------------------------------------------------------------------------
class SettingsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str | None = Field(default=None, max_length=254)
    notify: bool | None = None
    webhook_url: str | None = Field(default=None, max_length=500)
    webhook_format: str | None = Field(default=None, max_length=16, description="json, discord or slack")


class SettingsOut(BaseModel):
    email: str | None
    email_verified: bool = Field(default=False, description=(
        "The address was confirmed by the link mailed to it; only then are notifications mailed."))
    notify: bool
    webhook_url: str | None
    webhook_format: str
    webhook_error: str | None = Field(description="The last failed webhook delivery, if any.")
    webhook_error_at: float | None
    retrying_error: str | None = Field(default=None, description=(
        "The last error of a notification still being retried (channel: error), if any."))


class InviteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    user: str = Field(min_length=1, max_length=40)


router = APIRouter(prefix="/api")
RequiredUser = Annotated[User, Depends(require_user)]


def _notifier(request: Request) -> Notifier:
    n: Notifier = request.app.state.notifier
    return n


@router.get("/me/settings", response_model=SettingsOut, tags=["accounts"])
async def read_settings(request: Request, user: RequiredUser) -> dict[str, Any]:
    """Notification settings: e-mail, on/off, webhook URL and format, last webhook error."""
    return await run_in_threadpool(get_settings, services(request).db, user.id)


@router.put("/me/settings", response_model=SettingsOut, tags=["accounts"])
async def write_settings(request: Request, body: SettingsIn, user: RequiredUser) -> dict[str, Any]:
    """Change notification settings (fields left out stay as they are)."""
    changes = {k: getattr(body, k) for k in body.model_fields_set}
    if changes.get("notify") is None:
        changes.pop("notify", None)
    s = services(request)
    try:
        return await run_in_threadpool(put_settings, s.db, user.id, changes, s.throttle)
    finally:
        _notifier(request).forget(user.id)


def channels_for_test(config: NotifyConfig, settings: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Where a test notification goes for these settings, and what will not be sent and why:
    (channels, problems). A webhook is sent whenever set; e-mail only with a mail server."""
    channels: list[str] = []
    problems: list[str] = []
    if settings.get("webhook_url"):
        channels.append(WEBHOOK)
    if settings.get("email"):
        if not config.smtp_host:
            problems.append("This server has no mail server configured, so it sends no e-mail.")
        elif settings.get("email_verified"):
            channels.append(EMAIL)
        else:
            problems.append("Your e-mail address is not confirmed yet: follow the link in the mail "
                            "we sent to it (or ask for a new one).")
    if not settings.get("notify"):
        problems.append("Turn notifications are off: tick the box and save to get them.")
    return channels, problems


@router.get("/auth/verify-email", response_class=HTMLResponse, tags=["accounts"])
async def confirm_email(request: Request, token: Annotated[str, Query(max_length=100)] = "") -> HTMLResponse:
    """The link mailed to a new address: confirms it (notifications are mailed only to
    confirmed addresses). Answers with a short page."""
    try:
        email = await run_in_threadpool(verify_email, services(request).db, token)
    except BadRequest as exc:
        return HTMLResponse(_page("Link not valid", exc.message), status_code=400)
    _notifier(request).forget()  # a confirmed address may now carry someone's notifications
    return HTMLResponse(_page("Address confirmed", f"{email} is confirmed: game notifications can be "
                                                   "mailed to it now."))


def _page(title: str, text: str) -> str:
    return (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<link rel=\"stylesheet\" href=\"/static/css/roses.css\"></head><body><main><h1>{html.escape(title)}"
            f"</h1><p>{html.escape(text)}</p><p><a href=\"/profile\">Your profile</a></p></main></body></html>")


@router.post("/me/email/verify", status_code=202, tags=["accounts"])
async def resend_verification(request: Request, user: RequiredUser) -> dict[str, Any]:
    """Mail a new confirmation link to the account's address (a few per hour)."""
    s = services(request)

    def run() -> dict[str, Any]:
        settings = get_settings(s.db, user.id)
        if not settings["email"]:
            raise Conflict("There is no e-mail address to confirm: add one first.", code="no_email")
        if settings["email_verified"]:
            return {"sent": False, "email_verified": True}
        s.throttle.hit(f"verify-mail:{user.id}", VERIFY_MAILS, 3600.0, "confirmation mails")
        with s.db.write() as conn:
            sent = request_verification(conn, user.id, settings["email"], _notifier(request).config)
        if not sent:
            raise Conflict("This server has no mail server configured, so it sends no e-mail.", code="no_mail")
        return {"sent": True, "email_verified": False}

    return await run_in_threadpool(run)


@router.post("/me/settings/test", status_code=202, tags=["accounts"])
async def test_notification(request: Request, user: RequiredUser) -> dict[str, Any]:
    """Send yourself a test notification. The answer names the channels it goes to and what
    cannot be sent (no mail server, nothing set); a webhook failure shows as ``webhook_error``
    a little later. With no channel at all the answer is 409 and nothing is queued."""
    notifier = _notifier(request)
    settings = await run_in_threadpool(get_settings, services(request).db, user.id)
    channels, problems = channels_for_test(notifier.config, settings)
    if not channels:
        where = "a webhook URL" if not notifier.config.smtp_host else "an e-mail address or a webhook URL"
        raise Conflict(" ".join([*problems[:1], f"Nothing to send to: add {where} and save."])
                       if settings.get("email") else f"Nothing to send to: add {where} and save.",
                       code="no_channel")
    s = services(request)
    await run_in_threadpool(s.throttle.hit, f"test-notify:{user.id}", s.settings.test_notify_limit,
                            3600.0, "test notifications")
    notifier.notify(Event(TEST, 0, users=(user.id,)))
    return {"queued": True, "channels": channels, "problems": problems}


@router.post("/games/{game_id}/invite", status_code=202, tags=["lobby"])
async def invite(request: Request, game_id: Annotated[int, Path(ge=-db.INT_MAX, le=db.INT_MAX)],
                 body: InviteIn, user: RequiredUser) -> dict[str, Any]:
    """Invite a user by name to an open game you play in (they get a notification); a user may
    send a limited number of invitations per hour."""
    s = services(request)

    def run() -> dict[str, Any]:
        info = s.games.game(user, game_id)
        s.throttle.hit(f"invite:{user.id}", s.settings.invite_limit, 3600.0, "invitations")
        if user.name not in [seat["user"] for seat in info["seats"]] and info["owner"] != user.name:
            raise Forbidden("Only the game's players may invite.", code="not_seated")
        if info["status"] != "open":
            raise Conflict("The game has already started.", code="not_open")
        with s.db.read() as conn:
            row = conn.execute(sa.select(db.users.c.id, db.users.c.name)
                               .where(db.users.c.name_key == body.user.lower())).first()
            token = conn.execute(sa.select(db.games.c.invite_token).where(db.games.c.id == game_id)).scalar()
        if row is None:
            raise NotFound(f"There is no user {body.user!r}.", code="unknown_user")
        data: dict[str, Any] = {"by": user.name}
        if token:
            data["invite"] = token
        _notifier(request).notify(Event(INVITED, game_id, users=(int(row.id),), data=data))
        return {"invited": row.name}

    return await run_in_threadpool(run)


def install(app: FastAPI, games: GameService, config: NotifyConfig | None = None) -> Notifier:
    """Add presence, the notifier (registered with the service) and the settings/invite routes."""
    presence = Presence(games.db)
    presence.committer = games.committer
    notifier = Notifier(games.db, presence, config)
    games.notifiers.add(notifier)
    app.include_router(router)
    background = getattr(app.state, "background", None)
    if background is None:
        background = app.state.background = []
    background.extend([presence, notifier])
    app.state.presence = presence
    app.state.notifier = notifier
    return notifier

