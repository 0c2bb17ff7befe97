"""The short authentication string both screens show when there is no room password (§5.5)."""

from __future__ import annotations

from koikoi_p2p.protocol.errors import LocalMisuse


def format_sas(data: bytes) -> str:
    """Three decimal groups from the first 39 bits, as in Matrix's decimal SAS.

    Each 13-bit group n is shown as n + 1000 (1000..9191), e.g. ``"4721-1088-9043"``.
    """
    if len(data) < 5:
        raise LocalMisuse("bad_sas", "the SAS needs 5 bytes")
    bits = int.from_bytes(data[:5], "big") >> 1   # the top 39 bits
    groups = [(bits >> shift) & 0x1FFF for shift in (26, 13, 0)]
    return "-".join(str(group + 1000) for group in groups)
