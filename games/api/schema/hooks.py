"""drf-spectacular postprocessing hooks: what the generator cannot see by itself.

The live stream (``games.api.games.stream``) is a plain Django view whose body is an async
generator, which DRF's responses cannot carry; spectacular documents only DRF views, so its
operation is added here, by hand (and the key's own stream's, ``games.api.bots.schema``).
"""

import json
from typing import Any

from games.api.bots.schema import KEY_STREAM_OPERATION, KEY_STREAM_PATH
from games.api.games.stream import HEARTBEAT_SECONDS, MAX_POSITION, RETRY_MILLISECONDS
from games.api.schema.docs import WHEN
from games.api.schema.enums import EVENT_TYPES
from games.api.schema.per_ruleset import CREATE_PATH

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
            "enum": EVENT_TYPES,
            "description": "The event's `type`, the name to listen to in `EventSource`.",
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
    """Adds the stream's operation beside the other game paths, and the key's own stream
    (``games.api.bots.schema``) beside the bots'."""
    paths = {
        **result["paths"], STREAM_PATH: {"get": STREAM_OPERATION},
        KEY_STREAM_PATH: {"get": KEY_STREAM_OPERATION},
    }
    result["paths"] = dict(sorted(paths.items()))
    return result


# -- what a created game leads to -------------------------------------------------------------

CREATED = "$response.body#/id"
FIRST_SEAT = "Bearer {$response.body#/players/0/token}"
CREATED_LINKS = {
    "GetGame": ("games_retrieve", "The game just created.", False),
    "GetEvents": ("games_events_retrieve", "Its log.", False),
    "FollowGame": ("games_stream_retrieve", "Its live event stream.", False),
    "GetHint": ("games_hint_retrieve", "Advice for the seat to move.", False),
    "GetAnalysis": ("games_analysis_retrieve", "Its analysis, once it is over.", False),
    "JoinGame": ("games_join_create", "Take an open seat of it.", False),
    "StartGame": (
        "games_start_create",
        (
            "Its first seat, if a person, starts it with the token shown here (a game that "
            "waits for open seats)."
        ),
        True,
    ),
    "LeaveGame": (
        "games_leave_create",
        "Its first seat, if a person, leaves it with the token shown here.",
        True,
    ),
}


