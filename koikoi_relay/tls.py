"""TLS for a relay that serves ``wss://`` and ``https://`` itself (``--tls-cert``, ``--tls-key``).

One server context serves every connection. :meth:`ServerTLS.reload` (on SIGHUP) reads the files
again and, only when the new certificate and key load and match, puts them into that context:
connections accepted from then on get the new certificate, open ones keep theirs, and a bad file
leaves the running certificate in place (the error is logged).
"""

from __future__ import annotations

import contextlib
import os
import ssl
from collections.abc import Iterator


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
        """Load the files again. Both are read once, into memory, and that copy is first tried in a
        scratch context and then loaded into the live one: a bad pair raises TLSFilesError and the
        live context keeps serving the previous certificate, and a file rewritten meanwhile (by a
        renewal) cannot leave the live context with a certificate and a key that do not match."""
        with _snapshot(self.cert) as cert, _snapshot(self.key) as key:
            try:
                _context(cert, key)
            except TLSFilesError as exc:   # named by the files, not by the copies
                raise TLSFilesError(str(exc).replace(cert, self.cert).replace(key, self.key)) from None
            _load(self.context, cert, key)
        self.reloads += 1


@contextlib.contextmanager
def _snapshot(path: str) -> Iterator[str]:
    """A name under which the bytes ``path`` holds now stay readable while the block runs: a
    memory-only file (memfd, never on disk), or on a system without memfd the file itself."""
    if not hasattr(os, "memfd_create"):
        yield path
        return
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as exc:
        raise TLSFilesError(f"cannot read {path}: {exc.strerror or exc}") from None
    fd = os.memfd_create("koikoi-relay-tls", os.MFD_CLOEXEC)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        yield f"/proc/self/fd/{fd}"
    finally:
        os.close(fd)
