"""``koikoi ratings`` in Japanese (issue 16, "Japanese all the way"): every subcommand's human output
against a real rating service on loopback, with no English left; --json stays the service's own."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.ratings import client
from tests.e2e.test_cli_practice_pty import english_left, raw_left
from tests.e2e.test_cli_support import SCRIPT, env_for
from tests.ratings.support import signed
from tests.ratings.test_ratings_restart import start_service, stop

HANAKO, TARO = Identity.generate(), Identity.generate()


def ratings(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), "ratings", *args], capture_output=True, text=True, env=env_for(home),
                          timeout=120, check=False)


def no_english(text: str) -> list[str]:
    """English left; a key's first hex digits (the history's opponent) are an identifier, and
    "--lang en" the command line that shows the English reason."""
    return english_left(re.sub(r"\b[0-9a-f]{16}\.\.\.", " ", text).replace("--lang en", " "))


def test_every_ratings_subcommand_in_japanese(tmp_path: Path) -> None:
    home = tmp_path / "home"
    service, url = start_service(f"sqlite:///{tmp_path / 'r.sqlite3'}", tmp_path / "service")
    try:
        result = tmp_path / "match.result"
        result.write_bytes(signed(HANAKO, TARO, names=("花子", "太郎"), winner=1))
        done = ratings(home, "submit", str(result), "--to", url, "--lang", "ja")
        assert done.returncode == 0 and done.stdout.strip() == "結果を集計しました (番号 1)", done.stdout
        # The remembered language, as the other commands use it (--lang before the subcommand too).
        (home / "config" / "settings.json").write_text('{"lang": "ja", "level": "easy"}\n', encoding="utf-8")
        done = ratings(home, "submit", str(result), "--to", url)
        assert done.returncode == 0 and "集計済みです" in done.stdout, done.stdout
        again = ratings(home, "--lang", "en", "submit", str(result), "--to", url).stdout
        assert "this result was already counted (result number 1): nothing changed" in again

        board = ratings(home, "--relay", url)
        assert board.returncode == 0, board.stderr
        lines = board.stdout.splitlines()
        assert "レーティング対象のプレイヤー2人、双方署名の結果1件" in lines[0]
        assert "レート" in lines[1] and "勝-敗-分" in lines[1] and "表示名" in lines[1]
        assert lines[2].rstrip().endswith("太郎") and TARO.fingerprint() in lines[2]
        assert no_english(board.stdout) == [], board.stdout
        english = ratings(home, "--lang", "en", "--relay", url).stdout
        assert "2 rated players, 1 co-signed result\n" in english and "W-L-D" in english
        assert json.loads(ratings(home, "--relay", url, "--json").stdout)["players"][0]["name"] == "太郎"

        done = ratings(home, "--relay", url, "--player", HANAKO.fingerprint())
        assert done.returncode == 0 and "負け  相手 太郎" in done.stdout, done.stdout
        assert "1局、放棄の申し立て0件" in done.stdout, done.stdout
        assert no_english(done.stdout) == [], done.stdout
        done = ratings(home, "--relay", url, "--player", "aaaa-aaaa-aaaa-aaaa")
        assert no_english(done.stdout + done.stderr) == [], done.stdout + done.stderr

        export = tmp_path / "export.json"
        export.write_text(json.dumps(client.export(url).body))
        done = ratings(home, "recompute", str(export), "--compare", url)
        assert done.returncode == 0 and "のランキングと一致: 結果1件" in done.stderr, done.stderr
        assert "から再計算" in done.stdout and no_english(done.stdout + done.stderr) == [], done.stdout
        tampered = json.loads(export.read_text())
        tampered["results"][0]["result"] = tampered["results"][0]["result"][:-4] + "AAAA"
        export.write_text(json.dumps(tampered))
        done = ratings(home, "recompute", str(export))
        assert done.returncode == 1 and "サービスの検査に通りません" in done.stderr, done.stderr
        assert no_english(done.stderr) == [], done.stderr
        assert "does not pass the service's checks" in ratings(home, "recompute", str(export), "--lang",
                                                               "en").stderr
        export.write_text("{not json")
        done = ratings(home, "recompute", str(export))
        assert done.returncode == 2 and no_english(done.stderr) == []
    finally:
        stop(service)
    for args in (("--relay", url), ("submit", str(result), "--to", url)):
        done = ratings(home, *args)  # the service is gone
        assert done.returncode == 3 and "から応答がありません" in done.stderr, done.stderr
        assert no_english(done.stderr) == [], done.stderr
    done = ratings(home, "--relay", "ftp://example")
    assert done.returncode == 2 and no_english(done.stderr) == [], done.stderr


def test_ratings_serve_in_japanese(tmp_path: Path) -> None:
    command = [str(SCRIPT), "ratings", "serve", "--db", f"sqlite:///{tmp_path / 'r.sqlite3'}", "--port", "0",
               "--log-level", "warning", "--lang", "ja"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env_for(tmp_path / "home"))
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("レーティングサービスを http://127.0.0.1:"), line
        assert no_english(line) == [], line
    finally:
        stop(process)
    (tmp_path / "file").write_text("x")
    done = subprocess.run([*command[:4], f"sqlite:///{tmp_path / 'file' / 'r.sqlite3'}", "--lang", "ja"],
                          capture_output=True, text=True, env=env_for(tmp_path / "home"), timeout=60,
                          check=False)
    assert done.returncode == 1 and "を開けません" in done.stderr, done.stderr
    assert no_english(done.stderr) == [], done.stderr


def test_every_ratings_subcommand_in_english_names_no_raw_id(tmp_path: Path) -> None:
    """The test above in English (issue 30): no internal id, no wrong plural, the service's refusals
    and an export's problems named in words."""
    home = tmp_path / "home"
    service, url = start_service(f"sqlite:///{tmp_path / 'r.sqlite3'}", tmp_path / "service")
    said: list[str] = []
    try:
        result = tmp_path / "match.result"
        result.write_bytes(signed(HANAKO, TARO, names=("Hanako", "Taro"), winner=1))
        for args in (("submit", str(result), "--to", url), ("submit", str(result), "--to", url),
                     ("--relay", url), ("--relay", url, "--player", HANAKO.fingerprint()),
                     ("--relay", url, "--player", "aaaa-aaaa-aaaa-aaaa")):
            done = ratings(home, "--lang", "en", *args)
            said.append(done.stdout + done.stderr)
        assert "result counted (number 1)" in said[0] and "2 rated players, 1 co-signed result\n" in said[2]
        assert "1 game, 0 abandonment claims" in said[3], said[3]
        export = tmp_path / "export.json"
        export.write_text(json.dumps(client.export(url).body))
        done = ratings(home, "--lang", "en", "recompute", str(export), "--compare", url)
        assert done.returncode == 0 and "1 result" in done.stderr, done.stderr
        said.append(done.stdout + done.stderr)
        tampered = json.loads(export.read_text())
        tampered["results"][0]["result"] = tampered["results"][0]["result"][:-4] + "AAAA"
        export.write_text(json.dumps(tampered))
        done = ratings(home, "--lang", "en", "recompute", str(export))
        assert done.returncode == 1 and "does not pass the service's checks: " in done.stderr, done.stderr
        said.append(done.stderr)
        unsigned = tmp_path / "unsigned.result"
        unsigned.write_bytes(b"not a result")
        done = ratings(home, "--lang", "en", "submit", str(unsigned), "--to", url)
        said.append(done.stdout + done.stderr)
        assert done.returncode == 1 and "refused (400, " in said[-1], said[-1]
    finally:
        stop(service)
    for text in said:
        assert raw_left(re.sub(r"\b[0-9a-f]{16}\.\.\.", " ", text).replace(url, " ")) == [], text
