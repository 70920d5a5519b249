"""Who may do what, as DRF permission classes: the teacher of a classroom, a student of it,
any key of it, whoever may see a game, and the service's operator.

The views name them in ``permission_classes``; the services then receive who is acting as
plain ids and keep only their own rules (a game's turns, an assignment's opening hours).
Each refusal names its problem code and detail (``code`` and ``message``, as DRF reads
them), and ``ProblemRefusals`` answers it as every other refusal is answered, through
``games.http.problems``: 401 for no key, 404 for a classroom or game that does not exist
(or that the caller may not know of), 403 for a key that may not act here.

A move's seat is not among them: the seat that moves is the one its token names among the
seats read under the game's lock, with the move (``games.play.services.game_play``), so a
seat that leaves or a game that ends meanwhile is seen, at no extra query.

A refused request reaches no service and changes nothing. A method the path does not
serve is left to its 405, and ``OPTIONS`` is let through: it describes the path, not the
classroom behind it.
"""

import hmac
import uuid
from typing import Any, NoReturn

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext_noop
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from games.classrooms.keys import Caller
from games.http.auth import caller_of
from games.http.codes import Code, HttpCode, Refused
from games.http.problems import problem_code
from games.models import Classroom
from games.play.errors import ServiceCode
from games.play.privacy import Private, Viewer, may_see
from games.tournaments import selectors as tournaments


class Refusing(BasePermission):
    """A permission that says why it refused: ``code`` and ``message`` of the last refusal
    (DRF makes one instance per request, so they are this request's)."""

    code: Code = HttpCode.FORBIDDEN
    message = gettext_noop("this request is not allowed")

    def refuse(self, code: Code, detail: str) -> bool:
        """False, keeping the refusal's code and detail for DRF to hand to the view."""
        self.code = code
        self.message = detail
        return False

    @staticmethod
    def applies(request: Request, view: APIView) -> bool:
        """Whether the request is one the view serves (not ``OPTIONS``, not a 405)."""
        method = (request.method or "").lower()
        return method != "options" and method in view.http_method_names and hasattr(view, method)


# The base of views with permissions: a refusal is answered as a problem with the
# permission's code (DRF's own would be its generic 401 or 403). A comment, not a docstring:
# the schema would show a base view's docstring as every path's description.
class ProblemRefusals(APIView):
    def permission_denied(
        self, request: Request, message: str | None = None, code: str | None = None
    ) -> NoReturn:
        # DRF hands over the refusing permission's ``code``: a ``Refusing`` one's, a member.
        problem = problem_code(code) if code else Refusing.code
        raise Refused(problem, str(message or Refusing.message))

    def require(self, request: Request, permission: Refusing) -> None:
        """Checks ``permission`` now, in the handler: for a view that checks something else
        first (a body, a rate limit), as it did before its roles were permissions."""
        if not permission.has_permission(request, self):
            self.permission_denied(request, permission.message, permission.code)


class ClassroomMember(Refusing):
    """A key of the classroom named by the path (``pk``): its teacher's or a student's."""

    no_key = gettext_noop("this path needs an X-API-Key of the classroom")
    other_key = gettext_noop("this key is not one of this classroom's")

    def has_permission(self, request: Request, view: APIView) -> bool:
        if not self.applies(request, view):
            return True
        caller = caller_of(request)
        if caller is None:
            return self.refuse(ServiceCode.NOT_AUTHENTICATED, self.no_key)
        classroom_id: uuid.UUID = view.kwargs["pk"]
        if caller.classroom.id != classroom_id:
            # Whether the classroom exists is told only to a key of some classroom.
            if not Classroom.objects.filter(pk=classroom_id).exists():
                return self.refuse(ServiceCode.NOT_FOUND, gettext_noop("no classroom with this id"))
            return self.refuse(HttpCode.FORBIDDEN, self.other_key)
        return self.has_role(caller)

    def has_role(self, caller: Caller) -> bool:
        return True


class TeacherOfClassroom(ClassroomMember):
    """The classroom's teacher key."""

    no_key = gettext_noop("this path needs the classroom's teacher key in X-API-Key")
    other_key = gettext_noop("this key is not the teacher key of this classroom")

    def has_role(self, caller: Caller) -> bool:
        if not caller.is_teacher:
            return self.refuse(
                HttpCode.FORBIDDEN, gettext_noop("only the classroom's teacher key may do this")
            )
        return True


