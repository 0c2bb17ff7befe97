"""Generate spec/vectors/protocol/link_liveness.json: link liveness proofs (spec/protocol.md §12.2 item 4).

Run from the repository root:  python spec/vectors/generators/link_vectors.py [--check]
With --check nothing is written; the exit status says whether the file on disk is current.
Each case fixes the two direction secrets and the session id (so K_live), the challenger's and
the prover's link ids and the challenge, and gives the HELLO the challenger sends, the PROOF the
prover answers, and proofs a link must refuse (another challenge, ids swapped, another key).
The values come from the Python reference (koikoi_p2p.net.reliable, koikoi_p2p.protocol.channel);
tests/vectors/test_link_vectors.py recomputes them with the standard library alone and
web/test/net/link_liveness.test.js with the JavaScript link.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from koikoi_p2p.net.reliable import HELLO, PROOF, LinkFrame, encode_link_frame, liveness_proof
from koikoi_p2p.protocol.channel import liveness_key

OUT = Path(__file__).resolve().parents[1] / "protocol" / "link_liveness.json"
GENERATOR = "spec/vectors/generators/link_vectors.py"


def fixed(label: str, n: int) -> bytes:
    """n bytes of fixed data: SHA-256 of an ASCII label, cut."""
    return hashlib.sha256(label.encode()).digest()[:n]


def case(case_id: str) -> dict[str, object]:
    send0, send1 = fixed(f"{case_id}/send 0", 32), fixed(f"{case_id}/send 1", 32)
    session_id = fixed(f"{case_id}/session", 32)
    challenger, prover = fixed(f"{case_id}/challenger", 8), fixed(f"{case_id}/prover", 8)
    challenge = fixed(f"{case_id}/challenge", 16)
    key = liveness_key(session_id, send0, send1)
    mac = liveness_proof(key, challenger, prover, challenge)
    other_key = liveness_key(session_id, send1, send0)
    refused = {
        "other_challenge": liveness_proof(key, challenger, prover, fixed(f"{case_id}/old", 16)),
        "ids_swapped": liveness_proof(key, prover, challenger, challenge),
        "secrets_swapped": liveness_proof(other_key, challenger, prover, challenge),
    }
    return {
        "id": case_id,
        "send_0": send0.hex(),
        "send_1": send1.hex(),
        "session_id": session_id.hex(),
        "liveness_key": key.hex(),
        "challenger": challenger.hex(),
        "prover": prover.hex(),
        "challenge": challenge.hex(),
        "mac": mac.hex(),
        "hello": encode_link_frame(LinkFrame(HELLO, challenger, bytes(8), payload=challenge)).hex(),
        "proof": encode_link_frame(LinkFrame(PROOF, prover, challenger, payload=mac)).hex(),
        "refused": {name: value.hex() for name, value in refused.items()},
    }


def render() -> str:
    data = {
        "provenance": {"generator": GENERATOR},
        "description": (
            "Link liveness proofs (spec/protocol.md §12.2 item 4): K_live = HKDF-SHA256(send_0 || send_1,"
            " salt = session_id, info = 'koikoi-p2p/v2/link-liveness'); mac = HMAC-SHA256(K_live,"
            " 'koikoi-p2p/v2/link-liveness' || challenger || prover || challenge); hello is the"
            " challenger's first HELLO (to = zeros), proof the prover's PROOF frame; each 'refused'"
            " mac must not be taken as the answer to this challenge"
        ),
        "cases": [case("first"), case("second")],
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare with the file on disk")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print("stale vectors: link_liveness.json")
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
