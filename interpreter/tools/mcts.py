"""Searching agents: a greedy one-ply player and information-set Monte Carlo tree search.

Both play only in *determinizations*: copies of the game in which what their seat cannot see is
re-dealt at random (`GameState.determinize`), so they never read the opponents' hidden cards or
the future of the random generator. Both read the ruleset's own evaluation, `score(p)`, when it
declares one (docs/agents.md); without one they see only wins and losses.

MCTS is single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): every iteration samples a
new determinization, walks one tree of the deciding seat's information set (UCB1 with
availability counts, so an option counts only where it was legal), adds one node, then plays on
at random — to the end, or for `depth` decisions when the ruleset has an evaluation, scoring the
position it reaches. Tree edges are the options' labels, which name cards and places, not
object numbers, so the same move in two samples is one edge.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import time

from ..game.api import GameState
from ..runtime.errors import RulesError

# A playout without an evaluation stops after this many decisions and counts as a draw.
PLAYOUT_LIMIT = 5000
# Decisions of more options than this are searched in two steps: the option's kind, then the
# option (Search.group; None: never).
GROUP_WIDTH = None
# A root of more options than this searches only the ones the greedy step judges best
# (Search.narrow_root; None: every option).
PRUNE = 8
# Playouts end where another seat than the last one in the tree decides (Search.turn).
TURN = False
# Below the root, a decision of more than PRUNE options searches only its WIDEN best options by
# the greedy step of the seat deciding there, one more per square of its visits (progressive
# widening; Search.widen; None: every option).
WIDEN = None


def score_of(game: GameState, player: int) -> float | None:
    """The ruleset's evaluation for `player`, or None (none declared, or it failed here)."""
    try:
        return game.evaluate(player)
    except (RulesError, TypeError, ValueError, ZeroDivisionError, AttributeError, IndexError):
        return None


def rewards(game: GameState, scale: float) -> list[float]:
    """Each seat's reward in [0, 1]: 1 a win, 0 a loss, ½ a draw; before the end, ½ ± the
    seat's evaluation against the best other seat's, squashed by tanh(difference / scale)."""
    n = game.st.g.nplayers
    if game.is_terminal():
        return [(r + 1.0) / 2.0 for r in game.returns()]
    scores = [score_of(game, p) for p in range(n)]
    if any(s is None for s in scores):
        return [0.5] * n
    out = []
    for p in range(n):
        best_other = max(scores[q] for q in range(n) if q != p) if n > 1 else 0.0
        out.append(0.5 + 0.5 * math.tanh((scores[p] - best_other) / scale))
    return out


def differences(game: GameState) -> list[float] | None:
    """Each seat's evaluation less the best other seat's (None: no evaluation here)."""
    n = game.st.g.nplayers
    scores = [score_of(game, p) for p in range(n)]
    if any(s is None for s in scores):
        return None
    return [
        scores[p] - (max(scores[q] for q in range(n) if q != p) if n > 1 else 0.0) for p in range(n)
    ]


def relative_rewards(game: GameState, scale: float, base: list[float] | None) -> list[float]:
    """rewards, with a cut-off position judged against `base` (the seats' differences where
    the iteration started): ½ ± tanh((difference − base) / scale). A seat far ahead or behind
    then still sees how much an option gains, where absolute rewards squash every option to
    nearly 1 or 0; an end of the game is still 1, 0 or ½."""
    if base is None or game.is_terminal():
        return rewards(game, scale)
    now = differences(game)
    if now is None:
        return [0.5] * len(base)
    return [0.5 + 0.5 * math.tanh((d - b) / scale) for d, b in zip(now, base, strict=True)]


def has_evaluation(game: GameState) -> bool:
    return game.st.g.prog.evaluation is not None


# How many decisions a playout plays past the tree before the evaluation judges, unless the
# ruleset says otherwise (`settings.playout_depth`) or the agent does (`mcts:depth=N`).
DEPTH = 20


def playout_depth(game: GameState) -> int:
    """The ruleset's `settings.playout_depth` (0: its evaluation judges a position as it
    stands, random moves only blur it), else DEPTH."""
    return int(game.st.g.prog.settings.get("playout_depth", DEPTH))


# The greedy agent's defaults: at most GREEDY_OPTIONS options judged per decision, and the seat's
# own follow-up decisions of at most FOLLOW_WIDTH options taken before judging (up to FOLLOW).
GREEDY_OPTIONS = 12
FOLLOW = 3
FOLLOW_WIDTH = 6


