"""``koikoi verify`` in Japanese (issue 16, "Japanese all the way"): every line of the human report
on real files (a fair match and its co-signed result, a tampered transcript, a resignation,
evidence files, abandonment files, two accounts of one session) with no English left; the JSON
report stays the English machine format; and every sentence of the audit has its translation."""

from __future__ import annotations

import ast
import json
import re
import string
import subprocess
from pathlib import Path
from typing import Any

import pytest

import koikoi_p2p.audit as audit_package
from koikoi_p2p.cli import cmd_verify
from koikoi_p2p.cli.catalogue import say, word
from koikoi_p2p.cli.word_ids import MESSAGE_WORDS, REASONS
from koikoi_p2p.phrase import Phrase, Word
from koikoi_p2p.protocol import messages as m
from koikoi_p2p.protocol.transcript import decode_transcript, encode_transcript
from tests.e2e.test_cli_practice_pty import english_left, raw_left
from tests.e2e.test_cli_support import SCRIPT, env_for
from tests.unit.test_catalogue import translated

VECTORS = Path(__file__).resolve().parents[2] / "spec" / "vectors" / "protocol"


def verify(home: Path, *args: str | Path, lang: str | None = "ja") -> subprocess.CompletedProcess[str]:
    flags = ["--lang", lang] if lang else []
    return subprocess.run([str(SCRIPT), "verify", *flags, *map(str, args)], capture_output=True, text=True,
                          env=env_for(home), timeout=120, check=False)


def japanese_only(text: str, names: tuple[str, ...] = ()) -> list[str]:
    """English left on the report; display names are the players' own (signed) data, not prose."""
    for name in names:
        text = text.replace(name, " ")
    return english_left(text)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """A fair one-round match over the real command: its transcript and co-signed result."""
    home = tmp_path_factory.mktemp("played")
    transcript, result = home / "m.transcript", home / "m.result"
    made = subprocess.run([str(SCRIPT), "selfplay", "--rounds", "1", "--seed", "4", "--transcript",
                           str(transcript), "--result", str(result)], capture_output=True, text=True,
                          env=env_for(home), timeout=180, check=False)
    assert made.returncode == 0, made.stdout + made.stderr
    return home, transcript, result


