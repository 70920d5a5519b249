"""API keys: random, shown once, stored as a digest, checked in constant time.

A key reads ``dk_<prefix>_<secret>``. The prefix (public, 10 characters) finds the row;
the SHA-256 digest of the whole key is then compared with ``hmac.compare_digest``. An
unknown prefix is compared against a dummy digest, so a wrong key costs the same time
whether or not its prefix exists. Keys hold 256 random bits: a fast digest suffices (no
one can guess such a key, so there is nothing for a slow hash to slow down).
"""

import hashlib
import hmac
import re
import secrets
import uuid
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext_noop

from games.arena import owners
from games.models import ApiKey, Classroom, Student
from games.play.errors import ServiceCode, ServiceError

KEY_RE = re.compile(r"^dk_([A-Za-z0-9]{10})_([A-Za-z0-9_-]{43})$")
PREFIX_ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
_DUMMY_DIGEST = hashlib.sha256(b"no key has this digest").hexdigest()


@dataclass(frozen=True)
class Caller:
    """Who a valid key says is calling."""

    key_id: int
    role: str
    classroom: Classroom
    student: Student | None

    @property
    def is_teacher(self) -> bool:
        return self.role == ApiKey.Role.TEACHER


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def key_issue(*, classroom_id: uuid.UUID, student_id: uuid.UUID | None = None) -> str:
    """A new key for the classroom's teacher (no student) or for a student; shown once."""
    prefix = "".join(secrets.choice(PREFIX_ALPHABET) for _ in range(10))
    key = f"dk_{prefix}_{secrets.token_urlsafe(32)}"
    ApiKey.objects.create(
        prefix=prefix,
        digest=digest(key),
        role=ApiKey.Role.STUDENT if student_id is not None else ApiKey.Role.TEACHER,
        classroom_id=classroom_id,
        student_id=student_id,
    )
    return key


def keys_revoke(*, student_id: uuid.UUID) -> int:
    """Every live key of the student stops working at once; its open streams (``GET
    /me/stream/``) are woken to end."""
    revoked = ApiKey.objects.filter(student_id=student_id, revoked_at__isnull=True)
    classroom_ids = set(revoked.values_list("classroom_id", flat=True))
    count = revoked.update(revoked_at=timezone.now())
    owners.tell(owners.Owner(classroom_id, student_id) for classroom_id in classroom_ids)
    return count


def caller_for_key(key: str) -> Caller:
    """The caller a key names; ``invalid_api_key`` if it is malformed, unknown or revoked."""
    match = KEY_RE.match(key)
    row = None
    if match is not None:
        row = (
            ApiKey.objects.select_related("classroom", "student")
            .filter(prefix=match.group(1))
            .first()
        )
    stored = row.digest if row is not None else _DUMMY_DIGEST
    same = hmac.compare_digest(stored, digest(key))
    if row is None or not same or row.revoked_at is not None:
        raise ServiceError(
            ServiceCode.INVALID_API_KEY,
            gettext_noop("this API key is not valid (wrong or revoked)"),
        )
    return Caller(key_id=row.id, role=row.role, classroom=row.classroom, student=row.student)


def caller_for_key_id(key_id: int) -> Caller | None:
    """The caller a key row names, for a browser session signed in as that key (a course
    launch from a learning platform, games.lti): None once the key is revoked."""
    row = (
        ApiKey.objects.select_related("classroom", "student")
        .filter(pk=key_id, revoked_at__isnull=True)
        .first()
    )
    if row is None:
        return None
    return Caller(key_id=row.id, role=row.role, classroom=row.classroom, student=row.student)
