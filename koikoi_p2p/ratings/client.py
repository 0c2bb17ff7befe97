"""Talking to a rating service over HTTP (the standard library's urllib): submitting a co-signed
result after a rated match, reading the leaderboard (spec/ratings.md §7, §8)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import quote, urlsplit, urlunsplit

from koikoi_p2p.net import tls

TIMEOUT = 20.0
MAX_ANSWER = 64 * 1024 * 1024


class ServiceUnreachable(Exception):
    """No answer from the service (refused, timed out, not HTTP)."""


class CertificateRefused(ServiceUnreachable):
    """An ``https://`` service whose certificate does not verify (net/tls.py): nothing was sent."""


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    body: dict[str, object]

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300 and self.body.get("ok", True) is True


def service_url(url: str) -> str:
    """The rating service of a relay: ``ws://HOST:PORT/v1`` -> ``http://HOST:PORT`` (``wss`` ->
    ``https``); an ``http(s)://`` URL is kept, without a trailing ``/`` or ``/ratings``."""
    parts = urlsplit(url.strip())
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    if scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"not a relay or rating service URL: {url!r}")
    path = parts.path.rstrip("/")
    for suffix in ("/v1", "/ratings"):
        path = path.removesuffix(suffix)
    return urlunsplit((scheme, parts.netloc, path, "", ""))


SERVICE_TAG = "koikoi-ratings/v1"      # what GET /ratings/service answers (spec/ratings.md §7.6)


def locate(relay: str, *, timeout: float = 5.0) -> str:
    """The rating service of a relay (spec/ratings.md §2.1): ``GET {base}/ratings/service``,
    following redirects (a relay run with ``--ratings`` sends it to the service's own port); the
    URL that answered is the service. With no such answer, the relay's own URL (``service_url``)."""
    base = service_url(relay)
    request = urllib.request.Request(base + "/ratings/service", headers={"Accept": "application/json"})  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (http(s), checked)
            final, raw = response.geturl(), response.read(4096)
        body = json.loads(raw.decode("utf-8"))
        here = final.removesuffix("/ratings/service")
        if isinstance(body, dict) and body.get("service") == SERVICE_TAG and here != final:
            return service_url(here)
    except (urllib.error.URLError, OSError, TimeoutError, ValueError):
        pass
    return base


def _request(url: str, *, data: bytes | None = None, timeout: float = TIMEOUT) -> Answer:
    request = urllib.request.Request(url, data=data, method="POST" if data is not None else "GET")  # noqa: S310
    if data is not None:
        request.add_header("Content-Type", "application/octet-stream")
    request.add_header("Accept", "application/json")
    secure = tls.client_context() if urlsplit(url).scheme == "https" else None
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=secure) as response:  # noqa: S310 (http(s) only)
            status, raw = response.status, response.read(MAX_ANSWER)
    except urllib.error.HTTPError as exc:
        status, raw = exc.code, exc.read(MAX_ANSWER)
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        problem = tls.certificate_problem(exc)
        if problem is not None:
            raise CertificateRefused(
                f"the certificate of {urlsplit(url).hostname} is not trusted: {problem}") from None
        raise ServiceUnreachable(f"no answer from {url}: {getattr(exc, 'reason', exc)}") from None
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        body = {"ok": False, "reason": "not_json", "message": raw[:200].decode("utf-8", "replace").strip()}
    if not isinstance(body, dict):
        body = {"ok": False, "reason": "not_json", "message": "the answer is not a JSON object"}
    return Answer(status, body)


def submit_result(service: str, data: bytes, *, attempts: int = 3, pause: float = 1.0) -> Answer:
    """POST a co-signed result; a connection failure is retried (a repeat is a no-op there)."""
    url = service_url(service) + "/ratings/results"
    for attempt in range(1, attempts + 1):
        try:
            return _request(url, data=data)
        except ServiceUnreachable:
            if attempt == attempts:
                raise
            time.sleep(pause * attempt)
    raise AssertionError("unreachable")


def submit_abandonment(service: str, data: bytes) -> Answer:
    return _request(service_url(service) + "/ratings/abandonments", data=data, timeout=120.0)


def leaderboard(service: str) -> Answer:
    return _request(service_url(service) + "/ratings")


def history(service: str, player: str) -> Answer:
    return _request(service_url(service) + "/ratings/" + quote(player, safe=""))


def export(service: str) -> Answer:
    return _request(service_url(service) + "/ratings/results", timeout=120.0)
