"""The layers of docs/architecture.md are enforced by ``lint-imports`` (the contracts in
pyproject.toml, run by ``make lint``). These tests run it on a copy of the tree with one
forbidden import added, and check that it fails and names the import: a contract that
passes whatever the code does would enforce nothing."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
PACKAGES = ("config", "games", "scoring")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    # --no-cache: every copy is analysed afresh, and nothing is written into the tree.
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=root, capture_output=True, text=True, timeout=120
    )


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's packages and contracts, copied once (without static files, templates
    and compiled modules, which hold no imports)."""
    root = tmp_path_factory.mktemp("pristine")
    ignore = shutil.ignore_patterns("__pycache__", "static", "templates", "*.pyc")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, root / package, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


@pytest.fixture
def tree(pristine: Path, tmp_path: Path) -> Path:
    """A copy of the tree this test may change."""
    root = tmp_path / "tree"
    shutil.copytree(pristine, root)
    return root


def test_the_real_tree_keeps_every_contract() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_the_copy_keeps_every_contract(pristine: Path) -> None:
    # The copy alone passes: the failures below come from the one line each test adds.
    result = lint_imports(pristine)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("module", "line", "importer", "imported"),
    [
        # A service that reaches up into the HTTP layer.
        (
            "games/play/services.py",
            "import games.http.problems",
            "games.play.services",
            "games.http.problems",
        ),
        # Storage that reaches up into the views.
        ("games/db/gamestore.py", "import games.api.urls", "games.db.gamestore", "games.api.urls"),
        # Models that reach up into a service.
        (
            "games/models/game.py",
            "import games.classrooms.services",
            "games.models.game",
            "games.classrooms.services",
        ),
        # A service that reaches up into the admin site.
        (
            "games/hooks/services.py",
            "import games.admin.games",
            "games.hooks.services",
            "games.admin.games",
        ),
    ],
)
def test_an_import_from_a_higher_layer_breaks_the_layers(
    tree: Path, module: str, line: str, importer: str, imported: str
) -> None:
    path = tree / module
    path.write_text(path.read_text() + f"\n{line}  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "layers" in result.stdout or "config -> entry points" in result.stdout
    assert "BROKEN" in result.stdout
    assert f"{importer} -> {imported}" in result.stdout


@pytest.mark.parametrize(
    ("line", "imported"),
    [
        ("import django.db", "django"),
        ("from rest_framework import serializers", "rest_framework"),
        ("import drf_spectacular", "drf_spectacular"),
        ("from games.models import Game", "games"),
    ],
)
def test_rules_that_import_django_drf_or_the_service_break_the_purity_contract(
    tree: Path, line: str, imported: str
) -> None:
    path = tree / "scoring" / "dice.py"
    path.write_text(path.read_text() + f"\n{line}  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "The rules know nothing of Django, DRF or the service BROKEN" in result.stdout
    assert f"scoring.dice -> {imported}" in result.stdout


def test_an_import_inside_a_function_counts_too(tree: Path) -> None:
    # A lazy import is still a dependency: the contract sees imports wherever they are.
    path = tree / "games" / "play" / "records.py"
    path.write_text(path.read_text() + "\n\ndef _late() -> None:\n    import games.api.urls\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "games.play.records -> games.api.urls" in result.stdout
