"""The gazette's pages (``/games/{id}/gazette`` and ``/games/{id}/gazette/{round}``), drawn from
the server's gazette (:mod:`roses.server.gazette`): the list of editions, and an edition with
its lines, its changes, the seat's private reports and, for a game whose rules declare a
``gazette_module``, a picture of the board at the round's end that the module draws."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, Response

from roses.engine.registry import get_rules
from roses.server import db
from roses.server.errors import ServerError
from roses.server.gazette import edition, gazette_of, report
from roses.web.pages import json_script, templates, user_of

GameId = Annotated[int, PathParam(ge=-db.INT_MAX, le=db.INT_MAX)]
Round = Annotated[int, PathParam(ge=0, le=100_000)]

router = APIRouter(include_in_schema=False)


def _page(request: Request, template: str, title: str, **context: Any) -> Response:
    return templates.TemplateResponse(request, template, {"title": title, "user": user_of(request), **context})


def _error(request: Request, exc: ServerError) -> Response:
    return templates.TemplateResponse(request, "error.html", {"title": "No gazette", "user": user_of(request),
                                                              "message": exc.message}, status_code=exc.status)


def _client(game: str) -> dict[str, Any]:
    """What the game's rules declare for drawing an edition's board."""
    rules = get_rules(game)
    return {"module": f"/static/{rules.gazette_module}" if rules.gazette_module else None,
            "styles": [f"/static/{s}" for s in rules.client_styles]}


@router.get("/games/{game_id}/gazette", response_class=HTMLResponse)
def gazette_index(request: Request, game_id: GameId, invite: str | None = None) -> Response:
    try:
        gz, info = gazette_of(request, user_of(request), game_id, invite)
    except ServerError as exc:
        return _error(request, exc)
    return _page(request, "gazette.html", f"Gazette: {info.get('title') or game_id}", game=info, gazette=gz,
                 edition=None, invite=invite or "", client=_client(info["game"]))


@router.get("/games/{game_id}/gazette/{round_no}", response_class=HTMLResponse)
def gazette_page(request: Request, game_id: GameId, round_no: Round, invite: str | None = None) -> Response:
    user = user_of(request)
    try:
        gz, info = gazette_of(request, user, game_id, invite)
        ed = edition(gz, round_no)
    except ServerError as exc:
        return _error(request, exc)
    mine = [r for r in (info.get("my_roles") or [])]
    reports = [report(gz, round_no, r) for r in mine]
    config = json_script({"gameId": game_id, "invite": invite, "game": info["game"], "board": ed["board"]})
    return _page(request, "gazette.html", f"Gazette: {info.get('title') or game_id}, {ed['title']}", game=info,
                 gazette=gz, edition=ed, reports=reports, config=config, invite=invite or "",
                 client=_client(info["game"]))
