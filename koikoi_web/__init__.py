"""The built browser app (package data in ``static/``) and how it is served.

The files are the output of ``node web/app/build.mjs``, committed so that a plain ``pip install``
gives a working app; ``SHA256SUMS`` lists the SHA-256 of every file. This package uses the
standard library only: the relay (``koikoi relay --web``) imports it without importing any game or
cryptography code, and ``koikoi web`` serves the same files on 127.0.0.1.
"""

from __future__ import annotations

import hashlib
import mimetypes
from dataclasses import dataclass
from functools import cache
from importlib import resources

__all__ = ["CSP_LOCAL", "CSP_RELAY", "StaticFile", "file_for", "files", "published_sums"]

# The page runs only its own scripts (libsodium's WebAssembly needs 'wasm-unsafe-eval', nothing
# may eval), loads nothing from elsewhere and talks to one place: served by a relay, that relay's
# websocket on the same origin ('self' covers ws:/wss: of the page's host); served by
# ``koikoi web``, any relay the player names (the player chose to trust this local copy) and the
# rating service a rated match's terms name (spec/ratings.md §2.3: the page submits the result).
_BASE = ("default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; "
         "img-src 'self' data: blob:; manifest-src 'self'; base-uri 'none'; form-action 'none'; "
         "frame-ancestors 'none'")
CSP_RELAY = f"{_BASE}; connect-src 'self'"
CSP_LOCAL = f"{_BASE}; connect-src 'self' ws: wss: http: https:"

_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
}
# Files whose names carry a content hash never change; the others are checked on each load.
_FIXED_NAMES = {"index.html", "sw.js", "manifest.webmanifest", "icon.svg", "SHA256SUMS", "report.html",
                "icon-192.png", "icon-512.png", "apple-touch-icon.png"}


@dataclass(frozen=True, slots=True)
class StaticFile:
    name: str
    body: bytes
    content_type: str
    immutable: bool

    def headers(self, csp: str) -> list[tuple[str, str]]:
        """The response headers: type, caching, and the security policy of the page."""
        cache_control = "public, max-age=31536000, immutable" if self.immutable else "no-cache"
        return [
            ("Content-Type", self.content_type),
            ("Cache-Control", cache_control),
            ("Content-Security-Policy", csp),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
            ("Cross-Origin-Resource-Policy", "same-origin"),
        ]


@cache
def files() -> dict[str, StaticFile]:
    """Every file of the built app by name (read once from the package data)."""
    out: dict[str, StaticFile] = {}
    root = resources.files(__name__).joinpath("static")
    for entry in root.iterdir():
        if not entry.is_file():
            continue
        name = entry.name
        suffix = name[name.rfind("."):] if "." in name else ""
        kind = _TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "text/plain; charset=utf-8"
        out[name] = StaticFile(name, entry.read_bytes(), kind, name not in _FIXED_NAMES)
    return out


def file_for(path: str) -> StaticFile | None:
    """The file a request path names (``/`` is index.html); None for anything else.

    Only the names in the package are served: no directories, no ``..``, no query strings.
    """
    name = path.split("?", 1)[0].split("#", 1)[0]
    if name in ("", "/"):
        name = "/index.html"
    if not name.startswith("/") or "/" in name[1:]:
        return None
    return files().get(name[1:])


def published_sums() -> dict[str, str]:
    """SHA256SUMS as a mapping (name -> hex digest), checked against the files themselves."""
    table = files()
    sums: dict[str, str] = {}
    for line in table["SHA256SUMS"].body.decode().splitlines():
        digest, name = line.split("  ", 1)
        sums[name] = digest
    for name, digest in sums.items():
        if hashlib.sha256(table[name].body).hexdigest() != digest:
            raise ValueError(f"the installed {name} does not match its SHA256SUMS line")
    return sums


def report_html(data: bytes) -> bytes:
    """The one-file match report for a transcript: the app's replay view with ``data`` inside.

    The page verifies the file with the JavaScript auditor when it opens, fetches nothing, and
    can be sent on as it is (``koikoi verify FILE --html OUT.html``).
    """
    import base64

    template = files()["report.html"].body
    marker = b"__KOIKOI_TRANSCRIPT__"
    if template.count(marker) != 1:
        raise ValueError("the installed report.html has no single transcript marker")
    return template.replace(marker, base64.b64encode(data))


def csp_relay(*origins: str) -> str:
    """The policy of a page served by a relay that may also reach ``origins`` (the rating service
    run beside it on another port, spec/relay.md §9): ``connect-src 'self'`` and those."""
    return " ".join([CSP_RELAY, *origins])


__all__ += ["csp_relay", "report_html"]
