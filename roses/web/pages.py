"""The browser pages: server-rendered Jinja2 templates plus the static client.

``install(app)`` mounts ``/static`` and the page routes on a FastAPI app. The pages read who
is logged in through the server's own helper (``roses.server.deps.find_auth``) and the lobby
lists through its game service; every change goes through the JSON API from the page's script
(with the ``X-CSRF-Token`` header taken from the ``roses_csrf`` cookie).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from roses.engine.registry import get_rules
from roses.server.deps import find_auth
from roses.web import rulesref

HERE = Path(__file__).parent
STATIC_DIR = HERE / "static"
TEMPLATE_DIR = HERE / "templates"

templates = Jinja2Templates(directory=str(TEMPLATE_DIR))


def _datetime(ts: float) -> str:
    """A time as the pages show it (UTC, to the minute)."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ts))


templates.env.filters["datetime"] = _datetime
router = APIRouter(include_in_schema=False)


def user_of(request: Request) -> Any:
    """The logged-in user, or None (an unknown/expired cookie counts as logged out)."""
    try:
        found = find_auth(request)
    except Exception:  # a bad Bearer header on a page request: treat as logged out
        return None
    return None if found is None else found.user


def json_script(value: Any) -> str:
    """JSON safe to put inside a <script type="application/json"> element."""
    return (json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("&", "\\u0026"))


def _games(request: Request) -> Any:
    return request.app.state.roses.games


def _page(request: Request, template: str, title: str, **context: Any) -> HTMLResponse:
    user = user_of(request)
    return templates.TemplateResponse(
        request, template, {"title": title, "user": user, **context})


def _login_redirect(request: Request) -> RedirectResponse:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/login?next={quote(target, safe='')}", status_code=303)


@router.get("/", response_class=HTMLResponse)
def index(request: Request) -> Response:
    """The front page: each game with a picture of its board and what it is, and games to
    watch. A logged-in player goes to the lobby."""
    if user_of(request) is not None:
        return RedirectResponse("/lobby", status_code=303)
    full = _games(request).catalogue()
    catalogue = [r for r in full if not r.get("preview")]
    offered = []
    for r in catalogue:
        ref = rulesref.reference(r["id"])
        picture = STATIC_DIR / "img" / f"board-{r['id']}.jpg"
        offered.append({**r, "summary": ref.summary if ref is not None else "",
                        "picture": f"/static/img/board-{r['id']}.jpg" if picture.is_file() else None})
    games = _safe_list(request, None, status="active")[:10] + _safe_list(request, None, status="finished")[:10]
    return _page(request, "index.html", "Roses", games=_playable(full, games, False),
                 scen=_scenario_names(full), gtitles=_game_titles(full), games_offered=offered)


@router.get("/games", response_class=HTMLResponse)
def public_games(request: Request, game: str | None = None) -> Response:
    """Every public game in progress (and the finished ones), for anyone to watch: no login."""
    full = _games(request).catalogue()
    catalogue = [r for r in full if not r.get("preview")]
    game = game if any(r["id"] == game for r in catalogue) else None

    def only(gs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [g for g in _playable(full, gs, False) if game is None or g["game"] == game]

    user = user_of(request)
    return _page(request, "games.html", "Games", active=only(_safe_list(request, user, status="active")),
                 finished=only(_safe_list(request, user, status="finished"))[:30], catalogue=catalogue,
                 game=game, scen=_scenario_names(full), gtitles=_game_titles(full))


def _game_titles(catalogue: list[dict[str, Any]]) -> dict[str, str]:
    return {r["id"]: r["title"] for r in catalogue}


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, next: str = "/lobby") -> Response:  # noqa: A002
    return _page(request, "login.html", "Log in", next=_safe_next(next))


def _sends_mail(request: Request) -> bool:
    """Whether this server sends e-mail (a mail server is configured for notifications)."""
    notifier = getattr(request.app.state, "notifier", None)
    return bool(notifier is not None and notifier.config.smtp_host)


@router.get("/signup", response_class=HTMLResponse)
def signup_page(request: Request, next: str = "/lobby") -> Response:  # noqa: A002
    return _page(request, "signup.html", "Sign up", next=_safe_next(next), sends_mail=_sends_mail(request))


def _safe_next(target: str) -> str:
    """Only local paths (no open redirect to another site: no "//host", no "/\\host")."""
    ok = (target.startswith("/") and not target.startswith("//") and "\\" not in target
          and all(ch.isprintable() for ch in target))
    return target if ok else "/lobby"


def _safe_list(request: Request, user: Any, **kw: Any) -> list[dict[str, Any]]:
    try:
        result: list[dict[str, Any]] = _games(request).list_games(user, **kw)
        return result
    except Exception:
        return []


