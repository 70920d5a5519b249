"""The games an assignment keeps private until its deadline (``games.play.privacy``), as
every path that shows a game applies it: who is asking, from the request; and an
assignment game read after its deadline has its assignment closed first, so that it shows
as the closing leaves it (abandoned if unfinished, its secret shown)."""

from typing import Any

from django.http import HttpRequest
from django.utils import timezone
from rest_framework.request import Request

from games.classrooms.assignments import assignment_close
from games.play.privacy import Private, Viewer, require_visible
from scoring.match import GameStatus

OPEN = (GameStatus.WAITING, GameStatus.ACTIVE)
# The columns the check reads, for the paths that read a game's row in part.
COLUMNS = ("due_at", "student_id", "classroom_id", "assignment_id", "status")


def viewer_of(request: Request | HttpRequest) -> Viewer:
    """Who the request's API key names (``games.http.api_keys``), and its seat token."""
    plain = getattr(request, "_request", request)
    caller = getattr(plain, "caller", None)
    header = plain.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, token = header.partition(" ")
    return Viewer(
        student_id=caller.student.id if caller is not None and caller.student else None,
        teacher_of=caller.classroom.id if caller is not None and caller.is_teacher else None,
        token=token.strip() if scheme.lower() == "bearer" else None,
    )


def check(request: Request | HttpRequest, game_id: Any, columns: dict[str, Any]) -> bool:
    """``not_found`` for a private game the caller may not see; answers whether the game's
    assignment was just closed (the caller then reads the game again)."""
    require_visible(
        Private(game_id, columns["due_at"], columns["student_id"], columns["classroom_id"]),
        viewer_of(request),
    )
    due_at, assignment_id = columns["due_at"], columns["assignment_id"]
    if due_at is None or assignment_id is None or columns["status"] not in OPEN:
        return False
    if timezone.now() < due_at:
        return False
    assignment_close(assignment_id=assignment_id)
    return True


def columns_of(game: Any) -> dict[str, Any]:
    return {name: getattr(game, name) for name in COLUMNS}
