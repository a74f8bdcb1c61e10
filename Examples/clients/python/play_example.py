"""Plays Examples/slice.ahap through `thrum serve`, fading it out in real time.
Usage: python play_example.py [URL]   (URL: the first line `thrum serve` prints)"""
import asyncio, sys
from pathlib import Path
from thrum_client import ThrumClient

async def main(url: str) -> None:
    async with ThrumClient(url) as thrum:
        pattern = await thrum.load_pattern(Path(__file__).resolve().parents[2] / "slice.ahap")
        player = await thrum.create_player(pattern["pattern"])
        await thrum.start(player)
        for step in range(50):  # a fade over the pattern's 0.5 s: one real-time value every 10 ms
            await thrum.parameters(player, intensity=1 - step / 50)
            await asyncio.sleep(0.01)
        finished = await thrum.wait_for("player.finished", player=player)
        print(f"player {player} finished at {finished['time']:.3f} s on the service's clock")

asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:7878/"))
