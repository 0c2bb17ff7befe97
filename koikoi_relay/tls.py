"""TLS for a relay that serves ``wss://`` and ``https://`` itself (``--tls-cert``, ``--tls-key``).

One server context serves every connection. :meth:`ServerTLS.reload` (on SIGHUP) reads the files
again and, only when the new certificate and key load and match, puts them into that context:
connections accepted from then on get the new certificate, open ones keep theirs, and a bad file
leaves the running certificate in place (the error is logged).
"""

from __future__ import annotations

import ssl


class TLSFilesError(ValueError):
    """The certificate or key file cannot be used (unreadable, not PEM, or not a matching pair)."""


def _context(cert: str, key: str) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.set_alpn_protocols(["http/1.1"])   # websockets speaks HTTP/1.1 only
    _load(context, cert, key)
    return context


def _load(context: ssl.SSLContext, cert: str, key: str) -> None:
    try:
        context.load_cert_chain(certfile=cert, keyfile=key)
    except ssl.SSLError as exc:
        raise TLSFilesError(f"cannot use {cert} with {key}: {exc.reason or exc}") from None
    except OSError as exc:
        raise TLSFilesError(f"cannot read {exc.filename or cert}: {exc.strerror or exc}") from None


class ServerTLS:
    """The relay's server context and the files it came from."""

    def __init__(self, cert: str, key: str) -> None:
        self.cert = cert
        self.key = key
        self.context = _context(cert, key)
        self.reloads = 0

    def reload(self) -> None:
        """Load the files again. They are first tried in a scratch context, so a bad pair raises
        TLSFilesError and the live context keeps serving the previous certificate."""
        _context(self.cert, self.key)
        _load(self.context, self.cert, self.key)
        self.reloads += 1
