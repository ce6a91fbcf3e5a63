"""Orders by e-mail: the server reads a mailbox over IMAP and plays the orders it finds.

A campaign by e-mail (the way Kingmaker's campaign rules were played) works like this: a player
answers a game's e-mail with orders, one per line, in the order language of the terminal
(``roses play``): the text of a choice as the terminal and the web page label it
(``move to AF23``, ``give Marshal of England, Percy``), or the action itself as a verb and its
arguments (``to AF23``, ``give marshal percy``, or ``give ["marshal", "percy"]`` in JSON). The
server answers every message it accepts with one e-mail: each order applied, or the first one
refused with the rules' own reason (after a refusal nothing more of that message is applied),
then the decision the player faces now and the orders open to him, written as he may send them.

Matching (nothing else is trusted):

- the sender is the ``From`` address of a user whose address is **confirmed** (the address
  check of :mod:`roses.server.notify`); mail from any other address is left unanswered (no
  replies to forged or unknown senders) and only counted;
- the game is named in the subject or the text, ``game #12`` (the notification e-mails say
  ``(game #12)``, so a reply quoting them names it); the seat is the user's only seat in that
  game, or the one named by ``role P2`` (several seats, hot seat);
- a ``From`` line is easily forged, so orders also need a fresh **order key** of the seat
  (:func:`order_key`, an HMAC under the server key over the user, the game, the seat and the
  game's version it answers, written ``V-KEY``): it is valid until the seat next moves, so a
  message cannot be played twice nor replayed later. The key of the moment comes with every
  reply to orders that were accepted (in its subject, so answering the reply is enough) and on
  the game's page (``GET /api/games/{id}/order-key``); a message without a valid key, or with
  one that is out of date, is answered (to the confirmed address) with the reason only: never
  a key, never the seat's view;
- a message already processed (the same ``Message-ID``, or the same sender, subject and text:
  table ``mail_seen``) is never played again; the answer says so;
- no answer at all to automatic mail (RFC 3834: ``Auto-Submitted`` other than ``no``, a
  ``Precedence`` of bulk, list or junk, ``List-Id``, a delivery report, an empty or daemon
  sender): an autoresponder and the server never write to each other; every answer carries
  ``Auto-Submitted: auto-replied``;
- answers are limited per sender address and per seat (:data:`REPLY_LIMITS`), and refusals
  more tightly (:data:`REFUSAL_LIMIT`): a flood of forged mail makes a handful of answers;
- every order goes through the same service path as the API (:meth:`GameService.act`, the
  version the order was read against; refused orders through :meth:`GameService.explain`), so
  seat checks, legality, undo rules, notifications and the hidden-information guard are the
  API's.

With several server processes on one database only the one holding the ``mailin`` lock
(:mod:`roses.server.leader`) polls; when it dies another one takes over.

Delivery is at most once: a message is marked ``\\Seen`` before its orders are played, so a
crash may lose a message (the player gets no answer and sends it again) but never plays it
twice. Replies go out by SMTP with the notification settings (``ROSES_SMTP_*``); they hold only
what the player's own view holds.

Configuration (environment): ``ROSES_IMAP_HOST`` (no host: no mail-in), ``ROSES_IMAP_PORT``
(143, or 993 for ``ssl``), ``ROSES_IMAP_USER``, ``ROSES_IMAP_PASSWORD``, ``ROSES_IMAP_TLS``
(``none``, ``starttls``, ``ssl``), ``ROSES_IMAP_MAILBOX`` (``INBOX``), ``ROSES_IMAP_POLL``
(seconds between polls, 30).
"""

from __future__ import annotations

import asyncio
import contextlib
import email
import email.policy
import hashlib
import hmac
import imaplib
import json
import logging
import os
import re
import smtplib
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import parseaddr
from typing import TYPE_CHECKING, Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam

from roses.engine.labels import arg_key, fallback_label
from roses.engine.registry import get_rules
from roses.server import db, exchanges, standing
from roses.server.auth import User
from roses.server.deps import require_user, services
from roses.server.errors import Conflict, Forbidden, ServerError
from roses.server.leader import Leader
from roses.server.limits import Throttle
from roses.server.notify import NotifyConfig

