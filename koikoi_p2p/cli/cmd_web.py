"""``koikoi web``: serve the browser app on this machine; ``koikoi web --check URL``: compare a served copy.

A player who does not want to run whatever page a relay serves runs the copy installed with this
package on 127.0.0.1 and points it at any relay (the relay still sees only opaque frames).
``--check`` fetches every file that a server lists in its SHA256SUMS and compares each with the
installed files' hashes, so a player can tell whether a relay serves exactly this release.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import signal
import sys
import urllib.parse
import urllib.request
from typing import Any

from koikoi_p2p.cli.exit_codes import RELAY_UNREACHABLE
from koikoi_p2p.cli.options import add_cafile
from koikoi_relay.main import port_number, run_listening


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "web",
        help="serve the browser app on 127.0.0.1 (or check a served copy against this release)",
        description="Serve the installed browser app on 127.0.0.1 and print its address. The page "
                    "plays through any relay you name in it; practice runs in the page. With --check URL, "
                    "compare every file a server publishes with this release's SHA256SUMS instead.",
    )
    parser.add_argument("--port", type=port_number, default=8766,
                        help="TCP port on 127.0.0.1 (default 8766; 0: any free one)")
    parser.add_argument("--relay", metavar="URL",
                        help="the relay the page suggests, e.g. wss://relay.example/v1")
    parser.add_argument("--check", metavar="URL",
                        help="compare the app served at URL with this release and exit")
    add_cafile(parser, metavar="CA")  # FILE would make the Japanese usage line wider than 80 columns
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    if args.check:
        return check(args.check)
    return run_listening("koikoi web", lambda: asyncio.run(_serve(args.port, args.relay)))


async def _serve(port: int, relay: str | None) -> int:
    from websockets.asyncio.server import ServerConnection, serve
    from websockets.datastructures import Headers
    from websockets.http11 import Request, Response

    from koikoi_web import CSP_LOCAL, file_for

    def answer(connection: ServerConnection, request: Request) -> Response:
        found = file_for(request.path)
        if found is None:
            return connection.respond(404, "not found\n")
        return Response(200, "OK", Headers(found.headers(CSP_LOCAL)), found.body)

    async def refuse(ws: ServerConnection) -> None:
        await ws.close(1008, "this server only serves the app")

    async with serve(refuse, "127.0.0.1", port, process_request=answer, server_header=None) as server:
        bound = server.sockets[0].getsockname()[1]
        suffix = f"#relay={urllib.parse.quote(relay, safe='')}" if relay else ""
        print(f"koikoi web: the app is at http://127.0.0.1:{bound}/{suffix}", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
    return 0


class Untrusted(OSError):
    """A server whose certificate does not verify (net/tls.py): nothing was fetched from it."""


def check(url: str) -> int:
    """Fetch SHA256SUMS and every file it lists from ``url``; compare with this release."""
    from koikoi_web import published_sums

    ours = published_sums()
    base = url if url.endswith("/") else url + "/"
    if not base.startswith(("http://", "https://")):
        print(f"koikoi web --check: {url} is not an http(s) address", file=sys.stderr)
        return 2
    bad = 0
    try:
        theirs_text = _get(base + "SHA256SUMS").decode()
    except Untrusted as exc:
        # As every command that connects says it: the tag and exit 3 (README, spec/relay.md §14.3).
        print(f"koikoi web --check: {exc} (bad_certificate)\n"
              "koikoi web --check: Nothing was sent. If it uses its own CA, give that CA with --cafile FILE.",
              file=sys.stderr)
        return RELAY_UNREACHABLE
    except OSError as exc:
        print(f"koikoi web --check: cannot read {base}SHA256SUMS: {exc}", file=sys.stderr)
        return 1
    theirs: dict[str, str] = {}
    for line in theirs_text.splitlines():
        if "  " in line:
            digest, name = line.split("  ", 1)
            theirs[name] = digest
    for name in sorted(set(ours) | set(theirs)):
        if name not in ours:
            print(f"EXTRA    {name} (not in this release)")
            bad += 1
            continue
        try:
            digest = hashlib.sha256(_get(base + ("" if name == "index.html" else name))).hexdigest()
        except OSError as exc:
            print(f"MISSING  {name}: {exc}")
            bad += 1
            continue
        same = digest == ours[name]
        bad += 0 if same else 1
        print(f"{'same    ' if same else 'DIFFERS '} {name}")
    print("the served app is this release, file for file" if not bad
          else f"{bad} file(s) differ from this release")
    return 0 if not bad else 1


def _get(url: str) -> bytes:
    from koikoi_p2p.net import tls

    secure = tls.client_context() if url.startswith("https://") else None
    try:
        with urllib.request.urlopen(url, timeout=20, context=secure) as response:  # noqa: S310 (http(s) checked)
            body: bytes = response.read()
            return body
    except OSError as exc:
        problem = tls.certificate_problem(exc)
        if problem is not None:
            host = urllib.parse.urlsplit(url).hostname
            raise Untrusted(f"the certificate of {host} is not trusted: {problem}") from None
        raise