def option_kind(label: str) -> str:
    """The kind of an option: its label's first word (an action's name, or a choice's value)."""
    return label.split(" ", 1)[0]


def greedy_candidates(labels: list[str], rng: random.Random,
                      max_options: int | None) -> list[list[int]]:  # fmt: skip
    """The options a greedy step judges, in rounds: all of them, shuffled, in one round when
    there are at most `max_options` (None: no limit); otherwise first one option of every kind
    (option_kind; at most `max_options` kinds), then the rest of the options shuffled, from
    which greedy_index takes what its budget allows, best kinds first."""
    order = list(range(len(labels)))
    rng.shuffle(order)
    if max_options is None or len(order) <= max_options:
        return [order]
    seen: dict[str, int] = {}
    rest = []
    for a in order:
        k = option_kind(labels[a])
        if k in seen:
            rest.append(a)
        else:
            seen[k] = a
    firsts = list(seen.values())[:max_options]
    return [firsts, rest]


def judge(game: GameState, a: int, seat: int, rng: random.Random, scale: float, follow: int,
          follow_width: int, others: bool = False) -> float | None:  # fmt: skip
    """`seat`'s reward after option `a` in a copy of `game`, its own narrow follow-up decisions
    (at most `follow_width` options: a target, a spellbook) taken greedily first, up to
    `follow` of them; with `others`, the narrow decisions of the other seats on the way too,
    each taken greedily for the seat deciding it (so that what an option sets going, an exchange
    with its answers, is judged once it is over). None when the option breaks a rule in this
    sample."""
    g = game.clone()
    try:
        g.apply_action(a)
        for _ in range(follow):
            if g.is_terminal():
                break
            who = g.current_player()
            if who != seat and not others:
                break
            if len(g.st.pending.values) > follow_width:
                break
            g.apply_action(greedy_index(g, who, rng, scale, 0))
    except RulesError:
        return None
    return rewards(g, scale)[seat]


def greedy_index(game: GameState, seat: int, rng: random.Random, scale: float = 10.0,
                 follow: int = FOLLOW, max_options: int | None = None,
                 follow_width: int = FOLLOW_WIDTH, others: bool = False) -> int:  # fmt: skip
    """The option whose result is best for `seat` (ties: the first judged, in random order),
    judged in `game` (a determinization: the caller never passes the real state). When an
    option leads to a narrow decision of the same seat (judge), that is taken greedily too.

    With `max_options`, at most that many options are judged: on a wider decision one of each
    kind first (every action gets a say), then more options of the kinds whose first option
    did best, best kind first, until the budget is spent."""
    judged = greedy_values(game, seat, rng, scale, follow, max_options, follow_width, others)
    best, best_value = judged[0][0], -1.0
    for a, v in judged:
        if v is not None and v > best_value:
            best, best_value = a, v
    return best


def greedy_values(game: GameState, seat: int, rng: random.Random, scale: float = 10.0,
                  follow: int = FOLLOW, max_options: int | None = None,
                  follow_width: int = FOLLOW_WIDTH, others: bool = False
                  ) -> list[tuple[int, float | None]]:  # fmt: skip
    """The options greedy_index judges, in the order judged, with `seat`'s reward after each
    (None: the option breaks a rule in this sample)."""
    options = game.legal_actions()
    labels = None
    if max_options is None or len(options) <= max_options:
        rounds = greedy_candidates([""] * len(options), rng, None)
    else:
        labels = game.action_labels()
        rounds = greedy_candidates(labels, rng, max_options)
    out: list[tuple[int, float | None]] = []
    kind_value: dict[str, float] = {}
    for a in rounds[0]:
        v = judge(game, options[a], seat, rng, scale, follow, follow_width, others)
        out.append((options[a], v))
        if labels is not None:
            kind_value[option_kind(labels[a])] = -1.0 if v is None else v
    if labels is not None:
        # The rest of the budget: more options of the best kinds first (a stable sort keeps
        # the random order within a kind).
        rest = sorted(rounds[1], key=lambda a: -kind_value.get(option_kind(labels[a]), -1.0))
        for a in rest[: max(max_options - len(out), 0)]:
            out.append((options[a], judge(game, options[a], seat, rng, scale, follow,
                                          follow_width, others)))  # fmt: skip
    return out


