"""Kingmaker rules object (game id ``kingmaker``): the campaign rules for 2 to 8 players with the
basic / E1 / E2 switches, written on the engine's decision framework (steps.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from roses.engine.contract import Action, State, View, copy_json
from roses.engine.steps import StepRules, Steps
from roses.games.kingmaker import (
    ai,
    combat,
    corrections,
    deals,
    evaluation,
    events,
    hidden,
    memo,
    offers,
    orders,
    parliament,
    play,
    reading,
    research,
    setup,
    umpire,
    views,
)
from roses.games.kingmaker.platform import KingmakerPlatform
from roses.games.kingmaker.wording import PlainLabels

#: State keys no rule ever changes (the data of an uploaded board or Event deck): copies share them.
_SHARED = frozenset(("board_data", "deck_data"))


class KingmakerSteps(Steps):
    #: The options a view or the legal actions made for a position check the next action
    #: (Steps.options_of): a Kingmaker turn's options (every noble's moves, deals, awards)
    #: are worked out once for both.
    keep_options = True

    def watch(self, state: State) -> None:
        play.check_victory(state)

    def settle(self, state: State) -> None:
        """As :meth:`Steps.settle`; then the seats asked now answer by their standing orders
        (orders.py), each answer settled in turn."""
        super().settle(state)
        if state.get("standing"):
            orders.apply_standing(self, state)

    def settle_plain(self, state: State) -> None:
        """:meth:`Steps.settle` alone (orders.apply_standing loops itself)."""
        super().settle(state)

    def acting(self) -> AbstractContextManager[object]:
        """The memo of what is derived from a position (memo.py) is dropped around each action
        and not read while it is applied."""
        return memo.applying()


class KingmakerRules(KingmakerPlatform, StepRules, PlainLabels):
    id = "kingmaker"
    title = "Kingmaker (campaign rules)"
    scenarios = (setup.SCENARIO,)
    preview = False  # every rule built and fuzzed: docs/kingmaker/coverage.md
    #: The verb a server sends when a seat's deadline passes (orders.play_default): the
    #: published default is played and logged as such.
    default_verb = orders.BY_DEFAULT
    steps = KingmakerSteps(
        setup.Arrange(), setup.PlaceNobles(), play.Turn(), events.Chance(), play.Purge(), play.Move(),
        play.Permit(), play.Coronation(), play.CrownPhase(),
        parliament.ParliamentPhase(), parliament.Session(), parliament.Vote(), parliament.Propose(),
        parliament.Accept(), parliament.Attend(), parliament.Disperse(), parliament.ParlPlace(),
        combat.CombatPhase(), combat.Battle(), combat.Spoils(), combat.Captive(), combat.Ransom(),
        combat.RansomPay(), combat.Pardon(), combat.Scuttle(), combat.VacPort(), events.StormPort(), events.Treachery(), events.Hunt(), events.Summons(), deals.Offer(), deals.TradeBack(), deals.DealMenu(),
        umpire.Tabletop(),
    )

    def scenario_names(self) -> dict[str, str]:
        return {setup.SCENARIO: "The campaign (2 to 8 players)"}

    def options_schema(self) -> dict[str, Any]:
        return {k: dict(v) for k, v in setup.OPTIONS_SCHEMA.items()}

    def option_summary(self, options: dict[str, Any] | None = None) -> list[str]:
        """What a game's options mean, in words, for a lobby or a gazette to show beside its
        title: the board it is played on (its name), the Event deck, the players, the rules
        level, the umpire (setup.option_summary)."""
        return setup.option_summary(options)

    def roles(self, scenario: str, options: dict[str, Any] | None = None) -> list[str]:
        """The players P1..Pn, and the umpire's seat last when the option ``umpire`` is on
        (umpire.py; ``state["roles"]`` holds the players only)."""
        opts = setup.normalise_options(options)
        return setup.role_names(int(opts["players"])) + ([umpire.UMPIRE] if opts["umpire"] else [])

    def check_turn(self, state: State, role: str) -> None:
        """As the contract's, and the umpire may act at any time while the game runs (his
        standing verbs, umpire.py), and so may a player (his offers, offers.py: any other verb
        of a player is checked in :meth:`action`)."""
        if state["result"] is None and (role == umpire.UMPIRE and umpire.has_umpire(state)
                                        or offers.is_player(state, role)):
            return
        super().check_turn(state, role)

    def action(self, state: State, role: str, verb: str, arg: Any = None) -> State:
        if role == umpire.UMPIRE and verb in umpire.STANDING_VERBS and umpire.has_umpire(state):
            with self._outside_the_steps():
                umpire.standing_action(state, verb, arg)
            return state
        if verb == orders.BY_DEFAULT:
            orders.play_default(self, state, role, arg)
            return state
        if verb in orders.VERBS and offers.is_player(state, role):
            with self._outside_the_steps():
                orders.standing_action(state, role, verb, arg)
                self.steps.settle(state)  # an order may answer the question asked now
            return state
        if verb in offers.VERBS and offers.is_player(state, role):
            with self._outside_the_steps():
                offers.standing_action(state, role, verb, arg)
                self.steps.settle(state)  # an agreed ransom may end the captor's step
            return state
        if offers.is_player(state, role):
            super().check_turn(state, role)
        if corrections.watching(state, role):
            return self._remembered(state, role, verb, arg, super().action)
        return super().action(state, role, verb, arg)

    @contextmanager
    def _outside_the_steps(self) -> Iterator[None]:
        """Around a change made outside the steps (a standing verb of the umpire or a player):
        the memo (memo.py) and the options kept for the position before it are out of date."""
        with memo.applying():
            yield
        self.steps.forget()

    def apply_legal(self, state: State, role: str, verb: str, arg: Any = None) -> State:
        if corrections.watching(state, role):
            return self._remembered(state, role, verb, arg, super().apply_legal)
        return super().apply_legal(state, role, verb, arg)

    def _remembered(self, state: State, role: str, verb: str, arg: Any, apply: Any) -> State:
        """``apply`` a player's order, keeping what it changed for the umpire's takeback
        (corrections.py)."""
        before = corrections.snapshot(state, corrections.META | corrections.FLOW)
        what = self.label(state, role, verb, arg)
        apply(state, role, verb, arg)
        corrections.remember_order(state, role, before, what)
        return state

    def setup(self, seed: int, scenario: str, options: dict[str, Any] | None = None) -> State:
        self.check_scenario(scenario)
        state = setup.new_state(seed, options)
        return self.start(state, {"step": "arrange", "done": [False] * len(state["roles"])})

    def legal_actions(self, state: State, role: str) -> list[Action]:
        """As :meth:`StepRules.legal_actions`, memoised per position (memo.py); callers get
        their own list."""
        return list(memo.memoised(state, ("legal", role), lambda: super(KingmakerRules, self).legal_actions(state, role)))

    def view(self, state: State, role: str) -> View:
        """views.view, with the negotiation (offers.py): the pending offers ``role`` may see,
        the public alliances, and for a player what his offer verbs take."""
        out = views.view(self, state, role)
        out["negotiation"] = {"offers": offers.view_offers(state, role), "alliances": offers.alliances(state),
                              **({"standing": offers.standing(state, role)} if offers.is_player(state, role) else {})}
        standing = orders.view_part(state, role)
        if standing is not None:
            out["standing_orders"] = standing
        actions = out.get("actions")
        if actions:  # reading aids for a person choosing from the list (reading.py)
            out["verb_help"] = reading.verb_help(actions)
            notes = reading.option_notes(state, actions)
            if notes:
                out["option_notes"] = notes
        return out

    def secrets(self, state: State, role: str) -> set[str]:
        return views.secrets(state, role)

    def milestones(self, state: State) -> list[str]:
        """How a finished campaign ended, by rule (``end_`` + the kind): ``end_last_heir_crowned``
        or ``end_beaufort_crowned`` (§Victory Conditions), ``end_parliament`` (victory voted by
        Parliament, §Victory Conditions), ``end_round_limit`` (the round limit the players chose, K50), or
        ``end_other`` (ended outside the rules: resignation, adjudication)."""
        if state["result"] is None:
            return []
        return [f"end_{state.get('end') or 'other'}"]

    #: The swap check compares the views of each position only: some actions reveal a hand's
    #: make-up without marking a reveal (the cards a player puts into the Chancery).
    swap_after_action = False

    def hidden_variants(self, state: State, role: str, rnd: random.Random) -> list[tuple[str, State]]:
        return hidden.hidden_variants(state, role, rnd)

    def check_invariants(self, state: State) -> list[str]:
        return views.check_invariants(state)

    def describe(self, view: View) -> str:
        return views.describe(view)

    def copy_state(self, state: State) -> State:
        """An independent copy, whose log is a new list of the same entries: the rules only
        append to the log (roses.engine.log) and never change an entry, so nothing they do to
        ``state`` reaches the copy, and the copy's cost does not grow with the game (in a long
        game the log is most of the state). Also the copy a game keeps to undo to
        (``Rules.undo_copy``). The board's and Event deck's data, which nothing changes, are
        shared. The rest is copied by ``copy_json``."""
        log = state["log"]
        return {k: (log[:] if k == "log" else v if k in _SHARED else copy_json(v)) for k, v in state.items()}

    def determinize(self, state: State, role: str, seed: int) -> State:
        return ai.determinize(state, role, seed)

    def action_space(self, scenario: str, options: dict[str, Any] | None = None) -> list[Action]:
        return research.action_space(scenario, options)

    def unseen_choices(self, scenario: str, options: dict[str, Any] | None = None) -> list[list[Action]] | None:
        return research.unseen_choices(options)

    def unseen_in_history(self, state: State, history: Sequence[tuple[str, str, Any]],
                          role: str) -> dict[int, list[Action] | None]:
        return research.unseen_in_history(state, history, role)

    def tensor_codec(self, scenario: str, options: dict[str, Any] | None = None) -> Any:
        return research.tensor_codec(tuple(sorted({"", "over", *(s.phase for s in self.steps.by_name.values())})))

    #: How the search bots save work and judge lines (ai.py).
    search_hints = ai.SEARCH_HINTS

    def evaluate(self, state: State, role: str) -> float:
        """What ``state`` is worth to ``role`` (evaluation.py: heirs, the crown, troops...)."""
        return evaluation.evaluate(state, role)

    def evaluate_all(self, state: State, roles: list[str], horizon: int = 1) -> dict[str, float]:
        return evaluation.evaluate_all(state, roles, horizon)

    def evaluation_terms(self, state: State, role: str) -> dict[str, float]:
        return evaluation.evaluation_terms(state, role)


RULES = KingmakerRules()
