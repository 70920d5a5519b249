"""A server process freezes what loading it made, once, before it serves.

Run in a child process: freezing is for the life of a process, and the test process's own
collector is left as it is.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

STARTED = """
import asyncio, gc, weakref
from config.asgi import application

class Cycle:
    pass

left = Cycle()
left.me = left  # garbage only the collector can free, made while the app loaded
gone = weakref.ref(left)
del left
before = gc.get_freeze_count()

async def start():
    messages = [{"type": "lifespan.startup"}]
    sent = []
    async def receive():
        return messages.pop(0) if messages else await asyncio.sleep(3600)
    async def send(message):
        sent.append(message["type"])
        raise SystemExit  # started: no need to wait for the shutdown
    try:
        await application({"type": "lifespan"}, receive, send)
    except SystemExit:
        pass
    return sent

print(before, gc.get_freeze_count(), gone() is None, *asyncio.run(start()))
print(gc.get_freeze_count(), gone() is None)
"""


def test_the_lifespans_start_freezes_the_loaded_application_and_not_its_garbage() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run([sys.executable, "-c", STARTED], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=True)
    first, second = done.stdout.split("\n")[:2]
    before, loaded, collected, started = first.split()
    assert (before, loaded, collected, started) == ("0", "0", "False", "lifespan.startup.complete")
    frozen, collected = second.split()
    # What Django, the service and its libraries made (some 140,000 objects), not one request's.
    assert int(frozen) > 50_000
    assert collected == "True"  # the garbage made while loading was collected, not frozen
