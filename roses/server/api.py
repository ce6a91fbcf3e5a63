"""The JSON API: accounts, tokens, rules catalogue, lobby, play, chat, notes, replay, export.

Errors are ``{"detail": ..., "code": ...}`` with 400 (malformed request), 401 (not logged in),
403 (not yours / CSRF), 404 (unknown game), 409 (stale version, not started, over), 422
(the rules refuse the action; ``detail`` is the rules' message) or 429 (too many logins).
Cookie-authenticated writes need the ``X-CSRF-Token`` header (see ``GET /api/me``).
"""

from __future__ import annotations

import time
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Path, Query, Request, Response

from roses import __version__
from roses.server import auth, db, notify
from roses.server.auth import Auth, User
from roses.server.clocks import clocks_of
from roses.server.deps import optional_user, require_auth, require_user, services
from roses.server.errors import BadRequest, Forbidden, NotFound, ServiceUnavailable, Unauthorized
from roses.server.limits import Backoff
from roses.server.models import (
    ActionIn,
    BotIn,
    ChatIn,
    ChatOut,
    CreateGameIn,
    Error,
    ExportOut,
    GameOut,
    Health,
    JoinIn,
    LeaveIn,
    LoginIn,
    Me,
    NoteIn,
    NoteOut,
    PasswordIn,
    ReplayOut,
    ReplayStepOut,
    RulesOut,
    SignupIn,
    TokenIn,
    TokenOut,
    VersionIn,
    ViewOut,
)

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": Error} for code in (400, 401, 403, 404, 409, 422, 429)
}

router = APIRouter(prefix="/api", responses=ERRORS)

OptionalUser = Annotated[User | None, Depends(optional_user)]
#: Ids in paths: integers the database can hold (beyond that, a 400 rather than a 500).
GameId = Annotated[int, Path(ge=-db.INT_MAX, le=db.INT_MAX, description="Game number.")]
RowId = Annotated[int, Path(ge=-db.INT_MAX, le=db.INT_MAX)]
RequiredUser = Annotated[User, Depends(require_user)]


# ----- health and catalogue ---------------------------------------------------------------
@router.get("/health", response_model=Health, tags=["server"])
def health(request: Request) -> dict[str, Any]:
    s = services(request)
    with s.db.read() as conn:
        try:
            revision = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
        except sa.exc.DBAPIError:
            raise ServiceUnavailable("The database has no schema yet: run `roses admin migrate`.") from None
    return {"status": "ok", "database": s.db.dialect, "version": __version__, "schema_revision": revision}


@router.get("/rules", response_model=list[RulesOut], tags=["rules"])
def list_rules(request: Request) -> list[dict[str, Any]]:
    """The installed games: scenarios, roles and creation options."""
    return services(request).games.catalogue()


@router.get("/rules/{game}", response_model=RulesOut, tags=["rules"])
def get_rules_info(request: Request, game: str) -> dict[str, Any]:
    return services(request).games.describe(game)


@router.get("/rules/{game}/tables", tags=["rules"])
def get_view_tables(request: Request, game: str, response: Response) -> dict[str, Any]:
    """Public facts a client needs to draw the game's views (names and ratings of the pieces
    its views give by number): the same for every game of it, so cached by browsers."""
    tables = services(request).games.view_tables(game)
    response.headers["Cache-Control"] = "public, max-age=300"
    return tables


# ----- accounts ---------------------------------------------------------------------------
def _secure(request: Request) -> bool:
    flag = services(request).settings.secure_cookies
    return request.url.scheme == "https" if flag is None else flag


def _set_session(request: Request, response: Response, token: str, csrf: str) -> None:
    secure = _secure(request)
    response.set_cookie(auth.SESSION_COOKIE, token, max_age=auth.SESSION_SECONDS, httponly=True,
                        samesite="lax", secure=secure, path="/")
    # Readable by the page's script, which echoes it in X-CSRF-Token (double submit).
    response.set_cookie(auth.CSRF_COOKIE, csrf, max_age=auth.SESSION_SECONDS, httponly=False,
                        samesite="strict", secure=secure, path="/")


def _client_ip(request: Request) -> str:
    return request.client.host if request.client else "unknown"


@router.post("/auth/signup", response_model=Me, status_code=201, tags=["accounts"])
def signup(request: Request, response: Response, body: SignupIn) -> dict[str, Any]:
    """Create an account and log in (sets the session cookie)."""
    s = services(request)
    s.throttle.hit("signup:" + _client_ip(request), s.settings.signup_limit, 3600.0, "sign-ups")
    email = notify.check_email(body.email) if body.email else None
    with s.db.write() as conn:
        user = auth.create_user(conn, body.name, body.password, email=email)
        if email:
            notify.request_verification(conn, user.id, email)  # mailed only once confirmed
        token, csrf = auth.create_session(conn, user)
        device = auth.remember_device(conn, user)
    _set_session(request, response, token, csrf)
    _set_device(request, response, device)
    return {"id": user.id, "name": user.name, "is_admin": user.is_admin, "csrf_token": csrf}


