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
  role maximises its own value when it is to move.

The move played is the root child visited most. Budget: ``seconds`` per move, or
``iterations`` per move (deterministic for a fixed seed, used by tests), or both (first hit).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from typing import Any

from roses.ai.bot import BaseBot, Decision, Determinizer, call_seed, safe_label, view_actions
from roses.ai.heuristic import HeuristicBot
from roses.ai.sim import acting, action_key, roles_of, state_values
from roses.engine.contract import Action, Rules, State, View

DEFAULT_ITERATIONS = 400
#: Determinisations drawn per decision (see ISMCTSBot.worlds).
DEFAULT_WORLDS = 32
#: Playout length for games without their own evaluation (see ISMCTSBot.rollout_depth).
AUTO_ROLLOUT = 10


class Node:
    __slots__ = ("action", "role", "children", "visits", "avail", "total")

    def __init__(self, action: Action | None, role: str | None) -> None:
        self.action = action
        self.role = role  # who made the move leading here
        self.children: dict[tuple[Hashable, ...], Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class ISMCTSBot(BaseBot):
    """SO-ISMCTS with UCB1 + availability counts and evaluation-truncated random playouts."""

    def __init__(self, seed: int = 0, seconds: float | None = None, iterations: int | None = None,
                 c: float = 0.1, rollout_depth: int | None = None, max_depth: int = 200,
                 top_k: int = 0, horizon: int = 2, worlds: int = DEFAULT_WORLDS,
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
        if name is None:
            name = "ismcts" + (f":{seconds:g}" if seconds is not None else f":i{iterations}")
        self.name = name
        #: Asked between iterations; True ends the search at once with the best move found so
        #: far (a host's shutdown or its cap on think time per move, e.g. the game server's).
        self.stop: Callable[[], bool] | None = None

    def decide(self, rules: Rules, view: View, role: str,
               determinize: Determinizer | None = None) -> Decision:
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
        limit = self.iterations if self.iterations is not None else math.inf
        done = errors = 0
        roles: list[str] | None = None
        label_state: State | None = None
        # The root mover's legal actions are the same in every determinisation (it sees the
        # same view, actions included, in each: Rules.determinize), so they are listed once.
        root_moves: tuple[list[Action], list[tuple[Hashable, ...]]] | None = None
        pool: list[State] = []
        stop = self.stop
        while done < limit and (done == 0 or (time.perf_counter() < deadline and not (stop and stop()))):
            seed = rng.getrandbits(62)
            if len(pool) < self.worlds or self.worlds <= 0:
                world = determinize(seed)
                if self.worlds > 0:
                    pool.append(rules.copy_state(world))
            else:
                world = rules.copy_state(pool[done % self.worlds])
                if "rng" in world:
                    world["rng"] = seed  # new dice (roses.engine.rng)
            done += 1
            if roles is None or label_state is None:
                roles = roles_of(rules, world)
                label_state = rules.copy_state(world)
            try:
                if root_moves is None:
                    root_moves = _root_moves(rules, world, role, allowed)
                self._iterate(rules, world, role, root, allowed, roles, rng, root_moves)
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
    def _iterate(self, rules: Rules, state: State, me: str, root: Node,
                 allowed: dict[Hashable, Action], roles: list[str], rng: random.Random,
                 root_moves: tuple[list[Action], list[tuple[Hashable, ...]]] | None = None) -> None:
        """One iteration on the determinisation ``state``; ``root_moves``: the root mover's
        actions among ``allowed`` and their keys, if already listed."""
        if root_moves is None:
            root_moves = _root_moves(rules, state, me, allowed)
        node = root
        path = [root]
        depth = 0
        expanded = False
        c, log, sqrt = self.c, math.log, math.sqrt
        while depth < self.max_depth:
            if depth == 0:
                legal, keys = root_moves
                mover = me
            else:
                turn = acting(rules, state)
                if turn is None:
                    break
                mover, legal = turn
                keys = _keys(mover, legal)
            # Below the root every action comes from legal_actions of this very state; the
            # root's come from the first determinisation or the view, so it keeps the checked path.
            do = rules.action if depth == 0 else rules.apply_legal
            untried = []
            best_child: Node | None = None
            best_score = -math.inf
            best_index = -1
            get = node.children.get
            for i, key in enumerate(keys):
                child = get(key)
                if child is None:
                    untried.append(i)
                    continue
                child.avail += 1
                visits = child.visits
                if visits == 0:  # left by an iteration that failed
                    score = math.inf
                else:
                    score = child.total / visits + c * sqrt(log(child.avail) / visits)
                if score > best_score:
                    best_score, best_child, best_index = score, child, i
            if untried:
                i = untried[rng.randrange(len(untried))]
                child = Node(legal[i], mover)
                child.avail = 1
                node.children[keys[i]] = child
                state = do(state, mover, legal[i][0], legal[i][1])
                path.append(child)
                if len(legal) == 1:  # a forced move is no choice: keep descending
                    node = child
                    depth += 1
                    continue
                expanded = True
                break
            assert best_child is not None
            action = legal[best_index]
            state = do(state, mover, action[0], action[1])
            node = best_child
            path.append(node)
            depth += 1
        if expanded:
            state = self._rollout(rules, state, rng)
        values = state_values(rules, state, roles, self.horizon)
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
            turn = acting(rules, state)
            if turn is None:
                break
            mover, legal = turn
            verb, arg = legal[rng.randrange(len(legal))]
            state = rules.apply_legal(state, mover, verb, arg)
        return state


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


def _root_moves(rules: Rules, state: State, me: str,
                allowed: dict[Hashable, Action]) -> tuple[list[Action], list[tuple[Hashable, ...]]]:
    """The root mover's legal actions among ``allowed`` (all of ``allowed`` if none), and keys."""
    legal = [a for a in rules.legal_actions(state, me) if action_key(a) in allowed]
    if not legal:
        legal = list(allowed.values())
    return legal, _keys(me, legal)
