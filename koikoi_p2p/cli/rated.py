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
    True when the service took it (counted now or before). The lines are in ``lang``."""
    from koikoi_p2p.ratings import client

    if result is None and abandonment is None:
        return False
    what = tr(lang, "result") if result is not None else tr(lang, "abandonment claim")
    try:
        if result is not None:
            answer = await asyncio.to_thread(client.submit_result, ratings, result)
        else:
            assert abandonment is not None
            answer = await asyncio.to_thread(client.submit_abandonment, ratings, abandonment)
    except (client.ServiceUnreachable, ValueError) as exc:
        later = tr(lang, " Send it later: {koikoi} ratings submit {path} --to {url}", path=path, url=ratings,
                   koikoi=own_command()) \
            if path and result else ""
        if lang == "ja" and isinstance(exc, client.ServiceUnreachable):
            # The reason is the operating system's English; the URL says which service did not answer.
            if isinstance(exc, client.CertificateRefused):
                problem = tr(lang, "the certificate of {url} is not trusted (--lang en says why)",
                             url=safe(ratings))
            else:
                problem = tr(lang, "no answer from {url}", url=safe(ratings))
        else:
            problem = safe(exc)
        say(tr(lang, "The rating service did not take the {what}: {problem}.{later}", what=what,
               problem=problem, later=later))
        return False
    say(tr(lang, "Rating service {url}: {answer}", url=safe(ratings), answer=submit_text(answer, what, lang)))
    return answer.ok


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
