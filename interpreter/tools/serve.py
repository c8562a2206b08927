"""`madang serve`: play, watch and replay games in a browser (Starlette, uvicorn, websockets).

A *table* is one game with its seats: people (each with a secret link) or agents. Every message a
browser receives is its own seat's view (`seatview.seat_view`), so a page never holds what its
seat may not see; a spectator's link shows the public zones only. Agents move on the server,
in a worker thread, until a person is to decide or the game ends.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..build.loader import bundled_names
from ..game.api import GameState, MadangError, load_program, new_game, resolve_options
from .agents import make_agent
from .seatview import SPECTATOR, card_texts, seat_view

WEB = Path(__file__).resolve().parent / "web"
MAX_TABLES = 64
MAX_LOG_BYTES = 5_000_000


@dataclass
class Table:
    id: str
    game: GameState
    seats: list[str]  # "human" or an agent spec
    tokens: dict[str, int]  # secret link token -> seat (SPECTATOR for watchers)
    texts: dict[str, str]
    sockets: set = field(default_factory=set)  # (websocket, seat)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    history: list[GameState] = field(default_factory=list)  # replays: one state per decision

    def link(self, seat: int) -> str:
        token = next(t for t, s in self.tokens.items() if s == seat)
        return f"/table/{self.id}?token={token}"


class Server:
    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}

    # ------------------------------------------------------------ tables
    def create(self, ruleset: str, options: dict, seats: list[str], seed: int) -> Table:
        if len(self.tables) >= MAX_TABLES:
            oldest = next(iter(self.tables))
            del self.tables[oldest]
        prog = load_program(ruleset)
        _, nplayers = resolve_options(prog, options)
        if len(seats) == 1:
            seats = seats * nplayers
        if len(seats) != nplayers:
            raise MadangError(f"{nplayers} seats needed, {len(seats)} given")
        for s in seats:
            if s != "human":
                make_agent(s)
        game = new_game(prog, options, seed=seed)
        tokens = {secrets.token_urlsafe(12): p for p in range(nplayers) if seats[p] == "human"}
        tokens[secrets.token_urlsafe(12)] = SPECTATOR
        table = Table(secrets.token_urlsafe(6), game, seats, tokens, card_texts(prog))
        self.tables[table.id] = table
        self.advance(table)
        return table

    def replay(self, log_text: str) -> Table:
        """A table whose history is every decision of a logged game, re-played from its seed."""
        lines = [ln for ln in log_text.splitlines() if ln.strip()]
        try:
            header = json.loads(lines[0])
            entries = [json.loads(ln) for ln in lines[1:]]
        except (ValueError, IndexError):
            raise MadangError("not a madang log (JSON lines with a header first)") from None
        if not isinstance(header, dict) or "ruleset" not in header:
            raise MadangError(
                "not a madang log: its first line must be the header of `madang play --log`"
            )
        game = new_game(
            str(header["ruleset"]), header.get("options") or {}, int(header.get("seed", 0))
        )
        history = [game.clone()]
        for e in entries:
            if isinstance(e, dict) and "decision" in e and "choice" in e and not game.is_terminal():
                game.apply_label(str(e["choice"]))
                history.append(game.clone())
        prog = game.st.g.prog
        seats = ["replay"] * game.st.g.nplayers
        tokens = {secrets.token_urlsafe(12): p for p in range(game.st.g.nplayers)}
        tokens[secrets.token_urlsafe(12)] = SPECTATOR
        table = Table(
            secrets.token_urlsafe(6), game, seats, tokens, card_texts(prog), history=history
        )
        self.tables[table.id] = table
        return table

    def advance(self, table: Table) -> None:
        """Agents move until a person decides or the game ends."""
        game = table.game
        while not game.is_terminal():
            seat = game.current_player()
            if table.seats[seat] == "human":
                return
            game.apply_action(make_agent(table.seats[seat]).choose(game))

    def view(self, table: Table, seat: int, step: int | None = None) -> dict:
        if table.history:
            step = (
                len(table.history) - 1
                if step is None
                else max(0, min(step, len(table.history) - 1))
            )
            v = seat_view(table.history[step], seat, table.texts)
            v["decision"] = None
            v["replay"] = {"step": step, "steps": len(table.history)}
            return v
        v = seat_view(table.game, seat, table.texts)
        v["seats"] = table.seats
        return v

    async def broadcast(self, table: Table) -> None:
        for ws, seat in list(table.sockets):
            try:
                await ws.send_json({"view": self.view(table, seat)})
            except (RuntimeError, WebSocketDisconnect):
                table.sockets.discard((ws, seat))


def build_app(server: Server | None = None) -> Starlette:
    server = server or Server()

    async def index(request: Request):
        return FileResponse(WEB / "index.html")

    async def table_page(request: Request):
        return FileResponse(WEB / "table.html")

    async def rulesets(request: Request):
        out = []
        for name in bundled_names():
            try:
                prog = load_program(name)
            except MadangError:
                continue
            meta = prog.meta
            players = meta.get("players", 2)
            title = meta.get("title", name)
            if isinstance(title, dict):
                title = title.get("en") or next(iter(title.values()), name)
            out.append(
                {
                    "name": name,
                    "title": str(title),
                    "players": players if isinstance(players, int) else players.get("max", 2),
                    "options": {
                        k: {"default": v.get("default"), "values": v.get("values")}
                        for k, v in (meta.get("options") or {}).items()
                    },
                }
            )
        return JSONResponse(out)

    async def create_table(request: Request):
        try:
            body = await request.json()
            ruleset = str(body["ruleset"])
            seats = [str(s) for s in body.get("seats") or ["human", "random"]]
            options = {
                str(k): v for k, v in (body.get("options") or {}).items() if v not in ("", None)
            }
            seed = int(body.get("seed", 0))
            table = await asyncio.to_thread(server.create, ruleset, options, seats, seed)
        except (MadangError, KeyError, ValueError, TypeError) as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        links = {
            ("watch" if s == SPECTATOR else f"P{s + 1}"): table.link(s)
            for s in table.tokens.values()
        }
        return JSONResponse({"table": table.id, "links": links})

    async def upload_replay(request: Request):
        body = await request.body()
        if len(body) > MAX_LOG_BYTES:
            return JSONResponse({"error": "log too large"}, status_code=400)
        try:
            table = await asyncio.to_thread(server.replay, body.decode("utf-8", "replace"))
        except MadangError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        links = {
            ("watch" if s == SPECTATOR else f"P{s + 1}"): table.link(s)
            for s in table.tokens.values()
        }
        return JSONResponse({"table": table.id, "links": links})

    async def socket(ws: WebSocket):
        table = server.tables.get(ws.path_params["table"])
        token = ws.query_params.get("token", "")
        await ws.accept()
        if table is None or token not in table.tokens:
            await ws.send_json({"error": "no such table or link"})
            await ws.close()
            return
        seat = table.tokens[token]
        table.sockets.add((ws, seat))
        try:
            await ws.send_json({"view": server.view(table, seat)})
            while True:
                msg = await ws.receive_json()
                if "step" in msg and table.history:
                    await ws.send_json({"view": server.view(table, seat, int(msg["step"]))})
                    continue
                if "choose" not in msg or table.history:
                    continue
                async with table.lock:
                    game = table.game
                    if game.is_terminal() or game.current_player() != seat:
                        await ws.send_json({"error": "not your decision"})
                        continue
                    k = int(msg["choose"])
                    if not 0 <= k < len(game.legal_actions()):
                        await ws.send_json({"error": "no such option"})
                        continue
                    game.apply_action(k)
                    await asyncio.to_thread(server.advance, table)
                await server.broadcast(table)
        except (WebSocketDisconnect, ValueError, TypeError):
            pass
        finally:
            table.sockets.discard((ws, seat))

    routes = [
        Route("/", index),
        Route("/table/{table}", table_page),
        Route("/api/rulesets", rulesets),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/replays", upload_replay, methods=["POST"]),
        WebSocketRoute("/ws/{table}", socket),
        Mount("/static", StaticFiles(directory=WEB), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.server = server
    return app


def serve(host: str = "127.0.0.1", port: int = 8000) -> int:
    import uvicorn

    print(f"madang: serving on http://{host}:{port}/ (Ctrl-C stops)")
    uvicorn.run(build_app(), host=host, port=port, log_level="warning")
    return 0