def _playable(catalogue: list[dict[str, Any]], games: list[dict[str, Any]],
              preview: bool) -> list[dict[str, Any]]:
    """The games of ``games`` to list: only of playable rules, unless the preview switch is on."""
    if preview:
        return games
    hidden = {r["id"] for r in catalogue if r.get("preview")}
    return [g for g in games if g["game"] not in hidden]


@router.get("/lobby", response_class=HTMLResponse)
def lobby(request: Request, preview: bool = False) -> Response:
    user = user_of(request)
    if user is None:
        return _login_redirect(request)
    games = _games(request)
    full = games.catalogue()
    catalogue = full if preview else [r for r in full if not r.get("preview")]
    mine = _safe_list(request, user, mine=True)  # one's own games are always listed
    open_games = _playable(full, [g for g in _safe_list(request, user, status="open") if not g["my_roles"]], preview)
    watch = _playable(full, _safe_list(request, user, status="active"), preview)[:20]
    finished = _playable(full, _safe_list(request, user, status="finished"), preview)[:20]
    in_preview = [r["title"] for r in full if r.get("preview")]
    return _page(request, "lobby.html", "Lobby", mine=mine, open_games=open_games, watch=watch,
                 finished=finished, catalogue=catalogue, catalogue_json=json_script(catalogue),
                 scen=_scenario_names(full), gtitles=_game_titles(full), preview=preview, in_preview=in_preview,
                 preview_ids=[r["id"] for r in full if r.get("preview")])


def _scenario_names(catalogue: list[dict[str, Any]]) -> dict[str, dict[str, str]]:
    return {r["id"]: {s["id"]: s["name"] for s in r["scenarios"]} for r in catalogue}


@router.get("/profile", response_class=HTMLResponse)
def profile(request: Request) -> Response:
    if user_of(request) is None:
        return _login_redirect(request)
    return _page(request, "profile.html", "Profile", sends_mail=_sends_mail(request))


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(request: Request, game_id: int, role: str | None = None,
              invite: str | None = None) -> Response:
    user = user_of(request)
    try:
        info = _games(request).game(user, game_id, invite)
    except Exception as exc:  # unknown or private game
        return _page(request, "error.html", "Game not found",
                     message=getattr(exc, "message", "No such game."))
    mine = list(info.get("my_roles") or [])
    if role is None and len(mine) > 1:  # several seats (hot seat): the one to move first
        role = next((r for r in mine if r in info.get("active", [])), mine[0])
    rules: dict[str, Any] = next((r for r in _games(request).catalogue() if r["id"] == info["game"]), {})
    return _page(request, "game.html", info["title"] or f"Game {game_id}", game=info,
                 role=role or "", invite=invite or "", my_roles=mine, rules=rules,
                 config=json_script({"gameId": game_id, "role": role, "invite": invite,
                                    "user": user.name if user else None, "game": info["game"],
                                    "client": rules.get("client"), "myRoles": mine, "pace": info.get("pace")}))


@router.get("/games/{game_id}/log.json")
def game_log(request: Request, game_id: int, role: str | None = None, invite: str | None = None) -> Response:
    """The whole log of a game as ``role`` may read it (the game page's Log tab pages through
    it): the same access as the game's view."""
    try:
        out = _games(request).role_log(user_of(request), game_id, role, invite)
    except Exception as exc:
        status = int(getattr(exc, "status_code", 0) or getattr(exc, "status", 0) or 404)
        return JSONResponse({"detail": getattr(exc, "message", "No such game."),
                             "code": getattr(exc, "code", "unknown_game")}, status_code=status if 400 <= status < 500 else 404)
    return JSONResponse(out, headers={"Cache-Control": "no-store"})


@router.get("/games/{game_id}/board.json")
def game_board(request: Request, game_id: int, invite: str | None = None) -> Response:
    """The board a game is played on, as its rules give it (``Rules.board_data`` of the game's
    options): public data, for anyone who may see the game. 404 for a game whose rules serve
    none."""
    try:
        info = _games(request).game(user_of(request), game_id, invite)
    except Exception as exc:
        return JSONResponse({"detail": getattr(exc, "message", "No such game."), "code": "not_found"},
                            status_code=404)
    try:
        data = get_rules(info["game"]).board_data(info.get("options"))
    except (ValueError, OSError):
        return JSONResponse({"detail": "This game's board cannot be read.", "code": "bad_board"}, status_code=500)
    if data is None:
        return JSONResponse({"detail": "This game has no board data.", "code": "no_board"}, status_code=404)
    return JSONResponse(data, headers={"Cache-Control": "private, max-age=300"})


