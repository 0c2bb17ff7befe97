"""TLS for a relay that serves ``wss://`` and ``https://`` itself (``--tls-cert``, ``--tls-key``).

The servers hold one context (:attr:`ServerTLS.context`), whose SNI callback (run for every
handshake, with or without a server name) hands the connection the context of the files as last
loaded. :meth:`ServerTLS.reload` (on SIGHUP) builds a whole new context from the files and, only
when it loads, makes it that one: connections accepted from then on get the new certificate and
only it, open ones keep theirs, and a bad file leaves the running certificate in place (the error
is logged). Loading into the live context instead would keep the old certificate beside the new
one when the key type changes (OpenSSL holds one chain per key type) and go on serving it
(spec/relay.md §14.2).
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
        self.context.sni_callback = self._hand_over
        self.current = self.context      # the context of the files as last loaded
        self.reloads = 0

    def _hand_over(self, conn: ssl.SSLObject | ssl.SSLSocket, name: str | None,
                   context: ssl.SSLContext) -> None:
        """Give a new connection the current context (and with it only the current certificate)."""
        if conn.context is not self.current:
            conn.context = self.current

    def reload(self) -> None:
        """Load the files again into a fresh context. Both are read once, into memory, so a file
        rewritten meanwhile (by a renewal) cannot give a certificate and a key that do not match;
        a bad pair raises TLSFilesError and the running context stays."""
        with _snapshot(self.cert) as cert, _snapshot(self.key) as key:
            try:
                fresh = _context(cert, key)
            except TLSFilesError as exc:   # named by the files, not by the copies
                raise TLSFilesError(str(exc).replace(cert, self.cert).replace(key, self.key)) from None
        self.current = fresh
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