def _set_device(request: Request, response: Response, device: str) -> None:
    response.set_cookie(auth.DEVICE_COOKIE, device, max_age=auth.DEVICE_SECONDS, httponly=True,
                        samesite="strict", secure=_secure(request), path="/api/auth/")


@router.post("/auth/login", response_model=Me, tags=["accounts"])
def login(request: Request, response: Response, body: LoginIn) -> dict[str, Any]:
    """Log in with name and password (sets the session cookie). Failures are rate limited:
    per client address, per name and address, and per name, each with back-off; the per-name
    back-off does not hold up a browser the user has logged in from before."""
    s = services(request)
    cfg = s.settings
    name, ip = body.name.lower(), _client_ip(request)
    pair_key = f"login-pair:{name}|{ip}"
    rules = [(f"login-ip:{ip}", Backoff(cfg.login_ip_limit, 1.0, cfg.login_backoff_cap, cfg.login_window)),
             (pair_key, Backoff(cfg.login_limit, 1.0, cfg.login_backoff_cap, cfg.login_window))]
    with s.db.read() as conn:
        known = auth.known_device(conn, request.cookies.get(auth.DEVICE_COOKIE), name)
    if not known:
        rules.append((f"login-name:{name}", Backoff(cfg.login_limit, 1.0, cfg.login_backoff_cap, cfg.login_window)))
    s.throttle.attempt(rules, "failed logins")  # counted before the check: concurrent guesses too
    with s.db.write() as conn:
        user = auth.authenticate(conn, body.name, body.password)
        if user is not None:
            token, csrf = auth.create_session(conn, user)
            device = auth.remember_device(conn, user)
    if user is None:
        raise Unauthorized("Wrong user name or password.", code="bad_login")
    s.throttle.succeed(pair_key)
    # A success is no failure; the address and name counts are not cleared (they only fade),
    # so logging in to one's own account between guesses does not reset them.
    s.throttle.undo(*[key for key, _ in rules if key != pair_key])
    _set_session(request, response, token, csrf)
    _set_device(request, response, device)
    return {"id": user.id, "name": user.name, "is_admin": user.is_admin, "csrf_token": csrf}


@router.post("/auth/logout", status_code=204, tags=["accounts"])
def logout(request: Request, response: Response,
           who: Annotated[Auth, Depends(require_auth)]) -> Response:
    s = services(request)
    cookie = request.cookies.get(auth.SESSION_COOKIE)
    if who.method == "session" and cookie:
        with s.db.write() as conn:
            auth.end_session(conn, cookie)
    out = Response(status_code=204)
    out.delete_cookie(auth.SESSION_COOKIE, path="/")
    out.delete_cookie(auth.CSRF_COOKIE, path="/")
    return out


@router.post("/auth/password", status_code=204, tags=["accounts"])
def change_password(request: Request, body: PasswordIn, user: RequiredUser) -> Response:
    """Change the password; other sessions of the account end, and its API tokens are revoked
    unless ``keep_tokens`` (whoever learnt the old password may have made one)."""
    s = services(request)
    with s.db.write() as conn:
        auth.change_password(conn, user, body.old_password, body.new_password)
        auth.end_other_sessions(conn, user, request.cookies.get(auth.SESSION_COOKIE))
        if not body.keep_tokens:
            auth.revoke_tokens(conn, user)
    return Response(status_code=204)


@router.get("/me", response_model=Me, tags=["accounts"])
def me(who: Annotated[Auth, Depends(require_auth)]) -> dict[str, Any]:
    return {"id": who.user.id, "name": who.user.name, "is_admin": who.user.is_admin,
            "csrf_token": who.csrf}


@router.get("/tokens", response_model=list[TokenOut], tags=["accounts"])
def list_tokens(request: Request, user: RequiredUser) -> list[dict[str, Any]]:
    with services(request).db.read() as conn:
        rows = conn.execute(sa.select(db.api_tokens.c.id, db.api_tokens.c.name, db.api_tokens.c.created_at,
                                      db.api_tokens.c.last_used)
                            .where(db.api_tokens.c.user_id == user.id).order_by(db.api_tokens.c.id)).all()
    return [dict(r._mapping) for r in rows]


@router.post("/tokens", response_model=TokenOut, status_code=201, tags=["accounts"])
def create_token(request: Request, body: TokenIn, user: RequiredUser) -> dict[str, Any]:
    """A personal API token for bots and scripts: send it as ``Authorization: Bearer <token>``."""
    with services(request).db.write() as conn:
        tid, token = auth.create_token(conn, user, body.name)
    return {"id": tid, "name": body.name.strip(), "created_at": time.time(), "token": token}


