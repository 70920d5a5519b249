"""The games an assignment keeps private until its deadline (``games.play.privacy``), as
every path that shows a game applies it: who is asking, from the request. A read changes
nothing: an assignment game read after its deadline shows as it is until a worker's closing
has run (within seconds)."""

from typing import Any

from django.http import HttpRequest
from rest_framework.request import Request

from games.play.privacy import Private, Viewer, require_visible

# The columns the check reads, for the paths that read a game's row in part.
COLUMNS = ("due_at", "student_id", "classroom_id")


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


def check(request: Request | HttpRequest, game_id: Any, columns: dict[str, Any]) -> None:
    """``not_found`` for a private game the caller may not see."""
    require_visible(
        Private(game_id, columns["due_at"], columns["student_id"], columns["classroom_id"]),
        viewer_of(request),
    )


def columns_of(game: Any) -> dict[str, Any]:
    return {name: getattr(game, name) for name in COLUMNS}
