"""Every problem code the service can answer is a member of one of three enums, the rules'
(``scoring.ProblemCode``), the services' (``ServiceCode``) and HTTP's (``HttpCode``), and each
member has its status and title in the one registry, ``PROBLEM_TYPES``. The rules declare
only the codes they raise.

A code the service raises itself is a member, so a misspelled one does not import (and fails
the type check). What the types cannot see are the codes that arrive as strings: those of
DRF's refusals, whose classes name their own. Those are checked here, the ones DRF raises by
itself and the ones the sources raise by name.
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
from games.http.codes import CODE_ENUMS, HttpCode
from games.http.middleware.problem_middleware import problem_for
from games.http.problems import (
    PROBLEM_TYPES,
    UnknownProblemCode,
    problem,
    problem_code,
    problem_response,
)
from games.play.errors import ServiceCode
from scoring import ProblemCode, RuleError

ROOT = Path(__file__).resolve().parent.parent
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


def called_names() -> Iterator[str]:
    """The name of every call in the service's code."""
    for folder in ("scoring", "games"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Call):
                    name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                    if name:
                        yield name


def drf_refusals_raised_by_name() -> set[type[exceptions.APIException]]:
    found = set()
    for name in called_names():
        refusal = getattr(exceptions, name, None)
        if (
            isinstance(refusal, type)
            and issubclass(refusal, exceptions.APIException)
            and not issubclass(refusal, OWN_CODES)
        ):
            found.add(refusal)
    return found


def test_every_code_has_its_status_and_title() -> None:
    declared = [str(code) for codes in CODE_ENUMS for code in codes]
    assert len(declared) == len(set(declared)), "a code declared twice"
    assert set(PROBLEM_TYPES) == set(declared)
    assert len(PROBLEM_TYPES) == len(declared)


def test_a_code_arriving_as_a_string_is_found_in_whichever_enum_declares_it() -> None:
    assert problem_code("no_rolls_left") is ProblemCode.NO_ROLLS_LEFT
    assert problem_code("not_found") is ServiceCode.NOT_FOUND
    assert problem_code("throttled") is HttpCode.THROTTLED


def codes_named_in(folder: str) -> set[str]:
    """The members of ``ProblemCode`` that the code under ``folder`` names (``ProblemCode.X``),
    outside the enum's own module."""
    named = set()
    for path in sorted((ROOT / folder).rglob("*.py")):
        if path.name == "errors.py" and path.parent == ROOT / "scoring":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "ProblemCode"
            ):
                named.add(node.attr)
    return named


def test_the_rules_declare_only_the_codes_they_raise() -> None:
    # A code the engine never raises belongs with the service or HTTP code that does.
    assert {code.name for code in ProblemCode} == codes_named_in("scoring")


def test_the_rules_raise_every_code_by_its_member() -> None:
    # The scan above sees ``ProblemCode.X`` only: a code raised as a plain string would be
    # missed by it, and refused by the type check.
    strings = {str(code) for code in ProblemCode}
    for path in sorted((ROOT / "scoring").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError":
                first = node.args[0] if node.args else None
                assert not (isinstance(first, ast.Constant) and first.value in strings), path


def test_a_code_is_its_string_on_the_wire() -> None:
    body = problem(ProblemCode.NO_ROLLS_LEFT, "no rolls are left this turn: fill a box")
    assert type(body["code"]) is str
    assert body["code"] == "no_rolls_left"
    assert body["type"] == "urn:dice-games:problem:no_rolls_left"


def test_the_drf_refusals_the_sources_raise_have_declared_codes() -> None:
    raised = drf_refusals_raised_by_name()
    assert exceptions.NotFound in raised  # a guard on the scan itself
    for refusal in raised:
        assert PROBLEM_TYPES[problem_code(refusal.default_code)].status == refusal.status_code


@pytest.mark.parametrize("refusal", RAISED_BY_DRF)
def test_drf_refusals_keep_their_status(refusal: type[exceptions.APIException]) -> None:
    assert PROBLEM_TYPES[problem_code(refusal.default_code)].status == refusal.status_code


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