class StudentOfClassroom(ClassroomMember):
    """A student's key of the classroom: what plays its assignments."""

    def has_role(self, caller: Caller) -> bool:
        if caller.student is None:
            return self.refuse(
                HttpCode.FORBIDDEN,
                gettext_noop("only a student of the classroom starts its games"),
            )
        return True


class SeesTournament(ClassroomMember):
    """A key of the classroom; or anyone, once the path's tournament (``tournament_id``) is
    over. Until then anyone else is told there is no such tournament."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if not self.applies(request, view):
            return True
        caller = caller_of(request)
        if caller is not None and caller.classroom.id == view.kwargs["pk"]:
            return True
        if tournaments.tournament_over(
            classroom_id=view.kwargs["pk"], tournament_id=view.kwargs["tournament_id"]
        ):
            return True
        return self.refuse(ServiceCode.NOT_FOUND, gettext_noop("no tournament with this id"))


class CancelsTournament(ClassroomMember):
    """The classroom's teacher, or the student whose scrimmage the path's tournament is."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        self.path = (view.kwargs.get("pk"), view.kwargs.get("tournament_id"))
        return super().has_permission(request, view)

    def has_role(self, caller: Caller) -> bool:
        if caller.is_teacher:
            return True
        assert caller.student is not None
        found = tournaments.set_by(classroom_id=self.path[0], tournament_id=self.path[1])
        if not found:
            return self.refuse(ServiceCode.NOT_FOUND, gettext_noop("no tournament with this id"))
        if found[0] == caller.student.id:
            return True
        return self.refuse(
            HttpCode.FORBIDDEN,
            gettext_noop("only the teacher, or the student whose scrimmage it is, cancels it"),
        )


class KeyHolder(Refusing):
    """Any valid ``X-API-Key``: what owns webhooks."""

    no_key = gettext_noop("webhooks belong to an API key: send X-API-Key")

    def has_permission(self, request: Request, view: APIView) -> bool:
        if not self.applies(request, view) or caller_of(request) is not None:
            return True
        return self.refuse(ServiceCode.NOT_AUTHENTICATED, self.no_key)


class AnyKey(KeyHolder):
    """Any valid ``X-API-Key``: what asks who the key is."""

    no_key = gettext_noop("send an API key in X-API-Key")


def viewer_of(request: Request | HttpRequest) -> Viewer:
    """Who asks to see a game: the student or the teacher its key names, and the seat
    token it carries (``Authorization: Bearer``)."""
    caller = caller_of(request)
    header = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, token = header.partition(" ")
    return Viewer(
        student_id=caller.student.id if caller is not None and caller.student else None,
        teacher_of=caller.classroom.id if caller is not None and caller.is_teacher else None,
        token=token.strip() if scheme.lower() == "bearer" else None,
        member_of=caller.classroom.id if caller is not None else None,
    )


class MaySeeGame(Refusing):
    """Any game, but a game of an assignment before its deadline only for its student,
    the classroom's teacher and its seat (``games.play.privacy``); anyone else is told
    there is no such game. An object permission: the view reads the game's columns
    (``PRIVACY_COLUMNS``) and checks them."""

    def has_object_permission(self, request: Request | HttpRequest, view: Any, obj: Any) -> bool:
        game: Private = obj
        if may_see(game, viewer_of(request)):
            return True
        return self.refuse(ServiceCode.NOT_FOUND, gettext_noop("no game with this id"))


def require_may_see(request: HttpRequest, game: Private) -> None:
    """``MaySeeGame`` for a plain Django view (the event stream): ``not_found`` if not."""
    check = MaySeeGame()
    if not check.has_object_permission(request, None, game):
        raise Refused(check.code, check.message)


class Operator(Refusing):
    """The service's operator: ``Authorization: Bearer <METRICS_TOKEN>``. Without the
    setting nobody is (the operator's paths then do not exist)."""

    def has_permission(self, request: Request | HttpRequest, view: Any) -> bool:
        token = settings.METRICS_TOKEN
        given = request.META.get("HTTP_AUTHORIZATION") or ""
        if token and hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            return True
        return self.refuse(
            ServiceCode.NOT_AUTHENTICATED, gettext_noop("send Authorization: Bearer <token>")
        )
