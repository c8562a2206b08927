"""Agents answer decisions. An agent sees a `Decision`: its seat, the prompt, the legal options
and the observation of its own seat — never the full state.

The random agent draws from a generator keyed by the game's seed and the number of decisions
made so far (`Decision.key`), never from a stream of its own: a game saved and resumed continues
exactly as one that never stopped, and a game replays the same whatever process plays it.

    agent = make_agent("random")
    while not game.is_terminal():
        game.apply_action(agent.choose(game, game.current_player()))
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path
from typing import TextIO

from ..game.api import GameState, MadangError

AGENTS = ("random", "first", "human", "scripted", "greedy", "mcts")
AGENT_HELP = (
    "random, first, greedy[:options=N|all][:follow=N][:width=N|all][:others], "
    "mcts[:ITERATIONS|:SECONDSs][:depth=N][:c=X][:greedy=X][:group=N][:prune=N][:widen=N][:follow=N][:scale=X][:anchor=X][:rank=N|all][:turn][:relative][:model][:reuse][:workers=N][:peek], "
    "human, "
    "scripted:A|B|C (labels or indices), scripted:@FILE (one a line)"
)


def hash64(seed: int, index: int) -> int:
    """A 64-bit key from a game seed and a decision index (stable across runs, computers and
    Python versions: sha256 of "seed:index")."""
    digest = hashlib.sha256(f"{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


class InputEnded(EOFError):
    """The human's input ended (EOF) or they asked to quit: the game stops unfinished."""


class Decision:
    """What an agent is shown: `seat`, `count` options, a per-decision random `key`, and, made
    only when asked for, the `prompt`, the option `labels` and the seat's `observation`."""

    __slots__ = ("seat", "count", "key", "index", "_game", "_labels", "_obs")

    def __init__(self, game: GameState, seat: int | None = None):
        st = game.st
        if st.over or st.pending is None:
            raise MadangError("the game is over: there is no decision to take")
        self.seat = st.pending.player if seat is None else seat
        self.count = len(st.pending.values)
        self.index = st.decisions
        self.key = hash64(st.g.seed, st.decisions)
        self._game = game
        self._labels = None
        self._obs = None

    @property
    def prompt(self) -> str:
        return self._game.prompt()

    @property
    def labels(self) -> list[str]:
        if self._labels is None:
            self._labels = self._game.action_labels()
        return self._labels

    @property
    def observation(self) -> dict:
        if self._obs is None:
            self._obs = self._game.observation(self.seat)
        return self._obs

    def rng(self) -> random.Random:
        """A generator of this decision's own (for agents that need more than one draw)."""
        return random.Random(self.key)

    def sample(self, rng: random.Random) -> GameState:
        """A game this seat cannot tell from the real one: what it may not see is re-dealt at
        random (GameState.determinize). Searching agents play in samples, never in the game."""
        return self._game.determinize(self.seat, rng)

    def search_root(self) -> GameState:
        """The game itself, for a search that determinizes it at every iteration
        (tools/mcts.Search); agents must not read it otherwise."""
        return self._game


class Agent:
    """Base of the agents: `decide(d)` returns an option index in range(d.count)."""

    name = "agent"
    # Whether `decide` draws samples of the hidden cards (Decision.sample), which use what the
    # seat remembers of cards gone out of its view; a game whose agents never sample need not
    # keep that memory (`new_game(memory=False)`: the same game, less work).
    samples = True

    def decide(self, d: Decision) -> int:
        raise NotImplementedError

    def choose(self, game: GameState, seat: int | None = None) -> int:
        """Convenience for code that holds the game: shows the agent only its Decision."""
        return self.decide(Decision(game, seat))


class RandomAgent(Agent):
    """Uniform over the legal options: `random.Random(hash64(seed, decision index))`."""

    name = "random"
    samples = False

    def decide(self, d: Decision) -> int:
        return random.Random(d.key).randrange(d.count)


class FirstAgent(Agent):
    """Always the first option (for tests)."""

    name = "first"
    samples = False

    def decide(self, d: Decision) -> int:
        return 0


