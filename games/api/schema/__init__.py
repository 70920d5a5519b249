"""The OpenAPI schema and its pages: the docs' texts and examples, the enums, the response
shapes the schema is derived from, each ruleset's request variants, and the hooks that
finish the schema drf-spectacular generates."""
