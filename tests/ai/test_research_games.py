"""The research adapters on the three games: action catalogues, tensors, and the PettingZoo
and OpenSpiel test suites (the roses[research] extra)."""

from __future__ import annotations

import pickle
import random
import warnings
from typing import Any

import pytest

from roses.ai.sim import acting
from roses.engine.catalogue import catalogue_key, index
from roses.engine.contract import actions_to_list, canonical_json
from roses.engine.registry import get_rules

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test, performance_benchmark, seed_test  # noqa: E402
from pettingzoo.test.state_test import state_test  # noqa: E402
from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # noqa: E402

from roses.ai import openspiel_game  # noqa: E402
from roses.ai.pettingzoo_env import env as make_env  # noqa: E402

#: (game, scenario, options): every game, Kingmaker at 2, 4 and 8 players.
CASES = [
    ("richard3", "richard-iii", None),
    ("plantagenet", "bosworth", {"hidden_mats": True}),
    ("plantagenet", "ia-henry-vi", None),
    ("kingmaker", "campaign", {"players": 2}),
    ("kingmaker", "campaign", {"players": 4, "rules": "e1"}),
    ("kingmaker", "campaign", {"players": 8, "rules": "e2"}),
]
IDS = [f"{g}-{s}-{o}" for g, s, o in CASES]


def _every_scenario() -> list[tuple[str, str, Any]]:
    out: list[tuple[str, str, Any]] = []
    for game in ("richard3", "plantagenet"):
        out += [(game, s, None) for s in get_rules(game).scenarios]
    out += [("plantagenet", "iii-my-kingdom-for-a-horse", {"king_richard_at_setup": True, "hidden_mats": True}),
            ("kingmaker", "campaign", {"players": 2}), ("kingmaker", "campaign", {"players": 8, "rules": "e2"}),
            ("kingmaker", "campaign", {"players": 3, "rules": "e1", "umpire": True, "tabletop": True})]
    return out


EVERY = _every_scenario()


def _random_game(game: str, scenario: str, options: Any, seed: int, steps: int) -> None:
    """Every legal action of a random game is in the catalogue; every tensor has the layout's size."""
    rules = get_rules(game)
    ids = index(rules.action_space(scenario, options))
    codec = rules.tensor_codec(scenario, options)
    state = rules.setup(seed, scenario, options)
    rnd = random.Random(seed)
    for _ in range(steps):
        turn = acting(rules, state)
        if turn is None:
            break
        role, legal = turn
        missing = [a for a in legal if catalogue_key(a) not in ids]
        assert not missing, missing
        assert len(codec.encode(rules.view(state, role))) == codec.layout.size
        verb, arg = rnd.choice(legal)
        state = rules.action(state, role, verb, arg)


@pytest.mark.parametrize(("game", "scenario", "options"), EVERY, ids=[f"{g}-{s}-{o}" for g, s, o in EVERY])
def test_every_legal_action_is_in_the_catalogue(game: str, scenario: str, options: Any) -> None:
    for seed in range(2):
        _random_game(game, scenario, options, seed, 400)


def test_catalogue_ids_are_stable() -> None:
    """Ids come from the game's data, sorted, the same for every scenario and option."""
    pl = get_rules("plantagenet")
    km = get_rules("kingmaker")
    assert pl.action_space("bosworth") == pl.action_space("ia-henry-vi", {"hidden_mats": True})
    assert km.action_space("campaign", {"players": 2}) == km.action_space("campaign", {"players": 8})
    cat = pl.action_space("bosworth")
    assert cat[0] == ("add", None) and cat[1] == ("add", 0)
    assert [v for v, _ in cat] == sorted(v for v, _ in cat)
    kcat = km.action_space("campaign")
    assert len(set(map(catalogue_key, kcat))) == len(kcat)
    assert kcat.index(("to", "A10")) < kcat.index(("to", "A11"))


#: The catalogues' digests and sizes: a change here changes action ids that learners and saved
#: policies rely on (docs/ai.md says how ids are made); change it only with the data.
PINNED = {
    "richard3": (10329, "8d025183acc6c3a6", ("pass", None), 3960),
    "plantagenet": (57199, "74936871db309c00", ("pass", None), 41003),
    "kingmaker": (195094, "f70504c4a00db25c", ("pass", None), 118663),
}


@pytest.mark.parametrize("game", sorted(PINNED))
def test_catalogue_is_pinned(game: str) -> None:
    import hashlib

    from roses.engine.contract import canonical_json

    rules = get_rules(game)
    size, digest, action, action_id = PINNED[game]
    for scenario in rules.scenarios:
        cat = rules.action_space(scenario)
        assert len(cat) == size
        assert hashlib.sha256(canonical_json(cat).encode()).hexdigest()[:16] == digest
        assert cat.index(action) == action_id


