"""How many connections each worker process of one gunicorn master holds, where all of them
can read it: so that a new connection goes to the worker holding fewest.

Every worker waits on the one socket gunicorn listens on, and the kernel wakes whichever it
wakes: the connections of a phase fell 6 and 2 between two workers, and a crowd of 1,000
event streams 652 and 348 (seen with ``ss -tnp``, docs/benchmark.md). A connection is held
for as long as its client keeps it, so one unlucky split lasts: one worker's event loop
serves three quarters of the clients while the other's has time to spare.

The counts live in memory the master maps before it forks its workers (anonymous and
shared: each worker writes its own slot, reads everyone's), one slot a worker, given by the
master (``slot_for``) when it forks it and cleared when the worker exits. A worker writes its
count whenever it is about to accept and every ``REFRESH`` seconds; a count read may be that
old, which is enough to say who holds fewest.
"""

import mmap
import struct
from collections.abc import Iterable

SLOTS = 64  # workers of one master at once, at most
_SLOT = struct.Struct("=qq")  # the worker's pid (0: free), its open connections
REFRESH = 0.1  # seconds between two writes of a worker's count, connections or not


class Shares:
    """The workers' open connections, one slot each, in memory shared by their processes."""

    def __init__(self) -> None:
        # Anonymous and shared (Python maps MAP_SHARED by default): the workers the master
        # forks after this see the same pages.
        self._memory = mmap.mmap(-1, SLOTS * _SLOT.size)

    def slot_for(self, taken: Iterable[int]) -> int:
        """A free slot for a worker about to be forked, ``taken`` those of the live ones."""
        busy = set(taken)
        free = next((slot for slot in range(SLOTS) if slot not in busy), None)
        if free is None:
            raise RuntimeError(f"more than {SLOTS} workers at once")
        self.clear(free)
        return free

    def clear(self, slot: int) -> None:
        _SLOT.pack_into(self._memory, slot * _SLOT.size, 0, 0)

    def write(self, slot: int, pid: int, connections: int) -> None:
        _SLOT.pack_into(self._memory, slot * _SLOT.size, pid, connections)

    def fewest_elsewhere(self, slot: int) -> int | None:
        """The fewest connections any other live worker holds; None when there is none."""
        found = None
        for other in range(SLOTS):
            if other == slot:
                continue
            pid, connections = _SLOT.unpack_from(self._memory, other * _SLOT.size)
            if pid and (found is None or connections < found):
                found = connections
        return found
