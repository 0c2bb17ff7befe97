"""The one place the client commands get their TLS settings from.

Every ``wss://`` relay connection and every ``https://`` request to a rating service (or to a
relay serving the app) verifies the server's certificate and host name with the context built
here: against the system's trust store, or against one CA file named by ``--cafile FILE``
(:func:`use_cafile`) or by the ``SSL_CERT_FILE`` variable. A certificate that does not verify is
never accepted; :func:`certificate_problem` says why in one line for the error a person sees.
"""

from __future__ import annotations

import os
import ssl

_cafile: str | None = None


class BadCafile(ValueError):
    """The CA file given with ``--cafile`` (or ``SSL_CERT_FILE``) cannot be read as PEM certificates."""


def _load(cafile: str | None) -> ssl.SSLContext:
    if cafile is None:
        return ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
    # Only this file's CAs, not the system's store beside them.
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    try:
        context.load_verify_locations(cafile=cafile)
    except (OSError, ssl.SSLError) as exc:
        reason = getattr(exc, "strerror", None) or "no PEM certificate in it"
        raise BadCafile(f"cannot use {cafile} as a CA file: {reason}") from None
    return context


def use_cafile(path: str | None) -> None:
    """Trust only the CA certificates in ``path`` from now on (``None``: back to the default).
    Raises BadCafile at once when the file cannot be used, before anything connects."""
    global _cafile
    if path is not None:
        _load(path)
    _cafile = path


def given_cafile() -> str | None:
    """The CA file named by ``--cafile`` (not ``SSL_CERT_FILE``), as an absolute path: what a
    crash-safe match saves so that ``koikoi resume`` trusts the same relay again."""
    return None if _cafile is None else os.path.abspath(_cafile)


def resume_with(saved: str) -> None:
    """Trust the CA file a saved match began with (``saved``, "" for none) unless this command
    was given one with ``--cafile``. Raises BadCafile when the saved file cannot be used now."""
    if _cafile is None and saved:
        use_cafile(saved)


def cafile() -> str | None:
    """The CA file in force: ``--cafile``, else ``$SSL_CERT_FILE``, else None (the system's store)."""
    return _cafile or os.environ.get("SSL_CERT_FILE") or None


def client_context() -> ssl.SSLContext:
    """A fresh client context: TLS 1.2 or later, certificate and host name checked."""
    context = _load(cafile())
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    return context


def certificate_problem(exc: BaseException | None) -> str | None:
    """Why a certificate was refused, when ``exc`` (or an exception it wraps) is a verification
    failure; None for any other error."""
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, ssl.SSLCertVerificationError):
            return str(exc.verify_message or exc.reason or "certificate verify failed")
        if isinstance(exc, ssl.SSLError) and "CERTIFICATE" in str(exc.reason or ""):
            return str(exc.reason).lower().replace("_", " ")
        exc = getattr(exc, "reason", None) if isinstance(getattr(exc, "reason", None), BaseException) \
            else (exc.__cause__ or exc.__context__)
        seen += 1
    return None
