"""The room password's sources (koikoi host/join): an unusable --password-file is a bad command
line (exit 2) told in the person's language; a typed password is the person's input, so its
problems are not usage errors (exit 1, tested on a terminal in tests/e2e/test_cli_relay_errors.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from koikoi_p2p.cli.options import PasswordUnavailable, read_password


def args(**given: object) -> argparse.Namespace:
    return argparse.Namespace(password=False, password_file=None, lang="en", **given)


def test_a_password_file_gives_its_first_line(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("plum blossom\nignored\n", encoding="utf-8")
    assert read_password(args()) is None  # neither --password nor --password-file: the SAS is compared
    ns = args()
    ns.password_file = tmp_path / "pw"
    assert read_password(ns) == "plum blossom"


@pytest.mark.parametrize("content", [None, "", "\nsecond\n", b"\xff\xfe"])
def test_an_unusable_password_file_is_a_usage_error_in_words(tmp_path: Path,
                                                              content: str | bytes | None) -> None:
    path = tmp_path / "pw"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    for lang, word in (("en", "password file"), ("ja", "パスワード")):
        ns = args()
        ns.password_file, ns.lang = path, lang
        with pytest.raises(PasswordUnavailable) as caught:
            read_password(ns)
        assert caught.value.usage
        assert word in str(caught.value) and str(path) in str(caught.value)
