"""Every text the API sends to people is marked for translation where it is written.

The code is read (its syntax tree), not run: each place that hands words to a person (a
refusal's message, a problem's detail or title, a field error, a ruleset's, box's or
option's name and description, a permission's refusal) must be given a marked string
(``gettext_noop``, ``gettext``, ``gettext_lazy``, ``ngettext``...) or a value computed
elsewhere, never a bare string or f-string: a bare one would reach every language in English.
The OpenAPI schema's examples stay English, like the whole schema, and are not checked.
"""

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("games", "scoring")
MARKERS = {
    "gettext", "gettext_noop", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext",
    "pgettext_lazy", "localized", "said", "_",
}
# Callable -> the positions (and keywords) of its words for people.
WORDED = {
    "RuleError": (1,), "ServiceError": (1,), "Refused": (1,), "NameRefused": (0,),
    "NotAllowed": (0,), "Words": (0,), "problem": (1,), "problem_response": (1,),
    "ValidationError": (0, "detail"), "ErrorDetail": (0,), "NotFound": (0, "detail"),
    "AuthenticationFailed": (0, "detail"), "NotAuthenticated": (0, "detail"),
    "PermissionDenied": (0, "detail"), "ParseError": (0, "detail"),
    "Throttled": ("detail",), "BadPosition": (1,), "refuse": (1,), "_refuse": (0,),
    "Problem": (2,), "NotARecord": (1,), "Box": (1, 3), "lower": (1, 2), "Option": (3,),
    "_type": (1,),
}
# Class attributes that hold words for people (a permission's refusal; a ruleset's).
WORDED_ATTRIBUTES = {"message", "no_key", "other_key", "name", "description"}
# Modules whose words are English whatever the request, and why.
ENGLISH_ONLY = {
    "games/serving/protocol.py": "a refused head is answered before its Accept-Language is read",
}
# Where a literal is not shown to people in the request's language.
EXEMPT_CALLS = {"OpenApiExample", "extend_schema", "OpenApiResponse", "OpenApiParameter"}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def bare_text(node: ast.AST) -> list[ast.AST]:
    """The bare strings in what is given as words: a marked call (or a value computed
    elsewhere) is fine; a literal, an f-string or a container of them is not."""
    if isinstance(node, ast.Constant):
        return [node] if isinstance(node.value, str) and node.value.strip() else []
    if isinstance(node, ast.JoinedStr):
        return [node]
    if isinstance(node, ast.Call):
        function = node.func
        if _name(function) in MARKERS:
            return []
        # gettext("... {x}").format(x=...) is marked; "{x}".format(x=...) is not.
        if isinstance(function, ast.Attribute) and function.attr == "format":
            return bare_text(function.value)
        return []
    if isinstance(node, ast.BinOp):
        return bare_text(node.left) + bare_text(node.right)
    if isinstance(node, ast.IfExp):
        return bare_text(node.body) + bare_text(node.orelse)
    if isinstance(node, ast.Dict):
        return [bad for value in node.values for bad in bare_text(value)]
    if isinstance(node, ast.List | ast.Tuple):
        return [bad for element in node.elts for bad in bare_text(element)]
    if isinstance(node, ast.DictComp):
        return bare_text(node.value)
    if isinstance(node, ast.ListComp):
        return bare_text(node.elt)
    return []


def faults_in(source: str, path: str) -> Iterator[str]:
    tree = ast.parse(source)
    exempt: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in EXEMPT_CALLS:
            exempt |= {id(inner) for inner in ast.walk(node)}
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in node.decorator_list:
                exempt |= {id(inner) for inner in ast.walk(decorator)}
    for node in ast.walk(tree):
        if id(node) in exempt:
            continue
        if isinstance(node, ast.Call) and _name(node.func) in WORDED:
            for place in WORDED[_name(node.func)]:
                if isinstance(place, int):
                    given = node.args[place] if len(node.args) > place else None
                else:
                    given = next((k.value for k in node.keywords if k.arg == place), None)
                for bad in bare_text(given) if given is not None else []:
                    yield f"{path}:{bad.lineno}: {_name(node.func)}() is given unmarked words"
        if isinstance(node, ast.ClassDef):
            yield from _class_faults(node, path)
        if isinstance(node, ast.Assign) and any(
            _name(target) == "_TITLE_OF_STATUS" for target in node.targets
        ):
            for bad in bare_text(node.value):
                yield f"{path}:{bad.lineno}: a status title is not marked"


def _class_faults(cls: ast.ClassDef, path: str) -> Iterator[str]:
    assigned = {
        _name(target): statement.value
        for statement in cls.body
        if isinstance(statement, ast.Assign)
        for target in statement.targets
    }
    # A ruleset declares its dice; any other class's ``name`` is not for people.
    words = WORDED_ATTRIBUTES if "dice" in assigned else WORDED_ATTRIBUTES - {"name", "description"}
    for attribute in words & assigned.keys():
        for bad in bare_text(assigned[attribute]):
            yield f"{path}:{bad.lineno}: {cls.name}.{attribute} is not marked"


def _modules() -> list[Path]:
    return sorted(
        path
        for folder in SOURCES
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts and "management" not in path.parts
        and str(path.relative_to(ROOT)) not in ENGLISH_ONLY
    )


def test_every_text_for_people_is_marked() -> None:
    faults = [
        fault
        for path in _modules()
        for fault in faults_in(path.read_text(), str(path.relative_to(ROOT)))
    ]
    assert not faults, "mark these for translation (docs/translating.md):\n" + "\n".join(faults)


@pytest.mark.parametrize(
    "source",
    [
        'raise RuleError(ProblemCode.INVALID, "no rolls are left")',
        'raise ServiceError(ServiceCode.NOT_FOUND, f"no game {game_id}")',
        'problem_response(code, "nothing here")',
        'raise ValidationError({"body": ["the body must be empty"]})',
        'raise NotFound("no game with this id")',
        'x = Box("chance", "Chance", "lower", gettext_noop("Sum."), sum)',
        'x = Option("joker", (), "forced", "forced: the Joker")',
        'class Game:\n    dice = 5\n    name = "Yatzy"',
        'class Check:\n    message = "not allowed"',
        'raise ServiceError(code, "{x} is wrong".format(x=1))',
    ],
)
def test_an_unmarked_text_is_found(source: str) -> None:
    assert list(faults_in(source, "example.py"))


@pytest.mark.parametrize(
    "source",
    [
        'raise RuleError(ProblemCode.INVALID, gettext_noop("no rolls are left"))',
        'raise NotFound(gettext("no game {id}").format(id=1))',
        "problem_response(code, said(refused))",
        'OpenApiExample("x", value=problem(code, "an English example"))',
        'class Family:\n    name = "Box games"',
    ],
)
def test_a_marked_text_passes(source: str) -> None:
    assert not list(faults_in(source, "example.py"))
