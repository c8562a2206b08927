"""`madang serve` against hostile clients (issue #29): a seat spec naming a file is refused and
the file never opened; requests from another site, with another Host or with a body that is not
declared JSON are refused; slow agents hold neither a new table nor a person's move; a signal
stops a real server at once; uploads and tables are bounded without dropping a person's game;
a served game's seed stays secret until the end."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from madang.game.api import new_game
from madang.tools import agentpool
from madang.tools.agents import RandomAgent
from madang.tools.cli import main
from madang.tools.history import History
from madang.tools.serve import IDLE_SECONDS, Server, build_app
from madang.tools.serveguard import Limits, Refusal, allowed_hosts, seat_agent
from starlette.testclient import TestClient, WebSocketDenialResponse

BASE = "http://127.0.0.1:8000"
WS = "ws://127.0.0.1:8000"
CLASH = "clash_of_decks"

OPENED: list[str] = []  # paths opened by this process while WATCHED names them
WATCHED: set[str] = set()


def _audit(event: str, args: tuple) -> None:
    if event == "open" and WATCHED and isinstance(args[0], str | bytes | os.PathLike):
        path = os.fsdecode(args[0])
        if any(w in path for w in WATCHED):
            OPENED.append(path)


sys.addaudithook(_audit)  # every open() of this process, server threads included


def client_for(server: Server, **kw) -> TestClient:
    return TestClient(build_app(server, port=8000, **kw), base_url=BASE)


def token(made: dict, who: str) -> str:
    return made["links"][who].split("token=")[1]


def first_seed_where_p1_starts() -> int:
    return next(s for s in range(50) if new_game(CLASH, {}, seed=s).current_player() == 0)


# ------------------------------------------------------------------ seats are data
@pytest.mark.parametrize("form", ["scripted:@{}", "scripted:@/etc/passwd", "mcts:@{}", "{}"])
def test_a_seat_naming_a_file_is_refused_and_the_file_never_opened(tmp_path, form):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-LINE\nsecond line\n")
    spec = form.format(secret)
    WATCHED.update({str(secret), "/etc/passwd"})
    try:
        with client_for(Server()) as client:
            reply = client.post("/api/tables", json={"ruleset": CLASH, "seats": ["human", spec]})
    finally:
        WATCHED.clear()
    assert reply.status_code == 400
    assert "TOP-SECRET" not in reply.text and "root:" not in reply.text
    assert "not a seat this server offers" in reply.json()["error"]
    assert OPENED == []


def test_a_ruleset_or_a_replay_naming_a_folder_is_refused_unread(tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text("name: game\n")
    WATCHED.add(str(folder))
    try:
        with client_for(Server()) as client:
            made = client.post("/api/tables", json={"ruleset": str(folder)})
            header = {"madang_log": 1, "ruleset": str(folder), "seed": 1}
            replay = client.post("/api/replays", json={"log": json.dumps(header)})
    finally:
        WATCHED.clear()
    assert made.status_code == 400 and "unknown ruleset" in made.json()["error"]
    assert replay.status_code == 400 and "bundled rulesets" in replay.json()["error"]
    assert OPENED == []


def test_seats_are_a_fixed_list_with_bounded_numbers():
    limits = Limits(max_agent_iterations=500)
    assert [seat_agent(s, limits) for s in ("human", " random", "first", "greedy")] == [
        "human", "random", "first", "greedy",
    ]  # fmt: skip
    assert seat_agent("mcts", limits) == "mcts:200"
    assert seat_agent("mcts:500", limits) == "mcts:500"
    for bad in ("mcts:501", "mcts:0", "mcts:10s", "mcts:depth=none", "greedy:options=all",
                "random:x", "scripted:0|1", "human:", 7, None, ["human"]):  # fmt: skip
        with pytest.raises(Refusal) as e:
            seat_agent(bad, limits)
        assert e.value.status == 400


# ------------------------------------------------------------------ same origin
def test_a_foreign_origin_is_refused_on_every_route():
    evil = {"origin": "http://evil.example"}
    with client_for(Server(), allow_origins=("https://games.example.org",)) as client:
        assert client.get("/api/rulesets", headers=evil).status_code == 403
        made = client.post("/api/tables", json={"ruleset": CLASH}, headers=evil)
        assert made.status_code == 403 and "other sites" in made.json()["error"]
        with pytest.raises(WebSocketDenialResponse) as e:
            with client.websocket_connect(f"{WS}/ws/x?token=y", headers=evil):
                pass
        assert e.value.status_code == 403
        for own in (BASE, "http://localhost:8000", "https://games.example.org"):
            ok = client.post("/api/tables", json={"ruleset": CLASH}, headers={"origin": own})
            assert ok.status_code == 200, (own, ok.text)


def test_a_body_not_declared_json_is_refused():
    body = json.dumps({"ruleset": CLASH}).encode()
    with client_for(Server()) as client:
        for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
            reply = client.post("/api/tables", content=body, headers={"content-type": ctype})
            assert reply.status_code == 415, ctype
        assert client.post("/api/tables", content=body).status_code == 415  # no type at all
        log = json.dumps({"log": "x"}).encode()
        assert client.post("/api/replays", content=log, headers={"content-type": "text/plain"}).status_code == 415  # fmt: skip
        assert client.post("/api/tables", json={"ruleset": CLASH}).status_code == 200


def test_a_foreign_host_is_refused():
    with client_for(Server()) as client:
        for host in ("evil.example", "evil.example:8000", "127.0.0.1:9999", "localhost"):
            reply = client.get("/api/rulesets", headers={"host": host})
            assert reply.status_code == 421, host
        with pytest.raises(WebSocketDenialResponse) as e:
            with client.websocket_connect("ws://evil.example:8000/ws/x?token=y"):
                pass
        assert e.value.status_code == 421
        assert client.get("/", headers={"host": "localhost:8000"}).status_code == 200
    assert allowed_hosts("0.0.0.0", 80, ("https://games.example.org",)) == {
        "localhost", "localhost:80", "127.0.0.1", "127.0.0.1:80", "[::1]", "[::1]:80",
        "games.example.org",
    }  # fmt: skip


def test_bad_serve_options_are_usage_errors(capsys):
    assert main(["serve", "--allow-origin", "games.example.org"]) == 2
    assert main(["serve", "--allow-origin", "https://games.example.org/play"]) == 2
    assert main(["serve", "--agent-seconds", "0"]) == 2
    assert main(["serve", "--max-tables", "0"]) == 2
    assert "--max-tables" in capsys.readouterr().err


# ------------------------------------------------------------------ bounded work
def test_six_tables_of_the_slowest_agents_hold_neither_a_new_table_nor_a_move():
    limits = Limits(agent_workers=2, agent_seconds=30, max_agent_iterations=10**6)
    server = Server(limits)
    slowest = f"mcts:{limits.max_agent_iterations}"
    with client_for(server) as client:
        for _ in range(6):
            reply = client.post("/api/tables", json={"ruleset": CLASH, "seats": [slowest] * 2})
            assert reply.status_code == 200
        deadline = time.monotonic() + 60
        while server.pool.thinking < limits.agent_workers and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.pool.thinking == limits.agent_workers  # every worker is thinking
        start = time.monotonic()
        made = client.post(
            "/api/tables",
            json={
                "ruleset": CLASH,
                "seats": ["human", slowest],
                "seed": first_seed_where_p1_starts(),
            },
        ).json()
        table = server.tables[made["table"]]
        with client.websocket_connect(f"{WS}/ws/{table.id}?token={token(made, 'P1')}") as ws:
            assert ws.receive_json()["view"]["decision"]
            ws.send_json({"choose": 0})
            after = ws.receive_json()
        took = time.monotonic() - start
        assert table.game.st.decisions == 1 and "view" in after  # the move is in
        assert client.get("/api/rulesets").status_code == 200
        assert server.pool.thinking == limits.agent_workers  # the agents are still at it
    # the agents think for 30 s a move: a table or a move waiting for them would take that long
    assert took < limits.agent_seconds / 2


def test_searching_agents_move_in_their_workers():
    server = Server(Limits(agent_workers=1, agent_seconds=1))
    with client_for(server) as client:
        seats = ["mcts:5", "greedy"]
        made = client.post("/api/tables", json={"ruleset": CLASH, "seats": seats}).json()
        url = f"{WS}/ws/{made['table']}?token={token(made, 'watch')}"
        with client.websocket_connect(url) as ws:
            messages = [ws.receive_json() for _ in range(5)]
    assert all("view" in m and "note" not in m for m in messages)
    assert server.tables[made["table"]].game.st.decisions >= 4


def test_an_agent_over_its_time_is_stopped_and_its_seat_plays_at_random(monkeypatch):
    monkeypatch.setattr(agentpool, "GRACE_SECONDS", 0.0)  # greedy never stops by itself
    server = Server(Limits(agent_workers=1, agent_seconds=0.001))
    with client_for(server) as client:
        made = client.post("/api/tables", json={"ruleset": CLASH, "seats": ["greedy"] * 2}).json()
        url = f"{WS}/ws/{made['table']}?token={token(made, 'watch')}"
        with client.websocket_connect(url) as ws:
            for _ in range(20):
                msg = ws.receive_json()
                if msg.get("note"):
                    break
        assert "played at random: it took more than 0.001 s" in msg["note"]
        assert server.tables[made["table"]].game.st.decisions >= 1
        assert server.pool.thinking <= 1 and not server.pool._idle  # a late worker is not kept


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(c) for c in text.split()]


def _gone(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] in "ZX"
    except OSError:
        return True


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_a_real_server_at_once(sig):
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "madang",
            "serve",
            "--port",
            str(port),
            "--agent-seconds",
            "60",
            "--max-agent-iterations",
            "1000000",
        ],  # fmt: skip
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,  # fmt: skip
    )
    try:
        assert "serving on" in proc.stdout.readline()
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                httpx.get(base + "/api/rulesets", timeout=30)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        made = httpx.post(
            base + "/api/tables",
            json={"ruleset": CLASH, "seats": ["mcts:1000000"] * 2},
            timeout=30,  # the ruleset is compiled at the first table
        )
        assert made.status_code == 200
        deadline = time.monotonic() + 30
        while not _children(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = _children(proc.pid)
        assert workers  # an agent is thinking in its worker
        time.sleep(0.5)
        start = time.monotonic()
        proc.send_signal(sig)
        proc.wait(timeout=10)
        took = time.monotonic() - start
        out = proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert took < 1.0, f"stopped after {took:.2f} s"
    assert proc.returncode == 0
    assert f"stopped ({sig.name})" in out
    deadline = time.monotonic() + 5
    while not all(_gone(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(_gone(w) for w in workers)


@pytest.fixture(scope="module")
def log_text(tmp_path_factory) -> str:
    log = tmp_path_factory.mktemp("log") / "game.jsonl"
    assert main(["play", CLASH, "--seats", "random,random", "--seed", "4", "--log", str(log)]) == 0
    return log.read_text()


def test_replay_uploads_are_capped_in_size_and_count(log_text):
    decisions = sum(1 for ln in log_text.splitlines()[1:] if '"decision"' in ln)
    size = len(json.dumps({"log": log_text}))
    server = Server(Limits(max_replays=2, max_log_bytes=size + 1000))
    with client_for(server) as client:
        big = client.post("/api/replays", json={"log": log_text + " " * 2000})
        assert big.status_code == 413
        made = [client.post("/api/replays", json={"log": log_text}) for _ in range(2)]
        assert [m.status_code for m in made] == [200, 200]
        full = client.post("/api/replays", json={"log": log_text})
        assert full.status_code == 503 and "full" in full.json()["error"]
        oldest = server.tables[made[0].json()["table"]]
        oldest.touched -= IDLE_SECONDS  # nobody opened it for a while: it gives its place
        assert client.post("/api/replays", json={"log": log_text}).status_code == 200
        assert oldest.id not in server.tables and len(server.tables) == 2
    few = Server(Limits(max_replay_decisions=decisions - 1))
    with client_for(few) as client:
        reply = client.post("/api/replays", json={"log": log_text})
        assert reply.status_code == 400 and "at most" in reply.json()["error"]


def test_a_table_with_a_person_connected_is_never_evicted():
    server = Server(Limits(max_tables=2))
    seats = {"ruleset": CLASH, "seats": ["human", "human"]}
    with client_for(server) as client:
        a, b = (client.post("/api/tables", json=seats).json() for _ in range(2))
        with client.websocket_connect(f"{WS}/ws/{a['table']}?token={token(a, 'P1')}") as ws:
            ws.receive_json()
            for t in server.tables.values():
                t.touched -= IDLE_SECONDS  # both idle; only b has nobody at it
            c = client.post("/api/tables", json=seats)
            assert c.status_code == 200
            assert a["table"] in server.tables and b["table"] not in server.tables
            refused = client.post("/api/tables", json=seats)
            assert refused.status_code == 503
            assert "each has a person at it" in refused.json()["error"]
            assert a["table"] in server.tables
            ws.send_json({"step": 0})  # the person's page still answers
            table = server.tables[a["table"]]
            mover = table.game.current_player()
            if mover == 0:
                ws.send_json({"choose": 0})
                assert "view" in ws.receive_json()


def test_a_replay_keeps_checkpoints_yet_shows_every_state_the_game_had():
    game = new_game(CLASH, {}, seed=3)
    states, history = [game.clone()], History(game, every=4)
    agent = RandomAgent()
    while not game.is_terminal():
        k = agent.choose(game)
        game.apply_action(k)
        states.append(game.clone())
        history.append_move(game, k)
    assert len(history) == len(states) and len(history.checkpoints) <= len(states) // 4 + 1
    order = [*range(len(states)), *reversed(range(len(states))), 5, 2, -1, 9, 7]
    for i in order:
        assert history[i].digest() == states[i].digest(), i
    with pytest.raises(IndexError):
        history[len(states)]


# ------------------------------------------------------------------ seeds
def test_a_served_seed_is_secret_until_the_game_ends():
    server = Server()
    with client_for(server) as client:
        made = [
            client.post("/api/tables", json={"ruleset": CLASH, "seats": ["human", "first"]}).json()
            for _ in range(2)
        ]
        tables = [server.tables[m["table"]] for m in made]
        assert tables[0].seed != tables[1].seed and not tables[0].seed_public
        url = f"{WS}/ws/{tables[0].id}?token={token(made[0], 'P1')}"
        with client.websocket_connect(url) as ws:
            raw = ws.receive_text()
            view = json.loads(raw)["view"]
            # bounded by time, not by messages: on a busy machine the agents' moves come in
            # many small slices, each with a view (2,000 messages were once not enough). The
            # person answers at random: against `first`, always answering the first option
            # never ends about one secret deal in fifteen (both sides only pass).
            rng = random.Random(0)
            deadline = time.monotonic() + 180
            while not view["over"] and time.monotonic() < deadline:
                assert view["seed"] is None and str(tables[0].seed) not in raw
                if view["decision"]:
                    ws.send_json({"choose": rng.randrange(len(view["decision"]["options"]))})
                raw = ws.receive_text()
                view = json.loads(raw)["view"]
        assert view["over"] and view["seed"] == tables[0].seed, (
            view["over"],
            view["seed"],
            tables[0].seed,
        )
        chosen = client.post("/api/tables", json={"ruleset": CLASH, "seed": 7}).json()
        table = server.tables[chosen["table"]]
        url = f"{WS}/ws/{table.id}?token={token(chosen, 'P1')}"
        with client.websocket_connect(url) as ws:
            assert ws.receive_json()["view"]["seed"] == 7  # chosen by a client: nothing to hide
