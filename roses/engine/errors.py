"""Errors shared by every game, the server and the tools."""

from __future__ import annotations


class RosesError(Exception):
    """Base class of every error Roses raises on purpose."""


class IllegalAction(RosesError):
    """An action that the rules do not allow now.

    The message is meant for the player: it says what was wrong in game terms and never
    mentions hidden information. The state the action was tried on is left untouched.
    """


class NotYourTurn(IllegalAction):
    """The role tried to act while it is not one of the active roles."""


class UnknownGame(RosesError):
    """No game (or no rules module) by that id."""


class UnknownScenario(RosesError):
    """The rules module has no scenario by that name."""


class BadOptions(RosesError):
    """The options given to setup are not valid for that game."""


class CannotUndo(RosesError):
    """Undo is not allowed now for that role (see roses.engine.game)."""


class ReplayMismatch(RosesError):
    """Replaying a game's action log did not give the recorded state."""


class RevisionMissed(RosesError):
    """A part of a view found unchanged by its revision (``Steps.revision_of``) differs from
    the state: a step's declared ``changes`` leave out a change it makes, or the state was
    changed by hand without ``Steps.changed`` (raised only while the revisions are checked)."""
