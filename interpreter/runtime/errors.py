"""The error every part of the run time raises for a ruleset's mistake."""


class RulesError(Exception):
    """The rules asked for something impossible at run time (a bug in the ruleset)."""
