"""docker-compose.yml, read as data: the services start in the right order, healthy."""

import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

COMPOSE = Path(__file__).resolve().parents[1] / "docker-compose.yml"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())


def command_text(service: dict[str, Any]) -> str:
    command = service["command"]
    return command if isinstance(command, str) else " ".join(command)


def test_the_services_are_declared(compose: dict[str, Any]) -> None:
    assert set(compose["services"]) == {"db", "redis", "web", "worker"}


def test_the_task_worker_runs_from_the_web_image_once_the_web_has_migrated(
    compose: dict[str, Any],
) -> None:
    web, worker = compose["services"]["web"], compose["services"]["worker"]
    assert worker["build"] == web["build"] and worker["environment"] == web["environment"]
    assert command_text(worker).startswith("python manage.py run_worker")
    assert worker["depends_on"]["web"]["condition"] == "service_healthy"
    assert worker["restart"] == "unless-stopped" and "ports" not in worker


def test_the_database_is_postgres_16_on_a_named_volume(compose: dict[str, Any]) -> None:
    db = compose["services"]["db"]
    assert db["image"] == "postgres:16"
    volume, _, target = db["volumes"][0].partition(":")
    assert volume in compose["volumes"]
    assert target == "/var/lib/postgresql/data"


def test_the_database_reports_health_with_pg_isready(compose: dict[str, Any]) -> None:
    assert "pg_isready" in " ".join(compose["services"]["db"]["healthcheck"]["test"])


def test_web_waits_for_a_healthy_database(compose: dict[str, Any]) -> None:
    assert compose["services"]["web"]["depends_on"] == {
        "db": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
    }


def test_web_reports_health_from_the_health_endpoint(compose: dict[str, Any]) -> None:
    probe = " ".join(compose["services"]["web"]["healthcheck"]["test"])
    assert "urllib.request" in probe
    assert "http://127.0.0.1:8000/api/v1/health/" in probe


def test_web_migrates_and_collects_static_files_before_gunicorn_starts(
    compose: dict[str, Any],
) -> None:
    command = command_text(compose["services"]["web"])
    migrate = command.index("manage.py migrate --noinput")
    collectstatic = command.index("manage.py collectstatic --noinput")
    gunicorn = command.index("gunicorn config.asgi:application")
    assert migrate < collectstatic < gunicorn
    assert "--bind 0.0.0.0:8000" in command[gunicorn:]
    assert "&&" in command[migrate:gunicorn], "a failed migration must stop the start"


def test_web_builds_the_strategy_tables_into_a_volume_before_gunicorn_starts(
    compose: dict[str, Any],
) -> None:
    web = compose["services"]["web"]
    command = command_text(web)
    build = command.index("manage.py build_strategy &&")
    assert command.index("manage.py migrate") < build < command.index("gunicorn config.asgi")
    folder = web["environment"]["STRATEGY_DIR"]
    volume, _, _target = next(v for v in web["volumes"] if v.endswith(f":{folder}")).partition(":")
    assert volume in compose["volumes"], "the tables outlive the container: built once"


def test_web_serves_asgi_with_uvicorn_workers_for_the_live_streams(
    compose: dict[str, Any],
) -> None:
    command = command_text(compose["services"]["web"]).split()
    server = command[command.index("gunicorn"):]
    assert server[1] == "config.asgi:application"
    assert server[server.index("--worker-class") + 1] == "games.serving.worker.Worker"


def test_web_is_configured_for_production_from_the_environment(compose: dict[str, Any]) -> None:
    web = compose["services"]["web"]
    env = web["environment"]
    assert {"DATABASE_URL", "SECRET_KEY", "ALLOWED_HOSTS", "CORS_ALLOWED_ORIGINS"} <= set(env)
    assert str(env["DEBUG"]).lower() == "false"
    assert env["DATABASE_URL"].split("@")[1].startswith("db:5432/")
    assert "8000:8000" in web["ports"]


def test_web_is_built_from_the_project_with_no_dockerfile_of_its_own(
    compose: dict[str, Any],
) -> None:
    build = compose["services"]["web"]["build"]
    dockerfile = build["dockerfile_inline"]
    assert build["context"] == "."
    assert dockerfile.startswith("FROM python:3.12-slim")
    assert "pip install" in dockerfile
    copied = [
        source
        for line in dockerfile.splitlines()
        if line.startswith("COPY ")
        for source in line.split()[1:-1]
    ]
    assert {"pyproject.toml", "manage.py", "config", "games", "scoring"} <= set(copied)
    missing = [source for source in copied if not (COMPOSE.parent / source).exists()]
    assert not missing, f"the image copies paths the project does not have: {missing}"


def test_the_rate_limit_counters_live_in_the_redis_service(compose: dict[str, Any]) -> None:
    redis = compose["services"]["redis"]
    assert redis["image"].startswith("redis:")
    assert "redis-cli" in " ".join(redis["healthcheck"]["test"])
    assert compose["services"]["web"]["environment"]["REDIS_URL"].startswith("redis://redis:")


def test_the_web_s_start_leaves_the_workers_figures_in_the_shared_folder(
    compose: dict[str, Any], tmp_path: Path
) -> None:
    """The web and worker containers share the metrics volume: the web container's start
    removes its own processes' files (named by its host name), never a running worker's."""
    script = compose["services"]["web"]["command"][-1]
    (step,) = [part for part in script.split(" && ") if part.startswith("find /app/metrics")]
    step = step.replace("/app/metrics", str(tmp_path)).replace("$$", "$")
    own = tmp_path / f"counter_{socket.gethostname()}-7.db"
    worker = tmp_path / "counter_worker1-1.db"
    for path in (own, worker):
        path.write_bytes(b"")
    subprocess.run(["sh", "-c", step], check=True)
    assert not own.exists() and worker.exists()