def follow_up(game: GameState, rng: random.Random, scale: float, follow: int) -> int:
    """Completes the move a leaf of the tree started: the narrow decisions that follow (at most
    FOLLOW_WIDTH options), the mover's and the other seats' (an opponent's answers: how it takes
    the losses an attack deals it, where it withdraws), each taken by the greedy step of the seat
    deciding it, up to `follow` in all, as the greedy agent judges an option (judge with
    `others`): a leaf of the tree is judged once what its move sets going is settled. It stops
    at the first wide decision (the next action of a turn). Returns the decisions taken."""
    st = game.st
    taken = 0
    while taken < follow and not st.over:
        if len(st.pending.values) > FOLLOW_WIDTH:
            break
        who = st.pending.player
        game.apply_action(greedy_index(game, who, rng, scale, 0))
        taken += 1
    return taken


def playout(game: GameState, rng: random.Random, depth: int | None, greedy: float = 0.0,
            scale: float = 10.0, seat: int | None = None) -> int:  # fmt: skip
    """Plays `game` on at random (a share `greedy` of the decisions greedily) for at most
    `depth` decisions (None: to the end, within PLAYOUT_LIMIT), and with `seat` only while
    that seat decides (the rest of its turn); returns the decisions played."""
    limit = PLAYOUT_LIMIT if depth is None else depth
    st = game.st
    played = 0
    while not st.over and played < limit:
        if seat is not None and st.pending.player != seat:
            break
        n = len(st.pending.values)
        if greedy and rng.random() < greedy:
            a = greedy_index(game, st.pending.player, rng, scale, max_options=GREEDY_OPTIONS)
        else:
            a = rng.randrange(n)
        game.apply_action(a)
        played += 1
    return played


def ranked(game: GameState, seat: int, rng: random.Random, scale: float,
           max_options: int | None = GREEDY_OPTIONS) -> list[str]:  # fmt: skip
    """The labels of the options the greedy step judges in `game` (a sample) for `seat`, best
    first (ties: in the order judged); at most `max_options` of them judged (None: all)."""
    judged = greedy_values(game, seat, rng, scale, max_options=max_options)
    order = sorted(
        range(len(judged)),
        key=lambda k: (-(judged[k][1] if judged[k][1] is not None else -1.0), k),
    )
    names = game.action_labels()
    return [names[judged[k][0]] for k in order]


class Node:
    """One information-set node: its children by option label, and per-seat reward sums."""

    __slots__ = ("children", "kinds", "visits", "avail", "total", "order")

    def __init__(self, nplayers: int):
        self.children: dict[str, Node] = {}
        self.kinds: dict[str, Node] | None = None  # by option kind, at a wide decision
        # at a wide decision (prune, widen): the options' labels the greedy step judged, best first
        self.order: list[str] | None = None
        self.visits = 0
        self.avail = 0
        self.total = [0.0] * nplayers