if TYPE_CHECKING:
    from fastapi import FastAPI

    from roses.server.service import GameService

log = logging.getLogger("roses.server.mailin")

#: Messages larger than this are not read (marked seen and answered with a refusal).
MAX_BYTES = 200_000
#: Orders read from one message at most.
MAX_ORDERS = 40
#: Messages handled in one poll at most (the rest wait for the next poll).
MAX_PER_POLL = 50

GAME_RE = re.compile(r"\bgame\s*#\s*(\d{1,12})\b", re.IGNORECASE)
ROLE_RE = re.compile(r"^\s*(?:role|seat)\s*[:=]?\s*([A-Za-z0-9_ -]{1,40}?)\s*$", re.IGNORECASE | re.MULTILINE)
SUBJECT_ROLE_RE = re.compile(r"\b(?:role|seat)\s*[:=]?\s*([A-Za-z0-9_]{1,40})\b", re.IGNORECASE)
MESSAGE_ID_RE = re.compile(r"^<[^<>\s]{1,250}>$")
KEY_RE = re.compile(r"\border key\s*[:=]?\s*(\d{1,10}-[0-9a-f]{16})\b", re.IGNORECASE)
#: The tag replies put in their subject (taken out again before a reply to a reply is tagged).
TAG_RE = re.compile(r"\s*\(game #\d+ role \S+ order key \d{1,10}-[0-9a-f]{16}\)", re.IGNORECASE)
#: Answers at most per window (seconds): per sender address, per seat (game and role).
REPLY_LIMITS = {"sender": 20, "seat": 30}
REPLY_WINDOW = 3600.0
#: Answers at most per sender and window that refuse a message (no valid key, out of date,
#: already processed): a forger gets the player only a few.
REFUSAL_LIMIT = 3
#: Senders that are mail systems, not people (RFC 3834 section 2).
DAEMON_RE = re.compile(r"^(mailer-daemon|postmaster|listserv|majordomo|owner-.*|.*-request|.*-bounces?(\+.*)?)@",
                       re.IGNORECASE)
#: Lines that end the orders: a signature, or the quoted message a mail program adds.
STOP_RE = re.compile(r"^(--\s*|-----\s*original message\s*-----|on .{0,200} wrote:|end|end of orders)$", re.IGNORECASE)
PUNCT_RE = re.compile(r"[,;:()\[\]\"'`]+")


@dataclass(frozen=True)
class MailInConfig:
    imap_host: str | None = None
    imap_port: int = 143
    imap_user: str | None = None
    imap_password: str | None = None
    imap_tls: str = "none"
    mailbox: str = "INBOX"
    poll: float = 30.0
    timeout: float = 20.0

    @classmethod
    def from_env(cls) -> MailInConfig:
        e = os.environ
        tls = (e.get("ROSES_IMAP_TLS") or "none").lower()
        if tls not in ("none", "starttls", "ssl"):
            raise ValueError("ROSES_IMAP_TLS must be none, starttls or ssl")
        port = int(e.get("ROSES_IMAP_PORT") or (993 if tls == "ssl" else 143))
        try:
            poll = float(e.get("ROSES_IMAP_POLL") or 30.0)
        except ValueError:
            poll = 30.0
        return cls(imap_host=e.get("ROSES_IMAP_HOST") or None, imap_port=port,
                   imap_user=e.get("ROSES_IMAP_USER") or None, imap_password=e.get("ROSES_IMAP_PASSWORD") or None,
                   imap_tls=tls, mailbox=e.get("ROSES_IMAP_MAILBOX") or "INBOX", poll=max(0.05, poll))


# ---------------------------------------------------------------------------- reading a message
def plain_text(msg: EmailMessage) -> str:
    """The text of a message: its first text/plain part (HTML-only mail has no orders)."""
    part = msg.get_body(preferencelist=("plain",))
    if part is None:
        return ""
    try:
        return str(part.get_content())
    except (LookupError, ValueError):  # an unknown or broken charset
        payload = part.get_payload(decode=True)
        return payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""