@pytest.fixture(scope="module")
def claims(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Abandonment files and transcripts cut from one real match, as each seat writes them."""
    from tests.protocol.game_support import make_pair, run
    from tests.protocol.test_audit_compare import _claim, _envelopes, _turn_of, _waiting

    match = run(make_pair(rounds=1, seed=11))
    folder = tmp_path_factory.mktemp("claims")
    n = _turn_of(match, 0)
    assert _waiting(match, n + 1)[0] == 1
    files = {"joiner": _claim(match, n), "host": _claim(match, n + 1),
             "full": encode_transcript(match.records[0], _envelopes(match), closed=True),
             "cut": encode_transcript(match.records[0], _envelopes(match)[:n], closed=False)}
    paths = {}
    for name, data in files.items():
        paths[name] = folder / f"{name}.file"
        paths[name].write_bytes(data)
    return paths


def test_a_fair_match_and_its_result_in_japanese(played: tuple[Path, Path, Path]) -> None:
    home, transcript, result = played
    done = verify(home, transcript)
    assert done.returncode == 0, done.stdout
    assert "正しい記録: " in done.stdout and "プレイヤー0 (ホスト): " in done.stdout
    assert "最終得点: プレイヤー0 " in done.stdout and japanese_only(done.stdout) == [], done.stdout
    for args in ((result,), ("--result", result), ("--result", transcript)):
        done = verify(home, *args)
        assert done.returncode == 0 and japanese_only(done.stdout) == [], done.stdout
    assert "注意: " in done.stdout  # --result on a transcript says so
    assert "正しい双方署名の結果" in verify(home, result).stdout
    # English stays the default, and --json the English machine format whatever the language.
    english = verify(home, transcript, lang=None)
    assert "valid transcript: " in english.stdout and "final scores: player 0 " in english.stdout
    assert json.loads(verify(home, "--json", transcript).stdout) == json.loads(
        verify(home, "--json", transcript, lang=None).stdout)


def test_the_remembered_language_is_used(played: tuple[Path, Path, Path], tmp_path: Path) -> None:
    _, transcript, _ = played
    (tmp_path / "config").mkdir(parents=True)
    (tmp_path / "config" / "settings.json").write_text('{"lang": "ja", "level": "easy"}\n', encoding="utf-8")
    done = verify(tmp_path, transcript, lang=None)
    assert "正しい記録: " in done.stdout and japanese_only(done.stdout) == [], done.stdout
    assert "valid transcript" in verify(tmp_path, transcript, lang="en").stdout


def test_a_tampered_transcript_and_a_stranger_file_in_japanese(played: tuple[Path, Path, Path]) -> None:
    home, transcript, _ = played
    broken = bytearray(transcript.read_bytes())
    broken[len(broken) // 2] ^= 1
    bad = home / "tampered.transcript"
    bad.write_bytes(bytes(broken))
    done = verify(home, bad)
    assert done.returncode == 1 and done.stdout.startswith("無効なファイル"), done.stdout
    assert japanese_only(done.stdout) == [], done.stdout
    # English keeps the protocol's detail, one --lang en away.
    assert verify(home, bad, lang="en").stdout.startswith("INVALID file at message ")
    junk = home / "notes.txt"
    junk.write_text("hello\n", encoding="utf-8")
    done = verify(home, junk)
    assert done.returncode == 1 and japanese_only(done.stdout) == [], done.stdout
    done = verify(home, bad, transcript)  # two accounts: the tampered one is no account
    assert done.returncode == 0 and "の言い分が通ります" in done.stdout
    assert japanese_only(done.stdout) == [], done.stdout
    done = verify(home, home / "missing.transcript")
    assert done.returncode == 2 and "を読めません" in done.stdout


def test_a_resignation_and_evidence_files_in_japanese(tmp_path: Path) -> None:
    resigned = VECTORS / "match_resigned.transcript"
    names = decode_transcript(resigned.read_bytes()).session.names
    done = verify(tmp_path, resigned)
    seat, seq = json.loads(verify(tmp_path, "--json", resigned).stdout)["resigned"].values()
    assert done.returncode == 0 and f"プレイヤー{seat}がメッセージ{seq}で投了" in done.stdout, done.stdout
    # The rounds finished before it, and the winner said to be so by the resignation, not the scores.
    assert "投了までに終わった回戦: 1" in done.stdout
    assert "プレイヤー0の勝ち: プレイヤー1が投了" in done.stdout
    assert japanese_only(done.stdout, names) == [], done.stdout
    for name in ("match_evidence_wrong_share.evidence", "match_evidence_bad_shuffle.evidence"):
        done = verify(tmp_path, VECTORS / name)
        assert done.returncode == 0 and "で違反: " in done.stdout
        assert "証拠は違反を証明しています" in done.stdout
        assert japanese_only(done.stdout) == [], done.stdout
    cut = tmp_path / "cut.transcript"
    transcript = decode_transcript((VECTORS / "match_nintendo_seed1.transcript").read_bytes())
    cut.write_bytes(encode_transcript(transcript.handshake, transcript.envelopes[:30], closed=False))
    done = verify(tmp_path, cut)
    assert done.returncode == 1 and "未完の記録" in done.stdout
    assert japanese_only(done.stdout) == [], done.stdout


def test_abandonment_claims_and_two_accounts_in_japanese(claims: dict[str, Path]) -> None:
    home = claims["full"].parent
    done = verify(home, claims["joiner"])
    assert done.returncode == 0 and "対局を放棄" in done.stdout and "申し立ては成り立ちます" in done.stdout
    assert japanese_only(done.stdout) == [], done.stdout
    pairs = [("host", "joiner"), ("joiner", "full"), ("joiner", "cut"), ("full", "full")]
    for first, second in pairs:
        done = verify(home, claims[first], claims[second])
        assert done.returncode == 0, done.stdout
        assert japanese_only(done.stdout) == [], (first, second, done.stdout)
    assert "信頼できる時計" in verify(home, claims["host"], claims["joiner"]).stdout
    english = verify(home, claims["host"], claims["joiner"], lang="en").stdout
    assert "stands" in english and "no trusted clock" in english


def _phrases_in(package: Any) -> dict[str, str]:
    """Every template handed to Phrase(...) in a package's source (or a module's)."""
    found: dict[str, str] = {}
    where = Path(package.__file__)
    for path in sorted(where.parent.glob("*.py")) if where.name == "__init__.py" else [where]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Phrase" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.setdefault(node.args[0].value, f"{path.name}:{node.lineno}")
    return found


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_phrase_of_the_audit_has_a_translation() -> None:
    import koikoi_p2p.cli as cli_package
    import koikoi_p2p.phrase as phrase_module
    import koikoi_p2p.ratings as ratings_package

    phrases_ja = translated("ja")
    found = {**_phrases_in(audit_package), **_phrases_in(cli_package), **_phrases_in(ratings_package),
             **_phrases_in(phrase_module)}
    assert len(found) > 40  # the walk really sees the audit's sentences
    missing = [f"{where}: {text!r}" for text, where in found.items() if text not in phrases_ja]
    assert not missing, "untranslated:\n" + "\n".join(missing)
    # (no stale check here: the catalogue holds the terminal's other sentences too; test_catalogue
    # checks that every message of the catalogue is in the code)
    for english, japanese in ((english, phrases_ja[english]) for english in found):
        # Only the protocol's English detail (``message``) may be left out; nothing is added.
        assert _fields(japanese) <= _fields(english) and _fields(english) - _fields(japanese) <= {"message"}
        assert english_left(re.sub(r"\{[^}]*\}", " ", japanese)) == [], japanese


def test_every_reason_the_spec_names_and_every_message_type_has_a_japanese_name() -> None:
    spec = Path(__file__).resolve().parents[2] / "spec"
    codes: set[str] = set()
    for name in ("game.md", "protocol.md", "crypto.md"):
        column = None
        for line in (spec / name).read_text(encoding="utf-8").splitlines():
            if not line.startswith("|"):
                column = None
                continue
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if column is None:
                column = cells.index("reason") if "reason" in cells else -1
            elif column >= 0 and not set(cells[0]) <= set("- ") and column < len(cells):
                codes |= {c for c in re.findall(r"`([a-z_]+)`", cells[column]) if "_" in c or len(c) > 4}
    assert {"bad_share", "equivocation", "bad_magic", "aead_failure"} <= codes
    types = {value for key, value in vars(m).items() if key.isupper() and isinstance(value, str)
             and key in ("TERMS", "ACCEPT", "KEY", "SHUFFLE", "REVEAL", "ACT", "DECLARE", "DISCLOSE",
                         "ROUND_SIGN", "MATCH_RESULT", "MATCH_SIGN", "RESIGN")}
    assert len(types) == 12
    audit_words = {"unproven_claim", "false_claim", "abandoned", "resigned"}
    # Named in words in English (cli/word_ids.py) and in Japanese (the catalogue), never the code.
    missing = sorted((codes | audit_words) - set(REASONS)) + sorted(types - set(MESSAGE_WORDS))
    assert not missing, missing
    for code in codes | types | audit_words:
        english, japanese = word("en", code), word("ja", code)
        assert english != code or code in ("result", "claim"), code
        assert raw_left(english) == [] and english_left(japanese) == [] and japanese != english, code


def test_nested_phrases_and_words_are_rendered() -> None:
    inner = Phrase("the replay waits for no one")
    outer = Phrase("the claim is false: {detail}", detail=inner)
    assert str(outer) == "the claim is false: the replay waits for no one"
    assert say("ja", outer) == "この申し立ては偽りです: 再生は誰も待っていません"
    assert say("ja", Word("act")) == "手番の操作" and say("en", Word("act")) == "a move"
    # English names a reason in words too, and the reason the protocol's detail starts with.
    said = say("en", Phrase("{reason} ({message})", reason=Word("bad_share"), message="bad_share_proof: no"))
    assert said == "a decryption share that is not valid (a share proof that does not verify: no)"
    assert json.dumps([outer]) == json.dumps([str(outer)])  # the JSON report is unchanged
    assert cmd_verify.failure("bad_file", "x") == "bad_file: x"


def test_the_same_reports_in_english_name_no_raw_id(played: tuple[Path, Path, Path],
                                                     claims: dict[str, Path]) -> None:
    """The Japanese tests above, in English (issue 30): every report names its reasons and message
    types in words, with no internal id and no wrong plural."""
    home, transcript, result = played
    broken = bytearray(transcript.read_bytes())
    broken[len(broken) // 2] ^= 1
    bad = home / "tampered-en.transcript"
    bad.write_bytes(bytes(broken))
    junk = home / "notes-en.txt"
    junk.write_text("hello\n", encoding="utf-8")
    cut = home / "cut-en.transcript"
    whole = decode_transcript((VECTORS / "match_nintendo_seed1.transcript").read_bytes())
    cut.write_bytes(encode_transcript(whole.handshake, whole.envelopes[:30], closed=False))
    runs: list[tuple[Path | str, ...]] = [
        (transcript,), (result,), ("--result", result), ("--result", transcript), (bad,), (junk,),
        (bad, transcript), (VECTORS / "match_resigned.transcript",), (cut,),
        (VECTORS / "match_evidence_wrong_share.evidence",),
        (VECTORS / "match_evidence_bad_shuffle.evidence",),
        (claims["joiner"],), (claims["host"], claims["joiner"]), (claims["joiner"], claims["full"]),
        (claims["joiner"], claims["cut"]), (claims["full"], claims["full"])]
    said = []
    for args in runs:
        done = verify(home, *args, lang="en")
        assert raw_left(done.stdout) == [], (args, done.stdout)
        said.append(done.stdout)
    text = "\n".join(said)
    # The reasons of the tampered file, the evidence and the cut transcript are said in words.
    assert "a decryption share that is not valid" in text and "a shuffle that is not valid" in text
    assert "1 round, " in text and "round 1: " in text


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_result_beside_a_transcript_is_sent_to_be_verified_alone(played: tuple[Path, Path, Path],
                                                                   lang: str) -> None:
    """`koikoi verify A B` compares two accounts of a match; a co-signed result is none (it holds
    the outcome alone): named, with the command that checks it, as a usage error, never called
    "refuted" or "not a file of this program" beside a transcript it may well match."""
    home, transcript, result = played
    for pair in ((transcript, result), (result, transcript), (result, result)):
        done = verify(home, *pair, lang=lang)
        assert done.returncode == 2, done.stdout + done.stderr
        assert f"koikoi verify {result}" in done.stdout, done.stdout
        assert "refuted" not in done.stdout and "Traceback" not in done.stderr
        if lang == "ja":
            assert japanese_only(done.stdout.replace(str(result), " ")) == [], done.stdout
