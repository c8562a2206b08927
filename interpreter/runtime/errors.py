"""The errors the run time raises: a ruleset's mistake, and a user's (options, saves)."""


class RulesError(Exception):
    """The rules asked for something impossible at run time (a bug in the ruleset)."""


class MadangError(Exception):
    """A user-facing failure: bad options, an unknown ruleset, a corrupt save. Carries
    diagnostics (language/diagnostics.py) when there are any."""

    def __init__(self, message: str, diags=None):
        super().__init__(message)
        self.diags = diags