_RECORD = """
import json, random, sys
from roses.ai.sim import acting
from roses.engine.catalogue import catalogue_key, index
from roses.engine.contract import actions_to_list, canonical_json
from roses.engine.registry import get_rules
game, scenario, options = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
rules = get_rules(game)
ids = index(rules.action_space(scenario, options))
state = rules.setup(11, scenario, options)
rnd = random.Random(11)
out = []
for _ in range(300):
    turn = acting(rules, state)
    if turn is None:
        break
    role, legal = turn
    act = rnd.choice(legal)
    out.append(ids[catalogue_key(act)])
    state = rules.action(state, role, *act)
print(json.dumps(out))
"""


@pytest.mark.parametrize(("game", "scenario", "options"), [CASES[0], CASES[1], CASES[3]], ids=[IDS[0], IDS[1], IDS[3]])
def test_a_game_recorded_as_ids_in_another_process_replays(game: str, scenario: str, options: Any) -> None:
    """Ids are the same across processes: a game recorded as ids elsewhere replays here."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _RECORD, game, scenario, json.dumps(options)],
                          capture_output=True, text=True, check=True, timeout=300)
    recorded = json.loads(done.stdout)
    rules = get_rules(game)
    cat = rules.action_space(scenario, options)
    state = rules.setup(11, scenario, options)
    rnd = random.Random(11)
    for action_id in recorded:
        turn = acting(rules, state)
        assert turn is not None
        role, legal = turn
        expected = rnd.choice(legal)
        assert catalogue_key(cat[action_id]) == catalogue_key(expected)
        state = rules.action(state, role, *cat[action_id])
    assert len(recorded) > 20


def test_tensor_does_not_see_the_other_sides_hand() -> None:
    """Richard III: swapping Lancaster's hand with cards York cannot see leaves York's tensor as it was."""
    rules = get_rules("richard3")
    codec = rules.tensor_codec("wars-of-the-roses")
    state = rules.setup(5, "wars-of-the-roses")
    before = codec.encode(rules.view(state, "York"))
    other = rules.copy_state(state)
    hidden = other["hands"][1] + other["deck"]
    random.Random(1).shuffle(hidden)
    other["hands"][1], other["deck"] = sorted(hidden[:7]), hidden[7:]
    assert other["hands"][1] != state["hands"][1]
    assert codec.encode(rules.view(other, "York")) == before
    assert codec.encode(rules.view(other, "Lancaster")) != codec.encode(rules.view(state, "Lancaster"))


def _env(game: str, scenario: str, options: Any, **kw: Any) -> Any:
    return make_env(get_rules(game), scenario, options=options, **kw)


@pytest.mark.parametrize(("game", "scenario", "options"), CASES, ids=IDS)
def test_pettingzoo_suites(game: str, scenario: str, options: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # style recommendations (agent names, dict spaces)
        env = _env(game, scenario, options, max_actions=200)
        api_test(env, num_cycles=100, verbose_progress=False)
        seed_test(lambda **_: _env(game, scenario, options, max_actions=200), num_cycles=30)
        env = _env(game, scenario, options, max_actions=200)
        env.reset(seed=1)
        state_test(env, turn_based_aec_to_parallel(_env(game, scenario, options, max_actions=200)))
        parallel_api_test(turn_based_aec_to_parallel(_env(game, scenario, options, max_actions=200)), num_cycles=50)
        assert env.possible_agents == get_rules(game).roles(scenario, options)


@pytest.mark.parametrize(("game", "scenario", "options"), CASES, ids=IDS)
def test_pettingzoo_max_cycles_test(game: str, scenario: str, options: Any) -> None:
    """PettingZoo's own ``max_cycles_test``, whole: with ``max_cycles`` every agent takes one
    turn per cycle (one with nothing to decide waits), the parallel env (``aec_to_parallel``)
    stops after that many steps, and each agent of the AEC env has had that many turns."""
    from types import SimpleNamespace

    from pettingzoo.test import max_cycles_test
    from pettingzoo.utils.conversions import aec_to_parallel

    def aec(max_cycles: int) -> Any:
        return _env(game, scenario, options, max_cycles=max_cycles, illegal_action="random")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # style recommendations (agent names, dict spaces)
        max_cycles_test(SimpleNamespace(env=aec, parallel_env=lambda max_cycles: aec_to_parallel(aec(max_cycles))))


def test_cycles_wait_changes_nothing_and_keeps_the_order() -> None:
    """In cycles the agents come in the order of ``possible_agents``; one with nothing to
    decide has only ``wait`` (the last id), which leaves the game as it was."""
    env = _env("richard3", "richard-iii", None, max_cycles=50)
    env.reset(seed=4)
    wait, seen, waited = env.wait_id, [], 0
    rnd = random.Random(4)
    while env.agents and len(seen) < 60:
        agent = env.agent_selection
        seen.append(agent)
        legal = env.legal_actions(agent)
        if legal == [wait]:
            before = get_rules("richard3").copy_state(env.rules_state())
            env.step(wait)
            waited += 1
            assert env.rules_state() == before
        else:
            assert wait not in legal
            env.step(rnd.choice(legal))
    assert seen == [env.possible_agents[i % 2] for i in range(len(seen))]
    assert waited > 0


def test_pettingzoo_max_cycles() -> None:
    """Without cycles, through the turn-based parallel wrapper, a game stops after
    ``max_actions`` steps, every agent truncated."""
    for game, scenario, options in CASES:
        par = turn_based_aec_to_parallel(_env(game, scenario, options, max_actions=4, illegal_action="random"))
        par.reset(seed=2)
        steps = 0
        while par.agents:
            par.step({a: par.action_space(a).sample() for a in par.agents})
            steps += 1
        assert steps == 4, (game, steps)
        assert all(par.aec_env.truncations.values())


def test_pettingzoo_illegal_action_ends_the_game() -> None:
    env = make_env(get_rules("richard3"), "richard-iii")
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values()) and env.rewards[agent] == -1.0
    assert env.infos[agent]["illegal_move"]
    assert all(r == 0.0 for a, r in env.rewards.items() if a != agent)
    with pytest.warns(UserWarning):
        assert env.render() is None


@pytest.mark.parametrize(("game", "scenario", "options"), [CASES[0], CASES[1], CASES[4]],
                         ids=[IDS[0], IDS[1], IDS[4]])
def test_pettingzoo_performance_benchmark(game: str, scenario: str, options: Any,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    performance_benchmark(_env(game, scenario, options, max_actions=500))
    turns = float(capsys.readouterr().out.split(" turns per second")[0].split()[-1])
    assert turns > 50  # a loaded 2-core machine does hundreds to thousands


def test_pettingzoo_options_reach_the_game() -> None:
    env = _env("kingmaker", "campaign", None)
    env.reset(seed=1, options={"players": 3, "options": 1})
    assert env.possible_agents == env.agents == ["P1", "P2", "P3"]
    assert env.rules_state()["roles"] == ["P1", "P2", "P3"]


@pytest.mark.parametrize(("game", "scenario", "options"), CASES, ids=IDS)
def test_openspiel_suites(game: str, scenario: str, options: Any) -> None:
    # Kingmaker's checks per position go over its 195,094 ids (masks, serialisation): shorter games
    length = 60 if game == "kingmaker" else 150
    g = openspiel_game.load(get_rules(game), scenario, max_game_length=length, **(options or {}))
    pyspiel.random_sim_test(g, num_sims=2, serialize=False, verbose=False)
    pyspiel.random_sim_test(g, num_sims=1, serialize=True, verbose=False)
    again = pickle.loads(pickle.dumps(g))
    assert str(again) == str(g)
    state = g.new_initial_state()
    for _ in range(openspiel_game.SEED_BYTES):
        assert state.is_chance_node() and len(state.chance_outcomes()) == 256
        state.apply_action(7)
    p = state.current_player()
    assert len(state.observation_tensor(p)) == g.observation_tensor_size()
    assert len(state.information_state_tensor(p)) == g.information_state_tensor_size()
    public = g.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False,
                                                           private_info=pyspiel.PrivateInfoType.NONE))
    assert '"role":"Observer"' in public.string_from(state, p) or "Observer" in public.string_from(state, p)


def test_openspiel_rl_environment_learner() -> None:
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner

    g = openspiel_game.load(get_rules("richard3"), "richard-iii", max_game_length=300)
    env = rl_environment.Environment(g, seed=1)
    n = env.action_spec()["num_actions"]
    agents = [tabular_qlearner.QLearner(player_id=i, num_actions=n) for i in range(2)]
    steps = 0
    while steps < 300:
        ts = env.reset()
        while not ts.last() and steps < 300:
            p = ts.observations["current_player"]
            out = agents[p].step(ts)
            ts = env.step([out.action])
            steps += 1
        if ts.last():
            for a in agents:
                a.step(ts)
    assert steps == 300


@pytest.mark.parametrize(("game", "scenario", "options"), CASES[:4], ids=IDS[:4])
def test_tensor_is_the_same_in_every_world_the_role_cannot_tell_apart(game: str, scenario: str,
                                                                        options: Any) -> None:
    """The hidden-information check for tensors: ``Rules.determinize`` re-deals everything
    hidden from a role (the other side's cards, hidden mats, the dice to come); the role's
    tensor must not change, while the states do."""
    rules = get_rules(game)
    codec = rules.tensor_codec(scenario, options)
    state = rules.setup(2, scenario, options)
    rnd = random.Random(3)
    changed = 0
    for i in range(200):
        turn = acting(rules, state)
        if turn is None:
            break
        if i % 10 == 0:
            for role in rules.roles(scenario, options):
                world = rules.determinize(state, role, 1000 + i)
                changed += world != state
                assert codec.encode(rules.view(world, role)) == codec.encode(rules.view(state, role)), (i, role)
        role, legal = turn
        state = rules.action(state, role, *rnd.choice(legal))
    assert changed > 0


def _played_openspiel(game: str, scenario: str, options: Any, moves: int, seed: int = 0) -> Any:
    g = openspiel_game.load(get_rules(game), scenario, max_game_length=300, **(options or {}))
    state = g.new_initial_state()
    for b in (9, 8, 7, 6):  # the true seed's four draws
        state.apply_action(b)
    rnd = random.Random(seed)
    for _ in range(moves):
        state.apply_action(rnd.choice(state.legal_actions()))
    return state


def test_resample_draws_the_chance_model_again_and_keeps_no_true_seed() -> None:
    """resample_from_infostate: the same information state for the player; the seed draws at
    the head of history() are the new seed's (not the true 9, 8, 7, 6); the moves after them
    are the game's, the other side's card played face down (C2-C5) drawn among the cards; the hand the player cannot see is dealt again from the cards it has not
    seen (never its own); the new state plays on to an end."""
    state = _played_openspiel("richard3", "richard-iii", None, 5)
    p = state.current_player()
    other = 1 - p
    true_hand = state.rules_state()["hands"][other]
    mine = set(state.rules_state()["hands"][p])
    hands = set()
    for k in range(12):
        value = (k + 0.5) / 12
        world = state.resample_from_infostate(p, lambda v=value: v)
        seed = int(value * (1 << 62))
        assert world.history()[:4] == [(seed >> s) & 0xFF for s in (24, 16, 8, 0)] != [9, 8, 7, 6]
        unseen = state.get_game().spec.unseen()
        for was, now in zip(state.full_history()[4:], world.full_history()[4:], strict=True):
            # the player's own moves and the ones it saw; the others' unseen ones drawn in their group
            assert now.player == was.player
            assert now.action == was.action if was.player == p else now.action in (unseen[was.action] or [was.action])
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.observation_tensor(p) == state.observation_tensor(p)
        assert world.legal_actions() == state.legal_actions()
        hand = world.rules_state()["hands"][other]
        assert len(hand) == len(true_hand) and not mine & set(hand)
        hands.add(tuple(hand))
        again = state.resample_from_infostate(p, lambda v=value: v)
        assert again.rules_state()["hands"] == world.rules_state()["hands"]  # same draw, same world
    assert len(hands) > 6  # dealt anew, not the true hand each time
    world = state.resample_from_infostate(p, lambda: 0.25)
    rnd = random.Random(1)
    while not world.is_terminal():
        world.apply_action(rnd.choice(world.legal_actions()))
    assert sorted(world.returns()) == [-1.0, 1.0]


@pytest.mark.parametrize(("game", "scenario", "options"), [CASES[2], CASES[3]], ids=[IDS[2], IDS[3]])
def test_resample_keeps_the_information_state(game: str, scenario: str, options: Any) -> None:
    state = _played_openspiel(game, scenario, options, 40, seed=2)
    p = state.current_player()
    for value in (0.1, 0.6):
        world = state.resample_from_infostate(p, lambda v=value: v)
        assert world.information_state_string(p) == state.information_state_string(p)
        assert len(world.history()) == len(state.history()) and world.history()[:4] != [9, 8, 7, 6]
        assert world.current_player() == p and world.legal_actions() == state.legal_actions()


def _encodes_as_a_new_codec(game: str, make_codec: Any, games: list[tuple[str, Any]], rounds: int) -> int:
    """Play ``games`` turn about, encoding every role's view with one shared codec of ``game``:
    each vector must be the one a new codec (``make_codec(phases)``) makes of the same view,
    whatever the caller did to the vectors given. Returns the number of vectors checked."""
    rules = get_rules(game)
    shared = rules.tensor_codec(games[0][0])
    states = [rules.setup(seed, scenario, options) for seed, (scenario, options) in enumerate(games, 1)]
    rnds = [random.Random(1), random.Random(2)]
    checked = 0
    for _ in range(rounds):
        for k in range(len(states)):
            turn = acting(rules, states[k])
            if turn is None:
                continue
            for role in ("York", "Lancaster", "Observer"):
                view = rules.view(states[k], role)
                got = shared.encode(view)
                assert got == make_codec(tuple(shared.phases)).encode(view)
                got[0] = got[-1] = 99.0  # a caller changing its vector changes nothing kept
                checked += 1
            states[k] = rules.action(states[k], turn[0], *rnds[k].choice(turn[1]))
    return checked


def test_richard3_tensor_does_not_depend_on_what_was_encoded_before() -> None:
    """The Richard III codec keeps parts of past vectors (each role's last vector, the own
    blocks per side, runs by content): every vector is the one a new codec makes of the same
    view, over two games encoded turn about, whatever the caller did to the vectors given."""
    from roses.games.richard3.research import Richard3Codec

    games = [("wars-of-the-roses", None), ("wars-of-the-roses", None)]
    assert _encodes_as_a_new_codec("richard3", Richard3Codec, games, 150) > 600


def _hidden_choice(game: str, scenario: str, options: Any, seed: int, steps: int) -> tuple[Any, Any, int] | None:
    """Two OpenSpiel states after a random game in which another player took one of two
    different actions that ``p`` cannot tell apart (its information state is the same after
    either): ``(state, twin, p)``, or None when none came up within ``steps`` moves."""
    g = openspiel_game.load(get_rules(game), scenario, max_game_length=2000, **(options or {}))
    state = g.new_initial_state()
    rnd = random.Random(seed)
    for b in (seed, 8, 7, 6):
        state.apply_action(b)
    for _ in range(steps):
        if state.is_terminal():
            return None
        mover, legal = state.current_player(), state.legal_actions()
        action = rnd.choice(legal)
        if len(legal) > 1:
            after = state.child(action)
            for other in rnd.sample(legal, min(4, len(legal))):
                if other == action:
                    continue
                twin = state.child(other)
                for p in range(g.num_players()):
                    if p != mover and twin.information_state_string(p) == after.information_state_string(p):
                        return after, twin, p
        state.apply_action(action)
    return None


@pytest.mark.parametrize(("game", "scenario", "options"), CASES, ids=IDS)
def test_resample_draws_the_other_players_hidden_choices_anew(game: str, scenario: str, options: Any) -> None:
    """Another player's choice that the player has not seen (Richard III's card played face
    down, C2-C5; Plantagenet's Plan, 4.1.2; Kingmaker's ballots and hidden choices) leaves no
    trace in a resampled state: two true states that differ only in that choice (the player's
    information state the same) give, for the same sampled value, the same resampled history,
    the same engine state and the player's information state and tensor unchanged; and the
    true id is not in that history (it differs from the true one of at least one twin)."""
    found = 0
    for seed in range(12):
        got = _hidden_choice(game, scenario, options, seed, 150)
        if got is None:
            continue
        state, twin, p = got
        assert state.history() != twin.history()
        for value in (0.15, 0.55, 0.9):
            world = state.resample_from_infostate(p, lambda v=value: v)
            other = twin.resample_from_infostate(p, lambda v=value: v)
            assert world.history() == other.history()
            assert world.rules_state() == other.rules_state()
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.information_state_tensor(p) == state.information_state_tensor(p)
            assert world.history() != state.history() or world.history() != twin.history()
        found += 1
        if found == 3:
            break
    assert found, "no hidden choice came up"


def test_plantagenet_tensor_does_not_depend_on_what_was_encoded_before() -> None:
    """The Plantagenet codec keeps each Lord's numbers by the values they are made from: every
    vector is the one a new codec makes of the same view, over two games (open and Hidden Mats,
    1.5.3) encoded turn about, whatever the caller did to the vectors given."""
    from roses.games.plantagenet.research import PlantagenetCodec

    games = [("ia-henry-vi", None), ("bosworth", {"hidden_mats": True})]
    assert _encodes_as_a_new_codec("plantagenet", PlantagenetCodec, games, 80) > 300


@pytest.mark.parametrize(("game", "scenario", "options"), CASES[1:], ids=IDS[1:])
def test_resample_keeps_the_public_actions_and_draws_the_unseen_ones(game: str, scenario: str, options: Any) -> None:
    """Plantagenet and Kingmaker declare their unseen choices (Rules.unseen_choices: a Plan
    built in secret, 4.1.2; Bosworth's picks; a ballot, a noble or ship chosen to move): in a
    resampled history another player's action the player saw keeps its true id (a March, a
    Levy, a move, an offer), one it did not see is one of its group, drawn anew (so some differ
    from the true ones); the player's information state and tensors are unchanged."""
    g = openspiel_game.load(get_rules(game), scenario, max_game_length=300, **(options or {}))
    state = g.new_initial_state()
    for b in (9, 8, 7, 6):
        state.apply_action(b)
    rnd = random.Random(4)
    for _ in range(150):
        nxt = state.child(rnd.choice(state.legal_actions()))
        if nxt.is_terminal():
            break
        state = nxt
    p = state.current_player()
    moves = [(pa.player, pa.action) for pa in state.full_history()[4:]]
    unseen = g.spec.unseen_in(state.rules_state(), moves, p)
    kept = drawn = changed = 0
    for value in (0.1, 0.35, 0.6, 0.85):
        world = state.resample_from_infostate(p, lambda v=value: v)
        for was, now, among in zip(state.full_history()[4:], world.full_history()[4:], unseen, strict=True):
            assert now.player == was.player
            if among is None:
                assert now.action == was.action
                kept += was.player != p
            else:
                assert now.action in among
                drawn += 1
                changed += now.action != was.action
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.observation_string(p) == state.observation_string(p)
        assert world.information_state_tensor(p) == state.information_state_tensor(p)
        assert world.observation_tensor(p) == state.observation_tensor(p)
    assert kept > 0 and drawn > 0 and changed > 0, (kept, drawn, changed)