class GreedyAgent(Agent):
    """One ply: options are tried in a sample of the hidden cards (Decision.sample) and the
    one whose result the ruleset's `score(p)` likes best is taken (a win beats any score);
    ties at random. At most `max_options` options are tried (None: all): on wider decisions one
    of each kind first, then more of the best kinds (tools/mcts.greedy_index). Without a `score`
    it takes immediate wins and otherwise plays at random."""

    name = "greedy"

    def __init__(self, max_options: int | None = None, follow: int | None = None,
                 follow_width: int | None = None, others: bool = False):  # fmt: skip
        from .mcts import FOLLOW, FOLLOW_WIDTH, GREEDY_OPTIONS

        # None: the default; 0: every option
        self.max_options = GREEDY_OPTIONS if max_options is None else (max_options or None)
        self.follow = FOLLOW if follow is None else follow
        self.follow_width = FOLLOW_WIDTH if follow_width is None else follow_width
        self.others = others

    def decide(self, d: Decision) -> int:
        from .mcts import greedy_index

        rng = d.rng()
        sample = d.sample(rng)
        return greedy_index(sample, d.seat, rng, follow=self.follow, max_options=self.max_options,
                            follow_width=self.follow_width, others=self.others)  # fmt: skip


def parse_greedy(arg: str, spec: str) -> GreedyAgent:
    """greedy[:options=N|all][:follow=N][:width=N|all][:others]"""
    kw: dict = {}
    for part in [p.strip() for p in arg.split(":") if p.strip()]:
        key, eq, val = part.partition("=")
        try:
            if key == "options" and eq:
                kw["max_options"] = 0 if val == "all" else int(val)
                if kw["max_options"] < 1 and val != "all":
                    raise ValueError(part)
            elif key == "follow" and eq:
                kw["follow"] = int(val)
                if kw["follow"] < 0:
                    raise ValueError(part)
            elif key == "others" and not eq:
                kw["others"] = True
            elif key == "width" and eq:
                kw["follow_width"] = 10**9 if val == "all" else int(val)
                if kw["follow_width"] < 1:
                    raise ValueError(part)
            else:
                raise ValueError(part)
        except ValueError:
            raise MadangError(
                f"bad agent {spec!r}: {part!r} is not options=N|all, follow=N, width=N|all or others"
            ) from None
    return GreedyAgent(**kw)


class MCTSAgent(Agent):
    """Information-set MCTS (tools/mcts.py): `iterations` per decision, or `seconds`. With
    `reuse`, the subtree of the option chosen is kept for the seat's next decision when that
    comes right after it; with `workers` > 1, as many searches from the same root, each with
    its own samples, in parallel processes, their root statistics added up (root parallelism)."""

    name = "mcts"

    def __init__(self, iterations: int | None = 200, seconds: float | None = None,
                 depth: int | None | str = "default", c: float = 0.7, greedy: float = 0.0,
                 peek: bool = False, group: int | None | str = "default",
                 prune: int | None | str = "default", turn: bool | None = None,
                 widen: int | None | str = "default", reuse: bool = False,
                 workers: int = 1, follow: int = 0, scale: float = 10.0,
                 relative: bool = False, anchor: float | None = None,
                 model: bool = False, rank: int | None | str = "default"):  # fmt: skip
        from .mcts import GREEDY_OPTIONS, GROUP_WIDTH, PRUNE, TURN, WIDEN

        self.model = model
        self.rank = GREEDY_OPTIONS if rank == "default" else rank
        self.anchor = anchor
        self.scale = scale
        self.relative = relative
        self.follow = follow
        self.widen = WIDEN if widen == "default" else widen
        self.turn = TURN if turn is None else turn
        self.group = GROUP_WIDTH if group == "default" else group
        self.prune = PRUNE if prune == "default" else prune
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.c = c
        self.greedy = greedy
        self.peek = peek
        self.reuse = reuse
        self.workers = workers
        self.kept = None  # (decision index, seat, node): the subtree kept for the next decision
        self.last = None  # the last Search, for statistics
        # the settings named in the agent's spec (parse_mcts); the others may come from the
        # ruleset's `settings.mcts` (None: every setting is the agent's own)
        self.given: set[str] | None = None
        self._tuned: tuple[int, MCTSAgent] | None = None

    def tuned(self, root: GameState) -> MCTSAgent:
        """The settings to search `root` with: the ruleset's `settings.mcts` (search settings
        in the spec's syntax, e.g. `c=0.15:follow=6`), then the spec's own on top."""
        text = root.st.g.prog.settings.get("mcts")
        if not text or self.given is None:
            return self
        key = id(root.st.g.prog)
        if self._tuned is None or self._tuned[0] != key:
            base = mcts_keywords(str(text), f"settings.mcts: {text}")
            if set(base) - RULESET_MCTS:
                raise MadangError(
                    f"settings.mcts: {text!r} may set only {', '.join(sorted(RULESET_MCTS))}"
                )
            own = {k: getattr(self, k) for k in self.given}
            self._tuned = (key, MCTSAgent(**{**base, **own}))
        return self._tuned[1]

    def decide(self, d: Decision) -> int:
        from .mcts import Search, playout_depth, run_workers

        root = d.search_root()
        cfg = self.tuned(root)
        depth = playout_depth(root) if cfg.depth == "default" else cfg.depth
        settings = dict(iterations=cfg.iterations, seconds=cfg.seconds, c=cfg.c, depth=depth,
                        greedy=cfg.greedy, determinize=not cfg.peek, group=cfg.group,
                        prune=cfg.prune, turn=cfg.turn, widen=cfg.widen,
                        follow=cfg.follow, scale=cfg.scale,
                        relative=cfg.relative, anchor=cfg.anchor, model=cfg.model,
                        rank=cfg.rank)  # fmt: skip
        tree = None
        if self.kept is not None:
            index, seat, node = self.kept
            if d.index == index + 1 and d.seat == seat:
                tree = node
        self.kept = None
        others = []
        if cfg.workers > 1:
            seeds = [f"{d.key}:{w}" for w in range(1, cfg.workers)]
            others = run_workers(root, seeds, settings)
        search = Search(root, d.rng(), tree=tree, **settings)
        search.run()
        for w in others:
            counts, done, steps = w.get()
            search.merge(counts)
            search.done += done
            search.playout_decisions += steps
        choice = search.best()
        if cfg.reuse:
            child = search.root.children.get(d.labels[choice])
            if child is not None:
                self.kept = (d.index, d.seat, child)
        self.last = search
        return choice


