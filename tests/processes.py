"""Servers the tests and the load benchmark start as subprocesses."""

import subprocess


def stop(server: subprocess.Popen[bytes], *, grace: float = 15) -> None:
    """Ask the server to stop (SIGTERM), and kill it if it has not within ``grace`` seconds."""
    server.terminate()
    try:
        server.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
