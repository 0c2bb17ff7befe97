"""Talking to a rating service over HTTP (the standard library's urllib): submitting a co-signed
result after a rated match, reading the leaderboard (spec/ratings.md §7, §8)."""

from __future__ import annotations

import html
import http
import json
import random
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote, urlsplit, urlunsplit

from koikoi_p2p.net import tls

TIMEOUT = 20.0
MAX_ANSWER = 64 * 1024 * 1024
# A submission is retried this long while the service is down or its proxy has no server for it
# (spec/ratings.md §2.3): a restart or a database failover is over within a minute.
SUBMIT_PATIENCE = 60.0
FIRST_PAUSE = 1.0
LONGEST_PAUSE = 15.0
RETRY_STATUSES = frozenset({502, 503, 504})   # a gateway or a service that is down, for now


class ServiceUnreachable(Exception):
    """No answer from the service (refused, timed out, not HTTP)."""


class ServiceUnavailable(ServiceUnreachable):
    """The service (or the proxy in front of it) kept answering 502, 503 or 504: the result may not
    have been counted (sending it again is harmless, §2.3)."""

    def __init__(self, message: str, answer: Answer) -> None:
        super().__init__(message)
        self.answer = answer


@dataclass(frozen=True, slots=True)
class Retry:
    """What ``submit_result`` tells its caller before it waits to try again."""

    problem: str       # why the last try failed, one short line (English)
    pause: float       # seconds until the next try
    status: int | None  # the HTTP status that failed, None when nothing answered


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
    """The rating service of a relay (spec/ratings.md §2.1): the one that answers for it (``find``),
    else the relay's own URL (``service_url``)."""
    return find(relay, timeout=timeout) or service_url(relay)


def find(relay: str, *, timeout: float = 5.0) -> str | None:
    """The rating service that answers for a relay (spec/ratings.md §2.1): ``GET
    {base}/ratings/service``, following redirects (a relay run with ``--ratings`` sends it to the
    service's own port); the URL that answered is the service. None when none answers within
    ``timeout`` (the relay has none, or it is restarting). An ``https`` base is checked against the
    trust store or ``--cafile`` as every other request."""
    base = service_url(relay)
    request = urllib.request.Request(base + "/ratings/service", headers={"Accept": "application/json"})  # noqa: S310
    secure = tls.client_context() if urlsplit(base).scheme == "https" else None
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=secure) as response:  # noqa: S310 (http(s), checked)
            final, raw = response.geturl(), response.read(4096)
        body = json.loads(raw.decode("utf-8"))
        here = final.removesuffix("/ratings/service")
        if isinstance(body, dict) and body.get("service") == SERVICE_TAG and here != final:
            return service_url(here)
    except (urllib.error.URLError, OSError, TimeoutError, ValueError):
        pass
    return None


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
        body = {"ok": False, "reason": "not_json", "message": unreadable(status, raw)}
    if not isinstance(body, dict):
        body = {"ok": False, "reason": "not_json", "message": "the answer is not a JSON object"}
    return Answer(status, body)


def unreadable(status: int, raw: bytes) -> str:
    """A short plain line for an answer that is not JSON (a proxy's HTML error page): its text
    without tags, on one line, else the status's name."""
    text = html.unescape(re.sub(r"<[^>]*>", " ", raw[:2000].decode("utf-8", "replace")))
    text = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    if len(text) > 100:
        text = text[:99].rstrip() + "…"
    try:
        phrase = http.HTTPStatus(status).phrase
    except ValueError:
        phrase = ""
    return text or phrase


def problem_of(answer: Answer) -> str:
    """One short line for a failed answer: the status and the service's message."""
    message = str(answer.body.get("message") or answer.body.get("reason") or "")
    if not message or message.startswith(str(answer.status)):   # a page that names its status
        return message or str(answer.status)
    return f"{answer.status} ({message})"


def submit_result(service: str, data: bytes, *, patience: float | None = None, pause: float | None = None,
                  on_retry: Callable[[Retry], None] | None = None) -> Answer:
    """POST a co-signed result. A connection failure or a 502/503/504 is retried with jittered
    exponential pauses for up to ``patience`` seconds (a repeat is a no-op there, §2.3), each
    announced to ``on_retry``; then ServiceUnreachable (ServiceUnavailable for a status)."""
    url = service_url(service) + "/ratings/results"
    deadline = time.monotonic() + (SUBMIT_PATIENCE if patience is None else patience)
    pause = FIRST_PAUSE if pause is None else pause
    while True:
        try:
            # The last try gets what is left of the patience, not a whole TIMEOUT more (§2.3).
            answer = _request(url, data=data, timeout=max(1.0, min(TIMEOUT, deadline - time.monotonic())))
        except CertificateRefused:
            raise                          # not a passing fault: nothing was sent
        except ServiceUnreachable as exc:
            failure: ServiceUnreachable = exc
        else:
            if answer.status not in RETRY_STATUSES:
                return answer
            failure = ServiceUnavailable(f"{url} answered {problem_of(answer)}", answer)
        wait = pause * random.uniform(0.5, 1.0)  # noqa: S311 (jitter: clients must not retry in step)
        if time.monotonic() + wait > deadline:
            raise failure
        if on_retry is not None:
            status = failure.answer.status if isinstance(failure, ServiceUnavailable) else None
            on_retry(Retry(problem=str(failure), pause=wait, status=status))
        time.sleep(wait)
        pause = min(pause * 2, LONGEST_PAUSE)


def submit_abandonment(service: str, data: bytes) -> Answer:
    return _request(service_url(service) + "/ratings/abandonments", data=data, timeout=120.0)


def leaderboard(service: str, *, timeout: float = TIMEOUT) -> Answer:
    return _request(service_url(service) + "/ratings", timeout=timeout)


def history(service: str, player: str, *, timeout: float = TIMEOUT) -> Answer:
    return _request(service_url(service) + "/ratings/" + quote(player, safe=""), timeout=timeout)


def export(service: str) -> Answer:
    return _request(service_url(service) + "/ratings/results", timeout=120.0)
