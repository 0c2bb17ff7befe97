"""The learned value network, evaluated with numpy: expected round points from one seat's side.

The weights live in ``expert_weights.json`` beside this module, written by ``koikoi train``
(koikoi_p2p/ai/train.py) with their provenance: a multilayer perceptron over the inputs of
features.py (``expand``), ReLU hidden layers, one output: the round's points this seat can expect
(negative: the opponent's), as strong players play the round on. The same file, wrapped as an
ES module, is web/src/ai/expert_weights.js for the JavaScript port (web/src/ai/value.js).

Numbers are float64 throughout, read from the same decimal text in both languages, so the two
agree to rounding (web/test/ai/value_parity.test.js and tests/unit/test_ai_expert.py compare
them on the positions of spec/vectors/ai/value_positions.json).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from koikoi_p2p.ai.features import _SCALE, CARDS, COMPACT, INPUTS, LOCATIONS, MONTH, MY_TURN, SCALARS, expand

WEIGHTS_FILE = "expert_weights.json"
FORMAT = "koikoi-value-mlp/1"

Array = npt.NDArray[np.float64]


class ValueNet:
    """A ReLU perceptron: ``layers`` is a list of (weights inputs x outputs, biases)."""

    def __init__(self, layers: Sequence[tuple[Array, Array]],
                 provenance: dict[str, Any] | None = None) -> None:
        if not layers or layers[0][0].shape[0] != INPUTS or layers[-1][0].shape[1] != 1:
            raise ValueError(f"a value network takes {INPUTS} inputs to one output")
        for (w, b), (nxt, _) in zip(layers, [*layers[1:], (np.zeros((layers[-1][0].shape[1], 1)), None)],
                                    strict=True):
            if b.shape != (w.shape[1],) or nxt.shape[0] != w.shape[1]:
                raise ValueError("layer shapes do not chain")
        self.layers = [(np.ascontiguousarray(w, dtype=np.float64), np.asarray(b, dtype=np.float64))
                       for w, b in layers]
        self.provenance = dict(provenance or {})
        w1 = self.layers[0][0]
        self._cards = w1[:CARDS * LOCATIONS]                      # one row per (card, location)
        self._months = w1[CARDS * LOCATIONS:CARDS * LOCATIONS + 12]
        self._scalars = w1[CARDS * LOCATIONS + 12:] * _SCALE[:, None]
        self._index = np.arange(CARDS, dtype=np.int64) * LOCATIONS

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ValueNet:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} file")
        layers = [(np.array(layer["w"], dtype=np.float64), np.array(layer["b"], dtype=np.float64))
                  for layer in data["layers"]]
        return cls(layers, data.get("provenance"))

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "inputs": INPUTS, "provenance": self.provenance,
                "layers": [{"w": w.tolist(), "b": b.tolist()} for w, b in self.layers]}

    def values(self, compact: npt.ArrayLike) -> Array:
        """The value of each compact row (rows x COMPACT), in round points."""
        h = expand(compact)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
        return h[:, 0]

    def value(self, row: Sequence[int]) -> float:
        """The value of one compact row: the first layer as a sum of the rows its one-hots select."""
        if len(row) != COMPACT:
            raise ValueError(f"a compact row has {COMPACT} entries")
        r = np.asarray(row, dtype=np.int64)
        b1 = self.layers[0][1]
        h = (b1 + self._cards[self._index + r[:CARDS]].sum(axis=0) + self._months[r[MONTH] - 1]
             + r[MY_TURN:MY_TURN + SCALARS] @ self._scalars)
        h = np.maximum(h, 0.0)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers[1:], start=1):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
        return float(h[0])


@cache
def shipped() -> ValueNet:
    """The network shipped with the package (``expert_weights.json``)."""
    text = resources.files("koikoi_p2p.ai").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return ValueNet.from_dict(json.loads(text))


__all__ = ["FORMAT", "WEIGHTS_FILE", "ValueNet", "shipped"]
