"""The terminal client's second pass (issue 29), each item driven through the real command."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from koikoi_p2p.cli.style import display_width
from koikoi_p2p.rules.profile import PRESETS
from tests.e2e.test_cli_support import SCRIPT, env_for


def koikoi(home: Path, *args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *args], input=stdin, capture_output=True, text=True,
                          env=env_for(home), timeout=timeout)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_rules_fit_80_columns_when_not_a_terminal(tmp_path: Path, lang: str) -> None:
    """Item 7: `koikoi rules` printed lines of about 150 columns; piped, it folds to 80, and every
    word of the unfolded screen is still there."""
    for name in PRESETS:
        done = koikoi(tmp_path, "rules", name, "--lang", lang, "--switch", "monthly_yaku_points=4")
        assert done.returncode == 0, done.stderr
        wide = [line for line in done.stdout.split("\n") if display_width(line) > 80]
        assert not wide, (name, wide)
    from koikoi_p2p.cli.cmd_rules import describe
    from koikoi_p2p.rules.profile import differences, preset

    profile = preset("nintendo")
    unfolded = describe(profile, "nintendo", differences(profile, "nintendo"), lang)
    folded = koikoi(tmp_path, "rules", "nintendo", "--lang", lang).stdout
    assert "".join("".join(unfolded).split()) == "".join(folded.split())


def test_verify_html_says_where_it_wrote(tmp_path: Path) -> None:
    """Item 8: `koikoi verify FILE --html OUT` wrote the report silently."""
    import json

    transcript, out = tmp_path / "m.transcript", tmp_path / "report.html"
    made = koikoi(tmp_path, "selfplay", "--rounds", "1", "--seed", "4", "--transcript", str(transcript))
    assert made.returncode == 0, made.stderr
    done = koikoi(tmp_path, "verify", str(transcript), "--html", str(out))
    assert done.returncode == 0 and out.exists()
    assert f"Wrote the match report to {out.resolve()}" in done.stdout
    ja = koikoi(tmp_path, "verify", str(transcript), "--html", str(out), "--lang", "ja")
    assert f"対局レポートを {out.resolve()} に書きました" in ja.stdout
    machine = koikoi(tmp_path, "verify", str(transcript), "--html", str(out), "--json")
    assert json.loads(machine.stdout)["ok"] is True  # stdout stays one JSON document
    assert str(out.resolve()) in machine.stderr


def test_lang_says_it_is_remembered_the_first_time(tmp_path: Path) -> None:
    """Item 6: `--lang ja` once made every later command Japanese without saying so."""
    first = koikoi(tmp_path, "practice", "--lang", "ja", "--rounds", "1")  # no input: it stops at once
    assert "この言語を記憶しました" in first.stdout and "--lang en で元に戻ります" in first.stdout
    again = koikoi(tmp_path, "practice", "--lang", "ja", "--rounds", "1")
    assert "記憶しました" not in again.stdout  # said once, when it changed
    back = koikoi(tmp_path, "practice", "--lang", "en", "--rounds", "1")
    assert "The language is remembered for every koikoi command" in back.stdout
    assert "--lang ja switches back" in back.stdout
    plain = koikoi(tmp_path, "practice", "--rounds", "1")
    assert "remembered for every" not in plain.stdout


def test_hints_print_a_command_the_player_can_run(tmp_path: Path) -> None:
    """Item 9: after the quick start (no environment activated) `koikoi` is not on the PATH, yet the
    end-of-match hint said "koikoi verify FILE". It now names the program as it was started."""
    import os
    import re
    import shlex

    env = env_for(tmp_path)
    env["PATH"] = "/usr/bin:/bin"  # the quick start's .venv/bin is not on it
    done = subprocess.run([str(SCRIPT), "practice", "--rounds", "1", "--level", "easy"], input="a\ns\n" * 400,
                          capture_output=True, text=True, env=env, timeout=240, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    hint = re.search(r"Transcript: (\S+)  \(check it with: (.+) verify FILE\)", done.stdout)
    assert hint is not None, done.stdout[-1500:]
    command = shlex.split(hint.group(2))
    assert command != ["koikoi"]
    checked = subprocess.run([*command, "verify", hint.group(1)], capture_output=True, text=True, env=env,
                             timeout=120, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # With the environment activated the hint is the plain name.
    env["PATH"] = f"{SCRIPT.parent}{os.pathsep}/usr/bin:/bin"
    from koikoi_p2p.cli.paths import own_command

    assert own_command(str(SCRIPT), env["PATH"]) == "koikoi"
    assert own_command(str(SCRIPT), "/usr/bin:/bin") != "koikoi"
    assert own_command("/usr/lib/python3/dist-packages/x/__main__.py", "/usr/bin") == "koikoi"


def test_the_question_and_its_clock_fold_at_words_in_a_narrow_terminal(tmp_path: Path) -> None:
    """Item 4: on a terminal narrower than the question, "(you have 20 seconds)" wrapped mid-word
    ("20 seco" / "nds"); the question is now folded at spaces to the terminal's width."""
    import fcntl
    import os
    import pty
    import struct
    import termios

    from tests.e2e.test_cli_console import Console
    from tests.e2e.test_cli_own_clock import _computer_friend
    from tests.e2e.test_cli_support import relay_process

    done: dict[str, object] = {}
    with relay_process(tmp_path) as url:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 40, 0, 0))
        host = subprocess.Popen([str(SCRIPT), "host", "--relay", url, "--rounds", "1", "--rules", "wikipedia",
                                 "--timeout", "20"], stdin=slave, stdout=slave, stderr=slave,
                                env=env_for(tmp_path / "host", TERM="xterm"), close_fds=True)
        os.close(slave)
        console = Console(master, lambda line: os.write(master, (line + "\n").encode()))
        try:
            code = console.expect(r"Room code: ([A-Z0-9]{6})", 60).group(1)
            _computer_friend(url, code, tmp_path / "friend", done)
            asked = console.expect(r"Your turn: which card", 90)
            console.expect(r"\n  \[", 10)  # the menu starts under the question
            question = console.text[asked.start():console.offset]
        finally:
            host.kill()
            host.wait()
            os.close(master)
    lines = [line for line in question.split("\n") if line.strip()]
    assert all(display_width(line) <= 40 for line in lines), lines
    words = " ".join(lines).split()
    assert "seconds)" in words and "20" in words, lines  # whole words, never cut
