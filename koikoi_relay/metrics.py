"""Counters for ``GET /metrics`` in the Prometheus text exposition format (version 0.0.4)."""

from __future__ import annotations

from collections import Counter


class Metrics:
    """Monotonic counters; the gauges (connections, rooms) are read from the live state at render."""

    def __init__(self) -> None:
        self.connections_total = 0
        self.rooms_created_total = 0
        self.frames_forwarded_total = 0
        self.frames_at_once_total = 0   # of which forwarded in the read callback (LocalRooms.frame_now)
        self.bytes_forwarded_total = 0
        self.resumes_total = 0
        self.errors: Counter[str] = Counter()

    def render(self, connections: int, rooms_open: int, rooms_paired: int, buffered: int = 0,
               inbound: int = 0, held: int = 0, in_flight: int = 0) -> str:
        lines = [
            "# HELP relay_buffered_bytes Bytes held in resume buffers (all rooms; a cluster: all nodes).",
            "# TYPE relay_buffered_bytes gauge",
            f"relay_buffered_bytes {buffered}",
            "# HELP relay_inbound_bytes Bytes read from connections and not yet handled (this process).",
            "# TYPE relay_inbound_bytes gauge",
            f"relay_inbound_bytes {inbound}",
            "# HELP relay_held_bytes What this process counts in the budget beside resume buffers.",
            "# TYPE relay_held_bytes gauge",
            f"relay_held_bytes {held}",
            "# HELP relay_in_flight_bytes Bytes read and not yet handled plus write buffers (this process).",
            "# TYPE relay_in_flight_bytes gauge",
            f"relay_in_flight_bytes {in_flight}",
            "# HELP relay_connections Open websocket connections.",
            "# TYPE relay_connections gauge",
            f"relay_connections {connections}",
            "# HELP relay_rooms Live rooms by state.",
            "# TYPE relay_rooms gauge",
            f'relay_rooms{{state="open"}} {rooms_open}',
            f'relay_rooms{{state="paired"}} {rooms_paired}',
            "# HELP relay_connections_total Websocket connections accepted.",
            "# TYPE relay_connections_total counter",
            f"relay_connections_total {self.connections_total}",
            "# HELP relay_rooms_created_total Rooms created.",
            "# TYPE relay_rooms_created_total counter",
            f"relay_rooms_created_total {self.rooms_created_total}",
            "# HELP relay_frames_forwarded_total Peer frames accepted for forwarding.",
            "# TYPE relay_frames_forwarded_total counter",
            f"relay_frames_forwarded_total {self.frames_forwarded_total}",
            "# HELP relay_frames_forwarded_at_once_total Of those, forwarded as soon as they were read.",
            "# TYPE relay_frames_forwarded_at_once_total counter",
            f"relay_frames_forwarded_at_once_total {self.frames_at_once_total}",
            "# HELP relay_bytes_forwarded_total Peer data bytes accepted for forwarding.",
            "# TYPE relay_bytes_forwarded_total counter",
            f"relay_bytes_forwarded_total {self.bytes_forwarded_total}",
            "# HELP relay_resumes_total Seats resumed with their token.",
            "# TYPE relay_resumes_total counter",
            f"relay_resumes_total {self.resumes_total}",
            "# HELP relay_errors_total Error replies and forced closes by reason.",
            "# TYPE relay_errors_total counter",
        ]
        for reason, n in sorted(self.errors.items()):
            lines.append(f'relay_errors_total{{reason="{reason}"}} {n}')
        return "\n".join(lines) + "\n"
