"""Kingmaker: the sections of the campaign rules, the one place that ties a rule reference to
the rulebook's text.

The code, the refusals and RULINGS.md cite the campaign rules by section: a section sign and
the heading as the rulebook prints it (``§Sea Transportation``, ``§Calling Parliament``); the
table ``SECTIONS`` gives each heading's lines in ``kingmaker-campaign-rules.txt``
(the authority), and ``docs/kingmaker/rulebook.md`` shows the same table;
``tests/kingmaker/test_rulebook.py`` checks that each heading opens its first line there and
that every ``§`` reference in the package names a section of this table.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The rulebook the sections are lines of.
RULEBOOK = "kingmaker-campaign-rules.txt"


@dataclass(frozen=True, slots=True)
class Section:
    heading: str     # as printed (without "(E1)", "(EI)" or "(E2)" and a trailing colon)
    first: int       # the heading's line (1-based)
    last: int        # the section's last line
    part: str        # the main heading it belongs to


#: The campaign rules by section, in the rulebook's order.
SECTIONS: tuple[Section, ...] = (
    Section("Basic Rules of the Campaign", 5, 6, "Basic Rules of the Campaign"),
    Section("The Campaign Umpire is Always Correct", 7, 14, "Basic Rules of the Campaign"),
    Section("Guidelines on how the Campaign Rules work", 15, 18, "Basic Rules of the Campaign"),
    Section("Game Definitions", 19, 20, "Game Definitions"),
    Section("Crown and Event Deck", 21, 26, "Game Definitions"),
    Section("Chancery", 27, 30, "Game Definitions"),
    Section("Faction", 31, 50, "Game Definitions"),
    Section("Setup", 51, 52, "Setup"),
    Section("Preparing to Play & Initial Distribution of Crown Cards", 53, 71, "Setup"),
    Section("Setting out Counters", 72, 91, "Setup"),
    Section("Sequence of Play", 92, 113, "Sequence of Play"),
    Section("Chance Phase", 114, 121, "Chance Phase"),
    Section("Movement Phase", 122, 123, "Movement Phase"),
    Section("Noble Counters", 124, 131, "Movement Phase"),
    Section("Royal Heir Counters", 132, 135, "Movement Phase"),
    Section("Ship Counters", 136, 139, "Movement Phase"),
    Section("The following locations require a \"Refuge\" card", 140, 159, "Movement Phase"),
    Section("Sea Transportation", 160, 184, "Movement Phase"),
    Section("Stacking", 185, 188, "Movement Phase"),
    Section("Town, Cities, and Castles", 189, 194, "Movement Phase"),
    Section("Combat Phase", 195, 198, "Combat Phase"),
    Section("Battle", 199, 215, "Combat Phase"),
    Section("Siege", 216, 239, "Combat Phase"),
    Section("Town Acquisition", 240, 246, "Combat Phase"),
    Section("Ambush", 247, 250, "Combat Phase"),
    Section("Town Fighting", 251, 262, "Combat Phase"),
    Section("Sea Battles", 263, 272, "Combat Phase"),
    Section("Blockade", 273, 274, "Combat Phase"),
    Section("Nobles Killed", 275, 276, "Combat Phase"),
    Section("Capture of Royal Heirs", 277, 282, "Combat Phase"),
    Section("Capture of Noble Counters", 283, 286, "Combat Phase"),
    Section("Vacillating Allegiance", 287, 291, "Combat Phase"),
    Section("Attack Odds", 292, 303, "Combat Phase"),
    Section("Alliances", 304, 314, "Alliances"),
    Section("Important", 315, 316, "Alliances"),
    Section("Booty", 317, 318, "Alliances"),
    Section("Breaking a Treaty", 319, 320, "Alliances"),
    Section("Excommunication Restrictions", 321, 326, "Alliances"),
    Section("Parliament Phase", 327, 328, "Parliament Phase"),
    Section("Calling Parliament", 329, 335, "Parliament Phase"),
    Section("Counting Votes", 336, 337, "Parliament Phase"),
    Section("Who Votes", 338, 352, "Parliament Phase"),
    Section("Distributing Cards", 353, 363, "Parliament Phase"),
    Section("Voting on Cards Distributed", 364, 379, "Parliament Phase"),
    Section("Note: There is a King's peace", 380, 381, "Parliament Phase"),
    Section("Ending Parliament", 382, 389, "Parliament Phase"),
    Section("Coronation Phase", 390, 397, "Coronation Phase"),
    Section("Crown Deck Phase", 398, 401, "Crown Deck Phase"),
    Section("Victory Conditions", 402, 420, "Victory Conditions"),
    Section("Transfers", 421, 438, "Transfers"),
    Section("Royal Death Table", 439, 453, "Royal Death Table"),
    Section("Appendix - Crown Card Key", 454, 475, "Appendix - Crown Card Key"),
    Section("Appendix - Event Card Key", 476, 519, "Appendix - Event Card Key"),
)

#: Short names a reference may use for a long heading.
ALIASES: dict[str, str] = {
    "Refuges": "The following locations require a \"Refuge\" card",
    "King's peace": "Note: There is a King's peace",
    "Important: one turn a round": "Important",
    "Preparing to Play": "Preparing to Play & Initial Distribution of Crown Cards",
    "Crown Card Key": "Appendix - Crown Card Key",
    "Event Card Key": "Appendix - Event Card Key",
}

BY_HEADING: dict[str, Section] = {s.heading: s for s in SECTIONS}


def section(name: str) -> Section:
    """The section a reference names (a heading or one of ``ALIASES``)."""
    return BY_HEADING[ALIASES.get(name, name)]


def section_at(line: int) -> Section:
    """The section holding rulebook line ``line``."""
    for s in SECTIONS:
        if s.first <= line <= s.last:
            return s
    raise KeyError(line)
