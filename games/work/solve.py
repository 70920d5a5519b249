"""``python -m games.work.solve RULESET OPTIONS_JSON FOLDER NICE``: solve one strategy table
into FOLDER, at the lower priority NICE (added to this process's niceness).

Run by a worker's table builder (``games.work.builds``) as a child process of its own, so
that the solver's core is the first the system takes back for serving requests, and so that
neither the worker's other threads nor its memory wait on the solver. Imports no Django.
A child whose worker died (killed, out of memory) stops too, and removes its folder: the
solver releases the interpreter's lock, so a thread of its own watches for that.
"""

import json
import os
import shutil
import sys
import threading

from scoring import family_of


def stop_with_parent(folder: str) -> None:
    """Exit as soon as the process that started this one is gone (this one is then
    adopted by another), removing the folder the table was to be written into."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(1.0)
        shutil.rmtree(folder, ignore_errors=True)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def main(argv: list[str]) -> int:
    ruleset_id, options_json, folder, nice = argv
    stop_with_parent(folder)
    os.nice(int(nice))
    family_of(ruleset_id).prepare_table(ruleset_id, json.loads(options_json), folder)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
