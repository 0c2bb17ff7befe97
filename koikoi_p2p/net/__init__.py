"""Asyncio drivers at the edge: transports (relay client, in-memory pair), the match driver and
the fault-tolerance layers (chaos proxy, reliable session, state store)."""