def order_lines(text: str) -> list[str]:
    """The orders of a message text: one per line, up to a signature, the quoted message or
    a line ``end``; blank lines, quoted lines (``>``) and comments (``#``) skipped; a line
    naming the game or the seat (``game #12``, ``role P2``) is not an order."""
    out: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if STOP_RE.match(line):
            break
        if (not line or line.startswith((">", "#")) or GAME_RE.fullmatch(line) or ROLE_RE.fullmatch(line)
                or KEY_RE.fullmatch(line)):
            continue
        out.append(line[:300])
        if len(out) >= MAX_ORDERS:
            break
    return out


def game_and_role(subject: str, text: str) -> tuple[int | None, str | None]:
    """The game (``game #12``) and seat (``role P2``) a message names: subject first, then the
    text (quoted lines included: a reply quotes the notification)."""
    m = GAME_RE.search(subject) or GAME_RE.search(text)
    game = int(m.group(1)) if m else None
    r = SUBJECT_ROLE_RE.search(subject)
    role = r.group(1) if r else None
    if role is None:
        rm = ROLE_RE.search(text)
        role = rm.group(1).strip() if rm else None
    return game, role


def order_key(user_id: int, game_id: int, role: str, version: int) -> str:
    """The seat's order key for orders answering the game's ``version``: ``V-`` and 16 hex
    digits of an HMAC under the server key over the user, game, seat and version, so only the
    server can make it. It is valid until the seat next moves (:meth:`MailIn.handle`)."""
    from roses.server.audit import server_key

    msg = f"roses-orders/2|{int(user_id)}|{int(game_id)}|{role}|{int(version)}".encode()
    return f"{int(version)}-" + hmac.new(server_key(), msg, hashlib.sha256).hexdigest()[:16]


def automatic(msg: EmailMessage, address: str) -> str | None:
    """Why ``msg`` is automatic mail that gets no answer (RFC 3834), or None."""
    auto = str(msg.get("Auto-Submitted", "")).strip().lower()
    if auto and auto.split(";")[0].strip() != "no":
        return "Auto-Submitted"
    if str(msg.get("Precedence", "")).strip().lower() in ("bulk", "list", "junk"):
        return "Precedence"
    if any(msg.get(h) is not None for h in ("List-Id", "List-Unsubscribe", "List-Post", "X-Autoreply",
                                            "X-Autorespond")):
        return "a mailing list or autoresponder"
    if msg.get_content_type() == "multipart/report" or "delivery-status" in msg.get_content_type():
        return "a delivery report"
    return_path = str(msg.get("Return-Path", "")).strip()
    if return_path == "<>" or not address or DAEMON_RE.match(address):
        return "a mail system"
    return None


def given_key(subject: str, text: str) -> str | None:
    """The order key a message carries (subject first, then the text, quotes included)."""
    m = KEY_RE.search(subject) or KEY_RE.search(text)
    return m.group(1).lower() if m else None


def norm(text: str) -> str:
    """An order or label compared loosely: lower case, no punctuation, single spaces."""
    return " ".join(PUNCT_RE.sub(" ", text).lower().replace("_", " ").split()).rstrip(".")


def _arg_words(arg: Any) -> list[str]:
    if arg is None:
        return []
    if isinstance(arg, list | tuple):
        return [w for x in arg for w in _arg_words(x)]
    return norm(str(arg)).split()


def _label(view: dict[str, Any], verb: str, arg: Any) -> str:
    """The label the server gave (verb, arg) in the view (the terminal's text)."""
    text = ((view.get("labels") or {}).get(verb) or {}).get(arg_key(arg))
    return text if isinstance(text, str) else fallback_label(verb, arg)