class Search:
    """One ISMCTS search from `root` (the real game) for the seat deciding there."""

    def __init__(self, root: GameState, rng: random.Random, iterations: int | None = 200,
                 seconds: float | None = None, c: float = 0.7, depth: int | None = 20,
                 greedy: float = 0.0, scale: float = 10.0, determinize: bool = True,
                 group: int | None = GROUP_WIDTH, prune: int | None = PRUNE,
                 turn: bool = False, widen: int | None = WIDEN,
                 tree: Node | None = None, follow: int = 0,
                 relative: bool = False, anchor: float | None = None,
                 model: bool = False, rank: int | None = GREEDY_OPTIONS):  # fmt: skip
        self.root_game = root
        # how many options the greedy step judges where the search ranks them (None: all)
        self.rank = rank
        # the other seats' decisions below the root: only their greedy step's choice (allowed)
        self.model = model
        # the greedy step's choice is kept unless an option beats it by this mean reward
        self.anchor = anchor
        # cut-off positions judged against the root's differences (relative_rewards)
        self.relative = relative and has_evaluation(root)
        self.follow = follow
        self.widen = widen
        self.turn = turn  # playouts end where another seat than the last one in the tree decides
        self.group = group
        self.prune = prune
        self.seat = root.current_player()
        self.rng = rng
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.depth = depth if has_evaluation(root) else None
        self.greedy = greedy
        self.scale = scale
        self.determinize = determinize
        self.n = root.st.g.nplayers
        # `tree`: a node kept from the seat's previous search (tree reuse), else a new root
        self.root = tree if tree is not None else Node(self.n)
        self.reused = self.root.visits  # the visits the root had before this search
        # the root statistics of other workers' searches (root parallelism): label -> visits, sums
        self.merged: dict[str, tuple[int, list[float]]] = {}
        self.done = 0
        self.playout_decisions = 0

    def sample(self) -> GameState:
        if self.determinize:
            return self.root_game.determinize(self.seat, self.rng)
        # perfect information: the hidden cards and the generator's future (comparison only)
        return self.root_game.clone()

    def run(self) -> int:
        """Search within the budget; returns the index of the option chosen at the root."""
        start = time.perf_counter()
        self.narrow_root()
        while True:
            if self.iterations is not None and self.done >= self.iterations:
                break
            if self.seconds is not None and time.perf_counter() - start >= self.seconds:
                break
            self.iterate()
            self.done += 1
        return self.best()

    def iterate(self) -> None:
        game = self.sample()
        base = differences(game) if self.relative else None
        node = self.root
        path = [node]
        last_player = self.seat
        rng = self.rng
        st = game.st
        try:
            while not st.over:
                labels = game.action_labels()
                player = st.pending.player
                options: list[int] | range = range(len(labels))
                allowed = self.allowed(node, game, player, len(labels))
                if allowed is not None:
                    options = [a for a in options if labels[a] in allowed] or options
                if self.group is not None and len(options) > self.group:
                    # A wide decision: first the kind of option (the action), then the option.
                    by_kind: dict[str, list[int]] = {}
                    for a in options:
                        by_kind.setdefault(option_kind(labels[a]), []).append(a)
                    kinds = list(by_kind)
                    if node.kinds is None:
                        node.kinds = {}
                    k, knode, _new = self.choose(node.kinds, kinds, player)
                    path.append(knode)
                    options = by_kind[kinds[k]]
                i, child, new = self.choose(node.children, [labels[a] for a in options], player)
                last_player = player
                a = options[i]
                game.apply_action(a)
                path.append(child)
                if new:
                    break
                node = child
            if self.follow:
                self.playout_decisions += follow_up(game, rng, self.scale, self.follow)
            mover = last_player if self.turn else None
            self.playout_decisions += playout(game, rng, self.depth, self.greedy, self.scale, mover)
            reward = relative_rewards(game, self.scale, base)
        except RulesError:
            reward = [0.5] * self.n  # a rules error inside a sample: neither good nor bad
        for nd in path:
            nd.visits += 1
            t = nd.total
            for p in range(self.n):
                t[p] += reward[p]

    def narrow_root(self) -> None:
        """With `prune`, a root of more options than that searches only the `prune` options
        the greedy step judges best in one sample (its candidates: one of each kind first):
        the ruleset's evaluation orders the options, the search reads further among the best."""
        labels = self.root_game.action_labels()
        if self.root.order is not None or len(labels) < 2:
            return
        if self.anchor is None and (self.prune is None or len(labels) <= self.prune):
            return
        self.root.order = ranked(self.sample(), self.seat, self.rng, self.scale, self.rank)

    def allowed(self, node: Node, game: GameState, player: int, width: int) -> set[str] | None:
        """The options searched at `node` (None: all): at the root the `prune` best (narrow_root);
        below it, at a decision of more than `prune` options, with `widen`, the `widen` best for
        the seat deciding there, ranked by the greedy step in the first sample that reaches it,
        plus one per square of the node's visits (progressive widening); with `model`, at
        another seat's decision, only the option its greedy step ranks first there (an opponent
        model: the tree then spends its visits on the searching seat's own choices)."""
        if node is self.root:
            if node.order is None or self.prune is None or width <= self.prune:
                return None
            return set(node.order[: self.prune])
        if self.model and player != self.seat and width > 1:
            if node.order is None:
                node.order = ranked(game, player, self.rng, self.scale, self.rank)
            if node.order[0] in game.action_labels():
                return set(node.order[:1])
            # not legal in this sample (it names a card this sample deals elsewhere): the
            # seat's greedy choice in this sample instead
            return set(ranked(game, player, self.rng, self.scale, self.rank)[:1])
        if self.widen is None or self.prune is None or width <= self.prune:
            return None
        if node.order is None:
            node.order = ranked(game, player, self.rng, self.scale, self.rank)
        return set(node.order[: self.widen + math.isqrt(node.visits)])

    def choose(self, children: dict[str, Node], keys: list[str], player: int
               ) -> tuple[int, Node, bool]:  # fmt: skip
        """UCB1 with availability among `keys` (an untried one first, at random): the index of
        the key chosen, its node, and whether the node is new."""
        untried = []
        best, best_u = -1, -1.0
        for k, key in enumerate(keys):
            child = children.get(key)
            if child is None:
                untried.append(k)
                continue
            child.avail += 1
            if not untried:
                u = child.total[player] / child.visits + self.c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if u > best_u:
                    best, best_u = k, u
        if untried:
            k = untried[self.rng.randrange(len(untried))]
            child = children[keys[k]] = Node(self.n)
            child.avail = 1
            return k, child, True
        return best, children[keys[best]], False

    def root_counts(self) -> dict[str, tuple[int, list[float]]]:
        """This search's root statistics: every option tried, its visits and reward sums."""
        return {k: (nd.visits, list(nd.total)) for k, nd in self.root.children.items()}

    def merge(self, counts: dict[str, tuple[int, list[float]]]) -> None:
        """Adds another search's root statistics (root parallelism: same root, other samples)."""
        for k, (visits, total) in counts.items():
            v, t = self.merged.get(k, (0, [0.0] * self.n))
            self.merged[k] = (v + visits, [x + y for x, y in zip(t, total, strict=True)])

    def counted(self, label: str) -> tuple[int, float]:
        """An option's visits and reward sum for the deciding seat, this search's and merged."""
        child = self.root.children.get(label)
        visits, total = (child.visits, child.total[self.seat]) if child else (0, 0.0)
        if label in self.merged:
            v, t = self.merged[label]
            visits, total = visits + v, total + t[self.seat]
        return visits, total

    def best(self) -> int:
        """The most visited option at the root (the most robust choice); with `anchor`, the
        greedy step's choice (the first of the root's ranking, made as the greedy agent makes
        it) unless the most visited option's mean reward beats the anchor's by that margin."""
        labels = self.root_game.action_labels()
        best, best_visits = 0, -1
        for a, label in enumerate(labels):
            v = self.counted(label)[0]
            if v > best_visits:
                best, best_visits = a, v
        order = self.root.order
        if self.anchor is None or not order or order[0] not in labels:
            return best
        first = labels.index(order[0])
        if first == best:
            return best
        v_first, t_first = self.counted(order[0])
        if not v_first:
            return first
        v_best, t_best = self.counted(labels[best])
        return best if t_best / v_best - t_first / v_first > self.anchor else first

    def stats(self) -> list[dict]:
        """The root's options with visits and mean reward (for people and tests)."""
        out = []
        for a, label in enumerate(self.root_game.action_labels()):
            visits, total = self.counted(label)
            mean = total / visits if visits else None
            out.append({"option": a, "label": label, "visits": visits, "mean": mean})
        return out


