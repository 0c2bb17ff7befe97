"""Koi-Koi between two peers who trust neither each other nor the relay."""

__version__ = "0.1.0"
