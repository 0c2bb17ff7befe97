"""``koikoi train``: self-play data, a value network trained on it, its weights with provenance.

1. Data: shards of strong-against-strong matches (selfplay_data.py), positions recorded from each
   seat's view by features.py, the same code the expert reads its leaves with. Shard ``i`` of a
   preset is fixed by ``--seed`` and ``i`` alone, and is cached in ``--data`` (a rerun with more
   shards reuses the ones already made); ``--workers`` processes make them. A shard's file name
   carries the fingerprint of the code that made it (selfplay_data.data_fingerprint): shards made
   by other feature or self-play code are not read, and the run says how many it left aside.
2. Training (PyTorch on the CPU, the ``train`` extra; never needed to play): a ReLU perceptron of
   ``--hidden`` widths from the inputs of ``features.expand`` to the round points of the seat
   (mean squared error, AdamW; the epoch with the lowest validation error is kept), the last
   ``--holdout`` share of each preset's shards held out as the validation set (whole shards, so a
   round never sits on both sides; the same number of every preset).
3. Output: ``--out`` (JSON: the layers and the provenance: seed, presets, shards, matches, rounds,
   positions, widths, epochs, the training curve, the code's git commit, versions, seconds), and
   with ``--js`` the same document as an ES module for the browser's worker.

The defaults (nintendo, 1184 shards of 100 matches, 2 workers, 2 epochs: the shipped weights) take
about an hour on a two-core machine (the self-play nearly all of it: about 4.9 s a shard per
worker; the training some five minutes); ``--quick`` takes seconds (a test runs it).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import subprocess
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from koikoi_p2p.ai.features import COMPACT, INPUTS, expand
from koikoi_p2p.ai.selfplay_data import EXPLORE, SHARD_MATCHES, data_fingerprint, write_shard
from koikoi_p2p.ai.value import FORMAT, ValueNet

TARGET_SCALE = 10.0  # the network learns points / 10; the scale is folded into the last layer


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="nintendo",
                        help="comma-separated presets to play (default nintendo)")
    parser.add_argument("--shards", type=int, default=1184, help="shards per preset (default 1184)")
    parser.add_argument("--shard-matches", type=int, default=SHARD_MATCHES,
                        help=f"matches per shard (default {SHARD_MATCHES})")
    parser.add_argument("--hidden", default="128,64", help="hidden layer widths (default 128,64)")
    parser.add_argument("--epochs", type=int, default=2, help="passes over the data (default 2)")
    parser.add_argument("--batch", type=int, default=1024, help="positions per step (default 1024)")
    parser.add_argument("--lr", type=float, default=5e-4, help="AdamW's learning rate (default 0.0005)")
    parser.add_argument("--weight-decay", type=float, default=1e-4,
                        help="AdamW's weight decay (default 1e-4)")
    parser.add_argument("--holdout", type=float, default=0.05, help="share of shards held out (default 0.05)")
    parser.add_argument("--seed", type=int, default=36, help="seed of the data and the training (default 36)")
    parser.add_argument("--workers", type=int, default=2, help="processes making data (default 2)")
    parser.add_argument("--data", default="koikoi-train-data", help="folder of the cached shards")
    parser.add_argument("--out", default="expert_weights.json", help="the weights file to write")
    parser.add_argument("--js", default=None, help="also write the weights as this ES module")
    parser.add_argument("--quick", action="store_true",
                        help="a tiny run for tests: 3 shards of 4 matches, widths 16, 2 epochs, a third "
                             "held out (in place of --shards, --shard-matches, --hidden, --epochs and "
                             "--holdout)")


HERE = Path(__file__).resolve().parent


def _git(*args: str, where: Path = HERE) -> str | None:
    try:
        out = subprocess.run(["git", *args], capture_output=True, text=True, timeout=10,  # noqa: S603,S607
                             cwd=where, check=False)
    except OSError:
        return None
    return out.stdout if out.returncode == 0 else None


def _commit() -> str:
    return (_git("rev-parse", "HEAD") or "").strip() or "unknown"


def _dirty(where: Path = HERE) -> bool | None:
    """Whether tracked files differ from the commit (None: not in a git work tree)."""
    status = _git("status", "--porcelain", "--untracked-files=no", where=where)
    return None if status is None else bool(status.strip())


def _shards(args: argparse.Namespace, rules: list[str]) -> list[Path]:
    folder = Path(args.data)
    folder.mkdir(parents=True, exist_ok=True)
    code = data_fingerprint()
    wanted = [(r, i, folder / f"{r}-s{args.seed}-m{args.shard_matches}-d{code}-{i:04d}.npz")
              for i in range(args.shards) for r in rules]
    names = {p.name for _, _, p in wanted}
    other = [p for r in rules for p in folder.glob(f"{r}-s{args.seed}-m{args.shard_matches}-*.npz")
             if p.name not in names and not p.name.endswith(".part.npz")]
    if other:
        print(f"{len(other)} cached shards in {folder} were made by other code (not data {code}): "
              "not used, new ones are made", flush=True)
    missing = [(r, i, p) for r, i, p in wanted if not p.exists()]
    if missing:
        # Spawned, not forked: this process has imported PyTorch, whose threads a fork can leave
        # holding a lock in the child (bench/ai.py spawns for the same reason).
        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=max(1, args.workers), mp_context=spawn) as pool:
            jobs = [pool.submit(_make, str(p), r, args.seed, i, args.shard_matches) for r, i, p in missing]
            for job in jobs:
                job.result()
    return [p for _, _, p in wanted]


def _make(path: str, rules: str, seed: int, index: int, matches: int) -> int:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    tmp = path + ".part.npz"
    n = write_shard(tmp, rules, seed, index, matches)
    os.replace(tmp, path)
    return n


def split_holdout(paths: list[Path], presets: int, holdout: float) -> tuple[list[Path], list[Path]]:
    """(training, validation) shards of a run whose ``paths`` go shard index by shard index, each
    index once per preset: the last ``holdout`` share of every preset's shards, at least one while
    a preset has two or more, is held out, so each preset has the same number on each side."""
    shards = len(paths) // max(1, presets)
    held = max(1, round(shards * holdout)) if shards > 1 else 0
    cut = (shards - held) * presets
    return paths[:cut], paths[cut:]


def _load(paths: list[Path]) -> tuple[np.ndarray, np.ndarray, int]:
    compact, points, rounds = [], [], 0
    for p in paths:
        with np.load(p) as d:
            compact.append(d["compact"])
            points.append(d["points"])
            rounds += int(d["rounds"])
    if not compact:
        return np.zeros((0, COMPACT), np.int8), np.zeros(0, np.float32), 0
    return np.concatenate(compact), np.concatenate(points), rounds


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Make or reuse the data, train, write the weights; the provenance written."""
    import torch  # the training extra: pip install 'koikoi-p2p[train]'

    if args.quick:
        args.shards, args.shard_matches, args.hidden, args.epochs, args.holdout = 3, 4, "16", 2, 0.34
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rules = [r.strip() for r in args.rules.split(",") if r.strip()]
    widths = [int(w) for w in str(args.hidden).split(",") if w.strip()]
    started = time.time()
    paths = _shards(args, rules)
    train_paths, valid_paths = split_holdout(paths, len(rules), args.holdout)
    x_train, y_train, rounds_train = _load(train_paths)
    x_valid, y_valid, rounds_valid = _load(valid_paths)
    data_seconds = time.time() - started

    sizes = [INPUTS, *widths, 1]
    modules: list[torch.nn.Module] = []
    for i in range(len(sizes) - 1):
        modules.append(torch.nn.Linear(sizes[i], sizes[i + 1], dtype=torch.float32))
        if i < len(sizes) - 2:
            modules.append(torch.nn.ReLU())
    model = torch.nn.Sequential(*modules)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    order = np.random.default_rng(args.seed)

    def batches(x: np.ndarray, y: np.ndarray, shuffle: bool) -> Any:
        index = order.permutation(len(y)) if shuffle else np.arange(len(y))
        for start in range(0, len(y), args.batch):
            pick = index[start:start + args.batch]
            yield (torch.from_numpy(expand(x[pick]).astype(np.float32)),
                   torch.from_numpy(y[pick] / TARGET_SCALE).float())

    def loss_on(x: np.ndarray, y: np.ndarray) -> float:
        if len(y) == 0:
            return float("nan")
        total = 0.0
        with torch.no_grad():
            for xb, yb in batches(x, y, False):
                total += float(((model(xb)[:, 0] - yb) ** 2).sum())
        return total / len(y) * TARGET_SCALE ** 2

    baseline = (float(np.mean((y_valid - y_train.mean()) ** 2)) if len(y_valid) and len(y_train)
                else float("nan"))
    curve: list[dict[str, float]] = []
    best: tuple[float, int, dict[str, Any]] | None = None
    for epoch in range(1, args.epochs + 1):
        model.train()
        seen, total = 0, 0.0
        for xb, yb in batches(x_train, y_train, True):
            optimiser.zero_grad()
            loss = ((model(xb)[:, 0] - yb) ** 2).mean()
            loss.backward()
            optimiser.step()
            total += float(loss.detach()) * len(yb)
            seen += len(yb)
        model.eval()
        curve.append({"epoch": epoch, "train_mse": round(total / max(1, seen) * TARGET_SCALE ** 2, 4),
                      "valid_mse": round(loss_on(x_valid, y_valid), 4),
                      "seconds": round(time.time() - started, 1)})
        print(json.dumps(curve[-1]), flush=True)
        score = curve[-1]["valid_mse"] if len(y_valid) else -epoch
        if best is None or score < best[0]:
            best = (score, epoch, {k: v.detach().clone() for k, v in model.state_dict().items()})
    if best is not None:
        model.load_state_dict(best[2])  # the epoch with the lowest validation error

    linears = [m for m in model if isinstance(m, torch.nn.Linear)]
    layers = []
    for i, lin in enumerate(linears):
        w = lin.weight.detach().numpy().T.astype(np.float64)
        b = lin.bias.detach().numpy().astype(np.float64)
        if i == len(linears) - 1:
            w, b = w * TARGET_SCALE, b * TARGET_SCALE
        # Six significant digits: a smaller file, and both languages read the same decimals.
        layers.append((np.array([[float(f"{v:.6g}") for v in row] for row in w]),
                       np.array([float(f"{v:.6g}") for v in b])))
    provenance = {
        "trained_on": rules, "seed": args.seed, "shards_per_preset": args.shards,
        "matches_per_shard": args.shard_matches, "players": f"strong vs strong, {EXPLORE:.0%} random plays",
        "holdout": args.holdout,
        "data": data_fingerprint(),
        "label": "round points from the seat's side (negative: the opponent's)",
        "positions": {"train": len(y_train), "valid": len(y_valid)},
        "rounds": {"train": rounds_train, "valid": rounds_valid},
        "hidden": widths, "epochs": args.epochs, "kept_epoch": best[1] if best else 0,
        "batch": args.batch, "lr": args.lr, "weight_decay": args.weight_decay,
        "valid_mse_of_the_mean": round(baseline, 4), "curve": curve,
        "data_seconds": round(data_seconds, 1), "seconds": round(time.time() - started, 1),
        "commit": _commit(), "dirty": _dirty(), "python": platform.python_version(),
        "torch": torch.__version__, "numpy": np.__version__, "quick": bool(args.quick),
    }
    net = ValueNet(layers, provenance)
    document = net.to_dict()
    assert document["format"] == FORMAT
    text = json.dumps(document, separators=(",", ":")) + "\n"
    Path(args.out).write_text(text, encoding="utf-8")
    if args.js:
        Path(args.js).write_text(
            "// The learned player's value network and its provenance, written by `koikoi train --js`\n"
            "// (koikoi_p2p/ai/train.py): the same document as koikoi_p2p/ai/expert_weights.json.\n"
            f"export const WEIGHTS = {text.rstrip()};\n", encoding="utf-8")
    return provenance


__all__ = ["add_arguments", "run", "split_holdout"]