# What a ruleset's `settings.mcts` may set: how to search its game, not how much nor how.
RULESET_MCTS = {
    "depth", "c", "greedy", "group", "prune", "widen", "follow", "turn", "scale", "relative",
    "anchor", "model", "rank",
}  # fmt: skip


def parse_mcts(arg: str, spec: str) -> MCTSAgent:
    """mcts[:200|:1.5s][:depth=N|none][:c=X][:model][:greedy=X][:group=N|none][:prune=N|none][:widen=N|none][:turn|:noturn][:reuse][:workers=N][:follow=N][:peek]"""
    kw = mcts_keywords(arg, spec)
    agent = MCTSAgent(**kw)
    agent.given = set(kw)
    return agent


def mcts_keywords(arg: str, spec: str) -> dict:
    """The settings an mcts spec names (after `mcts:`), as MCTSAgent's keywords."""
    kw: dict = {}
    for part in [p.strip() for p in arg.split(":") if p.strip()]:
        key, eq, val = part.partition("=")
        try:
            if not eq and key.endswith("s") and key[:-1].replace(".", "", 1).isdigit():
                kw["seconds"], kw["iterations"] = float(key[:-1]), None
            elif not eq and key.isdigit():
                kw["iterations"] = int(key)
            elif not eq and key in ("peek", "reuse", "model"):
                kw[key] = True
            elif key == "workers":
                kw["workers"] = int(val)
                if kw["workers"] < 1:
                    raise ValueError(part)
            elif key == "follow":
                kw["follow"] = int(val)
                if kw["follow"] < 0:
                    raise ValueError(part)
            elif not eq and key in ("turn", "noturn"):
                kw["turn"] = key == "turn"
            elif not eq and key in ("relative", "absolute"):
                kw["relative"] = key == "relative"
            elif key == "depth":
                kw["depth"] = None if val == "none" else int(val)
            elif key == "rank" and val == "all":
                kw["rank"] = None
            elif key in ("group", "prune", "widen", "rank"):
                kw[key] = None if val == "none" else int(val)
                if kw[key] is not None and kw[key] < 1:
                    raise ValueError(part)
            elif key in ("c", "greedy"):
                kw[key] = float(val)
            elif key == "anchor":
                kw["anchor"] = None if val == "none" else float(val)
                if kw["anchor"] is not None and kw["anchor"] < 0:
                    raise ValueError(part)
            elif key == "scale":
                kw["scale"] = float(val)
                if not kw["scale"] > 0:
                    raise ValueError(part)
            else:
                raise ValueError(part)
        except ValueError:
            raise MadangError(
                f"bad agent {spec!r}: {part!r} is not ITERATIONS, SECONDSs, depth=N, c=X, "
                "greedy=X, group=N, prune=N, widen=N, follow=N, scale=X, anchor=X, turn, noturn, relative, "
                "absolute, model, rank=N|all, reuse, workers=N or peek"
            ) from None
    if kw.get("iterations") == 0:
        raise MadangError(f"bad agent {spec!r}: at least 1 iteration")
    return kw