@router.delete("/tokens/{token_id}", status_code=204, tags=["accounts"])
def delete_token(request: Request, token_id: RowId, user: RequiredUser) -> Response:
    with services(request).db.write() as conn:
        done = conn.execute(db.api_tokens.delete().where(db.api_tokens.c.id == token_id,
                                                         db.api_tokens.c.user_id == user.id)).rowcount
    if not done:
        raise NotFound("You have no such token.", code="unknown_token")
    return Response(status_code=204)


# ----- lobby ------------------------------------------------------------------------------
@router.post("/games", response_model=GameOut, status_code=201, tags=["lobby"])
def create_game(request: Request, body: CreateGameIn, user: RequiredUser) -> dict[str, Any]:
    """Create a game; optionally take a seat ('random' for any) and seat bots."""
    return services(request).games.create_game(
        user, body.game, body.scenario, body.options, body.title, body.private, body.role,
        body.bots, body.pace, preview=body.preview)


@router.get("/games", response_model=list[GameOut], tags=["lobby"])
def list_games(request: Request, user: OptionalUser,
               status: Annotated[str | None, Query(description="open, active or finished")] = None,
               limit: Annotated[int, Query(ge=-db.INT_MAX, le=db.INT_MAX)] = 100) -> list[dict[str, Any]]:
    """Public games: open ones to join, active ones to observe, finished ones to replay."""
    return services(request).games.list_games(user, status=status, limit=limit)


@router.get("/me/games", response_model=list[GameOut], tags=["lobby"])
def my_games(request: Request, user: RequiredUser,
             status: str | None = None) -> list[dict[str, Any]]:
    """My games, those where it is my turn first (``your_turn``)."""
    return services(request).games.list_games(user, mine=True, status=status)


@router.get("/games/{game_id}", response_model=GameOut, tags=["lobby"])
def get_game(request: Request, game_id: GameId, user: OptionalUser,
             invite: str | None = None) -> dict[str, Any]:
    return services(request).games.game(user, game_id, invite)


@router.delete("/games/{game_id}", status_code=204, tags=["lobby"])
def cancel_game(request: Request, game_id: GameId, user: RequiredUser) -> Response:
    """The creator cancels a game that has not started."""
    services(request).games.delete_open(user, game_id)
    return Response(status_code=204)


@router.post("/games/{game_id}/join", response_model=GameOut, tags=["lobby"])
def join_game(request: Request, game_id: GameId, body: JoinIn, user: RequiredUser) -> dict[str, Any]:
    """Take a seat (a role, or a random free one). A private game needs its invite token."""
    return services(request).games.join(user, game_id, body.role, body.invite)


@router.post("/games/{game_id}/leave", response_model=GameOut, tags=["lobby"])
def leave_game(request: Request, game_id: GameId, body: LeaveIn, user: RequiredUser) -> dict[str, Any]:
    """Leave a game before it starts."""
    return services(request).games.leave(user, game_id, body.role)


@router.post("/games/{game_id}/bot", response_model=GameOut, tags=["lobby"])
def seat_bot(request: Request, game_id: GameId, body: BotIn, user: RequiredUser) -> dict[str, Any]:
    """The creator puts a bot in a free seat (or removes it with ``bot: null``)."""
    return services(request).games.set_bot(user, game_id, body.role, body.bot)


@router.post("/games/{game_id}/start", response_model=GameOut, tags=["lobby"])
def start_game(request: Request, game_id: GameId, user: RequiredUser) -> dict[str, Any]:
    """Start a game whose seats are all taken (games also start by themselves when full)."""
    return services(request).games.start(user, game_id)


# ----- play -------------------------------------------------------------------------------
@router.get("/games/{game_id}/view", response_model=ViewOut, tags=["play"])
def get_view(request: Request, game_id: GameId, user: OptionalUser,
             role: Annotated[str | None, Query(description="Your role, or Observer")] = None,
             invite: str | None = None) -> Response:
    """Your role's view (``Rules.view`` with undo); observers get the observer view."""
    # Sent as encoded once per game version and role (the same bytes the sockets get).
    return _json(services(request).games.view_body(user, game_id, role, invite)[1])


@router.post("/games/{game_id}/why", tags=["play"])
def why_not(request: Request, game_id: GameId, body: ActionIn, user: OptionalUser,
            invite: str | None = None) -> dict[str, Any]:
    """May your role make this action now? ``{"allowed": bool, "reason": text or null}``: the
    rules' own reason when not (tried on a copy; nothing changes). ``version`` is ignored."""
    return services(request).games.explain(user, game_id, body.role, body.verb, body.arg, invite)


