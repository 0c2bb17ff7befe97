"""A dumb websocket relay: pairs two peers in a room and forwards opaque frames.

It imports nothing from ``mentalpoker`` or ``koikoi_p2p``: it must stay ignorant of the game.
"""
