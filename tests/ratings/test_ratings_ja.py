"""The lines after a rated match and the refused-name texts on a Japanese screen (issue 16):
against a real rating service on loopback, then with the service gone."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from koikoi_p2p.cli.display_name import BadName, normalise
from koikoi_p2p.cli.rated import submit_after_match
from koikoi_p2p.protocol.identity import Identity
from tests.e2e.test_cli_practice_pty import english_left, raw_left
from tests.e2e.test_cli_support import SCRIPT, env_for
from tests.ratings.support import signed
from tests.ratings.test_ratings_restart import start_service, stop

ALICE, BOB = Identity.generate(), Identity.generate()


def submit(url: str, lang: str, *, result: bytes | None = None, abandonment: bytes | None = None,
           path: str | None = None) -> tuple[bool, list[str]]:
    said: list[str] = []
    ok = asyncio.run(submit_after_match(said.append, ratings=url, result=result, abandonment=abandonment,
                                        path=path, lang=lang))
    return ok, said


def test_the_lines_after_a_rated_match_in_japanese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from koikoi_p2p.ratings import client

    monkeypatch.setattr(client, "SUBMIT_PATIENCE", 0.0)   # one try: the retries have their own test
    service, url = start_service(f"sqlite:///{tmp_path / 'r.sqlite3'}", tmp_path / "home")
    try:
        bad = signed(ALICE, BOB, names=("Alice\u200b", "Bob"))  # a format character: refused, bad_name
        ok, said = submit(url, "ja", result=bad)
        refused = f"レーティングサービス {url}: 受け付けられませんでした (400, 正しくない表示名)"
        assert not ok and said == [refused], said
        # English names the reason in words too (issue 30), then the service's own detail.
        ok, said = submit(url, "en", result=bad)
        refused_en = f"Rating service {url}: refused (400, a display name that is not valid): "
        assert not ok and said[0].startswith(refused_en), said
        assert raw_left(said[0].replace(url, " ")) == [], said
        good = signed(ALICE, BOB, names=("Alice", "Bob"), winner=1)
        ok, said = submit(url, "ja", result=good)
        assert ok and said == [f"レーティングサービス {url}: 結果を集計しました (番号 1)"], said
        ok, said = submit(url, "ja", result=good)
        # The second copy after a match is the opponent's (terminal QA: "number 1" read as a count).
        assert ok and said == [f"レーティングサービス {url}: この結果は集計済みです "
                              "(相手の送信が先に届きました)。変更はありません"], said
        ok, said = submit(url, "en", result=good)  # English as before
        assert ok and said == [f"Rating service {url}: this result was already counted (your opponent's copy "
                              "arrived first): nothing changed"], said
    finally:
        stop(service)
    later = tmp_path / "match.result"
    ok, said = submit(url, "ja", result=good, path=str(later))
    assert not ok and len(said) == 1 and "応答がありません" in said[0]
    assert f"koikoi ratings submit {later} --to {url}" in said[0]
    assert english_left(said[0]) == [], said
    ok, said = submit(url, "ja", abandonment=b"claim", path=str(later))
    gone = f"レーティングサービスは放棄の申し立てを受け取りませんでした: {url} から応答がありません。"
    assert not ok and said == [gone], said


@pytest.mark.parametrize("bad", [" padded", "x" * 33, "bell\x07", "rtl\u202e"])
def test_a_refused_name_says_why_in_japanese(bad: str) -> None:
    with pytest.raises(BadName) as refused:
        normalise(bad)
    assert str(refused.value).startswith("a display name has")  # English stays the default
    text = refused.value.describe("ja")
    assert text.startswith("表示名") and english_left(text) == [], text


def test_koikoi_name_in_japanese(tmp_path: Path) -> None:
    def name(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(SCRIPT), "name", "--lang", "ja", *args], env=env_for(tmp_path),
                              capture_output=True, text=True, timeout=60, check=False)

    done = name()  # env_for saved "no name" already
    assert done.returncode == 0 and "(表示名なし)" in done.stdout and english_left(done.stdout) == []
    done = name("x" * 33)
    assert done.returncode == 2 and "表示名は32文字までです" in done.stderr
    assert english_left(done.stderr) == [], done.stderr
    done = name("花子")
    assert done.returncode == 0 and done.stdout.startswith("表示名を 花子 (")
    assert english_left(done.stdout) == [], done.stdout
    done = name("")
    assert done.returncode == 0 and done.stdout.startswith("表示名なし: ") and english_left(done.stdout) == []


def test_the_first_run_name_question_refuses_in_japanese(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from koikoi_p2p.cli.play import make_screen
    from koikoi_p2p.cli.setup import choose_first_name
    from tests.ratings.test_ratings_cli import _Terminal

    screen = make_screen("ja", ("あなた", "相手"))
    monkeypatch.setattr(sys, "stdin", _Terminal("x\x07y\n花子\n"))
    choose_first_name(tmp_path / "name.txt", screen)
    assert (tmp_path / "name.txt").read_text(encoding="utf-8") == "花子\n"
    out = capsys.readouterr().out
    assert "表示名に制御文字・書式文字・未割り当ての文字は使えません" in out
    assert english_left(out) == [], out
