"""Random-play fuzzing and throughput benchmarks over the rules contract.

Both work for every game: they only call ``setup``, ``active``, ``legal_actions``,
``action``, ``view``, ``secrets`` and ``check_invariants``.
"""

from __future__ import annotations

import json
import math
import platform
import random
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from roses._compiled import compiled_summary
from roses.engine.contract import OBSERVER, Action, Rules, State, actions_to_list, canonical_json
from roses.engine.errors import IllegalAction
from roses.engine.game import Game, digest
from roses.engine.swapcheck import swap_problems

DEFAULT_MAX_ACTIONS = 50_000


def game_seed(seed: int, index: int) -> int:
    """The setup seed of the ``index``-th game of a run seeded with ``seed``."""
    return (seed * 1_000_003 + index * 7919 + 1) & 0x7FFFFFFF


def fuzz_picker(game_seed_: int) -> random.Random:
    """The generator that picks the random actions of the fuzz game set up with ``game_seed_``."""
    return random.Random(game_seed_ ^ 0x5DEECE66D)


def random_choice(rules: Rules, state: State, active: list[str],
                  picker: random.Random) -> tuple[str, Action] | None:
    """The fuzzer's pick: the active roles in a random order, the first with legal actions,
    one of its actions at random; None when nobody can act (a dead end)."""
    for role in picker.sample(active, len(active)):
        legal = rules.legal_actions(state, role)
        if legal:
            return role, picker.choice(legal)
    return None


@dataclass
class Failure:
    kind: str  # "dead_end" | "error" | "invariant" | "divergence"
    game_index: int
    seed: int
    step: int
    message: str
    file: str | None = None


@dataclass
class FuzzReport:
    game: str
    scenario: str
    games: int = 0
    actions: int = 0
    dead_ends: int = 0
    errors: int = 0
    invariant_failures: int = 0
    #: Games whose copy reloaded from its stored form after every step (``reload_check``) came
    #: to a different state or log than the copy kept in memory (counted among the invariant
    #: failures too).
    divergences: int = 0
    #: Whether the reload check ran.
    reload_checked: bool = False
    #: Games that reached a result by the rules, counted by result (a role, or "draw").
    results: dict[str, int] = field(default_factory=dict)
    #: Games that reached each of the rules' milestones (``Rules.milestones`` at the game's end).
    milestones: dict[str, int] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)

    @property
    def ended_by_rule(self) -> int:
        """Games that ended with a result reached by the rules."""
        return sum(self.results.values())

    @property
    def ok(self) -> bool:
        return not (self.dead_ends or self.errors or self.invariant_failures)

    def summary(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "scenario": self.scenario,
            "games": self.games,
            "actions": self.actions,
            "dead_ends": self.dead_ends,
            "errors": self.errors,
            "invariant_failures": self.invariant_failures,
            **({"divergences": self.divergences} if self.reload_checked else {}),
            "results": dict(sorted(self.results.items())),
            "ended_by_rule": self.ended_by_rule,
            "milestones": dict(sorted(self.milestones.items())),
            "failures": [f.__dict__ for f in self.failures[:50]],
        }


def shown_secrets(text: str, secrets: set[str]) -> list[str]:
    """The strings of ``secrets`` that occur in ``text``, each found once. Only the places
    where a secret's first three characters occur are looked at (a view holds few of them),
    rather than scanning the whole text once per secret."""
    found: list[str] = [t for t in secrets if len(t) < 3 and t in text]
    prefixes = {t[:3] for t in secrets if len(t) >= 3}
    lengths = {len(t) for t in secrets if len(t) >= 3}
    for prefix in prefixes:
        i = text.find(prefix)
        while i >= 0:
            for n in lengths:
                token = text[i:i + n]
                if token in secrets and token not in found:
                    found.append(token)
            i = text.find(prefix, i + 1)
    return found


def _same_actions(listed: list[Action], legal: list[Action]) -> bool:
    """Whether two action lists hold the same actions (as sets of canonical JSON); a quick
    comparison of their ``repr`` s first, which equal lists pass."""
    if sorted(map(repr, map(list, listed))) == sorted(map(repr, map(list, legal))):
        return True
    return {canonical_json(list(a)) for a in listed} == {canonical_json(list(a)) for a in legal}


def _view_problems(rules: Rules, state: State, roles: list[str], active: list[str]) -> list[str]:
    """Hidden-information and consistency checks on every role's view."""
    problems: list[str] = []
    for role in [*roles, OBSERVER]:
        view = rules.view(state, role)
        text = canonical_json(view)
        for token in shown_secrets(text, rules.secrets(state, role)):
            problems.append(f"view of {role} shows hidden {token!r}")
        for key in ("prompt", "log"):
            if key not in view:
                problems.append(f"view of {role} has no {key!r}")
        if role in active:
            listed_actions = actions_to_list(view.get("actions", {}))
            legal_actions = rules.legal_actions(state, role)
            if not _same_actions(listed_actions, legal_actions):
                listed = {canonical_json(list(a)) for a in listed_actions}
                legal = {canonical_json(list(a)) for a in legal_actions}
                problems.append(
                    f"view actions of {role} differ from legal_actions: "
                    f"only in view {sorted(listed - legal)[:3]}, only in legal {sorted(legal - listed)[:3]}"
                )
        elif "actions" in view and view["actions"]:
            problems.append(f"view of inactive {role} lists actions")
    return problems


