"""Coverage-guided fuzzing with atheris (optional: ``pip install atheris``).

Run one target: ``python -m tests.faults.atheris_harness TARGET -runs=20000 -max_len=2048``
where TARGET is relay, codec, envelope, channel, transcript, state or link. The invariant is the
hypothesis suite's: parse, or raise the package's typed error, never anything else; libFuzzer
reports any other exception as a crash and exits non-zero. It also bounds time per input.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable


def _targets() -> dict[str, Callable[[bytes], None]]:
    from koikoi_p2p.net import state_store
    from koikoi_p2p.net.reliable import decode_link_frame
    from koikoi_p2p.protocol import codec
    from koikoi_p2p.protocol.envelope import decode_envelope
    from koikoi_p2p.protocol.errors import RemoteViolation
    from koikoi_p2p.protocol.transcript import TranscriptError, decode_transcript
    from koikoi_relay.errors import MessageError
    from koikoi_relay.messages import decode_client_message

    def relay(data: bytes) -> None:
        try:
            decode_client_message(data)
        except MessageError:
            pass

    def codec_target(data: bytes) -> None:
        try:
            codec.decode(data)
        except RemoteViolation:
            pass

    def envelope(data: bytes) -> None:
        try:
            decode_envelope(data[64:], data[:64])
        except RemoteViolation:
            pass

    def transcript(data: bytes) -> None:
        try:
            decode_transcript(b"\x89KOIKOI\n" + data)
        except TranscriptError:
            pass

    def state(data: bytes) -> None:
        try:
            state_store.decode_state(data)
        except state_store.StateStoreError:
            pass

    def link(data: bytes) -> None:
        decode_link_frame(data)

    return {"relay": relay, "codec": codec_target, "envelope": envelope, "transcript": transcript,
            "state": state, "link": link}


def main(argv: list[str]) -> None:
    atheris = importlib.import_module("atheris")
    with atheris.instrument_imports():  # coverage feedback from the parsers, imported here
        target = _targets()[argv[1]]
    atheris.Setup([argv[0], *argv[2:]], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
