"""A throwaway certificate authority for the TLS tests, made with ``cryptography``.

``CA.make(dir)`` writes ``ca.pem`` (the CA certificate, what a client trusts with ``--cafile``);
``ca.leaf(dir, name)`` issues a server certificate for 127.0.0.1 and localhost and writes
``name.pem`` (leaf then CA, a full chain), ``name.key`` and ``name.both.pem`` (chain and key in
one file, the form HAProxy's ``crt`` reads). Keys are P-256: quick to make.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _pem_key(key: ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


@dataclass(frozen=True)
class Leaf:
    cert: Path      # leaf + CA chain
    key: Path
    both: Path      # chain and key in one file
    der: bytes      # the leaf certificate, DER
    spki_sha256: str  # base64 SHA-256 of the leaf's key (Chromium's --ignore-certificate-errors-spki-list)


@dataclass(frozen=True)
class CA:
    key: ec.EllipticCurvePrivateKey
    cert: x509.Certificate
    path: Path

    @classmethod
    def make(cls, folder: Path, common: str = "koikoi test CA") -> CA:
        key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.UTC)
        cert = (x509.CertificateBuilder().subject_name(_name(common)).issuer_name(_name(common))
                .public_key(key.public_key()).serial_number(x509.random_serial_number())
                .not_valid_before(now - datetime.timedelta(hours=1))
                .not_valid_after(now + datetime.timedelta(days=2))
                .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
                .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                             content_commitment=False, key_encipherment=False,
                                             data_encipherment=False, key_agreement=False,
                                             encipher_only=False, decipher_only=False), critical=True)
                .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
                .sign(key, hashes.SHA256()))
        path = folder / f"{common.replace(' ', '-')}.pem"
        path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        return cls(key, cert, path)

    def leaf(self, folder: Path, name: str = "server",
             hosts: tuple[str, ...] = ("127.0.0.1", "localhost"), rsa_key: bool = False) -> Leaf:
        """``rsa_key``: an RSA 2048 key instead of P-256 (a certificate of another key type)."""
        key: ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey = (
            rsa.generate_private_key(public_exponent=65537, key_size=2048) if rsa_key
            else ec.generate_private_key(ec.SECP256R1()))
        now = datetime.datetime.now(datetime.UTC)
        alt: list[x509.GeneralName] = []
        for host in hosts:
            try:
                alt.append(x509.IPAddress(ipaddress.ip_address(host)))
            except ValueError:
                alt.append(x509.DNSName(host))
        cert = (x509.CertificateBuilder().subject_name(_name(hosts[0])).issuer_name(self.cert.subject)
                .public_key(key.public_key()).serial_number(x509.random_serial_number())
                .not_valid_before(now - datetime.timedelta(hours=1))
                .not_valid_after(now + datetime.timedelta(days=1))
                .add_extension(x509.SubjectAlternativeName(alt), critical=False)
                .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
                .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(self.key.public_key()),
                               critical=False)
                .sign(self.key, hashes.SHA256()))
        pem = serialization.Encoding.PEM
        chain = cert.public_bytes(pem) + self.cert.public_bytes(pem)
        cert_path, key_path, both = (folder / f"{name}.pem", folder / f"{name}.key",
                                     folder / f"{name}.both.pem")
        cert_path.write_bytes(chain)
        key_path.write_bytes(_pem_key(key))
        key_path.chmod(0o600)
        both.write_bytes(chain + _pem_key(key))
        both.chmod(0o600)
        spki = key.public_key().public_bytes(serialization.Encoding.DER,
                                             serialization.PublicFormat.SubjectPublicKeyInfo)
        return Leaf(cert_path, key_path, both, cert.public_bytes(serialization.Encoding.DER),
                    base64.b64encode(hashlib.sha256(spki).digest()).decode())
