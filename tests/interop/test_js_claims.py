"""Abandonment claims (spec/protocol.md §9.1, §12.4) judged alike by both auditors: claims made
with the Python library over prefixes of a JavaScript match, true ones and false ones."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from koikoi_p2p.protocol.abandonment import AbandonmentClaim, encode_abandonment, sign_claim
from koikoi_p2p.protocol.identity import Identity
from tests.interop.support import REPO, WEB, js_verdicts, py_verdict, require_node

CUTS = [0, 1, 5, 12, 20, 30]


def test_claims_judged_alike(tmp_path: Path) -> None:
    node = require_node()
    out = subprocess.run([node, str(WEB / "tools" / "partial_match.js"), str(tmp_path), "7", *map(str, CUTS)],
                         capture_output=True, text=True, check=True, cwd=REPO, timeout=300).stdout
    info = json.loads(out)
    ids = [Identity.from_private_bytes(bytes.fromhex(s)) for s in info["seeds"]]
    session = bytes.fromhex(info["session_id"])
    files: list[Path] = []
    labels: list[str] = []
    for n in CUTS:
        cut = info["cuts"][str(n)]
        transcript = (tmp_path / f"cut-{n}.transcript").read_bytes()
        absent = cut["waiting"]["seat"]
        variants = {
            "true": (1 - absent, absent, cut["waiting"]["type"], cut["waiting"]["seconds"]),
            "wrong_seat": (absent, 1 - absent, cut["waiting"]["type"], cut["waiting"]["seconds"]),
            "wrong_type": (1 - absent, absent, "match_sign", cut["waiting"]["seconds"]),
            "wrong_deadline": (1 - absent, absent, cut["waiting"]["type"], 4321),
        }
        for name, (claimant, missing, expected, deadline) in variants.items():
            claim = AbandonmentClaim(session_id=session, seq=n, head=bytes.fromhex(cut["head"]),
                                     claimant=claimant, absent=missing, expected=expected, deadline=deadline)
            # The claimant's own round secret of the interrupted deal (spec/protocol.md §12.4).
            deal = cut["deal"]
            secret = info["secrets"].get(str(deal), [None, None])[claimant] if deal >= 1 else None
            key = {"deal": deal, "round_key": bytes.fromhex(secret)} if secret else {}
            data = encode_abandonment(transcript, claim, sign_claim(ids[claimant], claim), **key)
            path = tmp_path / f"claim-{n}-{name}.abandon"
            path.write_bytes(data)
            files.append(path)
            labels.append(f"{n}/{name}")
        # A claim signed by the other key is not the claimant's.
        wait = cut["waiting"]
        forged = AbandonmentClaim(session_id=session, seq=n, head=bytes.fromhex(cut["head"]),
                                  claimant=1 - absent,
                                  absent=absent, expected=wait["type"], deadline=wait["seconds"])
        path = tmp_path / f"claim-{n}-forged.abandon"
        path.write_bytes(encode_abandonment(transcript, forged, sign_claim(ids[absent], forged)))
        files.append(path)
        labels.append(f"{n}/forged")
    js = js_verdicts(files)
    for label, path, j in zip(labels, files, js, strict=True):
        p = py_verdict(path.read_bytes())
        assert (j["ok"], j["reason"], j["index"]) == (p["ok"], p["reason"], p["index"]), (label, p, j)
    assert any(py_verdict(f.read_bytes())["ok"] for f in files), "no claim held"


def test_a_js_peer_claims_abandonment_that_both_auditors_uphold(tmp_path: Path) -> None:
    """The JavaScript peer whose opponent goes silent signs a claim when the deadline passes."""
    node = require_node()
    claim = tmp_path / "claim.abandon"
    out = subprocess.run([node, str(WEB / "tools" / "abandon_match.js"), str(claim), "9"],
                         capture_output=True, text=True, check=True, cwd=REPO, timeout=300).stdout
    outcome = json.loads(out)
    assert outcome["reason"] == "abandoned" and outcome["blame"] == 1
    py = py_verdict(claim.read_bytes())
    js = js_verdicts([claim])[0]
    assert py["ok"] and js["ok"], (py, js)
    assert (py["reason"], py["index"]) == (js["reason"], js["index"]) == ("abandoned", outcome["seq"])
