"""What the terminal does for a rated match (spec/ratings.md §2): say it before the match, and
after it send the co-signed result (or an upheld abandonment file) to the terms' rating service.

Both players' clients send; the service counts the first copy and answers the second "already
counted". A service that cannot be reached costs nothing: the file stays where the round summary
named it, and the line printed says how to send it later.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from koikoi_p2p.cli.cmd_ratings import submit_text
from koikoi_p2p.cli.i18n import tr
from koikoi_p2p.cli.paths import own_command
from koikoi_p2p.cli.untrusted import safe


def default_ratings(relay: str) -> str:
    """The rating service of a relay URL (``koikoi host --rated`` without ``--ratings``): the one
    the relay points to, else the relay's own URL (spec/ratings.md §2.1)."""
    from koikoi_p2p.ratings.client import locate

    return locate(relay)


async def submit_after_match(say: Callable[[str], None], *, ratings: str, result: bytes | None = None,
                             abandonment: bytes | None = None, path: str | None = None,
                             lang: str = "en") -> bool:
    """Send what the match left (a co-signed result, else an abandonment file) to ``ratings``;
    True when the service took it (counted now or before). The lines are in ``lang``. A result is
    retried for up to a minute while the service is down (spec/ratings.md §2.3), saying so."""
    from koikoi_p2p.ratings import client

    if result is None and abandonment is None:
        return False
    what = tr(lang, "result") if result is not None else tr(lang, "abandonment claim")
    # A try that failed may still have reached the service (its answer lost): after a retry, a copy
    # counted already may be our own, so the answer no longer says it was the opponent's.
    retried: list[object] = []
    announce = _announcer(say, ratings, what, lang)

    def on_retry(retry: object) -> None:
        retried.append(retry)
        announce(retry)

    try:
        if result is not None:
            answer = await asyncio.to_thread(client.submit_result, ratings, result, on_retry=on_retry)
        else:
            assert abandonment is not None
            answer = await asyncio.to_thread(client.submit_abandonment, ratings, abandonment)
    except (client.ServiceUnreachable, ValueError) as exc:
        later = later_line(lang, path, ratings) if path and result else ""
        say(tr(lang, "The rating service did not take the {what}: {problem}.{later}", what=what,
               problem=_problem(exc, ratings, lang), later=later))
        return False
    say(tr(lang, "Rating service {url}: {answer}", url=safe(ratings), answer=submit_text(
        answer, what, lang, claim=result is None, after_match=not retried)))
    return answer.ok


def _announcer(say: Callable[[str], None], ratings: str, what: str, lang: str) -> Callable[[object], None]:
    """``on_retry`` for ``client.submit_result``: a line before each wait, said on the event loop
    (the submission runs in a worker thread)."""
    loop = asyncio.get_running_loop()

    def announce(retry: object) -> None:
        loop.call_soon_threadsafe(say, retry_line(retry, ratings, what, lang))

    return announce


def retry_line(retry: object, ratings: str, what: str, lang: str) -> str:
    """The line that says a submission failed for now and when it is tried again."""
    status, pause = getattr(retry, "status", None), float(getattr(retry, "pause", 0.0))
    # The reason is English (a proxy's page, the system's words): shown on an English screen.
    problem = safe(getattr(retry, "problem", ""), 160) if lang == "en" else (
        str(status) if status else tr(lang, "no answer"))
    seconds = f"{max(1, round(pause))}"
    return tr(lang, "The rating service {url} did not take the {what} ({problem}): trying again in "
                    "{seconds} s.", url=safe(ratings), what=what, problem=problem, seconds=seconds)


def _problem(exc: Exception, ratings: str, lang: str) -> str:
    from koikoi_p2p.ratings import client

    if lang == "ja" and isinstance(exc, client.ServiceUnreachable):
        # The reason is the operating system's English; the URL says which service did not answer.
        if isinstance(exc, client.CertificateRefused):
            return tr(lang, "the certificate of {url} is not trusted (--lang en says why)", url=safe(ratings))
        if isinstance(exc, client.ServiceUnavailable):
            return tr(lang, "{url} is not available ({status})", url=safe(ratings), status=exc.answer.status)
        return tr(lang, "no answer from {url}", url=safe(ratings))
    return safe(exc, 300)


def later_line(lang: str, path: str, ratings: str) -> str:
    """Where the result is and the exact command that sends it later (spec/ratings.md §2.3)."""
    import shlex

    from koikoi_p2p.net import tls

    command = f"{own_command()} ratings submit {shlex.quote(path)} --to {shlex.quote(ratings)}"
    cafile = tls.given_cafile()
    if cafile:
        command += f" --cafile {shlex.quote(cafile)}"
    return tr(lang, " The result is saved in {path}; send it later with: {command}", path=safe(path),
              command=safe(command))


async def after_rated_match(say: Callable[[str], None], core: object, outcome: object,
                            lang: str = "en") -> None:
    """After a crash-safe match (``net.resumable``): when its terms were rated, send the co-signed
    result, or our upheld abandonment claim, to the terms' service."""
    peer = getattr(core, "peer", None)
    terms = getattr(getattr(peer, "flow", None), "terms", None)
    if terms is None or not terms.rated:
        return
    status, file = getattr(outcome, "status", ""), getattr(outcome, "file", None)
    if status == "completed":
        match_over = getattr(core, "match_over", None)
        result = getattr(match_over, "result", None)
        path = str(Path(file).with_suffix(".result")) if file else None
        if result is None and path is not None and Path(path).exists():
            result = Path(path).read_bytes()
        await submit_after_match(say, ratings=terms.ratings, result=result, path=path, lang=lang)
    elif status == "abandoned" and file:
        await submit_after_match(say, ratings=terms.ratings, abandonment=Path(file).read_bytes(), path=file,
                                 lang=lang)
