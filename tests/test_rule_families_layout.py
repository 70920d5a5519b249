"""The layout the rule families rely on: a family is a package under ``scoring/``, and the
service never tells families apart by class (it asks ``scoring.family_of``)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAMILY_PACKAGES = [ROOT / "scoring" / "boxgames", ROOT / "scoring" / "tenthousand"]
MOST_LINES = 400
MOST_MODULES = 12


def _classes_of_families() -> set[str]:
    return {
        node.name
        for package in FAMILY_PACKAGES
        for module in package.rglob("*.py")
        for node in ast.walk(ast.parse(module.read_text()))
        if isinstance(node, ast.ClassDef)
    }


def _names(node: ast.expr) -> list[str]:
    """The class names an ``isinstance`` call's second argument refers to."""
    parts = node.elts if isinstance(node, ast.Tuple) else [node]
    found = []
    for part in parts:
        if isinstance(part, ast.Name):
            found.append(part.id)
        elif isinstance(part, ast.Attribute):
            found.append(part.attr)
    return found


def test_the_service_never_asks_a_ruleset_or_its_results_for_their_familys_class() -> None:
    families = _classes_of_families()
    assert {"BoxGame", "TenThousand", "TenThousandAnalysis"} <= families
    asked = [
        f"{module.relative_to(ROOT)}:{node.lineno}"
        for module in (ROOT / "games").rglob("*.py")
        for node in ast.walk(ast.parse(module.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "isinstance"
        and len(node.args) == 2
        and families & set(_names(node.args[1]))
    ]
    assert asked == []


def test_the_rules_stay_in_small_modules_and_small_folders() -> None:
    too_long = [
        f"{module.relative_to(ROOT)}: {lines} lines"
        for module in (ROOT / "scoring").rglob("*.py")
        if (lines := len(module.read_text().splitlines())) > MOST_LINES
    ]
    crowded = [
        f"{folder.relative_to(ROOT)}: {count} modules"
        for folder in [ROOT / "scoring", *(ROOT / "scoring").rglob("*/")]
        if folder.is_dir()
        and (count := len(list(folder.glob("*.py")))) > MOST_MODULES
    ]
    assert too_long == []
    assert crowded == []
