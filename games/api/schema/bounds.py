"""The schema states the bounds every request body is held to before its fields are read
(``games.http.strict.check_bounds``): an object that takes names of the client's choosing
(a record's options, an event's data) takes at most ``MOST_NAMES`` of them, so that a body
the schema calls valid is never refused for its size."""

from typing import Any

from games.http.strict import MOST_NAMES


def bound_request_objects(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request"):
            _bound(component)
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            for content in (body or {}).get("content", {}).values():
                _bound(content.get("schema"))
    return result


def _bound(schema: Any) -> None:
    if isinstance(schema, list):
        for item in schema:
            _bound(item)
    if not isinstance(schema, dict):
        return
    if schema.get("type") == "object" and schema.get("additionalProperties", True) is not False:
        schema.setdefault("maxProperties", MOST_NAMES)
    for key, value in schema.items():
        if key != "not":  # what a body may not be: bounding it would refuse less
            _bound(value)
