"""``koikoi train``: train the learned player's value network by self-play (koikoi_p2p/ai/train.py).

Needs the training extra (``pip install 'koikoi-p2p[train]'``, PyTorch on the CPU); playing never
does. Building the parser imports nothing heavy.
"""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    from koikoi_p2p.ai.train import add_arguments

    parser = subparsers.add_parser(
        "train",
        help="train the expert's value network by self-play (needs the train extra: PyTorch)",
        description="Play strong against strong, record positions from each seat's view, train a value "
                    "network on the round points and write its weights with their provenance.",
    )
    add_arguments(parser)
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    try:
        import torch  # noqa: F401
    except ImportError:
        print("koikoi train: needs PyTorch (the train extra, torch==2.13.0; its CPU build: pip install "
              "--extra-index-url https://download.pytorch.org/whl/cpu 'koikoi-p2p[train]')")
        return 2
    from koikoi_p2p.ai.train import run

    provenance = run(args)
    kept = provenance["kept_epoch"]
    point = provenance["curve"][kept - 1] if kept else {}
    print(f"wrote {args.out}: {provenance['positions']['train']} training positions, epoch {kept} kept, "
          f"validation mse {point.get('valid_mse')} (the mean alone: {provenance['valid_mse_of_the_mean']})")
    return 0
