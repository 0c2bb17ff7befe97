"""Structured logs: one ``key=value`` line per event. Payloads, tokens and metadata never appear."""

from __future__ import annotations

import json
import logging
import time

LOGGER = logging.getLogger("koikoi_relay")


def _value(value: object) -> str:
    text = str(value)
    if text and all(c.isalnum() or c in "._-:/" for c in text):
        return text
    return json.dumps(text)


def log_event(event: str, level: int = logging.INFO, **fields: object) -> None:
    """Log ``event`` with scalar fields (room serials, counts, reasons; never frame data)."""
    if not LOGGER.isEnabledFor(level):
        return
    parts = [f"event={event}"]
    parts.extend(f"{key}={_value(value)}" for key, value in fields.items())
    LOGGER.log(level, " ".join(parts))


class KeyValueFormatter(logging.Formatter):
    """``ts=... level=... event=...`` lines, UTC timestamps."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        line = f"ts={stamp}.{int(record.msecs):03d}Z level={record.levelname.lower()} {record.getMessage()}"
        if record.exc_info:
            line += " exc=" + json.dumps(self.formatException(record.exc_info))
        return line


def configure(level: int = logging.INFO) -> None:
    """Send the relay's logs to stderr in the key=value format."""
    handler = logging.StreamHandler()
    handler.setFormatter(KeyValueFormatter())
    LOGGER.handlers[:] = [handler]
    LOGGER.setLevel(level)
    LOGGER.propagate = False
