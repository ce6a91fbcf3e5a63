"""The Plantagenet rules module on the engine contract: a playable skeleton of the sequence of play.

Levy (3.0) and Campaign (4.0) steps run box by box across the Calendar. Steps whose rules are not
built yet are offered as a single "Continue" whose prompt says so (e.g. "Levy: Muster (not built
yet) — Continue"). Built now: setup (6.0), Ready Vassals (3.3.2), and End Campaign (4.8): Tides of
War, the Victory check, Grow, Waste and Reset, so every game ends at the scenario's last Calendar
box with the scenario's victory check. Player order is Rebel then King's side (2.2.4).
"""

from __future__ import annotations

from typing import Any

from roses.engine.contract import Action, Rules, State, View, canonical_json
from roses.engine.errors import IllegalAction
from roses.engine.log import public
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.components import SIDES, TROOP_TYPES, load
from roses.games.plantagenet.setup import (
    OPTIONS_SCHEMA,
    SCENARIOS,
    other,
    scenario_data,
    setup_state,
    threshold,
)

CONTINUE = "continue"

#: Skeleton steps: (step id, prompt label, built?). The label names the rule section.
LEVY_STEPS: list[tuple[str, str]] = [
    ("arts_of_war", "Levy: Arts of War (3.1)"),
    ("pay", "Levy: Pay (3.2)"),
    ("exiles", "Levy: Muster Exiles (3.3.1)"),
    ("muster", "Levy: Muster (3.4)"),
]
CAMPAIGN_STEPS: list[tuple[str, str]] = [
    ("plan", "Campaign: Plan (4.1)"),
    ("command", "Campaign: Command cards, Feed (4.2-4.7)"),
]
BOSWORTH_STEPS: list[tuple[str, str]] = [
    ("capabilities", "Bosworth: choose four Capabilities in secret (On Bosworth Field)"),
    ("array", "Bosworth: Array the Lords (4.4.1)"),
    ("battle", "Bosworth: Battle (4.4.2-4.4.3)"),
]
STEP_LABELS = dict(LEVY_STEPS + CAMPAIGN_STEPS + BOSWORTH_STEPS)
STEP_LABELS["draw_capabilities"] = "Levy: Draw Capabilities (3.1.2)"
STEP_LABELS["draw_events"] = "Levy: Draw Events (3.1.3)"

WHERE = ("map", "calendar", "battle", "unused", "removed")


