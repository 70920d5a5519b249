"""The table of error codes in ``docs/errors.md``, written from :data:`PROBLEM_TYPES`.

The registry is the one place a code is declared, so the docs' table is generated from it
rather than kept by hand: ``python manage.py error_table --write`` rewrites the file, and a
test fails while the file and the registry disagree.
"""

from collections.abc import Mapping
from pathlib import Path

from games.http.codes import Code
from games.http.problems import PROBLEM_TYPES, ProblemType

DOCS_FILE = Path(__file__).resolve().parents[2] / "docs" / "errors.md"

HEADER = """\
# Error codes

<!-- Generated from PROBLEM_TYPES in games/http/problems.py by
     `python manage.py error_table --write`: edit the registry, not this file. -->

Every refusal is an `application/problem+json` document whose `code` is one of these, in
the registry's order (by status). `type` is `urn:dice-games:problem:<code>` and `title` the
one below, in the request's language ([contract.md, "Languages"](contract.md#languages));
`detail` says what was wrong in this request, in that language too. A code with
a Retry-After sends that header with that many seconds; a `throttled` answer also sends
`Retry-After`, the seconds until the limit lets the client in again. When each code is
given: [contract.md, "Errors"](contract.md#errors).

| code | status | title | Retry-After |
|---|---|---|---|
"""


def _row(code: object, kind: ProblemType) -> str:
    retry = "" if kind.retry_after is None else str(kind.retry_after)
    return f"| `{code}` | {kind.status} | {kind.title} | {retry} |\n"


def error_table(
    types: Mapping[Code, ProblemType] | Mapping[str, ProblemType] = PROBLEM_TYPES,
) -> str:
    """The whole of ``docs/errors.md``; each key is written as ``str(key)``, so plain strings
    and string enums give the same table."""
    return HEADER + "".join(_row(str(code), kind) for code, kind in types.items())