def pick(labels: list[str], answer: str) -> int | str:
    """The option `answer` names (an index, or an option's text, exact or ignoring case), or a
    message saying why it names none."""
    a = answer.strip()
    if not a:
        return "empty answer"
    if a in labels:
        return labels.index(a)
    if a.isascii() and a.isdigit():
        i = int(a)
        if i < len(labels):
            return i
        return f"{a} is not an option number (0..{len(labels) - 1})"
    folded = [k for k, label in enumerate(labels) if label.casefold() == a.casefold()]
    if folded:
        return folded[0]
    return f"{a!r} is not an option"


class ScriptedAgent(Agent):
    """Answers from a list of option labels or indices, in order (one list per agent)."""

    name = "scripted"
    samples = False

    def __init__(self, script: list):
        self.script = list(script)
        self.used = 0

    def decide(self, d: Decision) -> int:
        if self.used >= len(self.script):
            raise MadangError(
                f"the script of choices ran out after {self.used} choice(s) (seat P{d.seat + 1}, "
                f"decision {d.index}: {d.prompt}; options: {', '.join(d.labels)})"
            )
        step = self.script[self.used]
        self.used += 1
        if isinstance(step, int) and not isinstance(step, bool):
            if 0 <= step < d.count:
                return step
            got: int | str = f"{step} is not an option number (0..{d.count - 1})"
        else:
            got = pick(d.labels, str(step))
        if isinstance(got, int):
            return got
        raise MadangError(
            f"scripted choice {self.used} for P{d.seat + 1}: {got}; options: {', '.join(d.labels)}"
        )


