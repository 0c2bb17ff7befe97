"""The README's crash-safe embedding example (PeerSetup, create_state, RelayRendezvous, run_peer)
runs as printed and plays a JavaScript host (`hostRoom` and `room.connect()`, the link of
spec/protocol.md §12.1) to a co-signed end; QA found the README showed only the plain Match, which
cannot play `koikoi host` or the JavaScript library."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.interop.support import REPO, WEB, relay_process, require_node, stop_process

HOST = """
import { ready, hostRoom, Match, newIdentity, LocalError } from '%s';
await ready();
const room = await hostRoom(process.argv[2]);
console.log(`room ${room.code}`);
const transport = await room.connect();
const match = new Match(transport, { seat: 0, identity: newIdentity(), room: room.code, rounds: 1 });
const computer = match.computer('random', 'readme');
for await (const event of match.events()) {
  if (event.type === 'your_turn' || event.type === 'choice') {
    try { await match.decide(computer.choose()); } catch (e) { if (!(e instanceof LocalError)) throw e; }
  }
  if (event.type === 'match_over') console.log('final', event.scores.join('-'));
  if (event.type === 'failure') console.log('stopped', event.reason, event.message);
}
process.exit(0);
"""


def test_the_run_peer_example_plays_a_javascript_host(tmp_path: Path) -> None:
    node = require_node()
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Embedding the library", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    example = next(b for b in blocks if "run_peer(" in b)
    script = tmp_path / "host.mjs"
    script.write_text(HOST % (WEB / "src" / "api" / "match.js").as_uri(), encoding="utf-8")
    with relay_process() as url:
        host = subprocess.Popen([node, "--experimental-websocket", str(script), url], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, cwd=tmp_path)
        try:
            assert host.stdout is not None
            line = host.stdout.readline()
            code = re.fullmatch(r"room (\w+)\n", line)
            assert code is not None, line
            joined = subprocess.run([sys.executable, "-c", example, url, code.group(1)], capture_output=True,
                                    text=True, timeout=120, cwd=tmp_path)
            out, _ = host.communicate(timeout=60)
        finally:
            if host.poll() is None:
                stop_process(host)
    assert joined.returncode == 0, joined.stderr
    assert "terms: nintendo 1 round(s)" in joined.stdout
    assert "security code" in joined.stdout
    last = joined.stdout.strip().splitlines()[-1]
    assert last.startswith("completed "), joined.stdout
    transcript = Path(tmp_path / last.split()[-1])
    assert transcript.is_file()
    assert "final" in out, out
    verified = subprocess.run([sys.executable, "-m", "koikoi_p2p", "verify", str(transcript)],
                              capture_output=True, text=True, cwd=REPO)
    assert verified.returncode == 0, verified.stdout
