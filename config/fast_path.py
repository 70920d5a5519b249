"""The fast path's switches: each piece of a move's fast path can be turned off, and all of
them off is the plain Django way, the reference each piece is measured against
(docs/operations.md, "The fast path's switches"; what each buys: docs/architecture.md, "What
the fast path buys"). Read from the environment here, for config/settings.py, which takes
them all; SERVER_QUICK_ON_LOOP, DATABASE_PREPARE and GAMES_KEPT stay beside the settings
they go with there.
"""

from config.env import env_bool, env_choice, env_int

__all__ = [
    "DATABASE_PIPELINE", "DATABASE_WRITES", "SERVER_ACCEPT_PACING", "SERVER_BRIDGE",
    "SERVER_STREAM_SENDER", "SERVER_STREAM_SENDER_NICE", "STREAMS_NEWS",
]

# "threaded" (games.serving.threaded_wsgi) or "plain" (Django's own ASGI handler).
SERVER_BRIDGE = env_choice("SERVER_BRIDGE", "threaded", ("threaded", "plain"))
# Paced accepts spread connections opened together over the workers (games.serving.worker).
SERVER_ACCEPT_PACING = env_bool("SERVER_ACCEPT_PACING", True)
# A change's statements sent together, in one round trip (games.db.rows); false: one by one.
DATABASE_PIPELINE = env_bool("DATABASE_PIPELINE", True)
# How the game store reads and writes a game (games.db.gamestore): "sql", the hand-written
# statements of games.db.rows, or "orm", Django's ORM the plain way (games.db.ormstore; no
# game is then kept, GAMES_KEPT notwithstanding).
DATABASE_WRITES = env_choice("DATABASE_WRITES", "sql", ("sql", "orm"))
# A stream sends the events its notification carries (games.db.notify); false: it reads the log.
STREAMS_NEWS = env_bool("STREAMS_NEWS", True)
# Each worker process has its live streams written by a process of its own, the stream
# sender (games.serving.handoff), at this niceness above the worker's and without preempting
# it: a move's request never waits for a crowd of spectators' writes, and on a full machine
# the writes wait for the moves. Off (false), the worker writes each stream itself.
SERVER_STREAM_SENDER = env_bool("SERVER_STREAM_SENDER", True)
SERVER_STREAM_SENDER_NICE = env_int("SERVER_STREAM_SENDER_NICE", 5, minimum=0)