def test_unseen_choice_groups_name_catalogue_actions_and_leave_the_public_ones() -> None:
    """Every action of a declared group is in the catalogue; the groups: Plantagenet's Plan
    edits (4.1.2) together, Bosworth's picks, a Held Event discarded (4.8.6), with Hidden Mats
    (1.5.3) the Lord a Capability goes to; Kingmaker's ballots and the noble or ship chosen to
    move. A March, a Levy, a vote's count, a move to a square stay in no group."""
    for game, scenario, options in CASES[1:]:
        rules = get_rules(game)
        ids = index(rules.action_space(scenario, options))
        for group in rules.unseen_choices(scenario, options) or []:
            assert group and all(catalogue_key(a) in ids for a in group), (game, group[:3])
    pl = openspiel_game.load(get_rules("plantagenet"), "bosworth", hidden_mats=True).spec
    pl_open = openspiel_game.load(get_rules("plantagenet"), "ia-henry-vi").spec
    u, u_open = pl.unseen(), pl_open.unseen()
    i = pl.ids.__getitem__
    assert i(catalogue_key(("remove", None))) in u[i(catalogue_key(("add", "york-1")))]
    assert u[i(catalogue_key(("lock", None)))] is None and u[i(catalogue_key(("march", "London")))] is None
    assert u[i(catalogue_key(("assign", "oxford")))] is not None  # Hidden Mats: which Lord is unseen (3.1.2)
    assert u_open[i(catalogue_key(("assign", "oxford")))] is None  # open mats: it is seen
    km = openspiel_game.load(get_rules("kingmaker"), "campaign", players=4).spec
    k = km.ids.__getitem__
    votes = km.unseen()[k(catalogue_key(("vote", "yes")))]
    assert votes is not None and k(catalogue_key(("vote", "no"))) in votes
    assert km.unseen()[k(catalogue_key(("accept", None)))] is None
    assert km.unseen()[k(catalogue_key(("to", km.catalogue[[a[0] for a in km.catalogue].index("to") + 1][1])))] is None


