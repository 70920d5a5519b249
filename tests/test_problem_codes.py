"""Every problem code the service can answer is declared once, in ``PROBLEM_TYPES``.

The sources are read rather than trusted: a code raised anywhere in ``scoring`` or
``games`` but not declared fails here, before it can reach a client as a wrong answer.
"""

import ast
from collections.abc import Iterator
from http import HTTPStatus
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory
from rest_framework import exceptions

from games.api.schema import docs
from games.http.problem_middleware import problem_for
from games.http.problems import (
    FIELD_CODES,
    PROBLEM_TYPES,
    UnknownProblemCode,
    problem,
    problem_response,
)
from scoring import RuleError

ROOT = Path(__file__).resolve().parent.parent
# The calls whose first argument is a problem code.
CODE_FIRST = {"RuleError", "ServiceError", "problem", "problem_response"}
# DRF's refusals that it raises by itself while it serves the API (bodies it cannot parse or
# take, answers the client does not accept, methods a view lacks, throttles, pages past the
# last); the handler answers each with its default code.
RAISED_BY_DRF = (
    exceptions.ParseError,
    exceptions.UnsupportedMediaType,
    exceptions.NotAcceptable,
    exceptions.MethodNotAllowed,
    exceptions.Throttled,
    exceptions.NotFound,
)
# Refusals whose code the handler takes from the exception itself, not from its class.
OWN_CODES = (exceptions.ValidationError, exceptions.AuthenticationFailed)


def source_calls() -> Iterator[tuple[str, ast.Call]]:
    """Every call in the service's code, with the name it calls and where it is."""
    for folder in ("scoring", "games"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Call):
                    func = node.func
                    name = getattr(func, "id", None) or getattr(func, "attr", None)
                    if name:
                        yield name, node


def literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def raised_codes() -> set[str]:
    """The codes the sources give: literal first arguments of the calls that take a code,
    ``code=`` of authentication refusals, default codes of the DRF refusals they raise."""
    found = set()
    for name, call in source_calls():
        if name in CODE_FIRST and call.args and literal(call.args[0]):
            found.add(literal(call.args[0]))
        refusal = getattr(exceptions, name, None)
        if isinstance(refusal, type) and issubclass(refusal, exceptions.APIException):
            if issubclass(refusal, exceptions.AuthenticationFailed):
                found.update(
                    literal(keyword.value) for keyword in call.keywords if keyword.arg == "code"
                )
            elif not issubclass(refusal, OWN_CODES):
                found.add(refusal.default_code)
    return found


def test_the_scan_finds_codes_of_every_kind() -> None:
    # A guard on the scan itself: rules, services, the HTTP layer, DRF and authentication.
    assert {"no_rolls_left", "not_found", "invalid_token", "database_unavailable"} <= (
        raised_codes()
    )


def test_every_code_the_sources_give_is_declared() -> None:
    assert raised_codes() - PROBLEM_TYPES.keys() == set()


def test_every_field_code_that_names_a_problem_is_declared() -> None:
    assert FIELD_CODES - PROBLEM_TYPES.keys() == set()


@pytest.mark.parametrize("refusal", RAISED_BY_DRF)
def test_drf_refusals_keep_their_status(refusal: type[exceptions.APIException]) -> None:
    assert PROBLEM_TYPES[refusal.default_code].status == refusal.status_code


def test_bodiless_refusals_of_any_status_become_problems_of_that_status() -> None:
    request = RequestFactory().get("/static/app.js")
    for status in (s for s in HTTPStatus if s >= 400):
        answer = problem_for(request, HttpResponse(status=status))
        assert answer.status_code == status
        assert answer["Content-Type"] == "application/problem+json"


def test_an_undeclared_code_is_a_bug_not_a_bad_request() -> None:
    with pytest.raises(UnknownProblemCode):
        problem("made_up", "nobody declared this code")
    with pytest.raises(UnknownProblemCode):
        problem_response("made_up", "nobody declared this code")


@pytest.mark.django_db
def test_a_rule_refusal_with_an_undeclared_code_is_answered_as_a_server_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(ruleset: object) -> None:
        raise RuleError("made_up", "a code nobody declared")

    monkeypatch.setattr("games.api.rulesets.views.render_ruleset", refuse)
    response = Client(raise_request_exception=False).get("/api/v1/rulesets/yahtzee/")
    assert response.status_code == 500
    assert response.json()["code"] == "server_error"


def test_a_code_with_a_wait_sends_it_as_retry_after() -> None:
    waits = {code: kind.retry_after for code, kind in PROBLEM_TYPES.items() if kind.retry_after}
    assert "database_unavailable" in waits
    for code, seconds in waits.items():
        assert problem_response(code, "try later")["Retry-After"] == str(seconds)


def test_the_docs_list_every_code_of_each_status_they_describe() -> None:
    for status, description in docs.WHEN.items():
        for code, kind in PROBLEM_TYPES.items():
            if kind.status == status and code not in docs.DOCUMENTED_APART:
                assert f"`{code}`" in description, (status, code)
    assert docs.DOCUMENTED_APART - PROBLEM_TYPES.keys() == set()
