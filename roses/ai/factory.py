"""Bots by name: :func:`make_bot` and the levels offered to players.

Names: ``random``; ``heuristic``; ``ismcts`` (default budget), ``ismcts:0.5`` (seconds per
move), ``ismcts:i200`` (iterations per move), optionally with tuning such as
``ismcts:i200:r0:c1.0:k6:h1:w32`` (rollout depth, exploration constant, root actions kept by
the heuristic, threat horizon of the leaf evaluation, determinisations per decision); levels ``easy`` (heuristic), ``medium`` and
``hard`` (ISMCTS with 0.5 s and 2 s per move).
"""

from __future__ import annotations

from typing import Any

from roses.ai.bot import Bot, RandomBot
from roses.ai.heuristic import HeuristicBot
from roses.ai.ismcts import ISMCTSBot

#: Levels for ``roses play --vs LEVEL`` and the server, as bot names.
LEVELS: dict[str, str] = {
    "easy": "heuristic",
    "medium": "ismcts:0.5",
    "hard": "ismcts:2",
}


def parse_budget(text: str) -> tuple[float | None, int | None]:
    """``"0.5"`` -> (0.5 s, None); ``"i200"`` -> (None, 200 iterations)."""
    text = text.strip().lower()
    try:
        if text.startswith("i"):
            n = int(text[1:])
            if n < 1:
                raise ValueError
            return None, n
        s = float(text.removesuffix("s"))
        if not s > 0:
            raise ValueError
        return s, None
    except ValueError:
        raise ValueError(f"Bad bot budget {text!r}: use seconds (0.5) or iterations (i200)") from None


KNOWN_BOTS = ("random", "heuristic", "ismcts", *LEVELS)


def make_bot(name: str, seed: int = 0, **kwargs: Any) -> Bot:
    """A bot by name: ``random``, ``heuristic``, ``ismcts[:SECONDS|:iN]``, or a level
    (``easy``, ``medium``, ``hard``). Extra keyword arguments go to the bot's constructor."""
    name = LEVELS.get(name.strip().lower(), name.strip().lower())
    base, _, budget = name.partition(":")
    if base == "random":
        return RandomBot(seed)
    if base == "heuristic":
        if budget:
            kwargs.setdefault("samples", int(budget))
        return HeuristicBot(seed, **kwargs)
    if base == "ismcts":
        budget, *extra = budget.split(":") if budget else ("",)
        seconds, iterations = parse_budget(budget) if budget else (None, None)
        for item in extra:  # tuning: rN rollout depth, cX exploration constant, kN root top-k, hN horizon,
            # wN determinisations per decision
            try:
                if item[:1] == "r":
                    kwargs["rollout_depth"] = int(item[1:])
                elif item[:1] == "c":
                    kwargs["c"] = float(item[1:])
                elif item[:1] == "h":
                    kwargs["horizon"] = int(item[1:])
                elif item[:1] == "k":
                    kwargs["top_k"] = int(item[1:])
                elif item[:1] == "w":
                    kwargs["worlds"] = int(item[1:])
                else:
                    raise ValueError
            except ValueError:
                raise ValueError(f"Bad ISMCTS option {item!r} in {name!r}: use rN, cX, kN, hN or wN") from None
        return ISMCTSBot(seed, seconds=seconds, iterations=iterations, name=name, **kwargs)
    raise ValueError(f"Unknown bot {name!r}; known: {', '.join(KNOWN_BOTS)}, ismcts:SECONDS, ismcts:iN")