class HumanAgent(Agent):
    """The terminal player: the seat's observation, numbered options, validated input. Nonsense
    is asked again; the end of input (or `quit`) stops the game with InputEnded. `words`, when
    given, respells names for display (e.g. in the ruleset's language); an answer may use
    either spelling."""

    name = "human"

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None, words=None,
                 table=None):  # fmt: skip
        self.stdin = stdin
        self.stdout = stdout
        self.words = words or (lambda s: s)
        # `table`, when given (tools/table.py through the CLI), draws the board and answers the
        # `board`, `show NAME` and `log` commands: board(game, seat, out), info(game, seat, name)
        # -> text or None, history(seat) -> recent lines of the seat's narration
        self.table = table

    def show(self, d: Decision, out: TextIO) -> None:
        if self.table is not None:
            out.write(f"\n— P{d.seat + 1} to decide\n")
            out.flush()
            self.table.board(d._game, d.seat, out)
            self.options(d, out)
            return
        w = self.words
        obs = d.observation
        phase = w(str(obs.get("phase"))) if obs.get("phase") else "-"
        out.write(f"\n— P{d.seat + 1} to decide (turn {obs.get('turn')}, {phase})\n")
        for label, contents in obs.get("zones", {}).items():
            if isinstance(contents, dict):
                if contents.get("count"):
                    out.write(f"  {w(label)}: {contents['count']} hidden\n")
            elif contents:
                out.write(f"  {w(label)}: {', '.join(w(str(c)) for c in contents)}\n")
        for name, value in obs.get("counters", {}).items():
            out.write(f"  {w(name)}: {value}\n")
        for name, values in obs.get("player_counters", {}).items():
            out.write(f"  {w(name)}: {' / '.join(f'P{i + 1} {v}' for i, v in enumerate(values))}\n")
        self.options(d, out)

    def shown(self, d: Decision) -> list[str]:
        """The options as the person reads them: the table's, in its language (tools/view.py),
        else the labels respelt."""
        if self.table is not None and hasattr(self.table, "options"):
            return self.table.options(d._game)
        return [self.words(label) for label in d.labels]

    def options(self, d: Decision, out: TextIO) -> None:
        out.write(f"{self.words(d.prompt) if d.prompt else 'choose'}:\n")
        width = len(str(d.count - 1))
        for i, label in enumerate(self.shown(d)):
            out.write(f"  {i:>{width}}) {label}\n")

    def decide(self, d: Decision) -> int:
        out = self.stdout or sys.stdout
        inp = self.stdin or sys.stdin
        self.show(d, out)
        while True:
            out.write(f"P{d.seat + 1}> ")
            out.flush()
            line = inp.readline()
            if not line:
                raise InputEnded("input ended")
            answer = line.strip()
            if not _isatty(inp):
                out.write(answer + "\n")  # echo piped answers, so that a transcript reads well
            shown = self.shown(d)
            if answer in ("?", "help") and answer not in d.labels and answer not in shown:
                self.options(d, out)
                out.write("  type an option's number or its text; 'quit' stops the game\n")
                if self.table is not None:
                    out.write("  'board' shows the table again, 'show NAME' a card's stats and"
                              " text, 'log' what happened lately\n")  # fmt: skip
                continue
            if self.table is not None and self._command(d, answer, shown, out):
                continue
            if answer in ("quit", "exit", "q") and answer not in d.labels and answer not in shown:
                raise InputEnded("the player quit")
            got = pick(d.labels, answer)
            if (
                not isinstance(got, int)
                and shown != d.labels
                and isinstance(pick(shown, answer), int)
            ):
                got = pick(shown, answer)
            if isinstance(got, int):
                return got
            out.write(
                f"  {got}: type a number from 0 to {d.count - 1}, or an option's text ('?' lists them)\n"
            )

    def _command(self, d: Decision, answer: str, shown: list[str], out: TextIO) -> bool:
        """`board`, `show NAME`, `log`: True when the answer was one of them (not an option)."""
        word, _, rest = answer.partition(" ")
        if answer in d.labels or answer in shown or word not in ("board", "show", "log"):
            return False
        if word == "board":
            self.table.board(d._game, d.seat, out)
        elif word == "log":
            lines = self.table.history(d.seat)
            out.write("\n".join(lines[-20:]) + "\n" if lines else "  nothing yet\n")
        elif not rest.strip():
            out.write("  show which card? e.g. 'show " + (shown[0] if shown else "NAME") + "'\n")
        else:
            info = self.table.info(d._game, d.seat, rest.strip())
            out.write(("  " + info.replace("\n", "\n  ") if info else f"  no card '{rest}' in sight")
                      + "\n")  # fmt: skip
        return True


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def make_agent(spec: str, words=None, table=None) -> Agent:
    """An agent from its command-line name: random, first, human, scripted:A|B, scripted:@FILE.
    `words` respells names shown to a human (see HumanAgent)."""
    name, _, arg = spec.strip().partition(":")
    if name == "random" and not arg:
        return RandomAgent()
    if name == "first" and not arg:
        return FirstAgent()
    if name == "greedy":
        return parse_greedy(arg, spec)
    if name == "mcts":
        return parse_mcts(arg, spec)
    if name == "human" and not arg:
        return HumanAgent(words=words, table=table)
    if name == "scripted":
        if arg.startswith("@"):
            try:
                text = Path(arg[1:]).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                raise MadangError(f"cannot read the script {arg[1:]}: {e}") from None
            steps = [
                ln.strip()
                for ln in text.splitlines()
                if ln.strip() and not ln.lstrip().startswith("#")
            ]
        else:
            steps = [s for s in arg.split("|") if s.strip()] if arg else []
        return ScriptedAgent(steps)
    raise MadangError(f"unknown agent {spec!r}; agents: {AGENT_HELP}")


__all__ = [
    "Agent", "Decision", "RandomAgent", "FirstAgent", "HumanAgent", "ScriptedAgent",
    "InputEnded", "make_agent", "hash64", "pick", "GreedyAgent", "MCTSAgent",
]  # fmt: skip