@router.get("/games/{game_id}/clocks", tags=["play"])
def game_clocks(request: Request, game_id: GameId, user: OptionalUser,
                invite: str | None = None) -> dict[str, Any]:
    """Time left per role (public), the pace and the next deadline (``clocks``: empty without a pace)."""
    s = services(request)
    s.games.game(user, game_id, invite)  # visibility check
    with s.db.read() as conn:
        return clocks_of(conn, game_id)


def _acting_role(request: Request, game_id: GameId, user: User, role: str | None) -> str:
    if role is not None:
        return role
    info = services(request).games.game(user, game_id)
    mine = info["my_roles"]
    if len(mine) == 1:
        return str(mine[0])
    active_mine = [r for r in mine if r in info["active"]]
    if len(active_mine) == 1:
        return str(active_mine[0])
    if not mine:
        raise Forbidden("You hold no seat in this game.", code="not_seated")
    raise BadRequest("You hold several seats: say which role acts.", code="which_role")


@router.post("/games/{game_id}/action", response_model=ViewOut, tags=["play"])
def post_action(request: Request, game_id: GameId, body: ActionIn, user: RequiredUser) -> Any:
    """Play ``verb``/``arg`` for your role on game version ``version`` (409 if stale).

    ``undo`` (listed in the view's actions when allowed) takes back your last action.
    """
    role = _acting_role(request, game_id, user, body.role)
    acted = services(request).games.act(user, game_id, role, body.verb, body.arg, body.version)
    return _json(acted.body) if acted.body is not None else acted


def _json(text: str) -> Response:
    """A JSON body encoded by the game service (checked there against the game's secrets)."""
    return Response(content=text.encode("utf-8"), media_type="application/json")


@router.post("/games/{game_id}/undo", response_model=ViewOut, tags=["play"])
def post_undo(request: Request, game_id: GameId, body: VersionIn, user: RequiredUser) -> dict[str, Any]:
    """Take back your own last action, when the engine's undo policy allows it."""
    role = _acting_role(request, game_id, user, body.role)
    return services(request).games.act(user, game_id, role, "undo", None, body.version)


@router.post("/games/{game_id}/resign", response_model=ViewOut, tags=["play"])
def post_resign(request: Request, game_id: GameId, body: VersionIn, user: RequiredUser) -> dict[str, Any]:
    role = _acting_role(request, game_id, user, body.role)
    return services(request).games.resign(user, game_id, role, body.version)


@router.get("/games/{game_id}/chat", response_model=list[ChatOut], tags=["play"])
def get_chat(request: Request, game_id: GameId, user: RequiredUser,
             since: Annotated[int, Query(ge=-db.INT_MAX, le=db.INT_MAX)] = 0) -> list[dict[str, Any]]:
    """The game's chat (players only)."""
    return services(request).games.chat(user, game_id, since)


@router.post("/games/{game_id}/chat", response_model=ChatOut, status_code=201, tags=["play"])
def post_chat(request: Request, game_id: GameId, body: ChatIn, user: RequiredUser) -> dict[str, Any]:
    return services(request).games.post_chat(user, game_id, body.text)


@router.get("/games/{game_id}/notes/{role}", response_model=NoteOut, tags=["play"])
def get_note(request: Request, game_id: GameId, role: str, user: RequiredUser) -> dict[str, Any]:
    """Your private notes for a role you play."""
    return {"role": role, "text": services(request).games.get_note(user, game_id, role)}


@router.put("/games/{game_id}/notes/{role}", response_model=NoteOut, tags=["play"])
def put_note(request: Request, game_id: GameId, role: str, body: NoteIn, user: RequiredUser) -> dict[str, Any]:
    return {"role": role, "text": services(request).games.put_note(user, game_id, role, body.text)}


# ----- replay and export ------------------------------------------------------------------
@router.get("/games/{game_id}/replay", response_model=ReplayOut, tags=["replay"])
def replay(request: Request, game_id: GameId, user: OptionalUser, invite: str | None = None) -> dict[str, Any]:
    """The action list of a finished game (409 while it runs)."""
    return services(request).games.replay_info(user, game_id, invite)


@router.get("/games/{game_id}/replay/{step}", response_model=ReplayStepOut, tags=["replay"])
def replay_step(request: Request, game_id: GameId, step: RowId, user: OptionalUser,
                role: str = "Observer", invite: str | None = None) -> dict[str, Any]:
    """What ``role`` saw after ``step`` actions of a finished game (any role, or Observer)."""
    return services(request).games.replay_step(user, game_id, step, role, invite)


@router.get("/games/{game_id}/export", response_model=ExportOut, tags=["replay"])
def export(request: Request, game_id: GameId, user: OptionalUser, invite: str | None = None) -> dict[str, Any]:
    """The record of a finished game (setup and actions) as JSON; refused while it runs."""
    return services(request).games.export(user, game_id, invite)
