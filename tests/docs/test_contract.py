"""The docs cover what the service offers: every path of the OpenAPI schema in the contract,
every error code of the registry, every setting read from the environment in operations."""

import ast
import re
from pathlib import Path

import pytest
from drf_spectacular.generators import SchemaGenerator

from games.http.problems import PROBLEM_TYPES

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ROOT / "docs" / "contract.md"
OPERATIONS = ROOT / "docs" / "operations.md"
SETTINGS = ROOT / "config" / "settings.py"


@pytest.fixture(scope="module")
def schema_paths() -> list[str]:
    return list(SchemaGenerator().get_schema(request=None, public=True)["paths"])


def test_every_path_of_the_schema_is_in_the_contract(schema_paths):
    contract = CONTRACT.read_text(encoding="utf-8")
    assert len(schema_paths) > 40
    # As written in the contract: `/api/v1/games/`, `GET /api/v1/games/{id}/`, `... /?after=1`.
    missing = [
        path for path in schema_paths
        if not re.search(r"[`\s]" + re.escape(path) + r"[`?\s]", contract)
    ]
    assert not missing, f"docs/contract.md says nothing of {missing}"


def test_every_error_code_is_explained_in_the_contract():
    contract = CONTRACT.read_text(encoding="utf-8")
    missing = [str(code) for code in PROBLEM_TYPES if f"`{code}`" not in contract]
    assert not missing, f"docs/contract.md does not say when these are answered: {missing}"


def environment_variables() -> set[str]:
    """The names config/settings.py reads: the first argument of each ``env_*`` call."""
    names = set()
    for node in ast.walk(ast.parse(SETTINGS.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and (node.func.id.startswith("env_") or node.func.id == "proxy_ssl_header")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names.add(node.args[0].value)
    return names


def test_every_setting_read_from_the_environment_is_in_operations():
    names = environment_variables()
    assert {"DATABASE_URL", "SECRET_KEY", "SECURE_PROXY_SSL_HEADER"} <= names
    operations = OPERATIONS.read_text(encoding="utf-8")
    missing = sorted(name for name in names if f"`{name}`" not in operations)
    assert not missing, f"docs/operations.md does not describe {missing}"
