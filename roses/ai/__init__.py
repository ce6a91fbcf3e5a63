"""Bots over the rules contract, the arena, and the research adapters.

* :mod:`roses.ai.bot` — the bot interface (what a bot sees: the role's view and a
  determinisation callback, never the true state) and the random bot;
* :mod:`roses.ai.factory` — bots by name (:func:`~roses.ai.factory.make_bot`) and the levels;
* :mod:`roses.ai.heuristic` — greedy search over the game's ``Rules.evaluate``;
* :mod:`roses.ai.ismcts` — information-set MCTS (single observer, determinisation, UCB with
  availability counts, evaluation-truncated playouts);
* :mod:`roses.ai.arena` — bot against bot with sides swapped, Wilson intervals
  (``roses arena``); :mod:`roses.ai.commands` — the CLI (``roses arena``, ``roses bench --ai``);
* :mod:`roses.ai.checks` — checks of a game's determinisation, for any game's tests;
* :mod:`roses.ai.openspiel_game`, :mod:`roses.ai.pettingzoo_env` — OpenSpiel game and PettingZoo
  AEC environment over any game with ``Rules.action_space`` and ``Rules.tensor_codec``
  (``pip install -e '.[research]'``; docs/ai.md).

Game knowledge stays in the game packages, behind the optional contract methods
``determinize``, ``evaluate``, ``evaluation_terms``, ``action_space`` and ``tensor_codec``
(roses/engine/contract.py; Richard III: roses/games/richard3/ai.py).
"""
