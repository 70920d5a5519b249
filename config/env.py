"""Reading settings from the environment, with clear failures for bad values."""

import contextlib
import os
import secrets
import tempfile
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """One of ``choices`` (a switch with more than two positions: SERVER_BRIDGE, say)."""
    value = os.environ.get(name, default).strip().lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return value


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {value}")
    return value


def secret_key_from_file(path: Path) -> str:
    """The key kept in ``path``; made (random, 50 bytes) the first time, by one process.

    The new key is written to a file of its own and linked into place, so a process
    starting at the same moment either links first or reads the complete key.
    """
    try:
        return _read_key(path)
    except FileNotFoundError:
        pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".secret-key-")
        try:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_urlsafe(50))
            with contextlib.suppress(FileExistsError):
                os.link(temporary, path)
        finally:
            os.unlink(temporary)
        return _read_key(path)
    except OSError as error:
        raise ImproperlyConfigured(
            f"SECRET_KEY is not set and {path} cannot be written ({error}): set SECRET_KEY "
            "or SECRET_KEY_FILE"
        ) from None


def _read_key(path: Path) -> str:
    key = path.read_text().strip()
    if len(key) < 50:
        raise ImproperlyConfigured(f"{path} holds no usable key: delete it or set SECRET_KEY")
    return key


def proxy_ssl_header(name: str) -> tuple[str, str] | None:
    """``X-Forwarded-Proto: https`` as Django's ``("HTTP_X_FORWARDED_PROTO", "https")``."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    header, _, value = raw.partition(":")
    if not header.strip() or not value.strip():
        raise ImproperlyConfigured(f"{name} must read '<Header-Name>: <value>', not {raw!r}")
    return "HTTP_" + header.strip().upper().replace("-", "_"), value.strip()
