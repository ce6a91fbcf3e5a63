"""The whole site, assembled in one place: the server's API (:func:`roses.server.app.create_api`)
and the browser pages (:mod:`roses.web`). ``create_app()`` builds it; ``app_from_env`` is the
uvicorn factory. The web layer depends on the server, never the other way round, and this
module is the only one that imports both to put them together."""

from __future__ import annotations

from fastapi import FastAPI

from roses.server import gcpolicy
from roses.server.app import create_api
from roses.server.config import Settings
from roses.server.db import Database
from roses.server.events import EventBus, Notifiers
from roses.web import gazette, pages


def create_app(settings: Settings | None = None, *, database: Database | None = None,
               bus: EventBus | None = None, notifiers: Notifiers | None = None) -> FastAPI:
    """The server's API with the browser pages: ``/``, ``/lobby``, ``/games/{id}``, the
    gazette's pages, ``/static``..."""
    app = create_api(settings, database=database, bus=bus, notifiers=notifiers)
    app.include_router(gazette.router)  # /games/{id}/gazette, /games/{id}/gazette/{round}
    pages.install(app)
    return app


def app_from_env() -> FastAPI:
    """Factory for ``uvicorn --factory roses.app:app_from_env`` (settings from env); each
    server process also gets the garbage-collection policy of roses.server.gcpolicy."""
    app = create_app(Settings(migrate=False))
    gcpolicy.install()
    return app