@pytest.mark.parametrize(("game", "scenario", "options"), [CASES[0], CASES[1], CASES[3]], ids=[IDS[0], IDS[1], IDS[3]])
def test_decision_view_is_the_view_without_its_recent_log(game: str, scenario: str, options: Any) -> None:
    """Rules.decision_view (what the PettingZoo env reads the legal ids and the tensor from)
    is the role's view with at most its recent log left out, for every role and the
    Observer, along a random game; the env's observation is the tensor of the full view and
    its legal ids are those of the full view's actions."""
    rules = get_rules(game)
    state = rules.setup(5, scenario, options)
    roles = [*rules.roles(scenario, options), "Observer"]
    log_keys = ("log", "log_kinds", "log_more")
    rnd = random.Random(5)
    for _ in range(150):
        for role in roles:
            lean = rules.decision_view(state, role)
            full = rules.view(state, role)
            assert canonical_json({k: v for k, v in lean.items() if k not in log_keys}) == \
                canonical_json({k: v for k, v in full.items() if k not in log_keys})
        turn = acting(rules, state)
        if turn is None:
            break
        state = rules.action(state, turn[0], *rnd.choice(turn[1]))
    e = make_env(rules, scenario, options=options)
    e.reset(seed=3)
    codec = rules.tensor_codec(scenario, options)
    ids = index(rules.action_space(scenario, options))
    for _ in range(60):
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            break
        obs = e.observe(agent)
        full = e.view(agent)
        assert "log" in full
        assert obs["observation"].tolist() == np.frombuffer(codec.encode(full), np.float32).tolist()
        assert e.legal_actions(agent) == sorted(ids[catalogue_key(a)] for a in actions_to_list(full.get("actions", {})))
        e.step(e.legal_actions(agent)[rnd.randrange(len(e.legal_actions(agent)))])


