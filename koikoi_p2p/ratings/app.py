"""The rating service's HTTP routes (spec/ratings.md §7).

    POST /ratings/results        a co-signed result file (the body, as bytes): count it
    POST /ratings/abandonments   an abandonment file: record its claim beside the rating
    GET  /ratings                the leaderboard (JSON)
    GET  /ratings.html           the leaderboard as a plain HTML page
    GET  /ratings/results        the export: every counted result and recorded claim (JSON)
    GET  /ratings/PLAYER         a player's history (JSON); PLAYER is a fingerprint or the key in hex
    GET  /ratings/PLAYER.html    the same as a page

JSON answers are UTF-8; every HTML page escapes every name it shows (names are chosen by
players). Submissions carry their own proof (two signatures), so any origin may send them: the
answers allow cross-origin reads and posts, for the web client.
"""

from __future__ import annotations

import html
import logging

from koikoi_p2p.ratings.board import dumps
from koikoi_p2p.ratings.checks import MAX_CLAIM_BYTES
from koikoi_p2p.ratings.errors import Refused, StoreError
from koikoi_p2p.ratings.http import HttpError, Request, Response, parse_request
from koikoi_p2p.ratings.service import RatingService

log = logging.getLogger("koikoi.ratings")

MAX_BODY = MAX_CLAIM_BYTES
CORS = {"Access-Control-Allow-Origin": "*"}
PAGE_POLICY = {"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"}


def claims(path: str) -> bool:
    """The paths of the service (what it takes from a relay's port in ``koikoi relay --ratings``)."""
    return path in ("/ratings", "/ratings/", "/ratings.html") or path.startswith("/ratings/")


class RatingsApp:
    def __init__(self, service: RatingService) -> None:
        self.service = service

    async def handle_raw(self, raw: bytes) -> bytes:
        """One whole HTTP request in, one whole response out (what both servers call)."""
        try:
            request = parse_request(raw)
        except HttpError as exc:
            return Response(exc.status, (exc.message + "\n").encode()).render()
        return (await self.handle(request)).render(request.method)

    async def handle(self, request: Request) -> Response:
        try:
            return await self._route(request)
        except Refused as exc:
            return _json(exc.status, exc.to_json())
        except StoreError as exc:
            log.error("store error: %s", exc)
            return _json(503, {"ok": False, "reason": "store_unavailable", "message": str(exc)})
        except Exception:
            log.exception("internal error on %s %s", request.method, request.path)
            return _json(500, {"ok": False, "reason": "internal", "message": "internal error"})

    async def _route(self, request: Request) -> Response:
        method, path = request.method, request.path.rstrip("/") or "/"
        if method == "OPTIONS":
            return Response(
                204,
                headers={
                    **CORS,
                    "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
                    "Access-Control-Allow-Headers": "Content-Type",
                },
            )
        if path in ("/ratings/results", "/ratings/abandonments") and method == "POST":
            if path == "/ratings/results":
                return _json(200, await self.service.submit_result(request.body))
            answer = await self.service.submit_abandonment(request.body)
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
        if path == "/healthz":
            return Response(200, b"ok\n")
        if path.startswith("/ratings/") and path.count("/") == 2:
            who = path.removeprefix("/ratings/")
            as_page = who.endswith(".html")
            found = await self.service.player(who.removesuffix(".html"))
            if found is None:
                return _json(
                    404, {"ok": False, "reason": "unknown_player", "message": "no rated player " + who}
                )
            return _page(player_page(found)) if as_page else _json(200, found)
        return _json(404, {"ok": False, "reason": "not_found", "message": f"no such path: {path}"})


def _json(status: int, value: object, headers: dict[str, str] | None = None) -> Response:
    return Response(status, dumps(value), "application/json; charset=utf-8", {**CORS, **(headers or {})})


def _page(text: str) -> Response:
    return Response(200, text.encode("utf-8"), "text/html; charset=utf-8", PAGE_POLICY)


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
        f"<p>{board.get('results', 0)} co-signed results counted. Names are chosen by the players and "
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
    head = (
        f"<h1>{_name(player)}</h1><p><code>{html.escape(str(player['fingerprint']))}</code>: rating "
        f"{float(str(player['rating'])):.0f} ± {float(str(player['deviation'])):.0f}, "
        f"{player['games']} games, "
        f"{player['abandoned']} abandonment claims</p>"
    )
    table = (
        "<table><tr><th>result</th><th>outcome</th><th>opponent</th><th>rating</th></tr>"
        + "".join(rows)
        + "</table>"
    )
    return _shell(f"koikoi ratings: {player['name'] or player['fingerprint']}", head + table)
