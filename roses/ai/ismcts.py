"""Information-set Monte Carlo tree search (single observer, with determinisation).

After Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (IEEE TCIAIG
2012), SO-ISMCTS:

* one tree for the deciding role; a node is reached by a sequence of actions (of any role);
* every iteration plays on a determinisation (a full state re-sampled from what the role
  knows, see :class:`roses.ai.bot.Determinizer`) and descends the tree using only the
  actions legal in that determinisation. ``worlds`` of them (32) are drawn per decision and
  used in turn, each time on a copy with the dice re-drawn, so the hidden blocks and cards
  are sampled 32 times and the dice every iteration (``worlds=0``: a new one each time);
* selection is UCB1 with *availability counts*: a child's exploration term uses how often
  it was available, not how often its parent was visited;
* a node with untried legal actions is expanded with one of them at random (a forced move,
  the only legal one, is expanded and passed through in the same iteration), then a random
  playout runs for at most ``rollout_depth`` actions (by default none for a game with its own
  evaluation, 10 otherwise) and is cut off with ``Rules.evaluate_all`` (values in [-1, 1] for
  every role) at threat ``horizon`` 2: a leaf can stop anywhere in a turn, so it guards against
  what the enemy's whole next move can bring (the heuristic bot uses horizon 1);
* each node keeps the total value for the role that made the move leading to it, so each
  role maximises its own value when it is to move;
* an iteration on a determinisation of the pool that reaches a node visited often, without a
  draw from the state's generator since the determinisation, keeps a copy of the state there;
  later iterations on that determinisation start from it (:attr:`ISMCTSBot.kept`): the same
  search, with fewer actions applied.

The move played is the root child visited most. Budget: ``seconds`` per move, or
``iterations`` per move (deterministic for a fixed seed, used by tests), or both (first hit).
"""

from __future__ import annotations

import gc
import math
import random
import threading
import time
from collections.abc import Callable, Hashable
from math import log, sqrt
from typing import Any

from roses.ai.bot import BaseBot, Decision, Determinizer, call_seed, safe_label, view_actions
from roses.ai.heuristic import HeuristicBot
from roses.ai.sim import action_key, roles_of, search_acting, search_choices, state_values
from roses.engine.contract import Action, Rules, State, View
from roses.engine.steps import StepRules

DEFAULT_ITERATIONS = 400
#: Determinisations drawn per decision (see ISMCTSBot.worlds).
DEFAULT_WORLDS = 32
#: Playout length for games without their own evaluation (see ISMCTSBot.rollout_depth).
AUTO_ROLLOUT = 10


#: States kept per decision at the nodes of the tree, one per determinisation (see ISMCTSBot.kept).
DEFAULT_KEPT = 2048
#: Visits of a node before states are kept there (see ISMCTSBot.keep_after).
KEEP_AFTER = 32
#: Turns (mover, actions) kept per decision at the nodes of the tree (see ISMCTSBot.turns):
#: a Plantagenet search keeps about 1.5 an iteration (about a kilobyte each), so the first
#: 10,000 iterations or so of a decision keep theirs.
DEFAULT_TURNS = 1 << 14
#: The turn of a kept state not worked out yet (see _Kept).
_UNKNOWN: Any = object()


