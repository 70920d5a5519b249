"""A classroom's answers: the classroom opened, a student joined, the roster, the
students' games and high scores, a student's key, who a key is."""

from typing import Annotated, Any, NotRequired, TypedDict

from games.api.games.bodies import GameBody
from games.api.leaderboard.bodies import render_entry
from games.api.schema.shapes import Bounds, Choice, DateTime, Url, Uuid, iso_time, serializer_for
from games.classrooms import services as service
from games.classrooms.quotas import quota_of
from games.models import Classroom, Student


class QuotaBody(TypedDict):
    games_per_hour: Annotated[int, "Games each key may create (or seats it may join) per hour."]
    advice_per_hour: Annotated[int, "Hints and advice each key may ask per hour."]
    computer_moves_per_hour: Annotated[
        int, "Computer seats' moves, weighted by cost, each key's requests may play per hour."
    ]


JoiningShown = Annotated[
    str,
    Choice([c.value for c in Classroom.Joining]),
    "`open`: students may join with the code; `closed`: joins are refused.",
]


class ClassroomCreatedBody(TypedDict):
    id: Uuid
    name: str
    join_code: Annotated[str, "Hand it to the students: they join with it."]
    joining: JoiningShown
    teacher_key: Annotated[
        str, "Send it as `X-API-Key` on the teacher's paths. Shown only here: keep it."
    ]
    quota: QuotaBody
    created_at: DateTime


class RefBody(TypedDict):
    id: Uuid
    name: str


class JoinedBody(TypedDict):
    classroom: RefBody
    student: RefBody
    api_key: Annotated[str, "The student's own key: send it as `X-API-Key`. Shown only here."]


class RulesetFiguresBody(TypedDict):
    games_finished: int
    mean: Annotated[float, "The mean final total of the student's seat."]
    best: Annotated[int, "The best final total of the student's seat."]
    mean_accuracy: Annotated[
        float | None,
        "The mean accuracy (see the analysis endpoint) of those games that have an "
        "analysis; null when none has.",
    ]


class RosterStudentBody(TypedDict):
    id: Uuid
    name: str
    joined_at: DateTime
    games_started: Annotated[int, "Games created with the student's key."]
    games_finished: int
    rulesets: Annotated[
        dict[str, RulesetFiguresBody],
        "Per ruleset id, figures over the student's finished games of it.",
    ]
    source: Annotated[
        str, Choice(["lti", "join"]), "`lti`: a learner of the learning platform's course "
        "this classroom was made for (by a launch or a roster sync); `join`: joined with the "
        "code."
    ]
    active: Annotated[
        bool, "False for a platform learner gone from the course or inactive there (as the "
        "last roster sync found); a student who joined with the code is always active."
    ]


class ClassroomBody(TypedDict):
    id: Uuid
    name: str
    join_code: str
    joining: JoiningShown
    quota: QuotaBody
    created_at: DateTime
    lti_course: Annotated[
        str | None, "The title of the learning platform's course this classroom was made "
        "for; null for a classroom opened here."
    ]
    students: list[RosterStudentBody]


class GamesPageBody(TypedDict):
    count: Annotated[int, "Games that match, on every page."]
    next: Url | None
    previous: Url | None
    results: list[GameBody]


class ClassEntryBody(TypedDict):
    rank: Annotated[int, Bounds(1)]
    name: Annotated[str, "The student's name."]
    score: int
    game: Uuid
    finished_at: DateTime
    ranked: Annotated[bool, "False for a seeded game (reproducible dice)."]


class StudentKeyBody(TypedDict):
    student: RefBody
    revoked: Annotated[bool, "True: every key the student held stops working at once."]
    api_key: NotRequired[
        Annotated[str, "After `rotate`: the student's new key, shown only here."]
    ]


class JoinCodeBody(TypedDict):
    join_code: Annotated[str, "The classroom's new code; the old one no longer works."]


class KeyOwnerBody(TypedDict):
    """Who an API key belongs to: how a page that was given only a key finds its classroom."""

    role: Annotated[str, Choice(["teacher", "student"])]
    classroom: RefBody
    student: Annotated[RefBody | None, "The student, for a student's key; null for a teacher."]


ClassroomCreatedOut = serializer_for(ClassroomCreatedBody)
KeyOwnerOut = serializer_for(KeyOwnerBody)
JoinedOut = serializer_for(JoinedBody)
ClassroomOut = serializer_for(ClassroomBody)
GamesPageOut = serializer_for(GamesPageBody)
ClassEntryOut = serializer_for(ClassEntryBody)
StudentKeyOut = serializer_for(StudentKeyBody)
JoinCodeOut = serializer_for(JoinCodeBody)


def render_quota(classroom: Classroom) -> QuotaBody:
    quota = quota_of(classroom)
    return {
        "games_per_hour": quota["games_per_hour"],
        "advice_per_hour": quota["advice_per_hour"],
        "computer_moves_per_hour": quota["computer_moves_per_hour"],
    }


def render_ref(named: Classroom | Student) -> RefBody:
    return {"id": str(named.id), "name": named.name}


def render_created(opened: service.Opened) -> ClassroomCreatedBody:
    classroom = opened.classroom
    return {
        "id": str(classroom.id),
        "name": classroom.name,
        "join_code": classroom.join_code,
        "joining": classroom.joining,
        "teacher_key": opened.teacher_key,
        "quota": render_quota(classroom),
        "created_at": iso_time(classroom.created_at),
    }


def render_classroom(
    classroom: Classroom, students: list[dict[str, Any]], lti_course: str | None = None
) -> ClassroomBody:
    """The classroom with its roster (as ``classroom_roster`` gives it)."""
    return {
        "id": str(classroom.id),
        "name": classroom.name,
        "join_code": classroom.join_code,
        "joining": classroom.joining,
        "quota": render_quota(classroom),
        "created_at": iso_time(classroom.created_at),
        "lti_course": lti_course,
        "students": [
            {
                "id": str(student["id"]),
                "name": student["name"],
                "joined_at": iso_time(student["joined_at"]),
                "games_started": student["games_started"],
                "games_finished": student["games_finished"],
                "rulesets": student["rulesets"],
                "source": student["source"],
                "active": student["active"],
            }
            for student in students
        ],
    }


def render_class_entry(entry: service.ClassEntry) -> ClassEntryBody:
    return {**render_entry(entry), "ranked": entry.ranked}