@pytest.mark.parametrize(("game", "scenario", "options", "verb"), [
    ("plantagenet", "ia-henry-vi", None, "add"),  # a card added to a Plan built in secret (4.1.2)
    ("plantagenet", "ia-henry-vi", {"hidden_mats": True}, "add"),  # the same with Hidden Mats (1.5.3)
    ("kingmaker", "campaign", {"players": 4, "rules": "e1"}, "select"),  # the noble chosen to move
], ids=["plantagenet-plan", "plantagenet-plan-hidden-mats", "kingmaker-select"])
def test_an_unseen_choice_perturbed_gives_the_same_resampled_history(game: str, scenario: str, options: Any,
                                                                     verb: str) -> None:
    """Two true states that differ only in one unseen choice of another player (two different
    ``verb`` actions from the same position) give the player, for the same sampled value,
    the same resampled history and engine state; that history keeps every id of the others'
    actions the player saw, and the player's information state and tensors are unchanged."""
    rules = get_rules(game)
    g = openspiel_game.load(rules, scenario, max_game_length=2000, **(options or {}))
    unseen = g.spec.unseen()
    state = g.new_initial_state()
    for b in (3, 8, 7, 6):
        state.apply_action(b)
    rnd = random.Random(7)
    pair = None
    for _ in range(1500):
        assert not state.is_terminal()
        legal = state.legal_actions()
        mine = [a for a in legal if g.spec.catalogue[a][0] == verb]
        if len(mine) >= 2 and any(pa.player == state.current_player() and unseen[pa.action] is None
                                  for pa in state.full_history()[4:]):  # after a public action of the mover's
            pair = mine[0], mine[-1]
            break
        state.apply_action(rnd.choice(legal))
    assert pair is not None, f"no {verb} choice came up"
    mover = state.current_player()
    after, twin = state.child(pair[0]), state.child(pair[1])
    kept = 0
    for p in (q for q in range(g.num_players()) if q != mover):
        assert after.information_state_string(p) == twin.information_state_string(p)
        for value in (0.2, 0.7):
            world = after.resample_from_infostate(p, lambda v=value: v)
            other = twin.resample_from_infostate(p, lambda v=value: v)
            assert world.history() == other.history()
            assert world.rules_state() == other.rules_state()
            assert world.information_state_tensor(p) == after.information_state_tensor(p)
            assert world.observation_tensor(p) == after.observation_tensor(p)
            moves = [(pa.player, pa.action) for pa in after.full_history()[4:]]
            among = g.spec.unseen_in(after.rules_state(), moves, p)
            for was, now, group in zip(after.full_history()[4:], world.full_history()[4:], among, strict=True):
                if group is None:
                    assert now.action == was.action
                    kept += was.player != p
    assert kept > 0  # the others' public actions are there, with their true ids


