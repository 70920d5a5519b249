"""Which server runs the service fastest here: the same app (``config.asgi``), the same
database and Redis, two worker processes each, played by the same clients in alternating
rounds, so that a machine whose load drifts weighs on every server alike.

    .venv/bin/python -m tests.bench.servers [--rounds 3] [--seconds 20] [--clients 8]

Servers compared: gunicorn with uvicorn's workers (what ``docker-compose.yml`` runs), uvicorn
with two workers of its own, and Granian (ASGI interface, where it is installed: ``pip
install granian``). For each: moves/s, the p95 of a roll, and the server's processor time
per move (its processes' user and system time over the moves they answered). Needs the
``bench`` extras (Locust) and PostgreSQL (``--postgres``).
"""

import argparse
import os
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.util import find_spec
from pathlib import Path

from tests.bench import sides
from tests.bench.run import ROOT, SERVERS, WARM_UP, free_port, locust, play
from tests.databases import postgres_database
from tests.processes import stop


def commands(port: int) -> dict[str, list[str]]:
    bind = ["--host", "127.0.0.1", "--port", str(port)]
    found = {
        "gunicorn + uvicorn workers (compose)": [
            sys.executable, "-m", "gunicorn", "config.asgi:application", "--worker-class",
            "games.serving.worker.Worker", "--bind", f"127.0.0.1:{port}", "--workers", "2",
            "--config", "python:config.gunicorn",
        ],
        "uvicorn, 2 workers": [
            sys.executable, "-m", "uvicorn", "config.asgi:application", *bind, "--workers", "2",
            "--lifespan", "off", "--no-proxy-headers",
        ],
    }
    if find_spec("granian") is not None:
        found["granian (ASGI), 2 workers"] = [
            sys.executable, "-m", "granian", "--interface", "asgi", "--workers", "2",
            "--loop", "uvloop", *bind, "config.asgi:application",
        ]
    return found


@contextmanager
def serving(
    command: list[str], env: dict[str, str], port: int, log: Path, cwd: Path = ROOT
) -> Iterator[str]:
    url = f"http://127.0.0.1:{port}"
    with log.open("ab") as output:
        server = subprocess.Popen(command, cwd=cwd, env=env, stdout=output,
                                  stderr=subprocess.STDOUT)
        try:
            sides.wait_for(f"{url}/api/v1/health/", server, log)
            SERVERS[url] = server.pid
            yield url
        finally:
            SERVERS.pop(url, None)
            stop(server, grace=10)


def database_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--postgres", default=os.environ.get(
        "BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432/postgres"))
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL",
                                                          "redis://127.0.0.1:6379/0"))


def migrated_env(database: str, redis: str, folder: Path) -> dict[str, str]:
    """The servers' settings, as compose's (the limit on creating games far above the load),
    on ``database``, which this migrates."""
    env = {
        **os.environ, "DATABASE_URL": database, "REDIS_URL": redis, "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(40), "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "THROTTLE_CREATE": "1000000/second", "STATIC_ROOT": str(folder / "static"),
        "PROMETHEUS_MULTIPROC_DIR": str(folder), "SECURE_SSL_REDIRECT": "false",
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT,
                   env=env, check=True, stdout=subprocess.DEVNULL)
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--clients", type=int, default=8)
    database_options(parser)
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    results: dict[str, list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="dice-servers-") as tmp, \
            postgres_database(args.postgres, prefix="dice_servers") as db:
        folder = Path(tmp)
        env = migrated_env(db, args.redis, folder)
        for round_ in range(args.rounds):
            port = free_port()
            for name, command in commands(port).items():
                with serving(command, env, port, folder / "servers.log") as url:
                    locust(url, "Player", args.clients, WARM_UP, folder)
                    results.setdefault(name, []).append(play(
                        url, args.clients, args.seconds, folder, f"round {round_ + 1}: {name}"
                    ))
    print("\n| server | moves/s (rounds) | roll p95 ms | server CPU ms a move |\n|---|---|---|---|")
    for name, runs in results.items():
        rates = ", ".join(f"{run['moves']:.0f}" for run in runs)
        mean = sum(run["moves"] for run in runs) / len(runs)
        cpu = sum(run["cpu_ms"] for run in runs) / len(runs)
        p95 = sum(run["roll_p95"] for run in runs) / len(runs)
        print(f"| {name} | {mean:.0f} ({rates}) | {p95:.0f} | {cpu:.2f} |")
    print(f"rerun: .venv/bin/python -m tests.bench.servers {' '.join(sys.argv[1:])}")


if __name__ == "__main__":
    main()
