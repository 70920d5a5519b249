"""The fast path's switches: each piece of a move's fast path can be turned off, and all of
them off is the plain Django way, the reference each piece is measured against
(docs/operations.md, "The fast path's switches"; what each buys: docs/architecture.md, "What
the fast path buys"). Read from the environment here, for config/settings.py, which takes
them all; SERVER_QUICK_ON_LOOP, DATABASE_PREPARE and GAMES_KEPT stay beside the settings
they go with there.
"""

from config.env import env_bool, env_choice

__all__ = [
    "API_JSON", "DATABASE_PIPELINE", "DATABASE_WRITES", "JSON_CLASSES", "MOVE_FIELDS_PER_THREAD",
    "SERVER_ACCEPT_PACING", "SERVER_BRIDGE", "STREAMS_NEWS",
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
# "orjson" (games.http.fastjson, games.http.negotiation) or "drf" (DRF's JSON, bodies bounded).
API_JSON = env_choice("API_JSON", "orjson", ("orjson", "drf"))
# A stream sends the events its notification carries (games.db.notify); false: it reads the log.
STREAMS_NEWS = env_bool("STREAMS_NEWS", True)
# Each thread keeps a move body's fields (games.api.games.requests) instead of DRF's copy.
MOVE_FIELDS_PER_THREAD = env_bool("MOVE_FIELDS_PER_THREAD", True)

# DRF's JSON classes for each API_JSON (REST_FRAMEWORK takes them).
JSON_CLASSES = {
    "orjson": {
        "DEFAULT_RENDERER_CLASSES": ["games.http.fastjson.FastJSONRenderer"],
        "DEFAULT_PARSER_CLASSES": ["games.http.fastjson.FastJSONParser"],
        "DEFAULT_CONTENT_NEGOTIATION_CLASS": "games.http.negotiation.QuickContentNegotiation",
    },
    "drf": {
        "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
        "DEFAULT_PARSER_CLASSES": ["games.http.fastjson.BoundedJSONParser"],
        "DEFAULT_CONTENT_NEGOTIATION_CLASS": "rest_framework.negotiation.DefaultContentNegotiation",
    },
}
