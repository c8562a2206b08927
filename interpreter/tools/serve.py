"""`madang serve`: play, watch and replay games in a browser (Starlette, uvicorn, websockets).

A *table* is one game with its seats: people (each with a secret link) or agents. Every message a
browser receives is its own seat's view (`seatview.seat_view`), so a page never holds what its
seat may not see; a spectator's link shows the public zones only.

What a request must be before it is read (same origin, JSON, small, seats from a fixed list) is
in `serveguard`; where the work happens (searching agents in worker processes with a time limit
a move, a game's steps in daemon threads) is in `agentpool`. The event loop only routes: a table
waiting on a slow agent never holds another table or a person's move. A served game's seed comes
from `secrets` and is shown only once the game is over (a seed the client chose is public).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..build.loader import bundled_names
from ..game import optionlabels
from ..game.api import GameState, MadangError, load_program, new_game, resolve_options
from ..runtime.errors import RulesError
from .agentpool import AgentPool, Lane
from .agents import FirstAgent, RandomAgent
from .history import History
from .seatview import SPECTATOR, card_texts, seat_view
from .serveguard import (
    Limits,
    Refusal,
    SameOrigin,
    allowed_hosts,
    allowed_origins,
    read_json,
    seat_agent,
)
from .tablelog import TableLog

WEB = Path(__file__).resolve().parent / "web"
CHEAP = {"random": RandomAgent, "first": FirstAgent}  # agents that answer at once, in-process
SLICE_SECONDS = 0.5  # cheap agents' moves between two broadcasts
IDLE_SECONDS = 120.0  # a table nobody is connected to may give its place after this long
LANGS = ("ko", "en")  # the languages a page may ask for (the view's, the narration's)
WATCH_STEP_SECONDS = 0.25  # a late watcher sees the game replayed from its start at this pace


@dataclass
class Table:
    id: str
    game: GameState
    seats: list[str]  # "human" or an agent as seatview.seat_agent names it; "replay"
    tokens: dict[str, int]  # secret link token -> seat (SPECTATOR for watchers)
    texts: dict[str, str]
    sockets: set = field(default_factory=set)  # (websocket, seat)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    history: list[GameState] | History = field(default_factory=list)  # a replay's states
    seed: int = 0
    seed_public: bool = True  # chosen by the client, or a replay's: nothing to hide
    touched: float = field(default_factory=time.monotonic)  # a person's last activity
    driver: asyncio.Task | None = None  # the task moving this table's agents
    log: TableLog | None = None  # the story so far, narrated per seat (tools/tablelog.py)
    actions: list[int] = field(default_factory=list)  # every choice, for a late watcher
    langs: dict = field(default_factory=dict)  # websocket -> the language its page asked for
    sent: dict = field(default_factory=dict)  # websocket -> how many log lines it has

    def play(self, k: int) -> None:
        """One choice: played, kept for late watchers, its log entries kept for narration."""
        self.game.apply_action(k)
        self.actions.append(k)
        if self.log is not None:
            self.log.take(self.game.st)

    def link(self, seat: int) -> str:
        token = next(t for t, s in self.tokens.items() if s == seat)
        return f"/table/{self.id}?token={token}"

    def links(self) -> dict[str, str]:
        return {
            ("watch" if s == SPECTATOR else f"P{s + 1}"): self.link(s) for s in self.tokens.values()
        }


class Server:
    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        self.pool = AgentPool(self.limits.agent_workers, self.limits.agent_seconds)
        self.lane = Lane(2)  # people's moves, new tables, replays
        self.agent_lane = Lane(2)  # agents that answer at once: never ahead of a person
        self._opening = {False: 0, True: 0}  # tables being made, by kind (replay or not)
        self._rulesets: list[dict] | None = None

    def close(self) -> None:
        """Stop every agent now (worker processes stopped, drivers cancelled)."""
        for table in self.tables.values():
            if table.driver is not None:
                table.driver.cancel()
        self.pool.close()
        self.lane.close()
        self.agent_lane.close()

    # ------------------------------------------------------------ places
    def make_room(self, replay: bool) -> None:
        """A place for one more table of the kind, made by dropping the longest-idle table that
        nobody is connected to (over, or idle for IDLE_SECONDS); never a table with a person."""
        most = self.limits.max_replays if replay else self.limits.max_tables
        kind = [t for t in self.tables.values() if bool(t.history) == replay]
        if len(kind) + self._opening[replay] < most:
            return
        now = time.monotonic()
        free = [
            t
            for t in kind
            if not t.sockets
            and (now - t.touched >= IDLE_SECONDS or (t.game.is_terminal() and not replay))
        ]
        if not free:
            what = "replays" if replay else "tables"
            raise Refusal(
                503,
                f"the server is full: it holds {most} {what} and each has a person at it or was "
                "opened in the last minutes; try again when a game ends",
            )
        self.drop(min(free, key=lambda t: t.touched))

    def drop(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        if table.driver is not None:
            table.driver.cancel()

    async def open(self, replay: bool, build, *args) -> Table:
        """A new table from `build(*args)` (run in the lane), if there is a place for it."""
        self.make_room(replay)
        self._opening[replay] += 1
        try:
            table = await self.lane.run(build, *args)
        finally:
            self._opening[replay] -= 1
        self.tables[table.id] = table
        return table

    # ------------------------------------------------------------ tables
    def create(
        self, ruleset: str, options: dict, seats: list[str], seed: int | None = None
    ) -> Table:
        """A new game (not yet listed: `open` lists it). `seats` are already checked
        (serveguard.seat_agent); a bundled ruleset only. No seed: a secret one."""
        if ruleset not in bundled_names():
            raise MadangError(f"unknown ruleset {ruleset[:60]!r}; rulesets: {_names()}")
        prog = load_program(ruleset)
        _, nplayers = resolve_options(prog, options)
        if len(seats) == 1:
            seats = seats * nplayers
        if len(seats) != nplayers:
            raise MadangError(f"{nplayers} seats needed, {len(seats)} given")
        public = seed is not None
        seed = secrets.randbelow(2**53) if seed is None else seed  # exact in JavaScript
        game = new_game(prog, options, seed=seed, log=True)
        tokens = {secrets.token_urlsafe(12): p for p in range(nplayers) if seats[p] == "human"}
        tokens[secrets.token_urlsafe(12)] = SPECTATOR
        table = Table(secrets.token_urlsafe(6), game, seats, tokens, card_texts(prog),
                      seed=seed, seed_public=public, log=TableLog(prog))  # fmt: skip
        table.log.take(game.st)
        return table

    def replay(self, log_text: str) -> Table:
        """A table whose history is every decision of a logged game, re-played from its seed."""
        lines = [ln for ln in log_text.splitlines() if ln.strip()]
        try:
            header = json.loads(lines[0])
            entries = [json.loads(ln) for ln in lines[1:]]
        except (ValueError, IndexError, RecursionError):
            raise MadangError("not a madang log (JSON lines with a header first)") from None
        if not isinstance(header, dict) or "ruleset" not in header:
            raise MadangError(
                "not a madang log: its first line must be the header of `madang play --log`"
            )
        ruleset = str(header["ruleset"])
        if ruleset not in bundled_names():  # a log may name a folder: never read here
            raise MadangError(f"this server replays games of its bundled rulesets: {_names()}")
        options = header.get("options") or {}
        if not isinstance(options, dict):
            raise MadangError("not a madang log: its options are not a mapping")
        decisions = [
            e for e in entries if isinstance(e, dict) and "decision" in e and "choice" in e
        ]
        if len(decisions) > self.limits.max_replay_decisions:
            raise MadangError(
                f"the log has {len(decisions)} decisions; this server replays at most "
                f"{self.limits.max_replay_decisions}"
            )
        try:
            seed = int(header.get("seed", 0))
        except (TypeError, ValueError):
            raise MadangError("not a madang log: its seed is not a number") from None
        game = new_game(ruleset, options, seed, log=True)
        story = TableLog(game.st.g.prog)
        story.take(game.st)
        history = History(game)
        for e in decisions:
            if game.is_terminal():
                break
            choice = str(e["choice"])
            k = optionlabels.find(game.st, choice)  # or the first option that reads so
            if k is None:
                raise MadangError(f"the log's choice {choice[:80]!r} is not an option here")
            game.apply_action(k)
            story.take(game.st)
            history.append_move(game, k)
        prog = game.st.g.prog
        seats = ["replay"] * game.st.g.nplayers
        tokens = {secrets.token_urlsafe(12): p for p in range(game.st.g.nplayers)}
        tokens[secrets.token_urlsafe(12)] = SPECTATOR
        return Table(secrets.token_urlsafe(6), game, seats, tokens, card_texts(prog),
                     history=history, seed=seed, log=story)  # fmt: skip

    # ------------------------------------------------------------ moves
    async def move(self, table: Table, seat: int, k: int) -> str | None:
        """A person's move; None, or why it is refused."""
        async with table.lock:
            game = table.game
            if game.is_terminal() or game.current_player() != seat:
                return "not your decision"
            if not 0 <= k < len(game.legal_actions()):
                return "no such option"
            table.touched = time.monotonic()
            try:
                await self.lane.run(table.play, k)
            except (RulesError, MadangError) as e:
                return f"the game stopped: {e}"
            # an agent that answers at once moves before anyone is told (one view a move)
            quiet = not game.is_terminal() and table.seats[game.current_player()] in CHEAP
            messages = [] if quiet else self._views(table)
        await _send(table, messages)
        self.kick(table)
        return None

    def kick(self, table: Table) -> None:
        """Start the table's agents, unless they are already moving."""
        if table.history or (table.driver is not None and not table.driver.done()):
            return
        table.driver = asyncio.get_running_loop().create_task(self._drive(table))

    async def _drive(self, table: Table) -> None:
        try:
            await self._agents_move(table)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # an error in the rules: the pages are told, the server goes on
            for ws, _seat in list(table.sockets):
                with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
                    await ws.send_json({"error": f"the game stopped: {e}"})

    async def _agents_move(self, table: Table) -> None:
        """Agents move until a person decides or the game ends: cheap agents in the lane, a
        slice at a time; searching agents in the pool, with the table unlocked meanwhile."""
        game = table.game
        while table.id in self.tables:
            note = None
            async with table.lock:
                if game.is_terminal() or table.seats[game.current_player()] == "human":
                    return
                spec = table.seats[game.current_player()]
                if spec in CHEAP:
                    await self.agent_lane.run(_cheap_moves, table, SLICE_SECONDS)
                    messages = self._views(table)
                else:
                    save, mark = game.to_json(), game.st.decisions
            if spec not in CHEAP:
                kind, _, n = spec.partition(":")
                k = await self.pool.choose(kind, int(n) if n else None, save)
                async with table.lock:
                    if game.st.decisions != mark or game.is_terminal():
                        continue
                    if not isinstance(k, int) or not 0 <= k < len(game.legal_actions()):
                        seat = game.current_player()
                        note = f"P{seat + 1}'s agent played at random: {k}"
                        k = RandomAgent().choose(game)
                    await self.lane.run(table.play, k)
                    messages = self._views(table)
            await _send(table, messages, note)

    # ------------------------------------------------------------ views
    def view(
        self, table: Table, seat: int, step: int | None = None, lang: str | None = None
    ) -> dict:
        lang = _lang(table, lang)
        if table.history:
            step = (
                len(table.history) - 1
                if step is None
                else max(0, min(step, len(table.history) - 1))
            )
            v = seat_view(table.history[step], seat, table.texts, lang)
            v["decision"] = None
            v["replay"] = {"step": step, "steps": len(table.history)}
            v["seed"] = table.seed
            if table.log is not None:  # the story up to this step
                v["log"] = {"from": 0, "lines": table.log.lines(seat, lang, step + 1)}
            return v
        v = seat_view(table.game, seat, table.texts, lang)
        v["seats"] = table.seats
        v["seed"] = table.seed if table.seed_public or table.game.is_terminal() else None
        return v

    def _views(self, table: Table) -> list[tuple[WebSocket, dict]]:
        """Each connected page's view in its language, with the narration lines it has not had
        yet (call with the table locked: the game is not moving)."""
        by_seat: dict[tuple[int, str], dict] = {}
        out = []
        for ws, seat in list(table.sockets):
            lang = _lang(table, table.langs.get(ws))
            if (seat, lang) not in by_seat:
                by_seat[seat, lang] = self.view(table, seat, lang=lang)
            out.append((ws, self._with_log(table, ws, seat, lang, by_seat[seat, lang])))
        return out

    def _with_log(self, table: Table, ws, seat: int, lang: str, view: dict) -> dict:
        if table.log is None or table.history:
            return view
        lines = table.log.lines(seat, lang)
        have = table.sent.get(ws, 0)
        table.sent[ws] = len(lines)
        return {**view, "log": {"from": have, "lines": lines[have:]}}

    async def watch_from_start(self, table: Table, ws) -> None:
        """A spectator who comes after the first move sees the game replayed from its start,
        a step at a time, then live (the moves made meanwhile included)."""
        async with table.lock:
            g0 = table.game.st.g
            lang = _lang(table, table.langs.get(ws))
            game = await self.lane.run(new_game, g0.prog, g0.options, g0.seed, True)
        story = TableLog(g0.prog)
        story.take(game.st)
        done = 0
        while done < len(table.actions):
            v = seat_view(game, SPECTATOR, table.texts, lang)
            v["watching"] = {"step": done, "steps": len(table.actions)}
            v["seed"] = None  # told at the end, with the live view
            v["log"] = {"from": 0, "lines": story.lines(SPECTATOR, lang)}
            await ws.send_json({"view": v})
            await asyncio.sleep(WATCH_STEP_SECONDS)
            game.apply_action(table.actions[done])
            story.take(game.st)
            done += 1

    async def broadcast(self, table: Table) -> None:
        async with table.lock:
            messages = self._views(table)
        await _send(table, messages)