def worker_search(root: GameState, seed: str, settings: dict
                  ) -> tuple[dict[str, tuple[int, list[float]]], int, int]:  # fmt: skip
    """One worker of a root-parallel search (in another process): a search of its own from
    `root` with its own generator; returns its root statistics, iterations and playout steps."""
    search = Search(root, random.Random(seed), **settings)
    search.run()
    return search.root_counts(), search.done, search.playout_decisions


def _child(conn, root: GameState, seed: str, settings: dict) -> None:
    try:
        conn.send(worker_search(root, seed, settings))
    finally:
        conn.close()


def run_workers(root: GameState, seeds: list[str], settings: dict) -> list[WorkerResult]:
    """worker_search for every seed, each in a forked process of its own while the caller
    searches too; where processes cannot be forked (or one fails), in this process instead.
    The results are the same either way: each search depends only on its seed."""
    try:
        ctx = multiprocessing.get_context("fork")
    except ValueError:
        ctx = None
    started = []
    if ctx is not None:
        for seed in seeds:
            try:
                r, w = ctx.Pipe(duplex=False)
                proc = ctx.Process(target=_child, args=(w, root, seed, settings), daemon=True)
                proc.start()
                w.close()
                started.append((proc, r))
            except (AssertionError, OSError):  # e.g. a daemonic process may have no children
                started.append((None, None))
    else:
        started = [(None, None)] * len(seeds)
    return [WorkerResult(root, seed, settings, proc, conn) for seed, (proc, conn) in
            zip(seeds, started, strict=True)]  # fmt: skip


class WorkerResult:
    """A worker's search under way (a forked process), or to be run here when asked for."""

    def __init__(self, root, seed, settings, proc, conn):
        self.args = (root, seed, settings)
        self.proc, self.conn = proc, conn

    def get(self) -> tuple:
        if self.proc is not None:
            try:
                return self.conn.recv()
            except (EOFError, OSError):
                pass  # the process failed: run its search here
            finally:
                self.conn.close()
                self.proc.join()
        return worker_search(*self.args)


__all__ = [
    "Search",
    "Node",
    "worker_search",
    "follow_up",
    "run_workers",
    "greedy_index",
    "greedy_candidates",
    "option_kind",
    "GREEDY_OPTIONS",
    "playout",
    "rewards",
    "score_of",
    "has_evaluation",
]
