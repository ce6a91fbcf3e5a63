"""Accounts: argon2id password hashes, sessions, personal API tokens, CSRF, login devices.

Session cookies and API tokens are random 256-bit secrets; the database keeps only their
SHA-256, so a copy of the database does not let anyone log in. Every session also has a CSRF
token: cookie-authenticated requests that change something must send it back in the
``X-CSRF-Token`` header (or a ``csrf_token`` form field). Requests with a Bearer token need no
CSRF token (a browser never adds one by itself).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy.engine import Connection
from zxcvbn import zxcvbn

from roses.server import db
from roses.server.errors import BadRequest, Conflict, Unauthorized
from roses.server.store import Sql

SESSION_COOKIE = "roses_session"
CSRF_COOKIE = "roses_csrf"
CSRF_HEADER = "X-CSRF-Token"
#: A browser that logged in before (the per-name login back-off does not apply to it).
DEVICE_COOKIE = "roses_device"
DEVICE_SECONDS = 365 * 24 * 3600
SESSION_SECONDS = 30 * 24 * 3600
TOKEN_PREFIX = "rt_"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{1,29}$")
MIN_PASSWORD = 8
MAX_PASSWORD = 1024

_hasher = PasswordHasher()  # argon2id with the library's recommended parameters


@dataclass(frozen=True)
class User:
    id: int
    name: str
    is_admin: bool = False


@dataclass(frozen=True)
class Auth:
    """Who makes a request, and how (``"session"``, ``"token"``)."""

    user: User
    method: str
    csrf: str | None = None
    #: Set when an API token's ``last_used`` should be refreshed.
    token_id: int | None = None


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def check_name(name: str) -> str:
    if not NAME_RE.match(name or ""):
        raise BadRequest("A user name has 2-30 characters: letters, digits, '_', '.', '-', starting with a letter or digit.")
    return name


#: Weakest accepted zxcvbn score (0-4): 2 means about 10^6 guesses or more, which keeps out
#: the commonest passwords and simple variations of them (``password1``, ``qwertyuiop``).
MIN_SCORE = 2
#: zxcvbn judges at most this many characters (its own limit); a longer password is judged
#: by its beginning.
JUDGED = 72


def check_password(password: str, name: str = "") -> str:
    """The password policy: 8 to 1024 characters, not containing the user name, and not one of
    the commonest passwords nor a simple variation of one (zxcvbn: its lists of common
    passwords, words and names, keyboard patterns, dates and repeats)."""
    if not (MIN_PASSWORD <= len(password or "") <= MAX_PASSWORD):
        raise BadRequest(f"A password needs at least {MIN_PASSWORD} characters.", code="weak_password")
    if name and len(name) >= 3 and name.lower() in password.lower():
        raise BadRequest("A password may not contain the user name.", code="weak_password")
    judged = zxcvbn(password[:JUDGED], user_inputs=[name] if name else [])
    if judged["score"] < MIN_SCORE:
        hint = (judged.get("feedback") or {}).get("warning") or "it is too easy to guess"
        raise BadRequest(f"Choose a stronger password: {hint.rstrip('.')}.", code="weak_password")
    return password


def _user(row: Any) -> User:
    return User(id=int(row.id), name=str(row.name), is_admin=bool(row.is_admin))


def create_user(conn: Connection, name: str, password: str, *, is_admin: bool = False,
                email: str | None = None) -> User:
    check_name(name)
    check_password(password, name)
    key = name.lower()
    if conn.execute(sa.select(db.users.c.id).where(db.users.c.name_key == key)).first():
        raise Conflict(f"The name {name!r} is taken.", code="name_taken")
    try:
        with conn.begin_nested():  # the same name may be signed up at the same moment elsewhere
            uid = conn.execute(db.users.insert().values(
                name=name, name_key=key, password_hash=hash_password(password), email=email,
                # an address given at sign-up is for turn notifications: they start on
                is_admin=is_admin, notify=bool(email), created_at=time.time(),
            ).returning(db.users.c.id)).scalar_one()
    except sa.exc.IntegrityError as exc:
        raise Conflict(f"The name {name!r} is taken.", code="name_taken") from exc
    return User(id=int(uid), name=name, is_admin=is_admin)


def authenticate(conn: Connection, name: str, password: str) -> User | None:
    row = conn.execute(sa.select(db.users).where(db.users.c.name_key == (name or "").lower())).first()
    if row is None:
        # Spend the same time as a real check so that timing does not tell which names exist.
        verify_password(_DUMMY_HASH, password or "")
        return None
    if not verify_password(row.password_hash, password or ""):
        return None
    if _hasher.check_needs_rehash(row.password_hash):
        conn.execute(db.users.update().where(db.users.c.id == row.id)
                     .values(password_hash=hash_password(password)))
    return _user(row)


_DUMMY_HASH = _hasher.hash("not a real password")


def configure_hasher(time_cost: int, memory_cost: int, parallelism: int = 1) -> None:
    """Change the argon2id cost (tests use a cheap one; production keeps the defaults)."""
    global _hasher, _DUMMY_HASH
    _hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_cost, parallelism=parallelism)
    _DUMMY_HASH = _hasher.hash("not a real password")


def change_password(conn: Connection, user: User, old: str, new: str) -> None:
    row = conn.execute(sa.select(db.users).where(db.users.c.id == user.id)).one()
    if not verify_password(row.password_hash, old or ""):
        raise Unauthorized("The current password is wrong.", code="wrong_password")
    check_password(new, user.name)
    conn.execute(db.users.update().where(db.users.c.id == user.id).values(password_hash=hash_password(new)))


def create_session(conn: Connection, user: User) -> tuple[str, str]:
    """A new session: returns (cookie value, CSRF token)."""
    token = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(24)
    now = time.time()
    conn.execute(db.sessions.delete().where(db.sessions.c.user_id == user.id,
                                            db.sessions.c.expires_at < now))
    conn.execute(db.sessions.insert().values(
        token_hash=hash_secret(token), user_id=user.id, csrf=csrf, created_at=now,
        expires_at=now + SESSION_SECONDS))
    return token, csrf


def session_auth(conn: Connection, token: str) -> Auth | None:
    row = conn.execute(
        sa.select(db.users.c.id, db.users.c.name, db.users.c.is_admin, db.sessions.c.csrf,
                  db.sessions.c.expires_at)
        .join(db.users, db.users.c.id == db.sessions.c.user_id)
        .where(db.sessions.c.token_hash == hash_secret(token))).first()
    if row is None or row.expires_at < time.time():
        return None
    return Auth(user=_user(row), method="session", csrf=str(row.csrf))


def end_session(conn: Connection, token: str) -> None:
    conn.execute(db.sessions.delete().where(db.sessions.c.token_hash == hash_secret(token)))


def end_other_sessions(conn: Connection, user: User, keep_token: str | None) -> None:
    q = db.sessions.delete().where(db.sessions.c.user_id == user.id)
    if keep_token:
        q = q.where(db.sessions.c.token_hash != hash_secret(keep_token))
    conn.execute(q)


def create_token(conn: Connection, user: User, name: str) -> tuple[int, str]:
    name = (name or "").strip()
    if not 1 <= len(name) <= 80:
        raise BadRequest("A token needs a name of 1-80 characters.")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    tid = conn.execute(db.api_tokens.insert().values(
        token_hash=hash_secret(token), user_id=user.id, name=name, created_at=time.time(),
    ).returning(db.api_tokens.c.id)).scalar_one()
    return int(tid), token


def revoke_tokens(conn: Connection, user: User) -> int:
    """Delete every API token of ``user`` (after a password change); how many there were."""
    return int(conn.execute(db.api_tokens.delete().where(db.api_tokens.c.user_id == user.id)).rowcount)


#: ``api_tokens.last_used`` is refreshed at most this often (seconds), to spare writes.
TOKEN_TOUCH_EVERY = 600.0


#: Every API request asks this: a fixed statement on the driver's cursor (roses.server.store).
_TOKEN_SQL = Sql("SELECT users.id, users.name, users.is_admin, api_tokens.id, api_tokens.last_used "
                 "FROM api_tokens JOIN users ON users.id = api_tokens.user_id WHERE api_tokens.token_hash = ?")


def token_auth(conn: Connection, token: str) -> Auth | None:
    row = _TOKEN_SQL.first(conn, (hash_secret(token),))
    if row is None:
        return None
    uid, name, is_admin, token_id, last_used = row
    stale = last_used is None or last_used < time.time() - TOKEN_TOUCH_EVERY
    return Auth(user=User(id=int(uid), name=str(name), is_admin=bool(is_admin)), method="token",
                token_id=int(token_id) if stale else None)



def touch_token(conn: Connection, token_id: int) -> None:
    conn.execute(db.api_tokens.update().where(db.api_tokens.c.id == token_id).values(last_used=time.time()))


def remember_device(conn: Connection, user: User) -> str:
    """A new device cookie value for a browser ``user`` just logged in from."""
    token = secrets.token_urlsafe(32)
    now = time.time()
    conn.execute(db.login_devices.delete().where(db.login_devices.c.user_id == user.id,
                                                 db.login_devices.c.created_at < now - DEVICE_SECONDS))
    conn.execute(db.login_devices.insert().values(token_hash=hash_secret(token), user_id=user.id, created_at=now))
    return token


def known_device(conn: Connection, token: str | None, name: str) -> bool:
    """Whether ``token`` is the device cookie of a browser user ``name`` logged in from."""
    if not token:
        return False
    row = conn.execute(
        sa.select(db.login_devices.c.created_at).join(db.users, db.users.c.id == db.login_devices.c.user_id)
        .where(db.login_devices.c.token_hash == hash_secret(token),
               db.users.c.name_key == (name or "").lower())).first()
    return row is not None and row.created_at > time.time() - DEVICE_SECONDS


def csrf_ok(expected: str | None, given: str | None) -> bool:
    return bool(expected) and bool(given) and hmac.compare_digest(
        str(expected).encode("utf-8"), str(given).encode("utf-8"))
