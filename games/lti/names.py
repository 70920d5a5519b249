"""A learner's name in their classroom: the platform's, kept distinct from the names the
classroom has (games.names.name_key): two learners called "Ann" are "Ann" and "Ann (2)"."""

import uuid
from typing import Any

from games.lti.claims import person_name
from games.models import Student
from games.names import name_key

MOST = 50  # a student's name column
TRIES = 50


def learner_name(*, classroom_id: uuid.UUID, claims: dict[str, Any]) -> tuple[str, str]:
    """A name (and its key) no student of the classroom has: the platform's name, or
    "Student", followed by " (2)", " (3)"... where taken."""
    base = person_name(claims) or "Student"
    names = [base] + [
        f"{base[: MOST - len(f' ({n})')].rstrip()} ({n})" for n in range(2, TRIES + 2)
    ]
    keys = {name_key(n): n for n in names}
    taken = set(
        Student.objects.filter(classroom_id=classroom_id, name_key__in=list(keys)).values_list(
            "name_key", flat=True
        )
    )
    for name in names:
        if name_key(name) not in taken:
            return name, name_key(name)
    suffix = uuid.uuid4().hex[:6]
    name = f"{base[: MOST - 9].rstrip()} ({suffix})"
    return name, name_key(name)
