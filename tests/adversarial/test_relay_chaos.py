"""A faulty network between the clients and the relay: drops, duplicates, reorders and cuts.

The RelayClient resumes on every gap and every cut, so both streams still arrive exactly once
and in order.
"""

from __future__ import annotations

import asyncio

from koikoi_p2p.net.chaos import ChaosConfig, ChaosProxy
from koikoi_p2p.net.relay_client import RelayClient
from tests.e2e.test_relay_support import relay, run


def test_streams_survive_a_faulty_network() -> None:
    async def body() -> None:
        async with relay(max_messages_per_second=0, sweep_interval=0.2) as server:
            config = ChaosConfig(drop=0.03, duplicate=0.03, reorder=0.03, delay=0.05, cut=0.004,
                                 scope="relay_frames")
            proxy = ChaosProxy(f"ws://127.0.0.1:{server.port}", config, seed=7)
            await proxy.start()
            try:
                host = await RelayClient.create(proxy.url)
                guest = await RelayClient.join(proxy.url, host.code)
                await host.wait_for_peer(10)
                total = 120  # below buffer_frames (256): beyond it a long cut is a resume_gap

                async def pump(sender: RelayClient, tag: bytes) -> None:
                    for i in range(total):
                        await sender.send(tag + b"%d" % i)
                        if i % 10 == 0:
                            await asyncio.sleep(0.002)

                async def drain(receiver: RelayClient) -> list[bytes]:
                    return [await receiver.recv() for _ in range(total)]

                _, _, got_guest, got_host = await asyncio.gather(
                    pump(host, b"h"), pump(guest, b"g"), drain(guest), drain(host)
                )
                assert got_guest == [b"h%d" % i for i in range(total)]
                assert got_host == [b"g%d" % i for i in range(total)]
                assert host.reconnects + guest.reconnects >= 1
                assert proxy.stats.dropped and proxy.stats.reordered and proxy.stats.cuts
                await host.close()
                await guest.close()
            finally:
                await proxy.close()

    run(body)