class Node:
    __slots__ = ("action", "role", "children", "visits", "avail", "total", "kept", "kids", "turns")

    def __init__(self, action: Action | None, role: str | None) -> None:
        self.action = action
        self.role = role  # who made the move leading here
        self.children: dict[tuple[Hashable, ...], Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        #: The state reached here in each determinisation, by its index in the decision's pool,
        #: as ``[state, turn, children by action index]`` (see ISMCTSBot._iterate); None until
        #: one is kept.
        self.kept: dict[int, list[Any]] | None = None
        #: At the root: the children by the index of their action in the root's actions.
        self.kids: list[Node | None] | None = None
        #: Who moves here and with which actions in each determinisation reached without a draw
        #: from the generator, by its index in the decision's pool, as ``[turn, children by
        #: action index]`` (see ISMCTSBot.turns); None until one is known.
        self.turns: dict[int, list[Any]] | None = None

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class ISMCTSBot(BaseBot):
    """SO-ISMCTS with UCB1 + availability counts and evaluation-truncated random playouts."""

    def __init__(self, seed: int = 0, seconds: float | None = None, iterations: int | None = None,
                 c: float = 0.1, rollout_depth: int | None = None, max_depth: int = 200,
                 top_k: int = 0, horizon: int = 2, worlds: int = DEFAULT_WORLDS,
                 kept: int = DEFAULT_KEPT, keep_after: int = 0, turns: int = DEFAULT_TURNS,
                 name: str | None = None) -> None:
        super().__init__(seed)
        if seconds is None and iterations is None:
            iterations = DEFAULT_ITERATIONS
        self.seconds = seconds
        self.iterations = iterations
        #: Exploration constant of UCB1. Small because leaf values are evaluations, and the
        #: values of sibling micro-actions (activate this area or that one) differ by a few
        #: hundredths: a constant near 1 would spread the visits almost evenly and keep the
        #: tree shallow (docs/ai.md, "ISMCTS settings").
        self.c = c
        #: ``None``: no playout for a game with its own evaluation (random micro-actions
        #: before the evaluation only add noise to it), else ``AUTO_ROLLOUT`` random actions.
        self.rollout_depth = rollout_depth
        self.max_depth = max_depth
        self.top_k = top_k
        #: Threat horizon of the leaf evaluation (``Rules.evaluate_all``): 2 because a leaf
        #: can stop anywhere in a turn, so its value must count what a whole enemy move can
        #: bring (in Richard III, enemies two areas from an heir; docs/ai.md, "ISMCTS settings").
        self.horizon = horizon
        #: Distinct determinisations drawn per decision (0: a new one every iteration). After
        #: the first ``worlds`` iterations each iteration plays on a copy of one of them, in
        #: turn, with its dice re-drawn: the hidden blocks and cards are sampled ``worlds``
        #: times, the dice every iteration (docs/ai.md, "ISMCTS settings").
        self.worlds = worlds
        #: States kept per decision at the tree's nodes (0: none). An iteration on the
        #: determinisation ``w`` of the pool that reaches a node visited before, without a die
        #: rolled or a card shuffled since the determinisation (its generator unused), keeps a
        #: copy of the state there, with the mover and legal actions; the next iterations on
        #: ``w`` through that node start from it instead of applying every action from the
        #: root again. A state reached without a draw depends only on the determinisation and
        #: the actions, so the search (tree, values, moves) is the same as without: only
        #: faster. Each kept state is a Rules.search_copy (about 10 KB for Richard III).
        self.kept = kept
        #: Visits of a node before states are kept there (a kept state pays when iterations on
        #: its determinisation pass the node again: the more visited nodes first).
        self.keep_after = keep_after or KEEP_AFTER
        #: Turns kept per decision at the tree's nodes (0: none). Where an iteration on the
        #: determinisation ``w`` of the pool reaches a node without a draw from the generator
        #: since the determinisation, who moves there and with which actions depend only on
        #: ``w`` and the actions: they are worked out once (with the node's children by action
        #: index) and read by the next iterations on ``w`` through the node, which apply the
        #: actions but do not list them again. The same search, only faster.
        self.turns = turns
        if name is None:
            name = "ismcts" + (f":{seconds:g}" if seconds is not None else f":i{iterations}")
        self.name = name
        #: Asked between iterations; True ends the search at once with the best move found so
        #: far (a host's shutdown or its cap on think time per move, e.g. the game server's).
        self.stop: Callable[[], bool] | None = None
        # How a decision reads who moves and with which actions (:func:`_turn_reader`) and
        # finds whether the root's actions are all legal in a determinisation (:func:`_offers_all`), and a callback given each decision's
        # root: hooks a test may replace on the bot (the module's own functions are called
        # directly where it is compiled, and a compiled class cannot be subclassed).
        self.turn_reader: Callable[[Rules], Callable[[State], tuple[str, list[Action]] | None]] = _turn_reader
        self.offers_all: Callable[[Rules, State, str, dict[Hashable, Action]], bool] = _offers_all
        self.on_root: Callable[[Node], None] | None = None

    def decide(self, rules: Rules, view: View, role: str,
               determinize: Determinizer | None = None) -> Decision:
        # The search makes no reference cycles: its tree and states are freed by their
        # reference counts when _decide returns. So the collector's older generations are
        # paused until then (see _PausedCollector), and find nothing of the search after.
        with _PAUSED_COLLECTOR:
            return self._decide(rules, view, role, determinize)

    def _decide(self, rules: Rules, view: View, role: str, determinize: Determinizer | None) -> Decision:
        choices = view_actions(view)
        if not choices:
            raise ValueError(f"{role} has no action to choose from")
        rng = random.Random(call_seed(self.seed, view, role))
        if len(choices) == 1:
            return Decision(choices[0], "the only possible action", {"iterations": 0})
        if determinize is None:
            action = choices[rng.randrange(len(choices))]
            return Decision(action, "random: this game gives bots no determinisation",
                            {"iterations": 0})
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds is not None else math.inf
        if 0 < self.top_k < len(choices):
            choices = self._prune(rules, role, choices, determinize, rng)
        allowed = {action_key(a): a for a in choices}
        root = Node(None, None)
        if self.on_root is not None:
            self.on_root(root)
        limit = self.iterations if self.iterations is not None else math.inf
        done = errors = 0
        roles: list[str] | None = None
        label_state: State | None = None
        # The root mover's legal actions are the same in every determinisation (it sees the
        # same view, actions included, in each: Rules.determinize), so they are listed once.
        root_moves: tuple[list[Action], list[tuple[Hashable, ...]]] | None = None
        pool: list[State] = []
        # Whether the root mover may take every one of ``allowed`` in each determinisation of the
        # pool (by its legal actions): the search then applies them without checking them again.
        sound: list[bool] = []
        stop = self.stop
        turn_of = self.turn_reader(rules)
        apply = rules.apply_legal
        budget = [self.kept, self.turns]  # states and turns that may still be kept at the tree's nodes
        while done < limit and (done == 0 or (time.perf_counter() < deadline and not (stop and stop()))):
            seed = rng.getrandbits(62)
            w = -1  # the determinisation's place in the pool (-1: not in a pool)
            if len(pool) < self.worlds or self.worlds <= 0:
                world = determinize(seed)
                if self.worlds > 0:
                    w = len(pool)
                    pool.append(rules.copy_state(world))
                    sound.append(self.offers_all(rules, world, role, allowed))
            else:
                w = done % self.worlds
                world = pool[w]  # copied by _iterate when it plays on it, with new dice
            done += 1
            if roles is None or label_state is None:
                roles = roles_of(rules, world)
                label_state = rules.copy_state(world)
            try:
                if root_moves is None:
                    root_moves = _root_moves(rules, world, role, allowed)
                self._iterate(rules, world, role, root, allowed, roles, rng, root_moves, w, budget,
                              seed if w >= 0 and world is pool[w] else None, turn_of, w >= 0 and sound[w], apply)
            except Exception:  # noqa: BLE001 - a rules error in one simulation must not lose the move
                errors += 1  # counted in the stats; the iteration is dropped
        elapsed = time.perf_counter() - start
        ranked = sorted(root.children.values(), key=lambda n: (-n.visits, -n.mean()))
        if not ranked:
            action = choices[rng.randrange(len(choices))]
            return Decision(action, "random: search found nothing", {"iterations": done, "errors": errors})
        best = ranked[0]
        assert best.action is not None and label_state is not None
        stats: dict[str, Any] = {
            "iterations": done, "seconds": round(elapsed, 4), "errors": errors,
            "visits": best.visits, "value": round(best.mean(), 4),
        }
        label = safe_label(rules, label_state, role, best.action)
        text = (f"{label}: chosen in {best.visits} of {done} simulations, "
                f"expected value {best.mean():+.2f}")
        if len(ranked) > 1 and ranked[1].action is not None:
            other = ranked[1]
            assert other.action is not None
            text += (f"; next {safe_label(rules, label_state, role, other.action)} "
                     f"({other.visits}, {other.mean():+.2f})")
        return Decision(best.action, text, stats)

    def _prune(self, rules: Rules, role: str, choices: list[Action], determinize: Determinizer,
               rng: random.Random) -> list[Action]:
        """The ``top_k`` actions by the heuristic bot's short look-ahead (progressive pruning
        at the root): the search spends its budget on moves worth comparing."""
        judge = HeuristicBot(samples=2, depth=2, beam=2)
        worlds = [determinize(rng.getrandbits(62)) for _ in range(judge.samples)]
        order = list(range(len(choices)))
        rng.shuffle(order)
        scored, _ = judge.score(rules, role, choices, worlds, order)
        scored.sort(key=lambda t: -t[0])
        return [choices[i] for _, i in scored[: self.top_k]]

    # ----- one iteration ---------------------------------------------------------------
    def _iterate(self, rules: Rules, state: State, me: str, root: Node,  # noqa: C901, PLR0915 - one search iteration kept whole: the hot loop of the search
                 allowed: dict[Hashable, Action], roles: list[str], rng: random.Random,
                 root_moves: tuple[list[Action], list[tuple[Hashable, ...]]] | None = None,
                 w: int = -1, budget: list[int] | None = None, dice: int | None = None,
                 turn_of: Callable[[State], tuple[str, list[Action]] | None] | None = None,
                 sound: bool = False, apply: Callable[[State, str, str, Any], State] | None = None) -> None:
        """One iteration on the determinisation ``state`` (the ``w``-th of the decision's pool,
        -1 for none); ``root_moves``: the root mover's actions among ``allowed`` and their keys,
        if already listed; ``budget``: how many more states may be kept at the nodes
        (:attr:`kept`) and, second, how many more turns (:attr:`turns`). With ``dice``,
        ``state`` is the pool's own: the iteration plays on a copy of it (Rules.search_copy)
        whose generator is ``dice``, made only if needed;
        ``turn_of``: how the search reads a state's mover and actions (:func:`_turn_reader`);
        ``sound``: every action of ``allowed`` is among the root mover's legal actions in
        ``state`` (:func:`_offers_all`), so the root's action is applied unchecked; ``apply``:
        how an action is applied unchecked (``Rules.apply_legal``)."""
        if root_moves is None:
            root_moves = _root_moves(rules, state, me, allowed)
        node = root
        path = [root]
        depth = 0
        expanded = False
        c = self.c  # (log and sqrt: the module's, which compiled code calls as C functions)
        checked, copy = rules.action, rules.search_copy
        if turn_of is None:
            turn_of = _turn_reader(rules)
        unchecked = rules.apply_legal if apply is None else apply
        # Kept states (see ``kept``): ``here`` is the kept [state, turn] of the node reached,
        # when the live ``state`` was not made (it is made, a copy of the kept one, when an
        # action must be applied); ``clean`` while no draw was made from the generator.
        keep = w >= 0 and budget is not None
        rng0, rolls0 = state.get("rng") if dice is None else dice, state.get("rolls")
        clean = keep
        here: list[Any] | None = None
        live: State | None = state
        if dice is not None:
            here, live = [state, None, None], None  # the root's turn is root_moves'

        while depth < self.max_depth:
            get = node.children.get
            if depth == 0:
                legal, keys = root_moves
                mover = me
                kids = node.kids
                if kids is None:
                    kids = node.kids = [get(k) for k in keys]
            else:
                if here is not None and here[1] is not _UNKNOWN:
                    turn, kids = here[1], here[2]
                elif clean and node.turns is not None and (known := node.turns.get(w)) is not None:
                    turn, kids = known
                    if here is not None:
                        here[1], here[2] = known
                else:
                    found = turn_of(live if live is not None else here[0])  # type: ignore[index]
                    turn = None if found is None else (found[0], found[1], _keys(found[0], found[1]))
                    kids = None if turn is None else [get(k) for k in turn[2]]
                    if here is not None:
                        here[1], here[2] = turn, kids
                    if clean and budget is not None and len(budget) > 1 and budget[1] > 0:
                        budget[1] -= 1
                        if node.turns is None:
                            node.turns = {}
                        node.turns[w] = [turn, kids]
                if turn is None:
                    break
                mover, legal, keys = turn
            untried: list[int] = []
            if kids is None:  # (no turn was kept: children by key)
                kids = [get(k) for k in keys]
            if None in kids:
                for i, child in enumerate(kids):
                    if child is None:
                        child = get(keys[i])  # made since, in another determinisation
                        if child is None:
                            untried.append(i)
                        else:
                            kids[i] = child
            if untried:  # an untried action is taken: no score is needed
                for child in kids:
                    if child is not None:
                        child.avail += 1
                i = untried[rng.randrange(len(untried))]
                child = Node(legal[i], mover)
                child.avail = 1
                node.children[keys[i]] = child
                kids[i] = child
            else:
                tried: list[Node] = kids  # type: ignore[assignment] # (no None left)
                best_child: Node | None = None
                best_score = -math.inf
                best_index = -1
                for i, child in enumerate(tried):
                    avail = child.avail + 1
                    child.avail = avail
                    visits = child.visits
                    if visits:
                        score = child.total / visits + c * sqrt(log(avail) / visits)
                    else:  # left by an iteration that failed
                        score = math.inf
                    if score > best_score:
                        best_score, best_child, best_index = score, child, i
                assert best_child is not None
                i, child = best_index, best_child
            action = legal[i]
            kept = child.kept.get(w) if clean and child.kept is not None else None
            if kept is not None:
                here, live = kept, None
            else:
                if live is None:  # made from the kept state of the node left
                    assert here is not None
                    live = copy(here[0])
                    if "rng" in live:
                        live["rng"] = rng0
                # Below the root every action comes from legal_actions of this very state; the
                # root's come from the first determinisation or the view, so they are checked
                # unless they are all legal in this determinisation (``sound``).
                live = (unchecked if depth or sound else checked)(live, mover, action[0], action[1])
                here = None
                if clean:
                    clean = live.get("rng") == rng0 and live.get("rolls") == rolls0
                    if clean and child.visits >= self.keep_after and budget and budget[0] > 0:
                        budget[0] -= 1
                        here = [copy(live), _UNKNOWN, None]
                        if child.kept is None:
                            child.kept = {}
                        child.kept[w] = here
            path.append(child)
            if untried:
                if len(legal) == 1:  # a forced move is no choice: keep descending
                    node = child
                    depth += 1
                    continue
                expanded = True
                break
            node = child
            depth += 1
        if live is None:
            assert here is not None
            live = here[0]  # read only below: the evaluation
        elif expanded:
            live = self._rollout(rules, live, rng)
        values = state_values(rules, live, roles, self.horizon)
        root.visits += 1
        for n in path[1:]:
            n.visits += 1
            assert n.role is not None
            n.total += values.get(n.role, 0.0)

    def _rollout(self, rules: Rules, state: State, rng: random.Random) -> State:
        depth = self.rollout_depth
        if depth is None:
            depth = 0 if type(rules).evaluate is not Rules.evaluate else AUTO_ROLLOUT
        for _ in range(depth):
            turn = search_acting(rules, state)
            if turn is None:
                break
            mover, legal = turn
            verb, arg = legal[rng.randrange(len(legal))]
            state = rules.apply_legal(state, mover, verb, arg)
        return state


class _PausedCollector:
    """The older generations of CPython's cyclic garbage collector paused while a search runs
    (``with``): the youngest is still collected, once :data:`SEARCH_YOUNG` new containers (or
    more, if the thresholds say so) have accumulated, the middle and oldest not until the pause
    ends. Searches in several threads at once share one pause, and the
    thresholds are given back when the last ends.

    A search allocates a state copy or two per iteration, and its tree and kept states grow to
    hundreds of thousands of objects. Each collection of an older generation went through all
    of them, some 7 % of the search's time (docs/ai.md, "The garbage collector"), and found
    nothing: the search makes no reference cycle (tests/ai/test_ismcts_collector.py checks
    each game), everything it makes is freed by its reference counts. The youngest generation
    goes on being collected, so the cycles other threads of the process make (a server whose
    bots think in threads) are still freed as they come, once they are that young; those that
    outlive one collection wait for the pause to end. This is the policy of the server's
    main process (roses/server/gcpolicy.py) applied during a search, with a larger young
    threshold: a young collection goes through the containers made since the last one, which
    during a search are mostly the state copy being played on. Thresholds set by other code
    while a pause lasts are replaced by those saved when it began, at its end.
    """

    __slots__ = ("_lock", "_depth", "_saved")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._saved: tuple[int, ...] = ()

    def __enter__(self) -> None:
        with self._lock:
            if self._depth == 0:
                saved = self._saved = gc.get_threshold()
                young = max(saved[0], SEARCH_YOUNG) if saved[0] else 0  # (0: no collection at all)
                gc.set_threshold(young, _NEVER, _NEVER)
            self._depth += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0:
                gc.set_threshold(*self._saved)


#: A generation's threshold never reached during a search (see _PausedCollector).
_NEVER = 1 << 30
#: The youngest generation's threshold during a search, at least (see _PausedCollector): a
#: search makes some 150 containers an iteration (a state copy), most of them freed by their
#: reference counts within the iteration; at CPython's 700 the collector went through the
#: copy being played on every few iterations, at 50,000 some seventy times less often (docs/ai.md).
SEARCH_YOUNG = 50_000
_PAUSED_COLLECTOR = _PausedCollector()


#: Argument types whose actions are their own keys (see roses.ai.sim.action_key).
_PLAIN_ARGS = frozenset((str, int, type(None)))


def _keys(mover: str, legal: list[Action]) -> list[tuple[Hashable, ...]]:
    """The tree keys of ``mover``'s actions: ``(mover, action)`` for an action with a plain
    argument, ``(mover, verb, *arg)`` for a list of plain values, else ``(mover,
    action_key(action))`` (distinct actions, distinct keys)."""
    out: list[tuple[Hashable, ...]] = []
    for a in legal:
        arg = a[1]
        t = type(arg)
        if t in _PLAIN_ARGS and type(a) is tuple:
            out.append((mover, a))
        elif t is list and _PLAIN_ARGS.issuperset(map(type, arg)):
            out.append((mover, a[0], *arg))
        else:
            out.append((mover, action_key(a)))
    return out


def _turn_reader(rules: Rules) -> Callable[[State], tuple[str, list[Action]] | None]:
    """``search_acting`` for ``rules``: for rules played by a table of steps
    (:class:`~roses.engine.steps.StepRules`) that keep no options and do not override how the
    result, the actors and the legal actions are read, the current step's actors and options are
    read at once (the same mover and actions, without asking the step for its actors twice)."""
    kind = type(rules)
    if not (isinstance(rules, StepRules) and not rules.steps.keep_options and kind.result is Rules.result
            and kind.active is StepRules.active and kind.legal_actions is StepRules.legal_actions):
        return lambda state: search_acting(rules, state)
    by_name = rules.steps.by_name
    pick = rules.search_hints.choices

    def turn(state: State) -> tuple[str, list[Action]] | None:
        if state.get("result") is not None:
            return None
        frames = state["stack"]
        if not frames:
            return None
        frame = frames[-1]
        step = by_name[frame["step"]]
        for role in step.actors(state, frame):
            legal = step.options(state, frame, role)
            if legal:
                return role, ((pick(state, role, legal) or legal) if pick is not None else legal)
        return None

    return turn


def _offers_all(rules: Rules, state: State, me: str, allowed: dict[Hashable, Action]) -> bool:
    """Whether every action of ``allowed`` is among ``me``'s legal actions in ``state`` (as
    it should be in every determinisation: the mover sees the same view in each, Rules.determinize)."""
    try:
        legal = {action_key(a) for a in rules.legal_actions(state, me)}
    except Exception:  # noqa: BLE001 - a rules error: the root's actions stay checked
        return False
    return all(key in legal for key in allowed)


def _root_moves(rules: Rules, state: State, me: str,
                allowed: dict[Hashable, Action]) -> tuple[list[Action], list[tuple[Hashable, ...]]]:
    """The root mover's legal actions among ``allowed`` (all of ``allowed`` if none), narrowed
    by the game's search hints (``SearchHints.choices``), and keys."""
    legal = [a for a in rules.legal_actions(state, me) if action_key(a) in allowed]
    if not legal:
        legal = list(allowed.values())
    legal = search_choices(rules, state, me, legal)
    return legal, _keys(me, legal)
