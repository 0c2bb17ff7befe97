"""``python -m koikoi_relay``: run the relay (see relay.main for the flags)."""

from __future__ import annotations

import sys

from koikoi_relay.main import main

sys.exit(main())
