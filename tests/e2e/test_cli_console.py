"""Drive the interactive koikoi commands from a test: read what they print, answer every prompt.

A prompt is the line ``> `` (after a clock ``[m:ss]`` when the decision has a deadline) after a
menu of ``[key] label`` choices. The autoplayer answers the first listed key (so it only ever
types a legal choice), asks for help once to check it works, and stops at the final score.
"""

from __future__ import annotations

import os
import re
import select
import time
from collections.abc import Callable
from dataclasses import dataclass, field

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]|\x1b[78]")
KEY = re.compile(r"\[([^\]\s]+)\]")
CLOCK_REWRITE = re.compile(r"\r\[\d+:\d\d\](?! >)")
PROMPT = re.compile(r"\n(?:\[\d+:\d\d\] )?> ")
# The line before a prompt that takes any answer: a round's summary held until Enter.
PAUSE = re.compile(r"(?:Press Enter to go on\.|Enter を押すと続きます。|press Enter\.|"
                   r"Enter を押してください。)$")
# The last line of the help, in either language.
HELP_END = r"Only the choices listed are legal|ここで選べるのは表示された選択肢だけです"


def clean(raw: bytes) -> str:
    """The output as a person reads it: no colour, no cursor moves, no live-clock rewrites."""
    text = ANSI.sub("", raw.decode("utf-8", "replace")).replace("\r\n", "\n")
    return CLOCK_REWRITE.sub("", text)


def play_on(menu: list[str], since: str) -> str:
    """An ``answer`` for :meth:`Console.autoplay`: the first choice offered, except koi-koi over
    stopping, so that a deal goes on until the other seat has played (a dealer that made a yaku on
    its first turn and stopped ended a one-round match before the opponent ever played)."""
    keys = [key for line in menu for key in KEY.findall(line)]
    return "k" if "k" in keys else keys[0]


@dataclass
class Console:
    """Output of one process (a pty master or a pipe) and a way to type into it."""

    fd: int
    type_line: Callable[[str], object]  # what it returns (os.write: a count) is not used
    text: str = ""
    raw: bytes = b""
    offset: int = 0
    answered: int = 0  # where the output stood when the last answer was typed
    log: list[str] = field(default_factory=list)

    def pump(self, timeout: float) -> bool:
        """Read what is available within ``timeout``; False once the output has ended."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # a pty master reads EIO once the child side is closed
            return False
        if not data:
            return False
        self.raw += data
        self.text = clean(self.raw)  # the whole output again: an escape may span two reads
        return True

    def expect(self, pattern: str, timeout: float) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while True:
            found = regex.search(self.text, self.offset)
            if found:
                self.offset = found.end()
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {pattern!r}; output tail:\n{self.text[-3000:]}")
            if not self.pump(0.2):
                found = regex.search(self.text, self.offset)
                if found:
                    self.offset = found.end()
                    return found
                raise AssertionError(f"output ended before {pattern!r}; tail:\n{self.text[-3000:]}")

    def autoplay(self, timeout: float, *, done: str = r"=== Final score|=== 最終得点", ask_help: bool = True,
                 answer: Callable[[list[str], str], str] | None = None) -> str:
        """Answer prompts until ``done`` appears; returns the done line. ``answer(menu_lines,
        since)`` picks what to type (``since``: the output since the previous answer); by default
        the first listed key."""
        deadline = time.monotonic() + timeout
        helped = not ask_help
        done_re = re.compile(f"(?:{done})" + r"[^\n]*")
        while True:
            final = done_re.search(self.text, self.offset)
            if final:
                self.offset = final.end()
                return final.group(0)
            found = PROMPT.search(self.text, self.offset)
            prompt = found.start() if found else -1
            if found is not None:
                # The menu: the lines of "[key] label" just above the prompt.
                lines = self.text[:prompt].split("\n")
                menu_lines: list[str] = []
                while lines and lines[-1].startswith("  ["):
                    menu_lines.insert(0, lines.pop())
                if not menu_lines and lines and PAUSE.search(lines[-1]):
                    self.offset = found.end()
                    self.answered = found.end()
                    self.type_line("")
                    self.log.append("")
                    continue
                keys = [KEY.findall(line)[0] for line in menu_lines if KEY.findall(line)]
                menu = "\n".join(menu_lines)
                assert keys, f"a prompt without choices: {menu!r}"
                self.offset = found.end()
                if not helped:
                    self.type_line("?")
                    helped = True
                    self.expect(HELP_END, 30)
                    self.log.append("?")
                    continue
                typed = keys[0] if answer is None else answer(menu_lines, self.text[self.answered:prompt])
                self.answered = found.end()
                self.type_line(typed)
                self.log.append(typed)
                continue
            if time.monotonic() > deadline:
                raise AssertionError(f"no final score in time; output tail:\n{self.text[-3000:]}")
            if not self.pump(0.2):
                if done_re.search(self.text, self.offset):
                    continue
                raise AssertionError(f"output ended before the final score; tail:\n{self.text[-3000:]}")
