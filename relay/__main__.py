"""``python -m relay``: run the relay (see relay.main for the flags)."""

from __future__ import annotations

import sys

from relay.main import main

sys.exit(main())
