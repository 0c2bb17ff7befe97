"""`koikoi ratings serve --tls-cert FILE --tls-key FILE` serves https:// itself, and SIGHUP loads
the certificate files again (spec/ratings.md §8). The test makes its own CA with `cryptography`."""

from __future__ import annotations

import datetime
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.ratings.test_ratings_restart import ROOT, stop

Key = ec.EllipticCurvePrivateKey


def _name(text: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])


def make_ca() -> tuple[Key, x509.Certificate]:
    key = ec.generate_private_key(ec.SECP256R1())
    now, day = datetime.datetime.now(datetime.UTC), datetime.timedelta(days=1)
    cert = (
        x509.CertificateBuilder().subject_name(_name("koikoi test CA")).issuer_name(_name("koikoi test CA"))
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - day).not_valid_after(now + day)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                     content_commitment=False, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False, encipher_only=False,
                                     decipher_only=False), critical=True)
        .sign(key, hashes.SHA256())
    )
    return key, cert


def issue(ca: tuple[Key, x509.Certificate], folder: Path, serial: int) -> None:
    """A certificate for 127.0.0.1 signed by ``ca``, written as cert.pem and key.pem in ``folder``."""
    import ipaddress

    ca_key, ca_cert = ca
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder().subject_name(_name("127.0.0.1")).issuer_name(ca_cert.subject)
        .public_key(key.public_key()).serial_number(serial)
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                       critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    # Written whole, then renamed: a reload never reads half a file.
    for name, data in (("key.pem", key.private_bytes(serialization.Encoding.PEM,
                                                     serialization.PrivateFormat.PKCS8,
                                                     serialization.NoEncryption())),
                       ("cert.pem", cert.public_bytes(serialization.Encoding.PEM))):
        (folder / (name + ".new")).write_bytes(data)
        os.replace(folder / (name + ".new"), folder / name)


def served_serial(port: int, context: ssl.SSLContext) -> int:
    """The serial number of the certificate a new connection is shown (verified against the CA)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw, \
            context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
        der = tls.getpeercert(binary_form=True)
    assert der is not None
    return x509.load_der_x509_certificate(der).serial_number


def test_the_service_serves_https_and_reloads_its_certificate_on_sighup(tmp_path: Path) -> None:
    ca = make_ca()
    ca_file = tmp_path / "ca.pem"
    ca_file.write_bytes(ca[1].public_bytes(serialization.Encoding.PEM))
    issue(ca, tmp_path, serial=1001)
    env = {**os.environ, "KOIKOI_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "koikoi_p2p", "ratings", "serve",
               "--db", f"sqlite:///{tmp_path / 'r.db'}", "--port", "0",
               "--tls-cert", str(tmp_path / "cert.pem"), "--tls-key", str(tmp_path / "key.pem"),
               "--log-level", "warning"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("ratings listening on https://127.0.0.1:"), line
        url = line.split()[3]
        port = int(url.split(":")[2].split("/")[0])
        trusting = ssl.create_default_context(cafile=str(ca_file))
        with urllib.request.urlopen(url, context=trusting, timeout=10) as answer:
            assert answer.status == 200 and json.loads(answer.read())["results"] == 0
        # A client that does not trust the CA is refused by its own check.
        try:
            urllib.request.urlopen(url, context=ssl.create_default_context(), timeout=10)
            raise AssertionError("an unknown CA was accepted")
        except urllib.error.URLError as exc:
            assert isinstance(exc.reason, ssl.SSLCertVerificationError), exc
        assert served_serial(port, trusting) == 1001
        issue(ca, tmp_path, serial=1002)
        assert served_serial(port, trusting) == 1001            # nothing changes before the signal
        process.send_signal(signal.SIGHUP)
        for _ in range(100):
            if served_serial(port, trusting) == 1002:
                break
            time.sleep(0.1)
        assert served_serial(port, trusting) == 1002
        # A broken file on reload keeps the old certificate and the service up.
        (tmp_path / "cert.pem").write_text("not a certificate")
        process.send_signal(signal.SIGHUP)
        time.sleep(0.5)
        assert process.poll() is None and served_serial(port, trusting) == 1002
    finally:
        stop(process)
    assert process.returncode == 0


def test_the_limits_hold_over_tls_and_a_trusted_proxy_is_not_capped(tmp_path: Path) -> None:
    """Over TLS the per-address cap still applies; a trusted proxy's connections are not capped,
    and the client a proxy names is the source of a claim (spec/ratings.md §7.5)."""
    import asyncio
    from unittest import mock

    from aiohttp.test_utils import make_mocked_request

    from koikoi_p2p.ratings.app import RatingsServer
    from koikoi_p2p.ratings.limits import ServeLimits
    from koikoi_p2p.ratings.service import RatingService
    from koikoi_p2p.ratings.store import open_store
    from koikoi_relay.tls import ServerTLS

    ca = make_ca()
    issue(ca, tmp_path, serial=7)
    trusting = ssl.create_default_context(cadata=ca[1].public_bytes(serialization.Encoding.PEM).decode())

    async def get(port: int, context: ssl.SSLContext | None) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=context,
                                                       server_hostname="127.0.0.1" if context else None)
        writer.write(b"GET /ratings HTTP/1.1\r\nHost: x\r\n\r\n")
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 10)
        writer.close()
        return answer

    async def body() -> None:
        service = RatingService(open_store(f"sqlite:///{tmp_path / 'r.sqlite3'}"))
        capped = RatingsServer(service, ServeLimits(max_connections_per_address=1))
        proxied = RatingsServer(service, ServeLimits(max_connections_per_address=1,
                                                     trusted_proxies=frozenset({"127.0.0.1"})))
        files = ServerTLS(str(tmp_path / "cert.pem"), str(tmp_path / "key.pem"))
        await capped.start("127.0.0.1", 0, files.context)
        await proxied.start("127.0.0.1", 0)
        try:
            _, idle = await asyncio.open_connection("127.0.0.1", capped.port, ssl=trusting,
                                                    server_hostname="127.0.0.1")
            _, idle2 = await asyncio.open_connection("127.0.0.1", proxied.port)
            await asyncio.sleep(0.1)
            over = await get(capped.port, trusting)
            assert over.startswith(b"HTTP/1.1 503") and b"too_many_connections" in over, over[:200]
            assert (await get(proxied.port, None)).startswith(b"HTTP/1.1 200")
            idle.close()
            idle2.close()
        finally:
            await capped.close()
            await proxied.close()
            service.close()
        transport = mock.Mock()
        transport.get_extra_info.return_value = ("127.0.0.1", 40000)
        forwarded = make_mocked_request("POST", "/ratings/abandonments", transport=transport,
                                        headers={"X-Forwarded-For": "203.0.113.9, 198.51.100.7"})
        assert forwarded.remote == "127.0.0.1"
        assert proxied.source(forwarded) == "198.51.100.7"          # the address the proxy added
        assert capped.source(forwarded) == "127.0.0.1"              # an untrusted peer's header is ignored

    asyncio.run(body())
