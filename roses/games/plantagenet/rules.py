"""The Plantagenet rules module on the engine's steps (roses.engine.steps): the sequence of play.

Play is a decision stack (``state["stack"]``). For the Levy & Campaign scenarios its bottom frame
is the automatic :class:`Calendar` step, which begins each Turn by pushing that Turn's frames in
order (2.2.1): those of the Levy (3.0, :mod:`levy`) and of the Campaign (4.0-4.8,
:mod:`campaign`), one frame per side in player order, Rebel then King's side (2.2.4), where a
step is one side's decision. Battles (4.4) and the Bosworth battle are in :mod:`battle`; what
the parts share (phases, the end of the game, the immediate victories of 6.3) in :mod:`common`.
When the Turn's frames are all resolved the Calendar step runs again and begins the next Turn.

Each step declares all of its decision on its class, through the engine's hooks: its options,
prompt and ``on_<verb>`` handlers, the label of each option (``option_label``, which
:meth:`~roses.engine.steps.StepRules.label` asks), the reasons an action is refused
(``why_not_<verb>``) and the rule section it applies (``rule``). This module joins the parts
into the game's step table and gives the views, secrets and invariants. The immediate Automatic
War Victory of the Wars of the Roses (6.3) is checked before every automatic step and after every
action (:class:`PlantagenetSteps`, the engine's ``Steps.watch``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from roses.engine.contract import DRAW, Action, State, View, canonical_json
from roses.engine.log import public
from roses.engine.logview import shared_recent_logs
from roses.engine.steps import (
    Frame,
    Step,
    StepRules,
    Steps,
    options_map,
    push_all,
    top,
)
from roses.games.plantagenet import (
    ai,
    battle,
    campaign,
    cards,
    endings,
    hidden,
    levy,
    reactions,
    wars,
)
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.battle import BATTLE_STEPS, bosworth_frames, describe_battle, in_battle
from roses.games.plantagenet.campaign import CAMPAIGN_STEPS, campaign_frames
from roses.games.plantagenet.common import (
    BOARD,
    CALENDAR_POSITIONS,
    CARDS,
    COUNTERS,
    LEVY,
    LORDS,
    TRACKS,
    immediate_victory,
)
from roses.games.plantagenet.components import SIDES, TROOP_TYPES, load
from roses.games.plantagenet.decks import cards_in_game, held_cards
from roses.games.plantagenet.levy import LEVY_STEPS, levy_frames
from roses.games.plantagenet.records import VassalWhere, Where, typed
from roses.games.plantagenet.setup import (
    OPTIONS_SCHEMA,
    SCENARIOS,
    other,
    scenario_data,
    setup_state,
)
from roses.games.plantagenet.upkeep import UPKEEP_STEPS
from roses.games.plantagenet.views import StaticRevision, cards_part, hidden_lords_part, static_part
from roses.games.plantagenet.views import kept as kept_parts


class PlantagenetSteps(Steps):
    """The steps of Plantagenet; settling also checks the immediate victories (6.3). The
    options a view offers are kept for the check of the next action (``Steps.keep_offered``:
    worked out once per position); ``legal_actions``, which the search asks, keeps nothing."""

    def __init__(self, *steps: Step) -> None:
        super().__init__(*steps)
        self.keep_offered = True

    def watch(self, state: State) -> None:
        if immediate_victory(state):
            self.changed()


# ----- the bottom of the stack ------------------------------------------------------------
class Calendar(Step):
    """The bottom of the stack: begins each Turn by pushing its steps (2.2.1, 3.0, 4.0, 4.8)."""

    name = "calendar"
    phase = LEVY
    rule = "2.2.1"
    run_changes = frozenset()  # the Turn's frames pushed

    def run(self, state: State, frame: Frame) -> None:
        box = state["box"]
        public(state, f"Turn {box} ({sv.season(box)}): Levy.")
        push_all(state, levy_frames(state) + campaign_frames(state))



#: The steps whose topmost frames the views show (:meth:`PlantagenetRules._public`).
_SHOWN_FRAMES: Final = frozenset(("muster", "plan", "actions", "bosworth"))

#: The parts of the sequence; each adds its own view entries, secrets and invariants.
PARTS: Final = (levy, campaign, battle, wars)


def _favour_view(favour: dict[str, str]) -> tuple[dict[str, str], dict[str, Any]]:
    """The Favour markers as views give them (by Locale) and the Net Stronghold Favour markers
    they make (1.3.1), kept by the markers' placement: they change far less often than views
    are made (read only, shared by the views that show them)."""
    key = tuple(favour.items())  # (the state's order: a few keys for each order met)
    kept = _FAVOUR_VIEWS.get(key)
    if kept is None:
        ordered = dict(sorted(favour.items()))  # what is made does not depend on the order
        nsf = sv.net_stronghold_favour({"favour": ordered})
        kept = (ordered, {t: {"side": s, "value": n} for t, (s, n) in nsf.items()})
        if len(_FAVOUR_VIEWS) >= 1024:  # bounded
            _FAVOUR_VIEWS.clear()
        _FAVOUR_VIEWS[key] = kept
    return kept


_FAVOUR_VIEWS: Final[dict[tuple[tuple[str, str], ...], tuple[dict[str, str], dict[str, Any]]]] = {}


_NAMES_AND_SIDES: Final[dict[str, tuple[str, str]]] = {}


def _lord_names_and_sides() -> dict[str, tuple[str, str]]:
    """Each Lord's name and side, as views give them: a module table made at the first call
    (every view asks it; a function behind ``functools.cache`` is a Python call even compiled)."""
    if not _NAMES_AND_SIDES:
        _NAMES_AND_SIDES.update({lid: (str(d["name"]), str(d["side"])) for lid, d in load().lords.items()})
    return _NAMES_AND_SIDES

STEPS: Final = PlantagenetSteps(Calendar(), *LEVY_STEPS, *UPKEEP_STEPS, *CAMPAIGN_STEPS, *BATTLE_STEPS,
                         *cards.CARD_STEPS, *reactions.REACT_STEPS)
COUNTERS.append(STEPS.changed)  # what a step changes beyond its declarations (common.changed)


def current_step(state: State) -> str | None:
    """The name of the step deciding now (None once the game is over)."""
    frame = top(state)
    return None if frame is None or state["result"] is not None else str(frame["step"])


class PlantagenetRules(StepRules):
    id = "plantagenet"
    title = "Plantagenet"
    #: the board and panels in the browser (static/js/games/index.js says what it exports)
    client_module = "js/games/plantagenet.js"
    scenarios = SCENARIOS
    steps = STEPS

    def scenario_names(self) -> dict[str, str]:
        return {sid: str(d["name"]) for sid, d in scenario_data().items()}

    def options_schema(self) -> dict[str, Any]:
        return {k: dict(v) for k, v in OPTIONS_SCHEMA.items()}

    def roles(self, scenario: str, options: dict[str, Any] | None = None) -> list[str]:
        return ["York", "Lancaster"]

    # ----- setup ------------------------------------------------------------------------
    def setup(self, seed: int, scenario: str, options: dict[str, Any] | None = None) -> State:
        self.check_scenario(scenario)
        state = setup_state(seed, scenario, options)
        if scenario_data()[scenario]["victory"] == "battle":
            return self.start(state, *bosworth_frames(state))
        return self.start(state, {"step": "calendar"})

    def prompt(self, state: State, role: str) -> str:
        res = state.get("result")
        if res is not None:
            return "Game over: " + ("a draw." if res == DRAW else f"{res} wins.")
        return self.steps.prompt(state, role)

    # ----- views ------------------------------------------------------------------------------
    def view(self, state: State, role: str) -> View:
        return self.views(state, (role,))[0]

    def decision_view(self, state: State, role: str) -> View:
        return self.views(state, (role,), with_log=False)[0]

    def views(self, state: State, roles: Sequence[str], with_log: bool = True) -> list[View]:
        """Each role's view (without ``with_log``, without the recent log: :meth:`decision_view`).
        What is the same for every role is made once and shared, read only (:meth:`_public`: the
        board, the tracks, the public entries of the parts, the Lords unless mats are hidden;
        each side's cards as either side sees them; the log windows,
        :func:`~roses.engine.logview.shared_recent_logs`); the parts that rarely change are
        kept from one position to the next while the state's part is unchanged
        (:mod:`.views`). Then each role's own entries: its prompt and, for an actor, its options
        (worked out once with the prompt, ``Step.prompt_and_options``), its Lords with Hidden
        Mats (1.5.3), its Plan being built (4.1.2) and its Bosworth choices. A view shares
        nothing with the state: it does not change when play goes on."""
        store = kept_parts()
        # the revisions of the kept parts (Steps.revision_of, read at once): any part's, then each part's
        steps = self.steps
        changed_any, changed = steps.revision, steps.part_revisions
        head, static, plan, bosworth = self._public(  # with the frames that show a role its own choices
            state, store, (changed_any, changed.get(LORDS, 0), changed.get(BOARD, 0), changed.get(TRACKS, 0)))
        active = head["active"]
        result = state["result"]
        cur = None if result is not None else self.steps.current(state)
        over = None if result is None else "Game over: " + ("a draw." if result == DRAW else f"{result} wins.")
        hidden_mats = "lords" not in static
        logs = shared_recent_logs(state["log"], roles) if with_log else None
        aow_by_side, command_by_side, aow_open, command_open = cards_part(state, store, (changed_any, changed.get(CARDS, 0)))
        views: list[View] = []
        for i, role in enumerate(roles):
            aow = aow_by_side.get(role, aow_open)
            command = command_by_side.get(role, command_open)
            lords = hidden_lords_part(state["lords"], _lord_names_and_sides(), role, state.get("battle"), store) \
                if hidden_mats else None
            # the role's entries that change only with the board and the cards, kept as one dict
            kept: tuple[Any, ...] | None = store.get("view " + role)
            if kept is not None and kept[0] is static and kept[1] is aow and kept[2] is command and kept[3] is lords:
                template: dict[str, Any] = kept[4]
            else:
                template = {"role": role, **static, "aow": aow, "command": command}
                if lords is not None:
                    template["lords"] = lords
                store["view " + role] = (static, aow, command, lords, template)
            # a copy of the kept dict (its table copied whole, in C), then the step's entries:
            # the same keys in the same order as ``{**template, **head}``, without inserting
            # the template's twenty-odd keys one by one
            v: View = template.copy()
            v.update(head)
            if over is not None:
                v["prompt"] = over
            elif cur is None:
                v["prompt"] = ""
            elif role in active:
                v["prompt"], options = steps.prompt_and_options_of(state, cur[1], cur[0], role)  # kept for the check
                v["actions"] = options_map(options)
            else:
                v["prompt"] = cur[0].prompt(state, cur[1], role)
            if plan is not None:  # campaign.own_view_part, inline: the role's Plan being built (4.1.2)
                drafts = plan["drafts"]
                if role in drafts:
                    v["plan_draft"] = list(drafts[role])
            if bosworth is not None:
                v.update(battle.own_view_part(state, role, bosworth))
            if logs is not None:
                v["log"], v["log_kinds"], v["log_more"] = logs[i]  # the recent lines; the whole log is log_for
            views.append(v)
        return views

    def _mat_visible(self, state: State, role: str, lord: str) -> bool:
        """Whether ``role`` sees ``lord``'s mat: his own side's, and with Hidden Mats the other
        side's only in Battle (1.5.3)."""
        return role == sv.side_of(lord) or not state["options"].get("hidden_mats") or in_battle(state, lord)

    def _public(self, state: State, store: dict[str, Any],
                revision: StaticRevision = None) -> tuple[dict[str, Any], dict[str, Any], Frame | None,
                                                          Frame | None]:
        """The parts of a view that are the same for every role: those that change with the
        step (the phase, who acts, the result and how the game ended, the public entries of the
        parts), and those that change only with the board and the tracks
        (:func:`.views.static_part`, kept between positions; ``store``: :func:`.views.kept`);
        with the topmost Plan and Bosworth frames (their roles' own entries, :meth:`views`).
        The stack is read once, from the top, for the frames the parts show."""
        st = typed(state)
        result = st["result"]
        frames: list[Frame] = st["stack"]
        if result is not None or not frames:
            phase = "over" if result is not None else ""
            active: list[str] = []
            step_name = None
        else:
            frame = frames[-1]
            step_name = frame["step"]
            step = self.steps.by_name[step_name]
            phase = step.phase
            active = step.actors(state, frame)
        head: dict[str, Any] = {
            "phase": phase,
            "active": active,
            "result": None if result is None else str(result),
            "step": step_name,
            "end": None if result is None else endings.end_cause(state),
        }
        muster = plan = actions = bosworth = None
        for f in reversed(frames):
            name = f["step"]
            if name not in _SHOWN_FRAMES:  # (most frames: one hashed lookup, not four comparisons)
                continue
            if name == "muster":
                if muster is None and f.get("lords") is not None:
                    muster = f
            elif name == "plan":
                if plan is None:
                    plan = f
            elif name == "actions":
                if actions is None:
                    actions = f
            elif name == "bosworth" and bosworth is None:
                bosworth = f
        # the public view entries of the parts (levy, wars, campaign, battle: view_part)
        if muster is not None:
            head["muster"] = levy.muster_view(muster)
        if "wars" in state:
            head.update(wars.view_part(state, ""))
        head.update(campaign.public_view_part(state, (plan, actions)))
        if state.get("battle") is not None:
            head.update(battle.public_view_part(state))
        # scenario, king, rebel, box, first_box, last_box, influence, threshold, favour,
        # stronghold_markers, exhaustion, exile_boxes, seats, vassals, special_rules, options
        # and, unless mats are hidden, lords
        return head, static_part(state, _lord_names_and_sides(), _favour_view, store, revision), plan, bosworth

    def secrets(self, state: State, role: str) -> set[str]:
        """Opponent's Held Events and, with Hidden Mats, Capabilities on his hidden mats (§5)."""
        out: set[str] = set()
        for side in SIDES:
            if side == role:
                continue
            out |= {f'"{cid}"' for cid in state["aow"][side]["held"]}
            # Pass cards are alike on both sides (pass-1...): only their number is secret.
            out |= {f'"{cid}"' for cid in state["command"][side]["plan"] if not cid.startswith("pass-")}
            if state["options"].get("hidden_mats"):
                for lid, d in state["lords"].items():
                    if sv.side_of(lid) == side and d["mat"] and not in_battle(state, lid):
                        out |= {f'"{cid}"' for cid in d["mat"]["capabilities"]}
        for part in PARTS:
            out |= part.secrets_part(state, role)
        return out

    def hidden_variants(self, state: State, role: str, rnd: random.Random) -> list[tuple[str, State]]:
        """Held and drawn cards, Plans and hidden mats swapped (:mod:`.hidden`)."""
        return hidden.hidden_variants(state, role, rnd)

    # ----- invariants -----------------------------------------------------------------------
    def check_invariants(self, state: State) -> list[str]:  # noqa: C901 - a flat list of independent checks
        c = load()
        st = typed(state)
        bad: list[str] = []
        if not isinstance(st["influence"], int) or abs(st["influence"]) > sv.INFLUENCE_CAP:
            bad.append(f"influence {state['influence']} out of range (1.4.1)")
        for frame in st["stack"]:
            if frame.get("step") not in self.steps:
                bad.append(f"unknown step in the stack: {frame.get('step')!r}")
        zones: dict[str, str] = {}
        for side in SIDES:
            for zone in ("deck", "drawn", "held", "in_effect", "set_aside"):
                for cid in st["aow"][side][zone]:
                    if cid in zones:
                        bad.append(f"card {cid} in two zones")
                    if c.cards[cid]["side"] != side:
                        bad.append(f"card {cid} in a zone of the other side ({side} {zone})")
                    zones[cid] = f"{side} {zone}"
        totals = dict.fromkeys(TROOP_TYPES, 0)
        ship_lords = 0
        for lid, d in st["lords"].items():
            if d["where"] not in Where.ALL:
                bad.append(f"{lid}: bad where")
            if d["where"] in (Where.MAP, Where.BATTLE) and d["mat"] is None:
                bad.append(f"{lid}: on the map without a mat")
            if d["where"] == Where.MAP and d["locale"] not in c.locale_ids:
                bad.append(f"{lid}: on the map at no Locale")
            locale = d["locale"]
            if d["where"] == Where.MAP and locale is not None and c.locales.get(locale, {}).get("kind") == "exile" \
                    and st["exile_boxes"].get(locale) != sv.side_of(lid):
                bad.append(f"{lid}: in an Exile box not Friendly to him (1.3.1)")
            if d["where"] == Where.CALENDAR and (d["mat"] is not None or d["box"] not in CALENDAR_POSITIONS):
                bad.append(f"{lid}: bad Calendar entry")
            if d["where"] == Where.REMOVED and lid in st["seats"]:
                bad.append(f"{lid}: removed but his Seat remains")
            mat = d["mat"]
            if mat:
                for t in TROOP_TYPES:
                    totals[t] += mat["troops"][t] + mat["routed"][t]
                if mat["assets"]["ships"] > 2:
                    bad.append(f"{lid}: more than 2 Ships (1.7.3)")
                ship_lords += mat["assets"]["ships"] > 0
                if len(mat["capabilities"]) > 2:
                    bad.append(f"{lid}: more than 2 Capabilities (3.4.6)")
                for cid in mat["capabilities"] + mat["events"]:
                    if cid in zones:
                        bad.append(f"card {cid} in two zones")
                    zones[cid] = f"mat of {lid}"
                for vid in mat["vassals"]:
                    if st["vassals"][vid]["where"] != VassalWhere.MAT or st["vassals"][vid]["lord"] != lid:
                        bad.append(f"vassal {vid} on {lid}'s mat but not recorded there")
        for side in SIDES:
            mine = sorted((cid for cid in zones if c.cards[cid]["side"] == side), key=c.card_ids.id)
            if mine != sorted(st["aow"][side]["in_game"], key=c.card_ids.id):
                bad.append(f"{side} Arts of War cards lost or added outside the rules")
            if held_cards(state, side) != cards_in_game(state, side):
                bad.append(f"{side} Command cards are not those of the Lords in play (1.9.2, 6.2.2)")
        for t, n in totals.items():
            if n > c.tables["troop_pool"][t]:
                bad.append(f"{n} {t} on mats, pool has {c.tables['troop_pool'][t]} (1.6)")
        if ship_lords > c.tables["max_ship_lords"]:
            bad.append("more than 9 Lords with Ships (1.7.3)")
        for loc, s in st["favour"].items():
            if c.locales.get(loc, {}).get("kind") != "stronghold" or s not in SIDES:
                bad.append(f"bad Favour {loc}={s}")
        for loc, m in st["exhaustion"].items():
            if loc not in c.locale_ids or m not in ("depleted", "exhausted"):
                bad.append(f"bad marker {loc}={m}")
        first, box, last = st["first_box"], st["box"], st["last_box"]  # ints but On Bosworth Field
        if st["result"] is None and scenario_data()[st["scenario"]]["victory"] != "battle" \
                and (first is None or box is None or last is None or not first <= box <= last):
            bad.append(f"box {state['box']} outside the scenario")
        for part in PARTS:
            bad += part.invariants_part(state)
        return bad

    # ----- bots (roses.ai): see ai.py ----------------------------------------------------------
    search_hints = ai.SEARCH_HINTS

    def milestones(self, state: State) -> list[str]:
        """The Wars of the Roses: the later Wars a game reached (6.1.2), and how it ended when
        not by the third War (fuzz reports count them)."""
        return wars.milestones(state)

    def determinize(self, state: State, role: str, seed: int) -> State:
        return ai.determinize(state, role, seed)

    def determinizer(self, state: State, role: str) -> Callable[[int], State]:
        return ai.determinizer(state, role)

    def action_space(self, scenario: str, options: dict[str, Any] | None = None) -> list[Action]:
        from roses.games.plantagenet import research

        return research.action_space(scenario, options)

    def unseen_choices(self, scenario: str, options: dict[str, Any] | None = None) -> list[list[Action]] | None:
        from roses.games.plantagenet import research

        return research.unseen_choices(options)

    def unseen_in_history(self, state: State, history: Sequence[tuple[str, str, Any]],
                          role: str) -> dict[int, list[Action] | None]:
        from roses.games.plantagenet import research

        return research.unseen_in_history(state, history, role)

    def tensor_codec(self, scenario: str, options: dict[str, Any] | None = None) -> Any:
        from roses.games.plantagenet import research

        return research.tensor_codec(tuple(sorted({"", "over", *(s.phase for s in self.steps.by_name.values())})))

    def copy_state(self, state: State) -> State:
        return ai.copy_state(state)

    def search_copy(self, state: State) -> State:
        return ai.search_copy(state)

    def evaluate(self, state: State, role: str) -> float:
        return ai.evaluate(state, role)

    def evaluate_all(self, state: State, roles: list[str], horizon: int = 1) -> dict[str, float]:
        return ai.evaluate_all(state, roles, horizon)

    def evaluation_terms(self, state: State, role: str) -> dict[str, float]:
        return ai.evaluation_terms(state, role)

    # ----- terminal ---------------------------------------------------------------------------
    def describe(self, view: View) -> str:
        lines = [f"{view['scenario']} — Turn {view['box']} ({view['phase']}); "
                 f"King: {view['king']}, Rebel: {view['rebel']}",
                 f"Influence: York {view['influence']['York']}, Lancaster {view['influence']['Lancaster']}"
                 + (f"; threshold {view['threshold']}" if view.get("threshold") else "")]
        for side in SIDES:
            where = [f"{d['name']} @ {d['locale']}" if d["where"] == Where.MAP
                     else f"{d['name']} box {d['box']}{' (Exile)' if d['exile'] else ''}"
                     for d in view["lords"].values() if d["side"] == side and d["where"] in (Where.MAP, Where.CALENDAR)]
            lines.append(f"{side}: " + ", ".join(where))
        lines.append("Favour: " + canonical_json(view["favour"]))
        if view.get("battle"):
            lines += describe_battle(view)
        return "\n".join(lines)


def opponent(role: str) -> str:
    return other(role)
