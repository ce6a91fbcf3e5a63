"""Plain words in what a player reads: no internal id (a seat id "york-1", a verb
"end_group", a block key "Warwick/Y", a card tag "card#05", JSON, "None") in any action label or
prompt of the views of played games, for every role. Generic over games: each game is played
from its first scenario with seeded random choices; a game is listed here once its views pass.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from roses.engine import OBSERVER, Game, get_rules

#: What an internal id looks like in text meant for people.
INTERNAL = [
    (re.compile(r"\b[a-z][a-z]*(?:-[a-z]+)*-\d+\b"), "a seat or piece id such as york-1"),
    (re.compile(r"\b[a-z]+_[a-z0-9_]+\b"), "a snake_case name such as end_group"),
    (re.compile(r"\b[a-z]+(?:-[a-z]+){3,}\b"), "a slug such as wars-of-the-roses"),
    (re.compile(r"\w#\d+"), "a tag such as card#05"),
    (re.compile(r"[A-Za-z]/[A-Z]\b"), "a key such as Warwick/Y"),
    (re.compile(r"[\[{]\"|\"[\]}]"), "JSON"),
    (re.compile(r"\b(?:None|null|undefined|NaN|True|False)\b"), "a programming word"),
]


def internal_ids(text: str) -> list[str]:
    """The internal ids in ``text`` (with what they look like)."""
    return [f"{m.group(0)!r} ({what})" for pattern, what in INTERNAL for m in pattern.finditer(text)]


def _texts(view: dict[str, Any]) -> list[tuple[str, str]]:
    out = [("prompt", str(view.get("prompt") or ""))]
    for verb, by_arg in (view.get("labels") or {}).items():
        for key, text in by_arg.items():
            out.append((f"label {verb} {key}", str(text)))
    out += [("result_reason", str(view.get("result_reason") or ""))]
    return out


def play_and_read(game_id: str, seed: int, steps: int) -> list[str]:
    """Play ``steps`` random actions of ``game_id``; the internal ids seen in the labels and
    prompts of every role's view on the way (and at the end, after a resignation)."""
    rules = get_rules(game_id)
    scenario = rules.scenarios[0] if rules.scenarios else None
    game = Game.new(rules, seed=seed, scenario=scenario)
    rng = random.Random(seed)
    roles = list(rules.roles(scenario, game.state.get("options"))) + [OBSERVER]
    bad: list[str] = []

    def read() -> None:
        for role, view in zip(roles, game.views(roles), strict=True):
            for where, text in _texts(view):
                for hit in internal_ids(text):
                    bad.append(f"{game_id} step {len(game.actions)} {role} {where}: {hit} in {text!r}")

    for _ in range(steps):
        if game.result() is not None:
            break
        read()
        active = game.active()
        if not active:
            break
        role = active[0]
        view = game.view(role)
        acts = [(verb, arg) for verb, args in (view.get("actions") or {}).items() if verb != "undo"
                for arg in ([None] if args is True else args)]
        if not acts:
            break
        verb, arg = rng.choice(acts)
        game.apply(role, verb, arg)
    if game.result() is None:
        game.apply(roles[0], ".resign")
    read()
    return bad


#: The games whose views pass (every game now).
PASSING = ["kingmaker", "plantagenet", "richard3"]


@pytest.mark.parametrize("game_id", PASSING)
@pytest.mark.parametrize("seed", [1, 2])
def test_no_internal_ids_in_labels_and_prompts(game_id: str, seed: int) -> None:
    bad = play_and_read(game_id, seed, 250)
    assert bad == [], "\n".join(bad[:20])


def test_the_check_finds_internal_ids() -> None:
    """The patterns catch the words the players reported, and leave plain words alone."""
    for text in ("Add York (york-1)", "end_group", "Scenario wars-of-the-roses", "Play card#05", "Move Warwick/Y", 'deal {"a": 1}', "None"):
        assert internal_ids(text), text
    for text in ("Move the Earl of Warwick to Kent (5.2)", "Add York as a player", "2-step block, face-down",
                 "Version 59 of the game", "York/Lancaster border"):
        assert internal_ids(text) == [], text


#: Every text of the game page a person reads: the panels' text, the choices bar, and the
#: names given to buttons, areas and blocks (aria-label, title).
PAGE_TEXTS = """() => {
  const out = [];
  for (const sel of ['#promptbar', '.side']) for (const el of document.querySelectorAll(sel)) out.push([sel, el.textContent]);
  for (const el of document.querySelectorAll('#game [aria-label], #buttons button')) out.push(['name', el.getAttribute('aria-label') || el.textContent]);
  for (const t of document.querySelectorAll('#game svg title')) out.push(['title', t.textContent]);
  return out;
}"""


@pytest.mark.browser
@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_richard3_page_speaks_plain_words(browser: Any, live_server: Any, size: str) -> None:
    """The Richard III game page, played for a while against a bot: no internal id in any
    panel, choice or name on the page (e.g. "Version 59", "wars-of-the-roses", "Warwick/Y")."""
    import time

    from tests.web import players
    from tests.web.conftest import PHONE

    phone = size == "phone"
    ctx = browser.new_context(viewport=PHONE if phone else {"width": 1366, "height": 768}, is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    players.signup(page, live_server.url, f"plain{size[:2]}{str(int(time.time() * 1000))[-6:]}")
    out = page.evaluate(players.POST, ["/api/games", {"game": "richard3", "scenario": "wars-of-the-roses",
                                                      "role": "York", "bots": {"Lancaster": "random"}}])
    page.goto(f"{live_server.url}/games/{out['id']}")
    page.wait_for_function("window.roses && window.roses.choices.length > 0", timeout=40000)
    bad: list[str] = []

    def check(_page: Any = None, _choice: Any = None) -> None:
        for where, text in page.evaluate(PAGE_TEXTS):
            bad.extend(f"{where}: {hit}" for hit in internal_ids(text))

    check()
    players.play_until([page], lambda: bool(bad) or players.version(page) >= 40,
                       max_actions=60, on_step=check)
    assert "Version" not in page.locator("#status").text_content()
    assert sorted(set(bad)) == [], sorted(set(bad))[:20]
    assert not errors, errors
    ctx.close()