def options(view: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """The orders open to the view's role now: (verb, arg, label as the terminal writes it)."""
    out = []
    for verb, args in (view.get("actions") or {}).items():
        if verb == "undo":
            continue
        for arg in ([None] if args is True else (args or [])):
            out.append((verb, arg, _label(view, verb, arg)))
    return out


@dataclass
class Match:
    """What an order line means: a legal ``action``, or a ``guess`` to ask the rules about (the
    line read as verb and arguments), or neither (``why`` says what is wrong)."""

    action: tuple[str, Any] | None = None
    guess: tuple[str, Any] | None = None
    why: str | None = None


def match_order(view: dict[str, Any], line: str) -> Match:
    """Read one order line against the view's legal actions (module docstring)."""
    opts = options(view)
    want = norm(line)
    if not want:
        return Match(why="An empty order.")
    if want.isdigit():
        return Match(why="Numbers change from one position to the next: write the order itself "
                         "(its text, as listed below).")
    by_label = [(v, a) for v, a, text in opts if norm(text) == want]
    if len(by_label) == 1:
        return Match(action=by_label[0])
    words = want.split()
    verb = words[0]
    verbs = {v for v, _, _ in opts}
    verb_key = next((v for v in verbs if norm(v) == verb or v == line.split()[0]), None)
    if verb_key is None:
        # a verb of two words ("end alliance" for end_alliance)
        for v in verbs:
            head = norm(v).split()
            if len(head) > 1 and words[:len(head)] == head:
                verb_key, words = v, [v, *words[len(head):]]
                break
    if verb_key is None:
        return Match(why=f"{line!r} is not one of your orders now.")
    rest_raw = line.split(None, 1)[1].strip() if len(line.split(None, 1)) > 1 else ""
    if rest_raw.startswith(("[", "{", '"')):
        try:
            parsed = json.loads(rest_raw)
        except ValueError:
            parsed = None
        if parsed is not None:
            exact = [(v, a) for v, a, _ in opts if v == verb_key and a == parsed]
            return Match(action=exact[0]) if exact else Match(guess=(verb_key, parsed))
    given = words[1:]
    same = [(v, a) for v, a, _ in opts if v == verb_key and _arg_words(a) == given]
    if len(same) == 1:
        return Match(action=same[0])
    if len(same) > 1:
        return Match(why=f"{line!r} could mean several orders: write one of them as listed below.")
    raw_words = PUNCT_RE.sub(" ", rest_raw).split()
    guess: Any = None if not raw_words else raw_words[0] if len(raw_words) == 1 else raw_words
    return Match(guess=(verb_key, guess))


# ---------------------------------------------------------------------------- the reader
@dataclass
class Outcome:
    """What one message did: the reply to send (None: no reply) and the orders applied."""

    reply: EmailMessage | None
    applied: list[tuple[str, Any]] = field(default_factory=list)
    refused: str | None = None
    user: str | None = None
    game_id: int | None = None
    role: str | None = None
    key: str | None = None


Sender = Callable[[EmailMessage], None]


def smtp_sender(config: NotifyConfig) -> Sender:
    """Send replies by SMTP with the notification settings (``ROSES_SMTP_*``)."""

    def send(msg: EmailMessage) -> None:
        if not config.smtp_host:
            log.warning("an order reply was not sent: no SMTP server is configured")
            return
        del msg["From"]
        msg["From"] = config.smtp_from
        if config.smtp_tls == "ssl":
            client: smtplib.SMTP = smtplib.SMTP_SSL(config.smtp_host, config.smtp_port, timeout=config.timeout,
                                                    context=ssl.create_default_context())
        else:
            client = smtplib.SMTP(config.smtp_host, config.smtp_port, timeout=config.timeout)
        with client:
            if config.smtp_tls in ("starttls", "auto"):
                with contextlib.suppress(smtplib.SMTPNotSupportedError):
                    client.starttls(context=ssl.create_default_context())
            if config.smtp_user and config.smtp_password:
                client.login(config.smtp_user, config.smtp_password)
            client.send_message(msg)

    return send


class MailIn:
    """Reads orders from an IMAP mailbox and plays them (module docstring)."""

    def __init__(self, games: GameService, config: MailInConfig | None = None,
                 send: Sender | None = None, from_address: str = "roses@localhost") -> None:
        self.games = games
        self.config = config or MailInConfig.from_env()
        self.send = send or smtp_sender(NotifyConfig.from_env())
        self.from_address = from_address
        self.ignored = 0  # messages from unknown or unconfirmed senders
        self.automatic = 0  # automatic mail (RFC 3834): never answered
        self.unanswered = 0  # answers held back by the limits
        self.throttle = Throttle(games.db)
        self._task: asyncio.Task[None] | None = None
        self._stop: asyncio.Event | None = None  # created in start()
        #: Only the server process holding it polls (:mod:`roses.server.leader`).
        self.leader = Leader(games.db, "mailin")

    # ----- one message ------------------------------------------------------------------
    def sender_user(self, address: str) -> User | None:
        """The user whose confirmed e-mail address is ``address`` (None: unknown)."""
        addr = address.strip().lower()
        if not addr or "@" not in addr or len(addr) > 254:
            return None
        u = db.users
        with self.games.db.read() as conn:
            rows = conn.execute(sa.select(u.c.id, u.c.name, u.c.is_admin).where(
                sa.func.lower(u.c.email) == addr, u.c.email_verified.is_(True))).all()
        if len(rows) != 1:  # none, or (impossible by sign-up rules) ambiguous: no answer
            return None
        row = rows[0]
        return User(id=int(row.id), name=str(row.name), is_admin=bool(row.is_admin))

    def handle(self, raw: bytes) -> Outcome:
        """Play the orders of one raw message and build its reply."""
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        assert isinstance(msg, EmailMessage)
        _, address = parseaddr(str(msg.get("From", "")))
        why_auto = automatic(msg, address)
        if why_auto is not None:
            self.automatic += 1
            log.info("mail-in: automatic mail (%s) was not answered", why_auto)
            return Outcome(reply=None)
        user = self.sender_user(address)
        if user is None:
            self.ignored += 1
            log.info("mail-in: a message from an unknown or unconfirmed address was ignored")
            return Outcome(reply=None)
        subject = " ".join(str(msg.get("Subject", "")).split())[:200]
        out = Outcome(reply=None, user=user.name)
        if len(raw) > MAX_BYTES:
            return self._refuse(out, msg, address, subject, [f"Your message is too large (over {MAX_BYTES // 1000} kB): "
                                                          "send the orders alone, as plain text."])
        text = plain_text(msg)
        if not self._first_time(msg, address, subject, text):
            return self._refuse(out, msg, address, subject, [
                "This message was processed already: nothing in it is applied again."])
        game_id, role = game_and_role(subject, text)
        if game_id is None:
            return self._refuse(out, msg, address, subject, [
                "Which game? Put \"game #N\" (the number of the game) in the subject or on a line of its own."])
        out.game_id = game_id
        try:
            info = self.games.game(user, game_id)
        except ServerError:
            return self._refuse(out, msg, address, subject, [f"You have no game #{game_id}."])
        mine = list(info.get("my_roles") or [])
        if not mine:
            return self._refuse(out, msg, address, subject, [f"You hold no seat in game #{game_id}."])
        if role is None:
            if len(mine) > 1:
                return self._refuse(out, msg, address, subject, [
                    f"You hold several seats in game #{game_id} ({', '.join(mine)}): add a line \"role X\"."])
            role = mine[0]
        match_role = next((r for r in mine if r.lower() == role.lower()), None)
        if match_role is None:
            return self._refuse(out, msg, address, subject, [f"You do not hold the seat {role!r} in game #{game_id}."])
        out.role = role = match_role
        given = given_key(subject, text) or ""
        answered = int(given.split("-", 1)[0]) if given else -1
        version = int(info.get("version") or 0)
        if not (0 <= answered <= version and hmac.compare_digest(given, order_key(user.id, game_id, role, answered))):
            # The sender's address is not proof enough (a From line is easily forged): the
            # answer says why, and holds neither a key nor the seat's view.
            return self._refuse(out, msg, address, subject, [
                f"Game #{game_id}, {role}: your orders were not applied: they need a valid order key of your seat.",
                "Answer the latest e-mail the server sent you about this game (its subject carries the key), "
                "or take the key from the game's page (Orders by e-mail)."])
        if self._moved_since(game_id, role, answered):
            return self._refuse(out, msg, address, subject, [
                f"Game #{game_id}, {role}: your orders were not applied: they answer version {answered} of the "
                "game, and your seat has moved since (they were already applied, or are out of date).",
                "Answer the latest e-mail the server sent you about this game, or take the key of the moment "
                "from the game's page."])
        lines = [f"Game #{game_id} ({info.get('title') or info.get('game')}), you are {role}.", ""]
        orders = order_lines(text)
        if not orders:
            lines.append("No orders were found in your message.")
        for i, order in enumerate(orders, 1):
            done, report = self._play(user, game_id, role, order, get_rules(str(info["game"])).standing_verbs)
            lines.append(f"Order {i}, {order!r}: {report}")
            if done is None:
                out.refused = report
                if i < len(orders):
                    lines.append(f"Orders {i + 1} to {len(orders)} were not applied: "
                                 "an order was refused, so the rest may no longer make sense.")
                break
            out.applied.append(done)
        lines.append("")
        lines.extend(self._now(user, game_id, role))
        try:
            now_version = int(self.games.game(user, game_id)["version"])
            out.key = order_key(user.id, game_id, role, now_version)
        except ServerError:
            out.key = None
        return self._reply(out, msg, address, subject, lines, seat=(game_id, role))

    def _first_time(self, msg: EmailMessage, address: str, subject: str, text: str) -> bool:
        """Record the message as processed (its Message-ID, and a digest of its sender,
        subject and text); False when either was seen before."""
        mid = str(msg.get("Message-ID", "")).strip()
        body = f"{address.lower()}\n{subject}\n{text}"
        keys = ["body:" + hashlib.sha256(body.encode("utf-8", "replace")).hexdigest()[:58]]
        if mid:
            keys.append("mid:" + hashlib.sha256(mid.encode("utf-8", "replace")).hexdigest()[:59])
        t = db.mail_seen
        now = time.time()
        with self.games.db.write() as conn:
            if conn.execute(sa.select(t.c.key).where(t.c.key.in_(keys))).first() is not None:
                return False
            conn.execute(t.insert(), [{"key": k, "created_at": now} for k in keys])
        return True

    def _moved_since(self, game_id: int, role: str, version: int) -> bool:
        """Whether ``role`` has moved since the game's ``version`` (its key of then is spent)."""
        a = db.actions.c
        with self.games.db.read() as conn:
            return conn.execute(sa.select(a.seq).where(a.game_id == game_id, a.role == role, a.seq > version)
                                .limit(1)).first() is not None

    def _allowed(self, address: str, seat: tuple[int, str] | None, refusal: bool) -> bool:
        """Whether one more answer may go out (:data:`REPLY_LIMITS`, :data:`REFUSAL_LIMIT`)."""
        from roses.server.errors import TooManyRequests

        checks = [(f"mail-reply:{address.lower()}", REPLY_LIMITS["sender"])]
        if seat is not None:
            checks.append((f"mail-reply-seat:{seat[0]}:{seat[1]}", REPLY_LIMITS["seat"]))
        if refusal:
            checks.append((f"mail-refusal:{address.lower()}", REFUSAL_LIMIT))
        try:
            for key, limit in checks:
                self.throttle.hit(key, limit, REPLY_WINDOW, "answers")
        except TooManyRequests:
            self.unanswered += 1
            log.info("mail-in: an answer was held back by the limits")
            return False
        return True

    def _refuse(self, out: Outcome, msg: EmailMessage, address: str, subject: str, lines: list[str]) -> Outcome:
        """An answer that applies nothing: no key, no view, and a tighter limit."""
        out.key = None
        seat = (out.game_id, out.role) if out.game_id is not None and out.role else None
        return self._reply(out, msg, address, subject, lines, seat=seat, refusal=True)

    def _play(self, user: User, game_id: int, role: str, order: str,
              standing_verbs: tuple[str, str] | None) -> tuple[tuple[str, Any] | None, str]:
        """Apply one order: ((verb, arg), "done: ...") or (None, the reason it is refused)."""
        try:
            payload = self.games.view(user, game_id, role)
        except ServerError as exc:
            return None, f"refused: {exc.message}"
        if payload.get("status") != "active":
            return None, "refused: the game is not running."
        view = payload.get("view") or {}
        # A standing order (roses/server/standing.py) may be set at any time, asked or not.
        standing_order = standing.parse(view, order, standing_verbs)
        if isinstance(standing_order, str):
            return None, f"refused: {standing_order}"
        if standing_order is not None:
            try:
                self.games.act(user, game_id, role, standing_order[0], standing_order[1], int(payload["version"]))
            except ServerError as exc:
                return None, f"refused: {exc.message}"
            return standing_order, "done (standing order)."
        # An exchange (roses/server/exchanges.py) may be proposed or answered at any time too.
        exchange = exchanges.parse(view, order)
        if isinstance(exchange, str):
            return None, f"refused: {exchange}"
        if exchange is not None:
            try:
                self.games.act(user, game_id, role, exchange[0], exchange[1], int(payload["version"]))
            except ServerError as exc:
                return None, f"refused: {exc.message}"
            return exchange, "done (exchange)."
        if not view.get("actions"):
            waiting = ", ".join(payload.get("active") or []) or "nobody"
            return None, f"refused: no decision of yours is open now (waiting for {waiting})."
        m = match_order(view, order)
        action = m.action
        if action is None and m.guess is not None:
            try:
                why = self.games.explain(user, game_id, role, m.guess[0], m.guess[1])
            except ServerError as exc:
                return None, f"refused: {exc.message}"
            if why.get("allowed"):
                action = m.guess
            else:
                return None, f"refused: {why.get('reason') or 'not allowed now.'}"
        if action is None:
            return None, f"refused: {m.why}"
        label = _label(view, action[0], action[1])
        try:
            self.games.act(user, game_id, role, action[0], action[1], int(payload["version"]))
        except ServerError as exc:
            return None, f"refused: {exc.message}"
        return action, f"done ({label})."

    def _now(self, user: User, game_id: int, role: str) -> list[str]:
        """The decision the player faces now and the orders open to him (his own view only)."""
        try:
            payload = self.games.view(user, game_id, role)
        except ServerError as exc:
            return [exc.message]
        view = payload.get("view") or {}
        out: list[str] = []
        recent = [str(x[1] if isinstance(x, list) and len(x) > 1 else x) for x in (view.get("log") or [])][-12:]
        if recent:
            out += ["What happened lately (as you may see it):", *[f"  {r}" for r in recent], ""]
        if payload.get("result"):
            return [*out, f"The game is over: {payload['result']}."]
        if payload.get("status") != "active":
            return [*out, "The game is not running."]
        if not view.get("actions"):
            waiting = ", ".join(payload.get("active") or []) or "nobody"
            return [*out, f"Now: {view.get('prompt') or ''}", f"No decision of yours is open; waiting for {waiting}.",
                    *exchanges.help_lines(view)]
        out += [f"Now: {view.get('prompt') or ''}", "Your orders now (reply with one per line, as written here):"]
        out += [f"  {label}" for _, _, label in options(view)]
        if view.get("default"):
            d = view["default"]
            out.append(f"If the deadline passes: {_label(view, d[0], d[1] if len(d) > 1 else None)}.")
        return out + standing.help_lines(view) + exchanges.help_lines(view)

    def _reply(self, out: Outcome, msg: EmailMessage, address: str, subject: str, lines: list[str],
               seat: tuple[int, str] | None = None, refusal: bool = False) -> Outcome:
        if not self._allowed(address, seat, refusal):
            out.reply = None
            return out
        reply = EmailMessage()
        reply["Auto-Submitted"] = "auto-replied"  # RFC 3834: autoresponders do not answer it
        reply["From"] = self.from_address
        reply["To"] = address
        subj = subject if subject.lower().startswith("re:") else f"Re: {subject}" if subject else "Your orders"
        if out.key and out.game_id is not None:  # answering the reply keeps the game and the key
            subj = f"{TAG_RE.sub('', subj).strip()} (game #{out.game_id} role {out.role} order key {out.key})"
        reply["Subject"] = subj[:300]
        mid = str(msg.get("Message-ID", "")).strip()
        if MESSAGE_ID_RE.match(mid):
            reply["In-Reply-To"] = mid
            reply["References"] = mid
        reply.set_content("\n".join(lines) + "\n")
        out.reply = reply
        return out

    # ----- the mailbox -------------------------------------------------------------------
    def _connect(self) -> imaplib.IMAP4:
        c = self.config
        assert c.imap_host
        if c.imap_tls == "ssl":
            imap: imaplib.IMAP4 = imaplib.IMAP4_SSL(c.imap_host, c.imap_port, ssl_context=ssl.create_default_context(),
                                                    timeout=c.timeout)
        else:
            imap = imaplib.IMAP4(c.imap_host, c.imap_port, timeout=c.timeout)
            if c.imap_tls == "starttls":
                imap.starttls(ssl.create_default_context())
        imap.login(c.imap_user or "", c.imap_password or "")
        return imap

    def poll_once(self) -> list[Outcome]:
        """Read the unseen messages of the mailbox, mark each seen, play it, send its reply."""
        imap = self._connect()
        outcomes: list[Outcome] = []
        try:
            typ, _ = imap.select(self.config.mailbox)
            if typ != "OK":
                raise RuntimeError(f"mailbox {self.config.mailbox!r} cannot be opened")
            typ, data = imap.uid("SEARCH", "UNSEEN")
            uids = [u.decode("ascii") for u in (data[0] or b"").split()] if typ == "OK" and data else []
            for uid in uids[:MAX_PER_POLL]:
                # at most once: seen before it is played (module docstring)
                typ, _ = imap.uid("STORE", uid, "+FLAGS", "(\\Seen)")
                if typ != "OK":
                    continue
                typ, parts = imap.uid("FETCH", uid, "(BODY.PEEK[])")
                raw = next((p[1] for p in parts or [] if isinstance(p, tuple) and len(p) > 1), None)
                if typ != "OK" or not isinstance(raw, bytes):
                    continue
                try:
                    outcome = self.handle(raw)
                except Exception as exc:  # noqa: BLE001 - one bad message must not stop the others
                    log.error("mail-in: a message could not be handled: %s", type(exc).__name__)
                    continue
                outcomes.append(outcome)
                if outcome.reply is not None:
                    try:
                        self.send(outcome.reply)
                    except Exception as exc:  # noqa: BLE001 - the orders stand; the reply is lost
                        log.error("mail-in: a reply could not be sent: %s", type(exc).__name__)
        finally:
            with contextlib.suppress(Exception):
                imap.logout()
        return outcomes

    async def start(self) -> None:
        if not self.config.imap_host or self._task is not None:
            return
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is None:
            return
        assert self._stop is not None
        self._stop.set()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task
        self._task = None

    async def _run(self) -> None:
        assert self._stop is not None
        while not self._stop.is_set():
            try:
                # one server at a time reads the mailbox: two would both play an unseen message
                if await asyncio.to_thread(self.leader.held):
                    await asyncio.to_thread(self.poll_once)
            except Exception as exc:  # noqa: BLE001 - the mail server may be away: try again later
                log.warning("mail-in: polling %s failed: %s", self.config.imap_host, type(exc).__name__)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stop.wait(), timeout=self.config.poll)