def link_the_created_game(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """OpenAPI links from the answer that creates a game to what may follow: reading it by
    its id, joining it, and the moves of its first seat with the token the answer shows.

    Only moves whose body every ruleset takes are linked (``start``, ``leave``): the body of
    a roll or a box depends on the game's ruleset, which a link cannot choose. (The live
    schemathesis test does not follow the two moves: see tests/live/schemathesis.toml.)
    """
    created = result["paths"][CREATE_PATH]["post"]["responses"]["201"]
    created["links"] = {
        name: {
            "operationId": operation,
            "parameters": {"path.id": CREATED} | (
                {"header.Authorization": FIRST_SEAT} if seated else {}
            ),
            "description": description,
        }
        for name, (operation, description, seated) in CREATED_LINKS.items()
    }
    return result


def close_request_objects(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Request bodies are refused when they carry a field they do not declare.

    Every request serializer is strict (``games.http.strict``); the schema says so, so that
    a generated client and a fuzzer know an extra field is an error, not something ignored.
    """
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request") and component.get("type") == "object":
            component.setdefault("additionalProperties", False)
    return result


def require_bodies(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A body stated inline whose object has required fields (the record that
    ``/records/verify/`` checks) is itself required, as spectacular marks a serializer's."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if body and any(
                content.get("schema", {}).get("required") for content in body["content"].values()
            ):
                body["required"] = True
    return result


# Declared once among the components (see HEADERS below).
RETRY_AFTER = {"Retry-After": {"$ref": "#/components/headers/Retry-After"}}
UNAVAILABLE = {"description": WHEN[503], "content": PROBLEM}


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


# -- what generated clients and linters need ------------------------------------------------

HEADERS: dict[str, dict[str, Any]] = {
    "ETag": {
        "description": 'The version of what the answer shows, in quotes (`"12"`): send it back '
        "in `If-Match` (moves) or `If-None-Match` (reads).",
        "schema": {"type": "string", "pattern": '^"[0-9]+"$'},
    },
    "Location": {
        "description": "The path of the game just created.",
        "schema": {"type": "string"},
    },
    "Retry-After": {
        "description": "Seconds to wait before trying again (429: the limit's window; 503: "
        "the database or a strategy table is not ready yet).",
        "schema": {"type": "integer", "minimum": 1},
    },
    "Idempotent-Replayed": {
        "description": "`true` when the answer is the stored one of an earlier request with the "
        "same `Idempotency-Key` (the move was not made again); absent otherwise.",
        "schema": {"type": "string", "enum": ["true"]},
    },
}
GAME_REF = "#/components/schemas/GameOut"
METHODS = ("get", "put", "post", "patch", "delete", "head", "options")


def for_generated_clients(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """What the generator leaves out, for linters and generated clients.

    - Operations that need no credentials say so (``security: []``).
    - Response headers are declared: ``ETag`` on game answers and the log, ``Location`` on a
      created game, ``Idempotent-Replayed`` on moves, ``Retry-After`` on 429.
    - A request field with a default is optional for the caller, but a ``default`` makes
      generators such as openapi-typescript type it as required: the default moves into
      the description instead.
    - A nullable reference gets the ``type`` that OpenAPI 3.0 requires beside ``nullable``.
    - drf-spectacular wraps the example of a list answer in a list (and of a page in a
      page); examples written whole are unwrapped.
    """
    schemas = result.get("components", {}).get("schemas", {})
    result.setdefault("components", {})["headers"] = HEADERS
    if "NullEnum" in schemas:  # OpenAPI 3.0 admits null only beside a type, with nullable
        schemas["NullEnum"] = {"type": "string", "nullable": True, "enum": [None]}
    for name, component in schemas.items():
        if name.endswith("Request"):
            _defaults_into_descriptions(component)
        _type_nullable_references(component)
    for path, item in result["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            operation.setdefault("security", [])
            _declare_headers(path, method, operation)
            for response in operation.get("responses", {}).values():
                for content in response.get("content", {}).values():
                    for example in content.get("examples", {}).values():
                        if "value" in example:
                            example["value"] = _unwrapped(example["value"])
    return result


def _defaults_into_descriptions(schema: dict[str, Any]) -> None:
    for field in schema.get("properties", {}).values():
        if "default" in field:
            default = field.pop("default")
            shown = json.dumps(default)
            note = f"Default: `{shown}`."
            field["description"] = f"{field['description']} {note}" if field.get(
                "description"
            ) else note
        if field.get("type") == "object" or "properties" in field:
            _defaults_into_descriptions(field)
        if isinstance(field.get("items"), dict):
            _defaults_into_descriptions(field["items"])


NULL_ENUM = {"$ref": "#/components/schemas/NullEnum"}


def _type_nullable_references(schema: Any) -> None:
    if isinstance(schema, dict):
        if schema.get("nullable") and "type" not in schema:
            if "allOf" in schema:
                schema["type"] = "object"
            elif NULL_ENUM in schema.get("oneOf", []):
                del schema["nullable"]  # the NullEnum branch admits null already
        for value in schema.values():
            _type_nullable_references(value)
    elif isinstance(schema, list):
        for value in schema:
            _type_nullable_references(value)


def _header(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/headers/{name}"}


def _declare_headers(path: str, method: str, operation: dict[str, Any]) -> None:
    idempotent = any(
        parameter.get("in") == "header" and parameter.get("name") == "Idempotency-Key"
        for parameter in operation.get("parameters", [])
    )
    for status, response in operation.get("responses", {}).items():
        headers = response.setdefault("headers", {})
        shows_game = any(
            content.get("schema", {}).get("$ref") == GAME_REF
            for content in response.get("content", {}).values()
        )
        if status in ("200", "201") and shows_game:
            headers.setdefault("ETag", _header("ETag"))
            if idempotent:
                headers.setdefault("Idempotent-Replayed", _header("Idempotent-Replayed"))
        if status == "304" or (status == "200" and path.endswith("/events/")):
            headers.setdefault("ETag", _header("ETag"))
        if status == "201" and method == "post" and path == "/api/v1/games/":
            headers.setdefault("Location", _header("Location"))
        if status == "429":
            headers.setdefault("Retry-After", _header("Retry-After"))
        if not headers:
            del response["headers"]


def _unwrapped(value: Any) -> Any:
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], list):
        return value[0]
    if isinstance(value, dict) and isinstance(value.get("results"), list):
        results = value["results"]
        if len(results) == 1 and isinstance(results[0], dict) and "results" in results[0]:
            return results[0]
    return value
