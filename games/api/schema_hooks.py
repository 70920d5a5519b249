"""drf-spectacular postprocessing hooks: what the generator cannot see by itself.

The live stream (``games.api.stream``) is a plain async Django view, since DRF's views are
not async; spectacular documents only DRF views, so its operation is added here, by hand.
"""

from typing import Any

from .stream import HEARTBEAT_SECONDS, MAX_POSITION, RETRY_MILLISECONDS

STREAM_PATH = "/api/v1/games/{id}/stream/"

PROBLEM = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/ProblemOut"}}}
POSITION = {"type": "integer", "minimum": 0, "maximum": MAX_POSITION}

STREAM_EXAMPLE = (
    f"retry: {RETRY_MILLISECONDS}\n\n"
    "id: 1\nevent: created\n"
    'data: {"seq":1,"type":"created","seat":null,"data":{"ruleset":"yahtzee","options":'
    '{"joker":"forced","yahtzee_bonus":"unlimited"},"seed":null,"players":[{"seat":0,'
    '"name":"Ann","computer":null}]},"created_at":"2026-11-21T10:00:00Z"}\n\n'
    "id: 2\nevent: rolled\n"
    'data: {"seq":2,"type":"rolled","seat":0,"data":{"dice":[3,3,5,1,6],'
    '"thrown":[0,1,2,3,4]},"created_at":"2026-11-21T10:00:05Z"}\n\n'
    ": keep-alive\n\n"
)
# Before OpenAPI 3.2's `itemSchema`, an event stream's `schema` describes each event.
STREAM_EVENT = {
    "type": "object",
    "description": "One message of the stream: one event of the game's log.",
    "required": ["id", "event", "data"],
    "properties": {
        "id": {"type": "string", "pattern": "^[0-9]+$", "description": "The event's `seq`."},
        "event": {
            "type": "string",
            "description": "The event's `type` (`created`, `rolled`, `scored`, `finished`, ...).",
        },
        "data": {
            "type": "string",
            "description": "The event as the events endpoint renders it (`EventOut`), as JSON "
            "on one line.",
        },
    },
}

STREAM_OPERATION: dict[str, Any] = {
    "operationId": "games_stream_retrieve",
    "summary": "Follow a game live (Server-Sent Events)",
    "description": (
        "The game's log as a `text/event-stream`, each event pushed as soon as its move is "
        "committed: one message per event, with `id` its `seq`, `event` its `type` and "
        "`data` the event exactly as `GET /api/v1/games/{id}/events/` renders it (JSON on "
        "one line). The stream starts after `Last-Event-ID` (sent by a reconnecting "
        "`EventSource`), else after `after`, else at the first event. It opens with a "
        f"`retry: {RETRY_MILLISECONDS}` hint, sends a `: keep-alive` comment every "
        f"{HEARTBEAT_SECONDS:g} s while nothing happens, and ends once the game is over "
        "(`finished` or `abandoned`) and every event is sent.\n\n"
        "In a browser: `new EventSource('/api/v1/games/<id>/stream/')`, then "
        "`addEventListener('rolled', ...)` per event type; call `close()` on `finished`.\n\n"
        f"A stream's first messages:\n\n```\n{STREAM_EXAMPLE}```"
    ),
    "tags": ["games"],
    "parameters": [
        {
            "in": "path",
            "name": "id",
            "required": True,
            "schema": {"type": "string", "format": "uuid"},
        },
        {
            "in": "query",
            "name": "after",
            "required": False,
            "schema": POSITION,
            "description": "Start after this `seq` (the last event you have).",
        },
        {
            "in": "header",
            "name": "Last-Event-ID",
            "required": False,
            "schema": POSITION,
            "description": "The `id` of the last message received; wins over `after`. "
            "Browsers send it by themselves when they reconnect.",
        },
    ],
    "responses": {
        "200": {
            "description": "The stream of events; it stays open until the game is over.",
            "content": {"text/event-stream": {"schema": STREAM_EVENT}},
        },
        "204": {
            "description": "The game is over and every event after the position is sent "
            "already: nothing will come (`EventSource` stops reconnecting)."
        },
        "400": {
            "description": "`after` or `Last-Event-ID` is not an event seq (`invalid`).",
            "content": PROBLEM,
        },
        "404": {"description": "No such game (`not_found`).", "content": PROBLEM},
        "405": {
            "description": "The path takes only GET (`method_not_allowed`).",
            "content": PROBLEM,
        },
    },
}


def add_game_stream(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Adds the stream's operation beside the other game paths."""
    paths = {**result["paths"], STREAM_PATH: {"get": STREAM_OPERATION}}
    result["paths"] = dict(sorted(paths.items()))
    return result


def close_request_objects(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Request bodies are refused when they carry a field they do not declare.

    Every request serializer is strict (``games.api.strict``); the schema says so, so that
    a generated client and a fuzzer know an extra field is an error, not something ignored.
    """
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request") and component.get("type") == "object":
            component.setdefault("additionalProperties", False)
    return result


RETRY_AFTER = {
    "Retry-After": {
        "schema": {"type": "integer", "minimum": 1},
        "description": "Seconds to wait before trying again.",
    }
}
UNAVAILABLE = {
    "description": "The database cannot be reached (`database_unavailable`); try again after "
    "`Retry-After` seconds.",
    "content": PROBLEM,
}


def document_retry_after(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Every operation may answer 503 while the database is gone; 429 and 503 carry
    ``Retry-After`` (drf-spectacular's responses declare no headers)."""
    for operations in result["paths"].values():
        for operation in operations.values():
            responses = operation["responses"]
            responses.setdefault("503", dict(UNAVAILABLE))
            for status in ("429", "503"):
                if status in responses:
                    responses[status]["headers"] = {
                        **responses[status].get("headers", {}), **RETRY_AFTER
                    }
    return result