@router.get("/games/{game_id}/replay", response_class=HTMLResponse)
def replay_page(request: Request, game_id: int, role: str | None = None,
                invite: str | None = None) -> Response:
    user = user_of(request)
    try:
        info = _games(request).game(user, game_id, invite)
    except Exception as exc:
        return _page(request, "error.html", "Game not found",
                     message=getattr(exc, "message", "No such game."))
    rules: dict[str, Any] = next((r for r in _games(request).catalogue() if r["id"] == info["game"]), {})
    return _page(request, "replay.html", f"Replay: {info['title'] or game_id}", game=info,
                 config=json_script({"gameId": game_id, "role": role, "invite": invite, "game": info["game"],
                                    "client": rules.get("client"), "roles": [s["role"] for s in info["seats"]]}))


def _ratings(request: Request) -> Any:
    return request.app.state.ratings


def _titles(request: Request) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    catalogue = _games(request).catalogue()
    return {r["id"]: r["title"] for r in catalogue}, _scenario_names(catalogue)


@router.get("/players/{name}", response_class=HTMLResponse)
def player_page(request: Request, name: str) -> Response:
    """A player's record: ratings per game, scenario and role, statistics, finished games."""
    viewer = user_of(request)
    ratings = _ratings(request)
    try:
        uid, real, joined = ratings.user_id(name)
    except Exception as exc:
        return _page(request, "error.html", "No such player", message=getattr(exc, "message", "No such player."))
    record = ratings.record(("user", uid), (viewer.id,) if viewer is not None else ())
    titles, scen = _titles(request)
    return _page(request, "player.html", f"{real}: record", name=real, bot=False, joined=joined,
                 record=record, titles=titles, scen=scen, own=viewer is not None and viewer.id == uid)


@router.get("/bots/{name}", response_class=HTMLResponse)
def bot_page(request: Request, name: str) -> Response:
    record = _ratings(request).record(("bot", name))
    titles, scen = _titles(request)
    if not record["history"]:
        return _page(request, "error.html", "No such bot", message=f"The bot {name!r} has played no finished game.")
    return _page(request, "player.html", f"bot {name}: record", name=f"bot: {name}", bot=True, joined=None,
                 record=record, titles=titles, scen=scen, own=False)


@router.get("/leaderboard", response_class=HTMLResponse)
def leaderboard_page(request: Request, game: str | None = None, scenario: str | None = None) -> Response:
    """The best ratings of each role of one game and scenario (public, no login needed)."""
    ratings = _ratings(request)
    titles, scen = _titles(request)
    catalogue = [r for r in _games(request).catalogue() if not r.get("preview")]
    tables = ratings.tables()
    game = game if game in titles else (tables[0][0] if tables else next(iter(titles), ""))
    rules = next((r for r in _games(request).catalogue() if r["id"] == game), None)
    scenarios = [s["id"] for s in rules["scenarios"]] if rules else []
    rated = [s for s in scenarios if any(t[0] == game and t[1] == s for t in tables)]
    scenario = scenario if scenario in scenarios else (rated[0] if rated else (scenarios[0] if scenarios else ""))
    roles: list[str] = next((s["roles"] for s in rules["scenarios"] if s["id"] == scenario), []) if rules else []
    boards = [(role, ratings.leaderboard(game, scenario, role, 50)) for role in roles]
    return _page(request, "leaderboard.html", "Leaderboard", game=game, scenario=scenario, boards=boards,
                 titles=titles, scen=scen, catalogue=catalogue, rated=set(rated))


@router.get("/rules", response_class=HTMLResponse)
def rules_index(request: Request) -> Response:
    refs = [r for r in (rulesref.reference(g) for g in rulesref.available()) if r is not None]
    return _page(request, "rules_index.html", "Rules", refs=refs)


@router.get("/rules/{game}.json")
def rules_json(game: str) -> Response:
    """A game's rules reference for the game page: sections with HTML, card texts."""
    ref = rulesref.reference(game)
    if ref is None:
        return JSONResponse({"detail": f"No rules reference for {game!r}.", "code": "no_reference"}, status_code=404)
    return JSONResponse(rulesref.as_json(ref), headers={"Cache-Control": "public, max-age=300"})


@router.get("/rules/{game}", response_class=HTMLResponse)
def rules_page(request: Request, game: str) -> Response:
    ref = rulesref.reference(game)
    if ref is None:
        return _page(request, "error.html", "No rules reference", message=f"There is no rules reference for {game!r}.")
    sections = [(s, rulesref.section_html(s, game)) for s in ref.sections]
    cards = [(name, rulesref.inline_html(text, game)) for name, text in ref.cards.items()]
    return _page(request, "rules.html", f"Rules: {ref.title}", ref=ref, sections=sections, cards=cards)


def install(app: FastAPI) -> None:
    """Mount the static client and the pages on ``app`` (idempotent)."""
    if getattr(app.state, "roses_web_installed", False):
        return
    app.state.roses_web_installed = True
    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")
    app.include_router(router)
