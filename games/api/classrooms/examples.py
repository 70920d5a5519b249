"""The examples the schema shows on the classroom's paths, and the refusals every
teacher's path documents."""

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from games.api.schema import docs
from games.http.codes import HttpCode
from games.http.problems import problem
from games.play.errors import ServiceCode

CLASSROOM_ID = "6a1f0f6e-2b4c-4d8e-9f10-1a2b3c4d5e6f"
STUDENT_ID = "0b5e7d3c-91a2-4f6b-8c3d-2e1f0a9b8c7d"
TEACHER_KEY = "dk_Ab3dEf7hJk_v0XbH3kQ9mR2tY5wZ8cF1gJ4nP7sU0xA3dG6jL9oR2uX5"
STUDENT_KEY = "dk_Qr8sTu2vWx_Zy1Xw2Vu3Ts4Rq5Po6Nm7Lk8Ji9Hg0Fe1Dc2Ba3Zy4Xw5V"
QUOTA = {"games_per_hour": 6000, "advice_per_hour": 10000, "computer_moves_per_hour": 600000}
CREATED_EXAMPLE = OpenApiExample(
    "A new classroom",
    response_only=True,
    status_codes=["201"],
    value={
        "id": CLASSROOM_ID,
        "name": "5B",
        "join_code": "K7QXM2PD",
        "joining": "open",
        "teacher_key": TEACHER_KEY,
        "quota": QUOTA,
        "created_at": "2026-11-23T08:00:00Z",
    },
)


ROSTER_EXAMPLE = OpenApiExample(
    "A classroom with one student",
    response_only=True,
    value={
        "id": CLASSROOM_ID,
        "name": "5B",
        "join_code": "K7QXM2PD",
        "joining": "open",
        "quota": QUOTA,
        "created_at": "2026-11-23T08:00:00Z",
        "lti_course": None,
        "students": [
            {
                "id": STUDENT_ID,
                "name": "Ann",
                "joined_at": "2026-11-23T08:05:00Z",
                "games_started": 4,
                "games_finished": 3,
                "rulesets": {
                    "yahtzee": {
                        "games_finished": 3,
                        "mean": 221.33333333333334,
                        "best": 254,
                        "mean_accuracy": None,
                    }
                },
                "source": "join",
                "active": True,
            }
        ],
    },
)


WRONG_KEY_EXAMPLE = OpenApiExample(
    "A wrong or revoked key",
    response_only=True,
    status_codes=["401"],
    value=problem(ServiceCode.INVALID_API_KEY, "this API key is not valid (wrong or revoked)"),
)


FORBIDDEN_EXAMPLE = OpenApiExample(
    "A student's key on a teacher's path",
    response_only=True,
    status_codes=["403"],
    value=problem(HttpCode.FORBIDDEN, "only the classroom's teacher key may do this"),
)


TEACHER_ERRORS = {
    **docs.problems(404, 429),
    (401, "application/problem+json"): OpenApiResponse(
        docs.ProblemOut,
        description="No `X-API-Key` (`not_authenticated`), or a wrong or revoked one "
        "(`invalid_api_key`).",
    ),
    (403, "application/problem+json"): OpenApiResponse(
        docs.ProblemOut,
        description="A student's key, or another classroom's teacher key (`forbidden`).",
    ),
}


TEACHER_EXAMPLES = [WRONG_KEY_EXAMPLE, FORBIDDEN_EXAMPLE]
