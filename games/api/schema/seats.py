"""A seat in a request is a person's (or a computer's) or a bot's, never both: the schema
says so, as the service does (``games.api.games.requests._name_or_bot``), so that a body the
schema calls valid is never refused for naming a bot beside a name or a computer level."""

from typing import Any

BOT_SEAT_NOTE = (
    "A bot's seat: the bot's id alone (the seat takes the bot's name). Any other seat gives "
    "its `name` (and `computer` for a computer)."
)


def seat_is_a_person_or_a_bot(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request"):
            _split(component)
    split = {
        f"#/components/schemas/{name}"
        for name, component in result.get("components", {}).get("schemas", {}).items()
        if "oneOf" in component and name.endswith("Request")
    }
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            for content in (body or {}).get("content", {}).values():
                _split(content.get("schema"))
                if body is not None and content.get("schema", {}).get("$ref") in split:
                    body["required"] = True  # a seat is a person's or a bot's: never no body
    return result


def _split(schema: Any) -> None:
    if isinstance(schema, list):
        for item in schema:
            _split(item)
        return
    if not isinstance(schema, dict):
        return
    properties = schema.get("properties")
    if schema.get("type") == "object" and isinstance(properties, dict) and {
        "name", "bot"
    } <= properties.keys():
        bot = {key: value for key, value in properties["bot"].items() if key != "nullable"}
        person = {**schema, "properties": {k: v for k, v in properties.items() if k != "bot"}}
        person["required"] = sorted({*schema.get("required", []), "name"})
        schema.clear()
        schema["oneOf"] = [
            person,
            {
                "type": "object",
                "description": BOT_SEAT_NOTE,
                "properties": {"bot": bot},
                "required": ["bot"],
                "additionalProperties": False,
            },
        ]
        return
    for value in schema.values():
        _split(value)
