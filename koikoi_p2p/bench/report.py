"""Shared shape of a benchmark result, printed as a table or as JSON."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass


@dataclass(frozen=True, slots=True)
class Measurement:
    """One benchmark line: a median against a floor (or baseline) measured in the same run."""

    name: str
    median_s: float
    floor_s: float
    ratio: float
    unit: str = "s"
    note: str = ""


def median_seconds(
    fn: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Median wall time of ``repeat`` calls of ``fn``."""
    times: list[float] = []
    for _ in range(repeat):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times)


def render(measurements: Sequence[Measurement], as_json: bool) -> str:
    """Text for the terminal, or the JSON list of objects that scripts read."""
    if as_json:
        return json.dumps([asdict(m) for m in measurements], indent=2)
    width = max((len(m.name) for m in measurements), default=4)
    lines = [f"{'name':<{width}}  {'median':>12}  {'floor':>12}  {'ratio':>7}  note"]
    for m in measurements:
        lines.append(
            f"{m.name:<{width}}  {m.median_s:>12.6g}  {m.floor_s:>12.6g}  {m.ratio:>7.3f}  {m.note}"
        )
    return "\n".join(lines)
