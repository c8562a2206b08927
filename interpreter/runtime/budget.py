"""Every evaluation is bounded: the work a game may do between two decisions.

The run loop counts its steps; what runs inside one step (a loop run inline, a list built by
`range`, a `where` over a list, the argument tuples of an action) is charged here in the same
measure: a step, about one item handled. A ruleset sets its budget (`settings.max_steps`)
below a hard ceiling that only the person running madang can raise (`--max-work`), so a small
file can neither hang a command nor exhaust memory. Numbers are bounded too: a repeated product
would otherwise grow without end.
"""

from __future__ import annotations

from .errors import RulesError

DEFAULT = 2_000_000  # steps between two decisions, unless the ruleset says otherwise
CEILING = 20_000_000  # the most a ruleset may ask for; `--max-work` raises it
MAX_NUMBER = 2**62  # numbers beyond ±this are a rules error, not a bigint that grows forever
MAX_FRAMES = 10_000  # nested blocks and verb calls in progress


class OutOfBudget(RulesError):
    """Too much work, a number too large, or nesting too deep: never a constant, always shown."""


def set_ceiling(steps: int) -> None:
    """The command line's `--max-work`: the person running madang may allow more."""
    global CEILING
    CEILING = max(int(steps), 1)


def allowed(asked: object) -> int:
    """The budget a game gets: what the ruleset asks, within the ceiling."""
    n = asked if isinstance(asked, int) and not isinstance(asked, bool) and asked > 0 else DEFAULT
    return min(n, CEILING)


class Budget:
    """What a state contributes to charging, for evaluations without a game (constants
    folded while loading): the same limits apply while a file is checked."""

    __slots__ = ("work", "work_limit")

    def __init__(self, steps: int | None = None):
        self.work = 0
        self.work_limit = DEFAULT if steps is None else steps


def start(st) -> None:
    """A new stretch of play (up to the next decision) gets the game's whole budget."""
    st.work_limit = st.work + st.g.max_steps


def charge(st, n: int, what: str) -> None:
    """Count `n` steps of work for `what` (shown in the error, with its location if known)."""
    w = st.work + n
    st.work = w
    if w > st.work_limit:
        g = getattr(st, "g", None)
        steps = g.max_steps if g is not None else st.work_limit
        when = "without a decision" if g is not None else "for one value"
        raise OutOfBudget(
            f"{what}: more than {steps:,} steps of work {when}; a loop, list or"
            " action domain this large is likely a mistake (settings.max_steps sets the budget,"
            f" up to {CEILING:,}; the command line's --max-work raises that ceiling)"
        )


def charges(st, *parts) -> None:
    """Charges made as one where nothing between them reads the work or raises (the generated
    listings: `st.work += A + B`, one test), called where their sum passed the budget: the
    error of the first `(n, what)` of `parts` to pass it, as if charged one by one."""
    w = st.work - sum(parts[0::2])
    for k in range(0, len(parts), 2):
        w += parts[k]
        if w > st.work_limit:
            st.work = w
            charge(st, 0, parts[k + 1])
    charge(st, 0, parts[-1])  # (not reached: the sum passed the budget)


class Again(Exception):
    """A listing whose charges were added up in a local (build/enumerators.py,
    `DEFERRED_CHARGES`) passed the budget where it tests it: it is made again (`relist`)."""


def relist(st, exact, env, src, values, cache, start: int, undo) -> None:
    """A listing made with its charges added up in a local passed the budget at its end or at
    a test, or raised: the work put back where it stood when the listing began (`start`) and
    the kept domains it made forgotten (`undo`: their dictionaries and keys; found again they
    would charge nothing), then made by `exact`, the same listing charged one by one, which
    raises the error of the first charge to pass the budget, or the error the listing met
    first: the error and the work of the listing never added up."""
    for kept, key in reversed(undo):
        kept.pop(key, None)
    st.work = start
    exact(st, env, src, values, cache)
    raise AssertionError("a listing's work added up passed the budget, charged one by one not")


def number(x, what: str = "a product"):
    """`x` if it is a number of sensible size."""
    if isinstance(x, int) and not -MAX_NUMBER <= x <= MAX_NUMBER:
        raise OutOfBudget(f"{what}: number too large ({x.bit_length()} bits; the limit is ±2^62)")
    return x
