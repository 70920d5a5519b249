"""The cycle collector of a server process, told what is there for good.

CPython's cycle collector traverses, in each full collection, every container object the
process holds. In a worker that is first of all what loading Django, the service and its
libraries made (some 140,000 objects: modules, classes, functions, the URL and serializer
trees), which live as long as the process and are never garbage. On the 2-core machine each
full collection took 100 to 200 ms with the interpreter's lock held, every request of the
worker waiting (docs/benchmark.md, "The collector, and where the rest of a crowd's cost
goes"); open event streams, whose objects are
long-lived too, make full collections come more often. ``settle`` collects once, then moves
what is left out of the collector's sight (``gc.freeze``): a full collection then traverses
only what was made since, what requests and open streams hold.
"""

import gc


def settle() -> None:
    """Collects, then freezes every object that survived: called once a server process has
    loaded the application and before it serves (the ASGI lifespan's startup)."""
    gc.collect()
    gc.freeze()
