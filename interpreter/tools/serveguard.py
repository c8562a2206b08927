"""What `madang serve` accepts from a client, and what it refuses before any work is done.

A request is data from a browser, and any page the person visits can make their browser send
one. So: a request must name this server in its `Host` (else 421: a DNS-rebinding page cannot
read answers), and its `Origin`, when it has one, must be this server's own or one given with
`--allow-origin` (else 403); the same for websockets. A body must be JSON declared as
`application/json` (else 415: a cross-site form or `text/plain` post cannot be sent without the
browser asking the server first, which it never allows) and small (else 413). A seat is one of
a fixed list of agents with bounded numbers, never a file or anything the command line reads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

WILDCARDS = {"", "0.0.0.0", "::", "[::]"}
LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")


@dataclass(frozen=True)
class Limits:
    """The server's bounds (command-line options of `madang serve`)."""

    max_tables: int = 64  # games in memory; a table with a person connected is never dropped
    max_replays: int = 16  # replay tables in memory
    agent_workers: int = 2  # searching agents thinking at once (worker processes)
    agent_seconds: float = 5.0  # a searching agent's time for one move
    max_agent_iterations: int = 2000  # the largest N in `mcts:N`
    max_body_bytes: int = 64_000  # a new table's request
    max_log_bytes: int = 4_000_000  # a replay upload (the log, as a JSON string)
    max_replay_decisions: int = 5_000  # decisions replayed from one log
    max_seats: int = 16


class Refusal(Exception):
    """A request refused before any work: an HTTP status and a sentence for the person."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


# ------------------------------------------------------------------ seats
SEAT_HELP = "human, random, first, greedy, mcts or mcts:N"


def seat_agent(spec: object, limits: Limits) -> str:
    """The seat as the server runs it ("human", "random", "first", "greedy", "mcts:N"), or a
    Refusal. The spec is only compared with these names: it is never opened, parsed as options
    or handed to the command line's agent factory."""
    text = spec.strip() if isinstance(spec, str) else ""
    name, colon, arg = text.partition(":")
    if not colon and name in ("human", "random", "first", "greedy"):
        return name
    if name == "mcts" and (not colon or (arg.isascii() and arg.isdigit() and len(arg) <= 9)):
        n = int(arg) if colon else min(200, limits.max_agent_iterations)
        if 1 <= n <= limits.max_agent_iterations:
            return f"mcts:{n}"
    shown = text if len(text) <= 40 else text[:40] + "…"
    raise Refusal(
        400,
        f"{shown!r} is not a seat this server offers; seats: {SEAT_HELP} (N from 1 to "
        f"{limits.max_agent_iterations} iterations, at most {limits.agent_seconds:g} s a move)",
    )


# ------------------------------------------------------------------ bodies
async def read_json(request, limit: int):
    """The request's JSON body: declared `application/json`, at most `limit` bytes."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise Refusal(415, "send the request as JSON (Content-Type: application/json)")
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise Refusal(413, f"the request is larger than {limit:,} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refusal(413, f"the request is larger than {limit:,} bytes")
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise Refusal(400, "the request is not JSON") from None


# ------------------------------------------------------------------ origin and host
def _netloc(url: str) -> str | None:
    parts = urlsplit(url.strip().lower())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.netloc


def allowed_hosts(host: str, port: int, allow_origins: tuple[str, ...] = ()) -> set[str]:
    """The `Host` values a request may carry: the bound address, or a local name, with the
    port (port 80 also without it), and the hosts of the allowed origins."""
    names = set(LOCAL_NAMES)
    bound = host.strip().lower()
    if bound not in WILDCARDS:
        names.add(f"[{bound}]" if ":" in bound and not bound.startswith("[") else bound)
    out = {f"{n}:{port}" for n in names}
    if port == 80:
        out |= names
    for origin in allow_origins:
        loc = _netloc(origin)
        if loc:
            out.add(loc)
    return out


def allowed_origins(hosts: set[str], allow_origins: tuple[str, ...] = ()) -> set[str]:
    out = {f"http://{h}" for h in hosts}
    for origin in allow_origins:
        parts = urlsplit(origin.strip().lower())
        if _netloc(origin):
            out.add(f"{parts.scheme}://{parts.netloc}")
    return out


def check_origin_option(origin: str) -> str | None:
    """Why an `--allow-origin` value is wrong, or None."""
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return (
            f"--allow-origin {origin!r}: give a scheme and a host, e.g. https://games.example.org"
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return f"--allow-origin {origin!r}: an origin has no path"
    return None


class SameOrigin:
    """ASGI middleware: every HTTP request and websocket must name this server in `Host`
    (421) and come from its own page or an allowed origin when it says where from (403)."""

    def __init__(self, app: ASGIApp, hosts: set[str], origins: set[str]) -> None:
        self.app = app
        self.hosts = hosts
        self.origins = origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "").strip().lower()
        origin = headers.get("origin")
        if host not in self.hosts:
            await _refuse(scope, send, 421, "this server answers only to its own address")
        elif origin is not None and origin.strip().lower().rstrip("/") not in self.origins:
            await _refuse(scope, send, 403, "requests from other sites are refused")
        else:
            await self.app(scope, receive, send)


async def _refuse(scope: Scope, send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
    elif "websocket.http.response" in scope.get("extensions", {}):
        await send({"type": "websocket.http.response.start", "status": status, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
    else:
        await send({"type": "websocket.close", "code": 1008})