def _plantagenet_group_march(seed: int) -> tuple[Any, list[int]]:
    """An OpenSpiel Plantagenet state (Henry VI) after a random game, where the side to act may
    March a Lord with a Group (4.3.1) to at least two Locales: ``(state, those March ids)``."""
    g = openspiel_game.load(get_rules("plantagenet"), "ia-henry-vi", max_game_length=2000)
    cat = g.spec.catalogue
    state = g.new_initial_state()
    for b in (seed, 8, 7, 6):
        state.apply_action(b)
    rnd = random.Random(seed)
    for _ in range(1500):
        assert not state.is_terminal()
        legal = state.legal_actions()
        marches = [a for a in legal if cat[a][0] == "march"]
        if len(marches) >= 2 and state.child(marches[0]).rules_state()["stack"][-1]["step"] == "group":
            return state, marches
        state.apply_action(rnd.choice(legal))
    raise AssertionError("no Group March came up")


def _verb_id(state: Any, verb: str) -> int:
    cat = state.get_game().spec.catalogue
    return next(a for a in state.legal_actions() if cat[a][0] == verb)


def test_resample_draws_a_march_called_off_at_its_group_step() -> None:
    """4.3.1: a March with a Group asks the other side only who goes with the Lord; called off
    (``cancel``, told to the marching side alone) its destination is never seen by the other
    side. Two true histories that differ only in that destination give the other side, for
    the same sampled value, the same resampled history and engine state, with its information
    state and tensors unchanged; the March there is one of every March and Sail, drawn (not
    always the true one). The same history while the Group is still being chosen. A March
    whose Group goes is seen: it keeps its true id (Rules.unseen_in_history)."""
    state, marches = _plantagenet_group_march(0)
    g = state.get_game()
    mover = state.current_player()
    p = 1 - mover
    at = len(state.full_history())  # the March's place in the histories
    pending = [state.child(marches[0]), state.child(marches[-1])]
    called_off = [s.child(_verb_id(s, "cancel")) for s in pending]
    cat = g.spec.catalogue
    for after, twin in (pending, called_off):
        assert after.information_state_string(p) == twin.information_state_string(p)
        assert after.history()[at] != twin.history()[at]
        drawn = set()
        for value in (0.1, 0.3, 0.5, 0.7, 0.9):
            world = after.resample_from_infostate(p, lambda v=value: v)
            other = twin.resample_from_infostate(p, lambda v=value: v)
            assert world.history() == other.history()
            if after is called_off[0]:  # (a pending Group frame keeps its destination: determinize)
                assert world.rules_state() == other.rules_state()
            assert world.information_state_string(p) == after.information_state_string(p)
            assert world.information_state_tensor(p) == after.information_state_tensor(p)
            assert world.observation_tensor(p) == after.observation_tensor(p)
            assert cat[world.history()[at]][0] in ("march", "sail")
            drawn.add(world.history()[at])
        assert drawn - {after.history()[at], twin.history()[at]}, drawn  # not the true id each time
    went = pending[0].child(_verb_id(pending[0], "go"))
    for value in (0.1, 0.5, 0.9):
        assert went.resample_from_infostate(p, lambda v=value: v).history()[at] == marches[0]
    for s in (*pending, *called_off, went):  # the marching side's own March is its own
        assert s.resample_from_infostate(mover, lambda: 0.4).history()[at] == s.history()[at]