router = APIRouter(prefix="/api", tags=["play"])


@router.get("/games/{game_id}/order-key")
def get_order_key(request: Request, game_id: Annotated[int, PathParam(ge=-db.INT_MAX, le=db.INT_MAX)],
                  user: Annotated[User, Depends(require_user)], role: str | None = None) -> dict[str, Any]:
    """The order key of the moment of the caller's seat (orders by e-mail): valid until the
    seat next moves. Only the seat's holder gets it."""
    games = services(request).games
    info = games.game(user, game_id)
    mine = list(info.get("my_roles") or [])
    if role is None and len(mine) == 1:
        role = mine[0]
    if role not in mine:
        raise Forbidden("You hold no such seat in this game.", code="not_seated")
    if info.get("status") not in ("active", "paused"):
        raise Conflict("The game is not running.", code="not_running")
    assert role is not None
    key = order_key(user.id, game_id, role, int(info["version"]))
    return {"game_id": game_id, "role": role, "version": info["version"], "key": key,
            "line": f"order key {key}", "subject": f"Orders (game #{game_id} role {role} order key {key})"}


def install(app: FastAPI, games: GameService, config: MailInConfig | None = None) -> MailIn | None:
    """Read orders by e-mail when an IMAP server is configured (``ROSES_IMAP_HOST``)."""
    config = config or MailInConfig.from_env()
    if not config.imap_host:
        return None
    notify = NotifyConfig.from_env()
    reader = MailIn(games, config, smtp_sender(notify), from_address=notify.smtp_from)
    background = getattr(app.state, "background", None)
    if background is None:
        background = app.state.background = []
    background.append(reader)
    app.state.mailin = reader
    return reader