class PlantagenetRules(Rules):
    id = "plantagenet"
    title = "Plantagenet"
    scenarios = SCENARIOS

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
            state["phase"] = "battle"
            self._enter(state, "capabilities")
        else:
            self._begin_levy(state)
        return state

    # ----- sequence of play -------------------------------------------------------------------
    def _enter(self, state: State, step: str) -> None:
        state["step"] = step
        state["waiting"] = [state["rebel"], state["king"]]

    def _begin_levy(self, state: State) -> None:
        state["phase"] = "levy"
        public(state, f"Turn {state['box']} ({sv.season(state['box'])}): Levy.")
        self._enter(state, "arts_of_war")

    def _advance(self, state: State) -> None:
        """The step is complete for both sides: go to the next one."""
        step = state["step"]
        if state["phase"] == "battle":
            order = [s for s, _ in BOSWORTH_STEPS]
            i = order.index(step)
            if i + 1 < len(order):
                self._enter(state, order[i + 1])
            else:
                state["waiting"] = []
                public(state, "The Battle of Bosworth is not built yet: the game is recorded as a draw.")
                state["result"] = "Draw"
            return
        if step == "arts_of_war":
            if state["first_turn"]:
                public(state, "Pay is skipped in the scenario's first Levy (3.2).")
                self._ready_vassals(state)
                self._enter(state, "exiles")
            else:
                self._enter(state, "pay")
        elif step == "pay":
            self._ready_vassals(state)
            self._enter(state, "exiles")
        elif step == "exiles":
            self._enter(state, "muster")
        elif step == "muster":
            state["phase"] = "campaign"
            public(state, f"Turn {state['box']}: Campaign, Plan of {sv.plan_size(state['box'])} cards.")
            self._enter(state, "plan")
        elif step == "plan":
            self._enter(state, "command")
        elif step == "command":
            self._end_campaign(state)

    def _ready_vassals(self, state: State) -> None:
        """3.3.2: face-down Vassals in the current box return to their Seats face up."""
        for vid, v in state["vassals"].items():
            if v["where"] == "calendar" and not v["face_up"] and v["box"] is not None and v["box"] <= state["box"]:
                v.update(where="seat", box=None, face_up=True, lord=None)
                public(state, f"Vassal {load().vassals[vid]['name']} is Ready at its Seat.")

    def _end_campaign(self, state: State) -> None:
        """4.8: Tides of War, (Disembark: nobody can be at Sea yet), Victory check, Grow, Waste, Reset."""
        c = load()
        box = state["box"]
        scen = scenario_data()[state["scenario"]]
        sv.apply_tides(state)
        res = sv.victory_check(state)
        if res is not None:
            self._finish_with(state, res)
            return
        if box in c.tables["calendar"]["grow"] and "ravaged_land" not in state["special_rules"]:
            sv.grow(state)
            public(state, "Grow: Depleted markers removed, Exhausted turned to Depleted (4.8.4).")
        if (box in c.tables["calendar"]["waste"] and "ravaged_land" not in state["special_rules"]
                and "brief_rebellion" not in state["special_rules"]):
            sv.waste(state)
            public(state, "Waste: Lords' mats reset (4.8.5).")
        # Reset (4.8.6): no Events can be in effect or held yet.
        state["box"] = box + 1
        state["first_turn"] = False
        if scen["last_box"] is not None and state["box"] > scen["last_box"]:  # pragma: no cover - guarded
            self._finish_with(state, sv.scenario_end_winner(state))
            return
        self._begin_levy(state)

    def _finish_with(self, state: State, res: str) -> None:
        state["waiting"] = []
        state["step"] = None
        scen = scenario_data()[state["scenario"]]
        if scen["victory"] == "war":
            winner = res
            state["war_winners"] = {"I": winner}
            public(state, f"War I ends: {'a draw' if winner == 'Draw' else winner + ' wins the War'}. "
                          "Wars II and III are not built yet: the game ends after War I.")
        elif res == "Draw":
            public(state, "The game ends in a draw.")
        else:
            public(state, f"{res} wins.")
        state["result"] = res

    # ----- contract -----------------------------------------------------------------------
    def active(self, state: State) -> list[str]:
        if state.get("result") is not None or not state["waiting"]:
            return []
        return [state["waiting"][0]]

    def legal_actions(self, state: State, role: str) -> list[Action]:
        if role not in self.active(state):
            return []
        return [(CONTINUE, None)]

    def action(self, state: State, role: str, verb: str, arg: Any = None) -> State:
        if role not in self.active(state):
            raise IllegalAction(f"It is not {role}'s turn to act.")
        if (verb, arg) not in self.legal_actions(state, role):
            raise IllegalAction(f"{role} cannot {verb} now.")
        state["waiting"].pop(0)
        if not state["waiting"]:
            self._advance(state)
        return state

    def step_label(self, state: State) -> str:
        step = state["step"]
        if step == "arts_of_war":
            step = "draw_capabilities" if state["first_turn"] else "draw_events"
        return STEP_LABELS.get(step, str(step))

    def prompt(self, state: State, role: str) -> str:
        if state.get("result") is not None:
            res = state["result"]
            return "Game over: " + ("a draw." if res == "Draw" else f"{res} wins.")
        label = self.step_label(state)
        if role in self.active(state):
            return f"{label} (not built yet) — Continue"
        waiting = self.active(state)
        return f"{label} (not built yet): waiting for {waiting[0]}." if waiting else label

    # ----- views ------------------------------------------------------------------------------
    def _mat_visible(self, state: State, role: str, lord: str) -> bool:
        side = sv.side_of(lord)
        if role == side:
            return True
        if state["options"].get("hidden_mats"):
            return state["lords"][lord]["where"] == "battle"  # 1.5.3: revealed in Battle
        return True

    def view(self, state: State, role: str) -> View:
        c = load()
        lords: dict[str, Any] = {}
        for lid, d in state["lords"].items():
            entry: dict[str, Any] = {"name": c.lords[lid]["name"], "side": c.lords[lid]["side"],
                                     "where": d["where"], "locale": d["locale"], "box": d["box"],
                                     "exile": d["exile"]}
            if d["mat"] is not None:
                entry["mat"] = d["mat"] if self._mat_visible(state, role, lid) else "hidden"
            lords[lid] = entry
        aow: dict[str, Any] = {}
        command: dict[str, Any] = {}
        for side in SIDES:
            a = state["aow"][side]
            cm = state["command"][side]
            mine = role == side
            aow[side] = {"deck": list(a["deck"]) if mine else len(a["deck"]),
                         "held": list(a["held"]) if mine else len(a["held"]),
                         "in_effect": list(a["in_effect"]), "set_aside": list(a["set_aside"])}
            command[side] = {"deck": list(cm["deck"]) if mine else len(cm["deck"]),
                             "plan": list(cm["plan"]) if mine else len(cm["plan"]),
                             "revealed": list(cm["revealed"])}
        nsf = sv.net_stronghold_favour(state)
        v: View = {
            "prompt": self.prompt(state, role),
            "log": self.log_for(state, role),
            "active": self.active(state),
            "scenario": state["scenario"],
            "king": state["king"], "rebel": state["rebel"],
            "box": state["box"], "phase": state["phase"], "step": state["step"],
            "first_box": state["first_box"], "last_box": state["last_box"],
            "influence": {"net": state["influence"], "York": sv.influence_of(state, "York"),
                          "Lancaster": sv.influence_of(state, "Lancaster")},
            "threshold": threshold(state) if state["box"] is not None else None,
            "favour": dict(sorted(state["favour"].items())),
            "stronghold_markers": {t: {"side": s, "value": n} for t, (s, n) in nsf.items()},
            "exhaustion": dict(sorted(state["exhaustion"].items())),
            "exile_boxes": dict(state["exile_boxes"]),
            "seats": dict(state["seats"]),
            "lords": lords,
            "vassals": {vid: dict(d) for vid, d in state["vassals"].items()},
            "aow": aow,
            "command": command,
            "special_rules": list(state["special_rules"]),
            "options": dict(state["options"]),
            "result": state.get("result"),
        }
        if role in self.active(state):
            v["actions"] = {CONTINUE: True}
        return v

    def secrets(self, state: State, role: str) -> set[str]:
        """Opponent's Held Events and, with Hidden Mats, Capabilities on his hidden mats (§5)."""
        out: set[str] = set()
        for side in SIDES:
            if side == role:
                continue
            out |= {f'"{cid}"' for cid in state["aow"][side]["held"]}
            out |= {f'"{cid}"' for cid in state["command"][side]["plan"]}
            if state["options"].get("hidden_mats"):
                for lid, d in state["lords"].items():
                    if sv.side_of(lid) == side and d["mat"] and d["where"] != "battle":
                        out |= {f'"{cid}"' for cid in d["mat"]["capabilities"]}
        return out

    # ----- invariants -----------------------------------------------------------------------
    def check_invariants(self, state: State) -> list[str]:
        c = load()
        bad: list[str] = []
        if not isinstance(state["influence"], int) or abs(state["influence"]) > sv.INFLUENCE_CAP:
            bad.append(f"influence {state['influence']} out of range (1.4.1)")
        zones: dict[str, str] = {}
        for side in SIDES:
            for zone in ("deck", "held", "in_effect", "set_aside"):
                for cid in state["aow"][side][zone]:
                    if cid in zones:
                        bad.append(f"card {cid} in two zones")
                    zones[cid] = f"{side} {zone}"
        totals = dict.fromkeys(TROOP_TYPES, 0)
        ship_lords = 0
        for lid, d in state["lords"].items():
            if d["where"] not in WHERE:
                bad.append(f"{lid}: bad where")
            if d["where"] in ("map", "battle") and d["mat"] is None:
                bad.append(f"{lid}: on the map without a mat")
            if d["where"] == "map" and d["locale"] not in c.locales:
                bad.append(f"{lid}: on the map at no Locale")
            if d["where"] == "map" and c.locales[d["locale"]]["kind"] == "exile" \
                    and state["exile_boxes"].get(d["locale"]) != sv.side_of(lid):
                bad.append(f"{lid}: in an Exile box not Friendly to him (1.3.1)")
            if d["where"] == "calendar" and (d["mat"] is not None or not 0 <= d["box"] <= 16):
                bad.append(f"{lid}: bad Calendar entry")
            if d["where"] == "removed" and lid in state["seats"]:
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
                for cid in mat["capabilities"]:
                    if cid in zones:
                        bad.append(f"card {cid} in two zones")
                    zones[cid] = f"mat of {lid}"
                for vid in mat["vassals"]:
                    if state["vassals"][vid]["where"] != "mat" or state["vassals"][vid]["lord"] != lid:
                        bad.append(f"vassal {vid} on {lid}'s mat but not recorded there")
        for side in SIDES:
            mine = sorted((cid for cid in zones if c.cards[cid]["side"] == side), key=lambda x: int(x[1:]))
            if mine != sorted(state["aow"][side]["in_game"], key=lambda x: int(x[1:])):
                bad.append(f"{side} Arts of War cards lost or added outside the rules")
        for t, n in totals.items():
            if n > c.tables["troop_pool"][t]:
                bad.append(f"{n} {t} on mats, pool has {c.tables['troop_pool'][t]} (1.6)")
        if ship_lords > c.tables["max_ship_lords"]:
            bad.append("more than 9 Lords with Ships (1.7.3)")
        for loc, s in state["favour"].items():
            if c.locales.get(loc, {}).get("kind") != "stronghold" or s not in SIDES:
                bad.append(f"bad Favour {loc}={s}")
        for loc, m in state["exhaustion"].items():
            if loc not in c.locales or m not in ("depleted", "exhausted"):
                bad.append(f"bad marker {loc}={m}")
        if state["result"] is None and state["phase"] != "battle" \
                and not state["first_box"] <= state["box"] <= state["last_box"]:
            bad.append(f"box {state['box']} outside the scenario")
        return bad

    # ----- terminal ---------------------------------------------------------------------------
    def label(self, state: State, role: str, verb: str, arg: Any) -> str:
        if verb == CONTINUE:
            return "Continue"
        return super().label(state, role, verb, arg)

    def describe(self, view: View) -> str:
        lines = [f"{view['scenario']} — Turn {view['box']} ({view['phase']}); "
                 f"King: {view['king']}, Rebel: {view['rebel']}",
                 f"Influence: York {view['influence']['York']}, Lancaster {view['influence']['Lancaster']}"
                 + (f"; threshold {view['threshold']}" if view.get("threshold") else "")]
        for side in SIDES:
            where = [f"{d['name']} @ {d['locale']}" if d["where"] == "map"
                     else f"{d['name']} box {d['box']}{' (Exile)' if d['exile'] else ''}"
                     for d in view["lords"].values() if d["side"] == side and d["where"] in ("map", "calendar")]
            lines.append(f"{side}: " + ", ".join(where))
        lines.append("Favour: " + canonical_json(view["favour"]))
        return "\n".join(lines)


def opponent(role: str) -> str:
    return other(role)