def stored_text(state: State) -> str:
    """The state as the server's store writes it: JSON with sorted keys
    (``roses.server.store.state_text``; what ``canonical_json`` gives, faster)."""
    try:
        return orjson.dumps(state, option=orjson.OPT_SORT_KEYS).decode("utf-8")
    except TypeError:
        return canonical_json(state)


def reloaded(state: State) -> State:
    """A copy of ``state`` read back from its stored form, as a server has it after a restart:
    every dict's keys come back sorted, so a rule that follows a dict's order sees another one."""
    loaded: State = json.loads(stored_text(state))
    return loaded


def divergence(kept: State, twin: State) -> str | None:
    """None when the state kept in memory and its reloaded twin are the same, byte for byte;
    otherwise what differs first (a log line when the logs differ)."""
    a, b = stored_text(kept), stored_text(twin)
    if a == b:
        return None
    log_a, log_b = kept.get("log"), twin.get("log")
    if isinstance(log_a, list) and isinstance(log_b, list) and log_a != log_b:
        for i, (x, y) in enumerate(zip(log_a, log_b, strict=False)):
            if x != y:
                return f"log line {i} differs: in memory {x!r}, reloaded {y!r}"
        return f"logs differ in length: in memory {len(log_a)}, reloaded {len(log_b)}"
    keys = sorted(k for k in set(kept) | set(twin) if kept.get(k) != twin.get(k))
    return f"states differ in {', '.join(map(str, keys[:5]))}"


def _save(save_dir: Path | None, record: dict[str, Any], failure: Failure) -> None:
    if save_dir is None:
        return
    save_dir.mkdir(parents=True, exist_ok=True)
    path = save_dir / f"{record['game']}-{record['scenario']}-{failure.seed}.json"
    path.write_text(json.dumps({**record, "failure": failure.__dict__}, indent=1))
    failure.file = str(path)


def fuzz(  # noqa: C901, PLR0915 - the fuzzer's loop: one sequence of checks per step
    rules: Rules,
    scenario: str,
    games: int,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    *,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    replay_every: int = 10,
    check_views_every: int = 1,
    save_dir: Path | None = Path("fuzz-failures"),
    swap_every: int = 5,
    reload_check: bool = False,
) -> FuzzReport:
    """Play ``games`` seeded random games, checking invariants at every step (and, every
    ``swap_every`` steps, that swapping hidden things changes no other view: :mod:`.swapcheck`).

    With ``reload_check`` a twin of each game is played beside it: before each action the
    twin is reloaded from its stored form (:func:`reloaded`: JSON with sorted keys, as the
    server stores a state), then given the same action; after each action the twin and the
    game kept in memory must be the same byte for byte (state and log). A rule or log line that
    follows the order of a dict or set breaks it (a "divergence")."""
    rules.check_scenario(scenario)
    report = FuzzReport(rules.id, scenario, reload_checked=reload_check)
    for index in range(games):
        gseed = game_seed(seed, index)
        picker = fuzz_picker(gseed)
        state = rules.setup(gseed, scenario, options)
        roles = list(state.get("roles", rules.roles(scenario, options)))
        record: dict[str, Any] = {"game": rules.id, "seed": gseed, "scenario": scenario,
                                  "options": dict(options or {}), "actions": []}
        failure: Failure | None = None
        twin: State | None = reloaded(state) if reload_check else None
        if twin is not None and (problem := divergence(state, twin)) is not None:
            failure = Failure("divergence", index, gseed, 0, f"reloaded setup differs: {problem}")
        step = 0
        while failure is None:
            try:
                if rules.result(state) is not None:
                    break
                active = rules.active(state)
                problems = list(rules.check_invariants(state))
                json.dumps(state, allow_nan=False)  # a JSON value (contract: no NaN, no infinities)
                if check_views_every and step % check_views_every == 0:
                    problems += _view_problems(rules, state, roles, active)
                if problems:
                    failure = Failure("invariant", index, gseed, step, "; ".join(problems[:5]))
                    break
                picked = random_choice(rules, state, active, picker)
                if picked is None:
                    failure = Failure("dead_end", index, gseed, step,
                                      f"game not over and nobody can act (active: {active})")
                    break
                if step >= max_actions:
                    failure = Failure("error", index, gseed, step, f"game longer than {max_actions} actions")
                    break
                role, (verb, arg) = picked
                if swap_every and step % swap_every == 0:
                    leaks = swap_problems(rules, state, roles, random.Random(gseed + step), (role, verb, arg))
                    if leaks:
                        failure = Failure("invariant", index, gseed, step, "; ".join(leaks[:5]))
                        break
                if step % 97 == 13:
                    # Bad input must be refused and change nothing.
                    before = digest(state)
                    try:
                        rules.action(state, role, "no-such-verb", None)
                        failure = Failure("invariant", index, gseed, step, "an unknown verb was accepted")
                    except IllegalAction:
                        if digest(state) != before:
                            failure = Failure("invariant", index, gseed, step,
                                              "a refused action changed the state")
                    if failure:
                        break
                record["actions"].append({"role": role, "verb": verb, "arg": arg})
                state = rules.action(state, role, verb, arg)
                step += 1
                if twin is not None:
                    try:
                        twin = rules.action(reloaded(twin), role, verb, arg)
                        problem = divergence(state, twin)
                    except IllegalAction as exc:
                        problem = f"the action is refused there: {exc}"
                    if problem is not None:
                        failure = Failure("divergence", index, gseed, step,
                                          f"reloaded copy diverged after {role} {verb} {arg!r}: {problem}")
                        break
            except Exception as exc:  # noqa: BLE001 - the fuzzer reports every crash
                tb = traceback.format_exc(limit=6)
                failure = Failure("error", index, gseed, step, f"{type(exc).__name__}: {exc}\n{tb}")
        if failure is None and replay_every and index % replay_every == 0:
            try:
                rebuilt = Game.from_record(rules, record)
                if rebuilt.digest() != digest(state):
                    failure = Failure("invariant", index, gseed, step, "replay gave a different state")
            except Exception as exc:  # noqa: BLE001
                failure = Failure("error", index, gseed, step, f"replay failed: {type(exc).__name__}: {exc}")
        report.games += 1
        report.actions += step
        if failure is None:
            res = str(rules.result(state))
            report.results[res] = report.results.get(res, 0) + 1
            for name in rules.milestones(state):
                report.milestones[name] = report.milestones.get(name, 0) + 1
        if failure is not None:
            if failure.kind == "dead_end":
                report.dead_ends += 1
            elif failure.kind == "error":
                report.errors += 1
            else:
                if failure.kind == "divergence":
                    report.divergences += 1
                report.invariant_failures += 1
            _save(save_dir, record, failure)
            report.failures.append(failure)
    return report


