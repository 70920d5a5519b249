"""Problem documents for the refusals that Django and WhiteNoise send with no body at all.

The API's views, Django's error handlers (``handler404``...) and DRF's exception handler all
answer problem documents. What remains are bodiless refusals made below them: a 405 from any
plain Django view (``View.http_method_not_allowed``, ``require_http_methods``: the admin's
pages, the root redirect) and WhiteNoise's 405 for a static file (it answers before Django's
URLs are consulted). This middleware, first in the stack so that it sees them all, gives
such an answer a problem document of its status, keeping its headers (``Allow``...). Answers
with a body (an HTML page Django renders for a person on the admin, such as the CSRF
failure page) are left as they are.
"""

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils.translation import gettext

from games.http.codes import Code, HttpCode
from games.http.problems import PROBLEM, problem, title_of_status
from games.play.errors import ServiceCode
from scoring import ProblemCode

CODE_OF_STATUS: dict[int, Code] = {
    400: ProblemCode.INVALID,
    403: HttpCode.FORBIDDEN,
    404: ServiceCode.NOT_FOUND,
    405: HttpCode.METHOD_NOT_ALLOWED,
    406: HttpCode.NOT_ACCEPTABLE,
    413: HttpCode.REQUEST_TOO_LARGE,
    415: HttpCode.UNSUPPORTED_MEDIA_TYPE,
    416: HttpCode.RANGE_NOT_SATISFIABLE,
}
KEPT = {"content-type", "content-length"}  # the problem's own


class ProblemMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        return self._answer(request, self.get_response(request))

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        return self._answer(request, await self.get_response(request))

    @staticmethod
    def _answer(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if response.status_code < 400 or not _bodiless(response):
            return response
        return problem_for(request, response)


def _bodiless(response: HttpResponseBase) -> bool:
    if isinstance(response, FileResponse):  # WhiteNoise's refusals carry no file
        return getattr(response, "file_to_stream", None) is None
    if isinstance(response, HttpResponse):
        return not response.content
    return False  # a stream: its body is still to come


def problem_for(request: HttpRequest, response: HttpResponseBase) -> JsonResponse:
    status = response.status_code
    fallback = ServiceCode.SERVER_ERROR if status >= 500 else ProblemCode.INVALID
    code = CODE_OF_STATUS.get(status, fallback)
    title = gettext(title_of_status(status))
    detail = title
    if status == 405:
        detail = gettext('method "{method}" not allowed on {path}').format(
            method=request.method, path=request.path
        )
    body = problem(code, detail) | {"status": status, "title": title}
    answer = JsonResponse(body, status=status, content_type=PROBLEM)
    for name, value in response.items():
        if name.lower() not in KEPT:
            answer[name] = value
    return answer
