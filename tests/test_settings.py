"""Production settings: a secret key that is never public, HTTPS from the environment."""

import os
import re
import secrets
import stat
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
PUBLIC_DEFAULT = "dev-only-secret-key-set-SECRET_KEY-in-production"
# Variables of the environment that would change what the settings read.
SETTINGS_VARIABLES = {
    "SECRET_KEY", "SECRET_KEY_FILE", "DEBUG", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE", "SECURE_PROXY_SSL_HEADER", "ALLOWED_HOSTS", "REDIS_URL",
}


def base_environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}


def setting(name: str, **env: str) -> str:
    code = f"import django; from django.conf import settings; print(settings.{name})"
    answer = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base_environment(), "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert answer.returncode == 0, answer.stderr
    return answer.stdout.strip()


def test_without_secret_key_a_random_one_is_made_once_and_kept(tmp_path):
    path = tmp_path / "data" / "secret-key"
    first = setting("SECRET_KEY", SECRET_KEY_FILE=str(path))
    assert len(first) >= 50 and first != PUBLIC_DEFAULT
    assert path.read_text().strip() == first
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert setting("SECRET_KEY", SECRET_KEY_FILE=str(path)) == first
    other = tmp_path / "elsewhere"
    assert setting("SECRET_KEY", SECRET_KEY_FILE=str(other)) != first


def test_processes_starting_together_agree_on_one_key(tmp_path):
    path = tmp_path / "secret-key"
    with ThreadPoolExecutor(6) as pool:
        keys = set(pool.map(lambda _: setting("SECRET_KEY", SECRET_KEY_FILE=str(path)), range(6)))
    assert keys == {path.read_text().strip()}


def test_a_given_secret_key_wins_and_no_file_is_written(tmp_path):
    path = tmp_path / "secret-key"
    assert setting("SECRET_KEY", SECRET_KEY="k" * 60, SECRET_KEY_FILE=str(path)) == "k" * 60
    assert not path.exists()


def test_the_key_file_is_ignored_by_git():
    assert ".secret-key" in (ROOT / ".gitignore").read_text().split()


def test_debug_is_off_unless_asked(tmp_path):
    assert setting("DEBUG", SECRET_KEY_FILE=str(tmp_path / "k")) == "False"


def test_https_settings_come_from_the_environment(tmp_path):
    env = {
        "SECRET_KEY_FILE": str(tmp_path / "k"),
        "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto: https",
        "SECURE_HSTS_SECONDS": "600",
    }
    assert setting("SECURE_PROXY_SSL_HEADER", **env) == "('HTTP_X_FORWARDED_PROTO', 'https')"
    assert setting("SECURE_HSTS_SECONDS", **env) == "600"
    assert setting("SECURE_SSL_REDIRECT", **env) == "False"


def compose_environment() -> dict[str, str]:
    """The web service's environment in docker-compose.yml, its defaults filled in."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())

    def resolve(value: object) -> str:
        def fill(match: re.Match[str]) -> str:
            if match.group(2) == ":-":
                return match.group(3)
            return secrets.token_urlsafe(50)  # ${SECRET_KEY:?...}: the operator must set it

        return re.sub(r"\$\{(\w+)(:-|:\?)?([^}]*)\}", fill, str(value))

    env = {k: resolve(v) for k, v in compose["services"]["web"]["environment"].items()}
    # The metrics folder is the image's (a volume there): here, one of this machine's.
    env["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="dice-metrics-")
    return env


def check_deploy(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**base_environment(), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_the_compose_settings_pass_the_deployment_check():
    answer = check_deploy(compose_environment())
    assert answer.returncode == 0, answer.stdout + answer.stderr
    assert "no issues" in answer.stdout


@pytest.mark.slow
@pytest.mark.parametrize("variable", ["SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE"])
def test_the_deployment_check_notices_a_missing_https_setting(variable):
    env = compose_environment() | {variable: "false"}
    answer = check_deploy(env)
    assert answer.returncode != 0
    assert "WARNING" in answer.stderr + answer.stdout


def test_every_piece_of_the_fast_path_is_on_unless_its_switch_turns_it_off(tmp_path):
    key = {"SECRET_KEY_FILE": str(tmp_path / "k")}
    assert setting("SERVER_BRIDGE", **key) == "threaded"
    assert setting("SERVER_BRIDGE", SERVER_BRIDGE="Plain", **key) == "plain"
    assert setting("DATABASE_PIPELINE", DATABASE_PIPELINE="false", **key) == "False"
    assert setting("DATABASE_WRITES", **key) == "sql"
    assert setting("DATABASE_WRITES", DATABASE_WRITES="ORM", **key) == "orm"


def test_a_switch_in_an_unknown_position_stops_the_service_with_its_choices(tmp_path):
    answer = subprocess.run(
        [sys.executable, "-c", "import django; from django.conf import settings; settings.DEBUG"],
        cwd=ROOT,
        env={**base_environment(), "DJANGO_SETTINGS_MODULE": "config.settings",
             "SECRET_KEY_FILE": str(tmp_path / "k"), "SERVER_BRIDGE": "fast"},
        capture_output=True, text=True, timeout=60,
    )
    assert answer.returncode != 0
    assert "SERVER_BRIDGE must be one of threaded, plain, not 'fast'" in answer.stderr
