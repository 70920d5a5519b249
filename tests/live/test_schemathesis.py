"""Schemathesis against the running service: no server error, every answer as the schema says.

All four phases run: the schema's examples, the coverage of each parameter's edges, random
fuzzing (at most 100 cases per operation; an operation whose inputs are few may need fewer)
and stateful sequences that follow the schema's links and those inferred between operations
(create a game, then read it, join it, or start and leave it with the token of its first
seat). Nothing adjusts the generated requests: a request the schema calls valid is sent as
it is, and must not be refused as malformed. The seed is fixed, so a run is repeatable: the
command to repeat it by hand is printed on failure, with the whole report.
"""

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import LiveService

pytestmark = pytest.mark.live

HERE = Path(__file__).resolve().parent
PHASES = ("examples", "coverage", "fuzzing", "stateful")
CHECKS = ("all",)
SEED = 20261121
MAX_EXAMPLES = 100


def test_the_api_answers_every_generated_request_as_its_schema_says(
    live_service: LiveService, tmp_path: Path
) -> None:
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        "--config-file", str(HERE / "schemathesis.toml"),  # read timeouts, expected statuses
        "run", f"{live_service.url}/api/v1/schema/",
        "--phases", ",".join(PHASES),
        "--checks", ",".join(CHECKS),
        "--seed", str(SEED),
        "--max-examples", str(MAX_EXAMPLES),
        "--generation-database", "none",
        "--request-timeout", "30",
        "--output-truncate", "false",
        "--output-sanitize", "false",
        "--no-color",
        # A fresh connection per request: no request waits on another's kept-alive socket.
        "--header", "Connection: close",
    ]
    run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=900)
    report = f"$ {shlex.join(command)}\n{run.stdout}\n{run.stderr}"
    print(report)  # pytest shows it on failure (and with -rP)
    if run.returncode != 0:
        print(f"-- the server's last lines --\n{live_service.log_tail()}")
        pytest.fail(f"schemathesis exited {run.returncode}: {failures(run.stdout)}", pytrace=False)
    for phase in PHASES:
        assert f"✅ {phase.capitalize()}" in run.stdout, f"the {phase} phase did not pass"


def failures(output: str) -> str:
    """The report's one-line-per-kind list of failures, for pytest's short summary."""
    lines = output.splitlines()
    if "Failures:" not in lines:
        return "see the report printed above"
    listed = []
    for line in lines[lines.index("Failures:") + 1:]:
        if not line.strip():
            break
        listed.append(line.strip())
    return "; ".join(listed)
