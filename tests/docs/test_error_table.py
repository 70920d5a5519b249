"""docs/errors.md is the registry's table: a code added, renamed or given another status or
Retry-After in ``PROBLEM_TYPES`` shows in the docs, or this fails."""

from enum import StrEnum

from games.http.error_table import DOCS_FILE, error_table
from games.http.problems import PROBLEM_TYPES, ProblemType


def test_the_docs_table_is_the_one_the_registry_gives():
    assert DOCS_FILE.read_text(encoding="utf-8") == error_table(), (
        "docs/errors.md is out of date: run `python manage.py error_table --write`"
    )


def test_every_code_has_a_row_with_its_status_title_and_retry_after():
    table = error_table()
    for code, kind in PROBLEM_TYPES.items():
        retry = "" if kind.retry_after is None else str(kind.retry_after)
        assert f"| `{code}` | {kind.status} | {kind.title} | {retry} |\n" in table


def test_codes_keyed_by_a_string_enum_give_the_same_table():
    class Code(StrEnum):
        NOT_FOUND = "not_found"
        THROTTLED = "throttled"

    by_text = {"not_found": ProblemType(404, "Not found"), "throttled": ProblemType(429, "Slow")}
    by_enum = {Code.NOT_FOUND: by_text["not_found"], Code.THROTTLED: by_text["throttled"]}
    table = error_table(by_enum)
    assert table == error_table(by_text)
    assert table.index("| `not_found` |") < table.index("| `throttled` |")
