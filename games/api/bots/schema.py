"""The key's stream in the OpenAPI schema: a plain Django view (``games.api.bots.stream``),
which drf-spectacular cannot see, so its operation is written here and added by
``games.api.schema.hooks.add_game_stream`` with the game stream's."""

from typing import Any

from games.api.games.stream import HEARTBEAT_SECONDS, RETRY_MILLISECONDS
from games.arena.slots import MOST_STREAMS

KEY_STREAM_PATH = "/api/v1/me/stream/"
PROBLEM = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/ProblemOut"}}}
EVENTS = ["seated", "turn", "finished", "tournament"]

KEY_STREAM_EXAMPLE = (
    f"retry: {RETRY_MILLISECONDS}\n\n"
    "event: seated\n"
    'data: {"game":"3f0c2a9e-8d1b-4c61-9a55-2f1d0b7e4c10","seat":1,'
    '"bot":"5d6c0a1e-2b3f-4c5d-8e9f-0a1b2c3d4e5f","token":"<the seat\'s token>",'
    '"ruleset":"yahtzee","tournament":null}\n\n'
    "event: turn\n"
    'data: {"game":"3f0c2a9e-8d1b-4c61-9a55-2f1d0b7e4c10","seat":1,'
    '"bot":"5d6c0a1e-2b3f-4c5d-8e9f-0a1b2c3d4e5f","version":7,"deadline":null}\n\n'
    ": keep-alive\n\n"
    "event: finished\n"
    'data: {"game":"3f0c2a9e-8d1b-4c61-9a55-2f1d0b7e4c10","totals":[231,187],'
    '"winners":[0]}\n\n'
)

KEY_STREAM_EVENT = {
    "type": "object",
    "description": "One message of the key's stream.",
    "required": ["event", "data"],
    "properties": {
        "event": {"type": "string", "enum": EVENTS, "description": "What happened."},
        "data": {
            "type": "string",
            "description": "JSON on one line: `seated` `{game, seat, bot, token, ruleset, "
            "tournament}`, `turn` `{game, seat, bot, version, deadline}`, `finished` "
            "`{game, totals, winners}`, `tournament` `{tournament, status}`.",
        },
    },
}

KEY_STREAM_OPERATION: dict[str, Any] = {
    "operationId": "me_stream_retrieve",
    "summary": "The key's own stream: its bots' games (Server-Sent Events)",
    "description": (
        "One `text/event-stream` for every game where a bot of the key's owner (the student, "
        "or the teacher: a teacher's key gets its own bots' events only) has a seat:\n\n"
        "- `seated` when a bot is given a seat, with the seat's `token` (sent nowhere else "
        "but in the answer to a request by the bot's own key);\n"
        "- `turn` at the start of each turn of a bot's seat, within a second of the move "
        "that passed the turn;\n"
        "- `finished` when such a game is over (finished or abandoned);\n"
        "- `tournament` when a tournament with the owner's bots changes status.\n\n"
        "On every connection the stream first sends, for each game not over where a bot of "
        "the key has a seat, its `seated` event and, if that seat is to move, its `turn` "
        "event: a bot that restarts picks every game up where it stood. It opens with a "
        f"`retry: {RETRY_MILLISECONDS}` hint and sends a `: keep-alive` comment every "
        f"{HEARTBEAT_SECONDS:g} s while nothing happens. It ends when the key is revoked "
        f"(within 5 s). One key holds at most {MOST_STREAMS} open streams.\n\n"
        f"A stream's messages:\n\n```\n{KEY_STREAM_EXAMPLE}```"
    ),
    "tags": ["bots"],
    "security": [{"apiKey": []}],
    "responses": {
        "200": {
            "description": "The stream; it stays open until the client closes it or the key "
            "is revoked.",
            "content": {"text/event-stream": {"schema": KEY_STREAM_EVENT}},
        },
        "401": {
            "description": "No `X-API-Key` (`not_authenticated`), or a wrong or revoked one "
            "(`invalid_api_key`).",
            "content": PROBLEM,
        },
        "405": {
            "description": "The path takes only GET (`method_not_allowed`).",
            "content": PROBLEM,
        },
        "429": {
            "description": f"The key holds {MOST_STREAMS} open streams already "
            "(`too_many_streams`), or the address is locked out for wrong credentials "
            "(`throttled`).",
            "content": PROBLEM,
        },
    },
}