def test_resample_keeps_a_ship_for_the_owner_asked_leave_to_sail_it() -> None:
    """§Sea Transportation: a ship in a port unfriendly to its mover leaves only with the
    port's owner's leave, and the owner is asked naming the ship: in the owner's resampled
    history the ``sail`` keeps its true id, while he is asked and after he answers; for the
    other players it is one of the ships, drawn (Rules.unseen_in_history)."""
    g = openspiel_game.load(get_rules("kingmaker"), "campaign", max_game_length=3000, players=4)
    cat = g.spec.catalogue
    state = g.new_initial_state()
    for b in (0, 8, 7, 6):
        state.apply_action(b)
    rnd = random.Random(0)
    asked = None
    for _ in range(3000):
        assert not state.is_terminal()
        legal = state.legal_actions()
        for a in (a for a in legal if cat[a][0] == "sail"):
            after = state.child(a)
            if after.current_player() != state.current_player() and \
                    any(cat[x][0] == "allow" for x in after.legal_actions()):
                asked = after
                break
        if asked is not None:
            break
        state.apply_action(rnd.choice(legal))
    assert asked is not None, "no ship needed leave to sail"
    at = len(state.full_history())
    mover, owner = state.current_player(), asked.current_player()
    answered = [asked.child(x) for x in asked.legal_actions() if cat[x][0] in ("allow", "deny")]
    others = [q for q in range(g.num_players()) if q not in (mover, owner)]
    drawn = set()
    for s in (asked, *answered):
        assert cat[s.history()[at]][0] == "sail"
        for value in (0.1, 0.4, 0.7):
            assert s.resample_from_infostate(owner, lambda v=value: v).history()[at] == s.history()[at]
            world = s.resample_from_infostate(others[0], lambda v=value: v)
            assert cat[world.history()[at]][0] in ("select", "sail")
            assert world.information_state_string(others[0]) == s.information_state_string(others[0])
            drawn.add(world.history()[at])
    assert drawn - {asked.history()[at]}, drawn  # drawn for the others


def test_plantagenet_catalogue_holds_every_spoils_share() -> None:
    """4.4.3 Spoils: with two or more Lords to share among, a Cart or a Provender goes to one
    Lord at a time (``give`` ``lord:asset``); every such choice has an id (one was missing, and
    an environment met it in random play)."""
    from roses.engine.catalogue import catalogue_key, index
    from roses.games.plantagenet.components import load

    rules = get_rules("plantagenet")
    ids = index(rules.action_space("ia-henry-vi"))
    for lord in load().lords:
        for asset in ("carts", "provender"):
            assert catalogue_key(("give", f"{lord}:{asset}")) in ids
