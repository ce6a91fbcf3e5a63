"""Ratings and records: Elo per game, scenario and role (roses.server.ratings), the player and
bot records, the public leaderboard; a finished game changes the ratings and shows in the
history."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.server.ratings import START, Finished, Seat, compute
from tests.web.conftest import CSP_WATCH, DESKTOP, PHONE, LiveServer, screenshot_path


def _game(i: int, result: str, seats: list[tuple[str, Any]], private: bool = False,
          scenario: str = "richard-iii") -> Finished:
    return Finished(i, "richard3", scenario, f"Game {i}", result, float(i), private,
                    [Seat(role, p, p[1] if p[0] == "user" else f"bot: {p[1]}") for role, p in seats])


ANN, BEN, EASY = ("user", 1), ("user", 2), ("bot", "easy")


def test_elo_per_scenario_and_role() -> None:
    book = compute([_game(1, "York", [("York", ANN), ("Lancaster", BEN)])])
    york = book.ratings[("richard3", "richard-iii", "York")]
    lanc = book.ratings[("richard3", "richard-iii", "Lancaster")]
    assert york[ANN].rating == pytest.approx(START + 16) and lanc[BEN].rating == pytest.approx(START - 16)
    assert (york[ANN].wins, lanc[BEN].losses) == (1, 1)
    # Ann's Lancaster is another rating; the expected score follows the ratings in play
    book = compute([_game(1, "York", [("York", ANN), ("Lancaster", BEN)]),
                    _game(2, "York", [("York", BEN), ("Lancaster", ANN)])])
    assert book.ratings[("richard3", "richard-iii", "Lancaster")][ANN].rating == pytest.approx(START - 16)
    # a favourite winning gains less than 16
    book = compute([_game(1, "York", [("York", ANN), ("Lancaster", BEN)]),
                    _game(2, "York", [("York", ANN), ("Lancaster", BEN)])])
    assert book.ratings[("richard3", "richard-iii", "York")][ANN].rating < START + 32
    assert book.ratings[("richard3", "richard-iii", "York")][ANN].rating > START + 16


def test_draws_bots_and_unrated_games() -> None:
    book = compute([_game(1, "Draw", [("York", ANN), ("Lancaster", EASY)]),
                    _game(2, "York", [("York", ANN), ("Lancaster", ANN)]),  # hot seat: unrated
                    _game(3, "Lancaster", [("York", BEN), ("Lancaster", EASY)], private=True)])
    assert book.ratings[("richard3", "richard-iii", "York")][ANN].rating == pytest.approx(START)
    assert book.ratings[("richard3", "richard-iii", "Lancaster")][EASY].draws == 1
    assert BEN not in book.ratings[("richard3", "richard-iii", "York")]
    assert [o.before for o in book.outcomes[ANN]] == [START, None, None]
    assert book.leaderboard("richard3", "richard-iii", "Lancaster")[0]["player"] == "bot: easy"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from roses.app import create_app
    from roses.server.config import Settings

    db = Path(tmp_path_factory.mktemp("ratings")) / "roses.sqlite3"
    app = create_app(Settings(database_url=f"sqlite:///{db}", bots=False, secure_cookies=False))
    with TestClient(app) as c:
        yield c


def _signup(client: TestClient, name: str) -> dict[str, str]:
    client.cookies.clear()
    assert client.post("/api/auth/signup", json={"name": name, "password": "pw-ratings-1"}).status_code == 201
    return {"X-CSRF-Token": client.cookies.get("roses_csrf") or ""}


def test_a_finished_game_changes_ratings_record_and_leaderboard(client: TestClient) -> None:
    headers = _signup(client, "rated_ann")
    assert client.get("/api/players/rated_ann").json()["ratings"] == []
    g = client.post("/api/games", json={"game": "richard3", "scenario": "richard-iii", "role": "York",
                                        "title": "Bosworth rated", "bots": {"Lancaster": "easy"}},
                    headers=headers).json()
    assert g["status"] == "active"
    r = client.post(f"/api/games/{g['id']}/resign", json={"role": "York", "version": g["version"]}, headers=headers)
    assert r.status_code == 200, r.text
    me = client.get("/api/players/rated_ann").json()
    assert me["ratings"] == [{"game": "richard3", "scenario": "richard-iii", "role": "York", "rating": 1484,
                              "games": 1, "wins": 0, "losses": 1, "draws": 0, "rank": 1, "of": 1}]
    assert me["stats"]["games"] == 1 and me["stats"]["losses"] == 1
    row = me["history"][0]
    assert (row["game_id"], row["outcome"], row["change"], row["rating_after"]) == (g["id"], "lost", -16.0, 1484)
    assert row["opponents"] == [{"role": "Lancaster", "player": "bot: easy", "bot": True}]
    bot = client.get("/api/bots/easy").json()
    assert bot["ratings"][0]["rating"] == 1516 and bot["history"][0]["outcome"] == "won"
    board = client.get("/api/ratings", params={"game": "richard3", "scenario": "richard-iii", "role": "Lancaster"}).json()
    assert board[0]["player"] == "bot: easy" and board[0]["rating"] == 1516
    # the pages show it, to anyone
    client.cookies.clear()
    page = client.get("/players/rated_ann").text
    assert "Bosworth rated" in page and "1484" in page and "Lost" in page
    lb = client.get("/leaderboard", params={"game": "richard3", "scenario": "richard-iii"}).text
    assert "bot: easy" in lb and "1516" in lb and "rated_ann" in lb
    assert client.get("/bots/easy").status_code == 200
    assert "No such player" in client.get("/players/nobody_here").text
    assert client.get("/api/players/nobody_here").status_code == 404


def test_private_games_count_for_nobody_and_show_only_to_their_players(client: TestClient) -> None:
    headers = _signup(client, "quiet_bo")
    g = client.post("/api/games", json={"game": "richard3", "scenario": "richard-iii", "role": "York",
                                        "title": "Secret table", "private": True, "bots": {"Lancaster": "easy"}},
                    headers=headers).json()
    client.post(f"/api/games/{g['id']}/resign", json={"role": "York", "version": g["version"]}, headers=headers)
    mine = client.get("/api/players/quiet_bo").json()
    assert mine["ratings"] == [] and mine["history"][0]["title"] == "Secret table"
    assert mine["history"][0]["rated"] is False
    client.cookies.clear()
    assert client.get("/api/players/quiet_bo").json()["history"] == []
    assert "Secret table" not in client.get("/bots/easy").text


@pytest.mark.browser
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_record_and_leaderboard_pages_in_the_browser(browser: Any, live_server: LiveServer, size: str) -> None:
    """A bot game played to its end shows on the leaderboard and on both bots' records, and the
    pages run under the server's Content-Security-Policy."""
    svc = live_server.services.games
    from roses.server.auth import User

    with svc.db.write() as conn:
        from roses.server import auth
        owner: User = auth.create_user(conn, f"host{size[:2]}{str(int(time.time() * 1000))[-6:]}", "correct horse 1")
    g = svc.create_game(owner, "richard3", "richard-iii", title=f"Bots rated {size}",
                        bots={"York": "random", "Lancaster": "easy"})
    deadline = time.time() + 300
    while svc.game(None, g["id"])["status"] != "finished":
        assert time.time() < deadline, "the bot game did not finish"
        time.sleep(0.3)
    ctx = browser.strict_context(viewport=DESKTOP if size == "desktop" else PHONE)
    page = ctx.new_page()
    page.add_init_script(CSP_WATCH)
    page.goto(f"{live_server.url}/leaderboard?game=richard3&scenario=richard-iii")
    assert page.locator("table.leaderboard").count() == 2
    assert page.locator("table.leaderboard >> text=bot: easy").count() >= 1
    page.screenshot(path=str(screenshot_path(f"leaderboard-{size}.png")), full_page=True)
    page.goto(f"{live_server.url}/bots/easy")
    assert page.locator(f"#history tr[data-game='{g['id']}']").count() == 1
    assert page.locator("#ratings tbody tr").count() >= 1
    page.screenshot(path=str(screenshot_path(f"record-{size}.png")), full_page=True)
    assert page.evaluate("window.__csp") == []
    ctx.close()
