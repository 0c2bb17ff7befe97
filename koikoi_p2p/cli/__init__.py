"""The ``koikoi`` command line: each subcommand lives in its own module."""
