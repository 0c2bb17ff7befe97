"""The rating service over HTTP, served by aiohttp's web server (spec/ratings.md §7).

    POST /ratings/results        a co-signed result file (the body, as bytes): count it
    POST /ratings/abandonments   an abandonment file: record its claim beside the rating
    GET  /ratings                the leaderboard (JSON)
    GET  /ratings.html           the leaderboard as a plain HTML page
    GET  /ratings/results        the export: every counted result and recorded claim (JSON)
    GET  /ratings/service        a small answer that says "a rating service is here" (§7.6)
    GET  /ratings/PLAYER         a player's history (JSON); PLAYER is a fingerprint or the key in hex
    GET  /ratings/PLAYER.html    the same as a page
    GET  /healthz                "ok" while the store answers, else 503 (spec/ratings.md §5.5)

JSON answers are UTF-8; every HTML page escapes every name it shows (names are chosen by
players). Submissions carry their own proof (two signatures), so any origin may send them: the
answers allow cross-origin reads and posts, for the web client.

aiohttp parses HTTP and enforces its own limits (line and header sizes, the body size); this
module adds the ones aiohttp has no setting for (``ServeLimits``, spec/ratings.md §7.5): a deadline
for the request head, a cap on connections open at once and per address, and a minimum rate for
a request body. It reads no bytes itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import ipaddress
import logging
import ssl
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, cast

from aiohttp import web

from koikoi_p2p.ratings.board import dumps
from koikoi_p2p.ratings.checks import MAX_CLAIM_BYTES, MAX_RESULT_BYTES
from koikoi_p2p.ratings.client import SERVICE_TAG
from koikoi_p2p.ratings.errors import Refused, StoreError
from koikoi_p2p.ratings.limits import ServeLimits
from koikoi_p2p.ratings.service import RatingService

log = logging.getLogger("koikoi.ratings")

MAX_BODY = MAX_CLAIM_BYTES
CORS = {"Access-Control-Allow-Origin": "*"}
PAGE_POLICY = {"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"}
assert ServeLimits().max_body == MAX_BODY
LINGER_SECONDS = 1.0
OVER_CAP_SECONDS = 1.0   # a connection over a cap has this long to send its head (then a 503)
OVER_CAP_FACTOR = 4      # past this many times its cap, an address's connections are dropped


class _Refuse(Exception):
    """An HTTP-level refusal (not a check of the submission): status, reason, message."""

    def __init__(self, status: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.status, self.reason, self.message = status, reason, message


class _Guard(asyncio.Protocol):
    """Wraps aiohttp's protocol for one connection: counts it against the caps and closes it when
    its request head is not complete in time. Bytes go to aiohttp untouched."""

    def __init__(self, inner: Any, server: RatingsServer) -> None:
        self.inner, self.server = inner, server
        self.transport: asyncio.BaseTransport | None = None
        self.address = ""
        self.over = False
        self.admitted = False
        self.dropped = False                       # never handed to aiohttp
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        server, limits = self.server, self.server.limits
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        server.by_address[self.address] += 1
        mine = server.by_address[self.address]
        capped = self.address not in limits.trusted_proxies
        server.guards[transport] = self
        if capped and mine > OVER_CAP_FACTOR * limits.max_connections_per_address:
            server.counts["dropped"] += 1          # far over its cap: not even answered
            self.dropped = True
            cast(asyncio.Transport, transport).abort()
            return
        # A connection over its address's cap does not count against the service's: one address
        # cannot fill the service (spec/ratings.md §7.5).
        self.over = (capped and mine > limits.max_connections_per_address) or (
            server.open_connections >= limits.max_connections)
        if self.over:
            server.counts["over_cap"] += 1
        else:
            self.admitted = True
            server.open_connections += 1
        deadline = min(limits.head_timeout, OVER_CAP_SECONDS) if self.over else limits.head_timeout
        self.timer = asyncio.get_running_loop().call_later(deadline, self._expire)
        self.inner.connection_made(transport)

    def head_complete(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _expire(self) -> None:
        self.timer = None
        self.server.counts["head_timeout"] += 1
        if self.transport is not None:
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if not self.dropped:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        result: bool | None = None if self.dropped else self.inner.eof_received()
        return result

    def pause_writing(self) -> None:
        if not self.dropped:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if not self.dropped:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        server = self.server
        self.head_complete()
        if self.admitted:
            server.open_connections -= 1
        server.by_address[self.address] -= 1
        if server.by_address[self.address] <= 0:
            del server.by_address[self.address]
        server.guards.pop(self.transport, None)
        if not self.dropped:
            self.inner.connection_lost(exc)


class RatingsServer:
    """The service on ``host:port`` (``await start()``, then ``await close()``); plain HTTP, or
    HTTPS with ``ssl_context`` (``koikoi_relay.tls.ServerTLS``: its reload swaps in a new context)."""

    def __init__(self, service: RatingService, limits: ServeLimits | None = None) -> None:
        self.service = service
        self.limits = limits or ServeLimits()
        self.open_connections = 0
        self.by_address: Counter[str] = Counter()
        self.guards: dict[object, _Guard] = {}
        self.counts: Counter[str] = Counter()    # refusals by reason, for tests and logs
        self._runner: web.AppRunner | None = None
        self._server: asyncio.Server | None = None

    async def start(self, host: str = "127.0.0.1", port: int = 0,
                    ssl_context: ssl.SSLContext | None = None) -> None:
        limits = self.limits
        app = web.Application(client_max_size=limits.max_body, middlewares=[self._middleware])
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False,
            keepalive_timeout=limits.head_timeout,
            max_line_size=limits.max_field_size, max_field_size=limits.max_field_size,
            # after a refusal, unread body bytes are drained this long (so that the client reads
            # the answer rather than a reset), no longer
            lingering_time=LINGER_SECONDS)
        await self._runner.setup()
        protocol = self._runner.server
        assert protocol is not None
        self._server = await asyncio.get_running_loop().create_server(
            lambda: _Guard(protocol(), self), host, port, ssl=ssl_context, reuse_address=True,
            # the TLS handshake comes before the head's deadline starts: it has one of its own
            ssl_handshake_timeout=limits.head_timeout if ssl_context is not None else None)

    @property
    def port(self) -> int:
        assert self._server is not None, "start() first"
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5)

    # -- one request ---------------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request,
                          handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                          ) -> web.StreamResponse:
        guard = self.guards.get(request.transport)
        if guard is not None:
            guard.head_complete()
        try:
            if guard is not None and guard.over:
                raise _Refuse(503, "too_many_connections", "too many connections: try again later")
            # The body's own deadline (min_body_rate) comes first; then the handler's.
            budget = self.limits.handler_timeout + self.limits.deadline(request.content_length or 0)
            async with asyncio.timeout(budget):
                response = await handler(request)
        except _Refuse as exc:
            self.counts[exc.reason] += 1
            response = _json(exc.status, {"ok": False, "reason": exc.reason, "message": exc.message})
        except TimeoutError:
            self.counts["timeout"] += 1
            response = _json(503, {"ok": False, "reason": "timeout", "message": "the service took too long"})
        except web.HTTPException as exc:          # aiohttp's own refusals (a body over client_max_size)
            response = _json(exc.status, {"ok": False, "reason": "http", "message": exc.reason})
        response.force_close()                  # one request per connection (spec/ratings.md §7.5)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Server"] = "koikoi-ratings"       # not aiohttp's, which names versions
        return response

    def source(self, request: web.Request) -> str:
        """The client's address: the peer's, or the one a trusted proxy forwarded."""
        peer = request.remote or ""
        if peer in self.limits.trusted_proxies:
            forwarded = request.headers.get("X-Forwarded-For", "").rsplit(",", 1)[-1].strip()
            with contextlib.suppress(ValueError):
                return str(ipaddress.ip_address(forwarded))
        return peer

    async def _body(self, request: web.Request, limit: int, what: str) -> bytes:
        """The request body, at most ``limit`` bytes, arriving at ``min_body_rate`` or faster."""
        if "Transfer-Encoding" in request.headers:
            raise _Refuse(411, "length_required", "send the body with a Content-Length")
        length = request.content_length or 0
        if length > limit:
            raise Refused("too_large", f"{what} is at most {limit} bytes", 413)
        try:
            async with asyncio.timeout(self.limits.deadline(length)):
                return await request.read()
        except TimeoutError:
            raise _Refuse(408, "too_slow", f"the body came slower than {self.limits.min_body_rate} "
                                           "bytes per second") from None

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        try:
            return await self._route(request)
        except Refused as exc:
            return _json(exc.status, exc.to_json())
        except StoreError as exc:
            log.error("store error: %s", exc)
            return _json(503, {"ok": False, "reason": "store_unavailable", "message": str(exc)})
        except (_Refuse, web.HTTPException):
            raise
        except Exception:
            log.exception("internal error on %s %s", request.method, request.path)
            return _json(500, {"ok": False, "reason": "internal", "message": "internal error"})

    async def _route(self, request: web.Request) -> web.StreamResponse:
        method, path = request.method, request.path.rstrip("/") or "/"
        if method == "OPTIONS":
            return web.Response(status=204, headers={
                **CORS,
                "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
                "Access-Control-Allow-Headers": "Content-Type",
            })
        if path == "/ratings/results" and method == "POST":
            data = await self._body(request, MAX_RESULT_BYTES, "a co-signed result")
            return _json(200, await self.service.submit_result(data))
        if path == "/ratings/abandonments" and method == "POST":
            data = await self._body(request, MAX_CLAIM_BYTES, "an abandonment file")
            answer = await self.service.submit_abandonment(data, source=self.source(request))
            return _json(202 if answer.get("pending") else 200, answer)
        if method not in ("GET", "HEAD"):
            return _json(
                405,
                {"ok": False, "reason": "method_not_allowed", "message": f"{method} {path}"},
                {"Allow": "GET, HEAD, POST" if path.endswith(("results", "abandonments")) else "GET, HEAD"},
            )
        if path == "/ratings":
            return _json(200, await self.service.leaderboard())
        if path == "/ratings.html":
            return _page(leaderboard_page(await self.service.leaderboard()))
        if path == "/ratings/results":
            return _json(200, await self.service.export())
        if path == "/ratings/service":
            return _json(200, {"ok": True, "service": SERVICE_TAG})
        if path == "/healthz":
            await self.service.healthy()      # a StoreError: 503 store_unavailable (§5.5)
            return web.Response(status=200, text="ok\n")
        if path.startswith("/ratings/") and path.count("/") == 2:
            who = path.removeprefix("/ratings/")
            as_page = who.endswith(".html")
            found = await self.service.player(who.removesuffix(".html"))
            if found is None:
                return _json(
                    404, {"ok": False, "reason": "unknown_player",
                          "message": "no counted result or claim names player " + who}
                )
            return _page(player_page(found)) if as_page else _json(200, found)
        return _json(404, {"ok": False, "reason": "not_found", "message": f"no such path: {path}"})


def _json(status: int, value: object, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(status=status, body=dumps(value),
                        headers={"Content-Type": "application/json; charset=utf-8", **CORS,
                                 **(headers or {})})


def _page(text: str) -> web.Response:
    return web.Response(status=200, body=text.encode("utf-8"),
                        headers={"Content-Type": "text/html; charset=utf-8", **PAGE_POLICY})


_STYLE = (
    "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
    "td,th{padding:.2em .8em;border-bottom:1px solid #ccc;text-align:left}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}code{font-size:.9em;white-space:nowrap}"
)


def _shell(title: str, body: str) -> str:
    return (
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{html.escape(title)}</title>"
        f"<style>{_STYLE}</style></head><body>{body}</body></html>\n"
    )


def _name(entry: dict[str, object]) -> str:
    name = str(entry.get("name") or "")
    return html.escape(name) if name else "<i>no name</i>"


def leaderboard_page(board: dict[str, object]) -> str:
    rows = []
    players = board.get("players")
    for entry in players if isinstance(players, list) else []:
        fp = html.escape(str(entry["fingerprint"]))
        rows.append(
            f"<tr><td class=n>{entry['rank']}</td><td>{_name(entry)}</td>"
            f'<td><a href="ratings/{fp}.html"><code>{fp}</code></a></td>'
            f"<td class=n>{float(entry['rating']):.0f}</td><td class=n>{float(entry['deviation']):.0f}</td>"
            f"<td class=n>{entry['games']}</td>"
            f"<td class=n>{entry['wins']}-{entry['losses']}-{entry['draws']}</td>"
            f"<td class=n>{entry['abandoned']}</td></tr>"
        )
    table = (
        "<table><tr><th>#</th><th>name</th><th>fingerprint</th><th>rating</th><th>deviation</th>"
        "<th>games</th><th>won-lost-drawn</th><th>abandoned (claims)</th></tr>" + "".join(rows) + "</table>"
    )
    note = (
        f"<p>{board.get('results', 0)} co-signed results counted, {board.get('abandonments', 0)} "
        "abandonment claims standing. Names are chosen by the players and "
        "are not unique: the fingerprint is the identity. Abandonment claims are shown, never rated. "
        'Every result: <a href="ratings/results">export</a>.</p>'
    )
    return _shell("koikoi ratings", "<h1>Koi-Koi ratings</h1>" + note + table)


def player_page(found: dict[str, object]) -> str:
    player = found["player"]
    assert isinstance(player, dict)
    rows = []
    history = found.get("history")
    for line in history if isinstance(history, list) else []:
        opponent = html.escape(str(line["opponent_name"])) or "<i>no name</i>"
        fp = html.escape(str(line["opponent_fingerprint"]))
        rows.append(
            f"<tr><td class=n>{line['seq']}</td><td>{html.escape(str(line['outcome']))}</td>"
            f"<td>{opponent} <a href=\"{fp}.html\"><code>{fp}</code></a></td>"
            f"<td class=n>{float(line['rating_before']):.0f} → {float(line['rating_after']):.0f}</td></tr>"
        )
    # A key known only from claims against it (§7.2) has no counted result: not rated, as the
    # terminal says, rather than the initial rating.
    rating = (f"rating {float(str(player['rating'])):.0f} ± {float(str(player['deviation'])):.0f}"
              if player["games"] else "not rated (no counted result)")
    head = (
        f"<h1>{_name(player)}</h1><p><code>{html.escape(str(player['fingerprint']))}</code>: {rating}, "
        f"{player['games']} games, "
        f"{player['abandoned']} abandonment claims</p>"
    )
    table = (
        "<table><tr><th>result</th><th>outcome</th><th>opponent</th><th>rating</th></tr>"
        + "".join(rows)
        + "</table>"
    )
    return _shell(f"koikoi ratings: {player['name'] or player['fingerprint']}", head + table)