def _cheap_moves(table: Table, seconds: float) -> None:
    """Agents that answer at once move, for at most `seconds` (then the pages are told)."""
    game = table.game
    end = time.monotonic() + seconds
    moved = 0
    # at least one move a slice: on a starved computer a slice could otherwise end before its
    # first move, and the table would send the same view forever without going on
    while not game.is_terminal() and (moved == 0 or time.monotonic() < end):
        spec = table.seats[game.current_player()]
        if spec not in CHEAP:
            return
        table.play(CHEAP[spec]().choose(game))
        moved += 1


def _lang(table: Table, lang: str | None) -> str:
    """A page's language: the one it asked for, else the ruleset's."""
    if lang in LANGS:
        return lang
    return str(table.game.st.g.prog.meta.get("language") or "en").split("-")[0]


async def _send(table: Table, messages: list, note: str | None = None) -> None:
    for ws, view in messages:
        try:
            await ws.send_json({"view": view, **({"note": note} if note else {})})
        except (RuntimeError, WebSocketDisconnect, OSError):
            table.sockets.discard((ws, view["seat"]))


def _names() -> str:
    return ", ".join(bundled_names())


def _options(raw) -> dict:
    """A new table's options: short names to plain values (the ruleset checks them)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or len(raw) > 64:
        raise Refusal(400, "options must be a mapping of at most 64 names")
    out = {}
    for k, v in raw.items():
        if v in ("", None):
            continue
        items = v if isinstance(v, list) else [v]
        if len(k) > 64 or len(items) > 64 or not all(_plain(x) for x in items):
            raise Refusal(400, f"option {k[:64]!r}: a value is a number, a word or a short list")
        out[k] = v
    return out


def _plain(v) -> bool:
    return isinstance(v, bool | int | float) or (isinstance(v, str) and len(v) <= 200)


def _seed(raw) -> int | None:
    """A seed the client chose (then public), or None for a secret one."""
    if raw in (None, ""):
        return None
    if isinstance(raw, str) and raw.strip().isdigit() and len(raw.strip()) <= 19:
        raw = int(raw)
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < 2**63:
        raise Refusal(400, "seed: a whole number from 0 to 2^63-1, or none for a secret one")
    return raw


def build_app(
    server: Server | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    allow_origins: tuple[str, ...] = (),
) -> Starlette:
    """The app, answering only to `host:port` (or a local name with the port) and the
    `allow_origins`."""
    server = server or Server()
    limits = server.limits

    async def index(request: Request):
        return FileResponse(WEB / "index.html")

    async def table_page(request: Request):
        return FileResponse(WEB / "table.html")

    async def rulesets(request: Request):
        if server._rulesets is None:
            server._rulesets = await server.lane.run(_ruleset_list)
        return JSONResponse(server._rulesets)

    async def create_table(request: Request):
        try:
            body = await read_json(request, limits.max_body_bytes)
            if not isinstance(body, dict):
                raise Refusal(400, "the request must be a JSON object")
            ruleset = body.get("ruleset")
            if not isinstance(ruleset, str) or ruleset not in bundled_names():
                shown = ruleset[:60] if isinstance(ruleset, str) else ruleset
                raise Refusal(400, f"unknown ruleset {shown!r}; rulesets: {_names()}")
            raw = body.get("seats") or ["human", "random"]
            if not isinstance(raw, list) or len(raw) > limits.max_seats:
                raise Refusal(400, f"seats: a list of at most {limits.max_seats}")
            seats = [seat_agent(s, limits) for s in raw]
            options, seed = _options(body.get("options")), _seed(body.get("seed"))
            table = await server.open(False, server.create, ruleset, options, seats, seed)
        except Refusal as e:
            return JSONResponse({"error": str(e)}, status_code=e.status)
        except (MadangError, KeyError, ValueError, TypeError) as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        server.kick(table)
        return JSONResponse({"table": table.id, "links": table.links()})

    async def upload_replay(request: Request):
        try:
            body = await read_json(request, limits.max_log_bytes)
            log = body.get("log") if isinstance(body, dict) else None
            if not isinstance(log, str):
                raise Refusal(400, 'send {"log": TEXT}: the text of a `madang play --log` file')
            table = await server.open(True, server.replay, log)
        except Refusal as e:
            return JSONResponse({"error": str(e)}, status_code=e.status)
        except MadangError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        return JSONResponse({"table": table.id, "links": table.links()})

    async def socket(ws: WebSocket):
        table = server.tables.get(ws.path_params["table"])
        token = ws.query_params.get("token", "")
        await ws.accept()
        if table is None or token not in table.tokens:
            await ws.send_json({"error": "no such table or link"})
            await ws.close()
            return
        seat = table.tokens[token]
        lang = ws.query_params.get("lang")
        table.langs[ws] = lang if lang in LANGS else None
        table.touched = time.monotonic()
        try:
            if seat == SPECTATOR and table.actions and not table.history:
                await server.watch_from_start(table, ws)
            table.sockets.add((ws, seat))
            async with table.lock:
                lang = _lang(table, table.langs.get(ws))
                first = server._with_log(table, ws, seat, lang, server.view(table, seat, lang=lang))
            await ws.send_json({"view": first})
            while True:
                msg = await ws.receive_json()
                if not isinstance(msg, dict):
                    continue
                if msg.get("lang") in LANGS:  # the page switched its language: all of it again
                    async with table.lock:
                        table.langs[ws], table.sent[ws] = msg["lang"], 0
                        step = msg.get("step") if isinstance(msg.get("step"), int) else None
                        view = server.view(table, seat, step, msg["lang"])
                        view = server._with_log(table, ws, seat, msg["lang"], view)
                    await ws.send_json({"view": view})
                elif "step" in msg and table.history:
                    step = int(msg["step"])
                    view = server.view(table, seat, step, table.langs.get(ws))
                    await ws.send_json({"view": view})
                elif "choose" in msg and not table.history:
                    refused = await server.move(table, seat, int(msg["choose"]))
                    if refused:
                        await ws.send_json({"error": refused})
        except (WebSocketDisconnect, ValueError, TypeError, KeyError, RuntimeError):
            pass
        finally:
            table.sockets.discard((ws, seat))
            table.langs.pop(ws, None)
            table.sent.pop(ws, None)
            table.touched = time.monotonic()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        server.close()

    routes = [
        Route("/", index),
        Route("/table/{table}", table_page),
        Route("/api/rulesets", rulesets),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/replays", upload_replay, methods=["POST"]),
        WebSocketRoute("/ws/{table}", socket),
        Mount("/static", StaticFiles(directory=WEB), name="static"),
    ]
    hosts = allowed_hosts(host, port, allow_origins)
    guard = Middleware(SameOrigin, hosts=hosts, origins=allowed_origins(hosts, allow_origins))
    app = Starlette(routes=routes, middleware=[guard], lifespan=lifespan)
    app.state.server = server
    return app


def _ruleset_list() -> list[dict]:
    out = []
    for name in bundled_names():
        try:
            prog = load_program(name)
        except MadangError:
            continue
        meta = prog.meta
        players = meta.get("players", 2)
        lo, hi = (
            (players, players)
            if isinstance(players, int)
            else (players.get("min", 2), players.get("max", 2))
        )
        title = meta.get("title", name)
        if isinstance(title, dict):
            title = title.get("en") or next(iter(title.values()), name)
        out.append(
            {
                "name": name,
                "title": str(title),
                # a ruleset for 2-4 players is started with a player count (the seats follow)
                "players": lo,
                "min_players": lo,
                "max_players": hi,
                "options": {
                    k: {"default": v.get("default"), "values": v.get("values")}
                    for k, v in (meta.get("options") or {}).items()
                },
            }
        )
    return out


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    limits: Limits | None = None,
    allow_origins: tuple[str, ...] = (),
) -> int:
    """Serve until Ctrl-C or SIGTERM, then stop within a second (agents in mid-move are dropped)."""
    import uvicorn

    class Stoppable(uvicorn.Server):
        """uvicorn's server, which notes the signal that stopped it and, unlike uvicorn, does
        not raise it again once stopped (that would end the process before it says so)."""

        stopped_by = ""

        def handle_exit(self, sig: int, frame) -> None:
            self.stopped_by = self.stopped_by or signal.Signals(sig).name
            self.force_exit = self.should_exit  # a second signal: no more waiting
            self.should_exit = True

    server = Server(limits)
    app = build_app(server, host, port, allow_origins)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            timeout_graceful_shutdown=0.3, ws_max_size=65_536,
                            limit_concurrency=256)  # fmt: skip
    web = Stoppable(config)
    print(f"madang: serving on http://{host}:{port}/ (Ctrl-C stops)", flush=True)
    try:
        web.run()
    finally:
        server.close()
    print(f"madang: stopped ({web.stopped_by or 'the server ended'})", flush=True)
    return 0
