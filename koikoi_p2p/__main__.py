"""``python -m koikoi_p2p`` is the ``koikoi`` command."""

import sys

from koikoi_p2p.cli.main import main

sys.exit(main())
