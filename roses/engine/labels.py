"""Human labels for a view's actions, from the rules' own ``label()``.

A view lists the actions of a role that may act as ``actions``: ``{verb: [arg, ...]}``, or
``{verb: True}`` for a verb without argument. :func:`action_labels` gives the text of each one
as ``labels``, a parallel mapping::

    {verb: {arg_key(arg): text}}        # arg_key(None) == "null" for a verb without argument

``arg_key`` is the argument as compact JSON (no spaces, non-ASCII kept), which is what
``JSON.stringify(arg)`` gives in the browser, so the client finds a button's text with
``view.labels[verb][JSON.stringify(arg)]``. Labels come from ``Rules.label(state, role, verb,
arg)``, the same function the terminal's numbered menus use: one place per game.
:meth:`roses.engine.game.Game.view` adds them to the views it builds.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from roses.engine.contract import Rules, State

#: What ``json.dumps`` escapes in a string (with ``ensure_ascii=False``).
_ESCAPED = re.compile(r'[\x00-\x1f"\\]')


def _plain(arg: Any) -> str | None:
    """The compact JSON of an integer, a string without anything to escape, None, or a list of
    these, written directly; None for anything else."""
    kind = type(arg)
    if kind is int:  # not bool: type() is exact
        return str(arg)
    if kind is str:
        return None if _ESCAPED.search(arg) else f'"{arg}"'
    if arg is None:
        return "null"
    if kind is list:
        parts = []
        for item in arg:
            part = _plain(item)
            if part is None:
                return None
            parts.append(part)
        return "[" + ",".join(parts) + "]"
    return None


#: The keys of the string arguments seen lately (block keys, area names...: the same few
#: hundred come back in every view), emptied when full.
_STR_KEYS: dict[str, str] = {}
STR_KEYS = 4096


def arg_key(arg: Any) -> str:
    """The key of an action's argument in ``labels`` (``JSON.stringify`` in the browser):
    ``json.dumps(arg, separators=(",", ":"), ensure_ascii=False)``, with the arguments most
    actions have (numbers, plain strings, lists of them) written without the encoder."""
    if type(arg) is str:
        key = _STR_KEYS.get(arg)
        if key is None:
            key = json.dumps(arg, ensure_ascii=False) if _ESCAPED.search(arg) else f'"{arg}"'
            if len(_STR_KEYS) >= STR_KEYS:
                _STR_KEYS.clear()
            _STR_KEYS[arg] = key
        return key
    text = _plain(arg)
    return json.dumps(arg, separators=(",", ":"), ensure_ascii=False) if text is None else text


def fallback_label(verb: str, arg: Any) -> str:
    """The text used when the rules cannot label an action."""
    words = verb.replace("_", " ")
    return words if arg is None else f"{words}: {arg_key(arg) if not isinstance(arg, str) else arg}"


def action_labels(rules: Rules, state: State, role: str, actions: Mapping[str, Any],
                  fixed: Mapping[str, str] | None = None) -> dict[str, dict[str, str]]:
    """``{verb: {arg_key(arg): text}}`` for every action in a view's ``actions``.

    ``fixed`` gives the text of argument-less verbs the rules do not know (the engine's
    ``undo``). A label the rules fail to make falls back to :func:`fallback_label`.
    """
    out: dict[str, dict[str, str]] = {}
    label = rules.label
    for verb, args in actions.items():
        texts: dict[str, str] = {}
        for arg in (None,) if args is True else (args or ()):
            if arg is None and fixed and verb in fixed:
                text = fixed[verb]
            else:
                try:
                    text = label(state, role, verb, arg)
                    if type(text) is not str:
                        text = str(text)
                except Exception:  # a label must never break a view
                    text = fallback_label(verb, arg)
            texts[arg_key(arg)] = text
        out[verb] = texts
    return out


def add_labels(rules: Rules, state: State, role: str, view: dict[str, Any],
               fixed: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Set ``view["labels"]`` for the view's ``actions`` (when it has some); returns ``view``."""
    actions = view.get("actions")
    if actions:
        view["labels"] = action_labels(rules, state, role, actions, fixed)
    return view