def bench(
    rules: Rules,
    scenario: str,
    seconds: float,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    views: bool = False,
    fixed_games: int | None = None,
) -> dict[str, Any]:
    """Random-play throughput: actions per second and complete games per second.

    By default each step asks only the acting role's ``legal_actions``. With ``views`` each
    step renders the view of every role of the game (what a server sends to every player
    after each action), the acting role is read from the views (``active``) and picks from
    its view's actions, as a client does; the result then
    also says ``"views": true`` and the mean length of a complete game (``actions_per_game``).
    With ``fixed_games`` it plays that many games, whatever the time (the same work at every
    run: for counting instructions, ``bench/instructions.sh``), and ``seconds`` is not used.
    """
    rules.check_scenario(scenario)
    picker = random.Random(seed)
    actions = games = 0
    game_actions = 0  # actions of the complete games
    index = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    if fixed_games is not None:
        deadline = math.inf
    while index < fixed_games if fixed_games is not None else time.perf_counter() < deadline:
        state = rules.setup(game_seed(seed, index), scenario, options)
        roles = list(state.get("roles", rules.roles(scenario, options)))
        index += 1
        steps = 0
        while steps < max_actions:
            if views:
                # what a client has: the views, which say who acts (every view has ``active``)
                rendered = rules.views(state, roles)
                active = rendered[0]["active"]
                if not active:  # over (or nobody may act: counted as not complete below)
                    break
                role = active[0] if len(active) == 1 else picker.choice(active)
                legal: list[Action] = actions_to_list(rendered[roles.index(role)].get("actions", {}))
            else:
                if rules.result(state) is not None:
                    break
                active = rules.active(state)
                if not active:
                    break
                role = active[0] if len(active) == 1 else picker.choice(active)
                legal = rules.legal_actions(state, role)
            if not legal:
                break
            verb, arg = legal[picker.randrange(len(legal))]
            state = rules.action(state, role, verb, arg)
            steps += 1
            if (steps & 255) == 0 and time.perf_counter() >= deadline:
                break
        actions += steps
        if rules.result(state) is not None:
            games += 1
            game_actions += steps
    elapsed = time.perf_counter() - start
    cpu = max(time.process_time() - cpu_start, 1e-9)
    out: dict[str, Any] = {
        "game": rules.id,
        "scenario": scenario,
        "seconds": round(elapsed, 3),
        "actions": actions,
        "games": games,
        "actions_per_s": round(actions / elapsed, 1),
        "games_per_s": round(games / elapsed, 2),
        # the same per second of this process's CPU time: what one unshared core does, a fairer
        # figure on a busy machine (the wall-clock figures above fall when other work shares the core)
        "cpu_seconds": round(cpu, 3),
        "actions_per_cpu_s": round(actions / cpu, 1),
        "games_per_cpu_s": round(games / cpu, 2),
        # the interpreter: the same code runs at different speeds on different builds of one
        # Python version (bench/plantagenet.md, "The interpreter")
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "python_executable": sys.executable,
        **compiled_summary(),
    }
    if views:
        out["views"] = True
        out["actions_per_game"] = round(game_actions / games, 1) if games else None
    if fixed_games is not None:
        out["fixed_games"] = fixed_games
    return out
