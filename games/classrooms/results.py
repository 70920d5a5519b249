"""An assignment's results: every student of its classroom, their games of it and how well
they played them, ranked. Two queries, however many students and games: each game's score
and accuracy are those its seat row keeps (the accuracy stored by ``games.classrooms.figures``
once the game finished), so nothing is analysed again here."""

import uuid
from collections import defaultdict
from dataclasses import dataclass
from statistics import fmean

from games.models import Assignment, Player, Student
from scoring.match import GameStatus


@dataclass(frozen=True)
class StudentResult:
    student_id: uuid.UUID
    name: str
    games_started: int
    games_finished: int
    mean_score: float | None
    best_score: int | None
    mean_accuracy: float | None
    rank: int | None


def assignment_results(*, assignment: Assignment) -> list[StudentResult]:
    """Every student of the classroom, ranked by the mean final score of their finished
    games of the assignment (equal means share a rank: 1, 2, 2, 4); students with no
    finished game come last, unranked, by name. The mean accuracy is that of the finished
    games whose accuracy is kept (the rulesets with an analysis, once analysed)."""
    students = list(
        Student.objects.filter(classroom_id=assignment.classroom_id).only("id", "name")
    )
    # An assignment's game has one seat: the student's.
    seats = Player.objects.filter(game__assignment=assignment, seat=0).values_list(
        "game__student_id", "game__status", "total", "accuracy"
    )
    started: dict[uuid.UUID, int] = defaultdict(int)
    scores: dict[uuid.UUID, list[int]] = defaultdict(list)
    accuracy: dict[uuid.UUID, list[float]] = defaultdict(list)
    for student_id, status, total, kept in seats:
        started[student_id] += 1
        if status == GameStatus.FINISHED:
            scores[student_id].append(total)
            if kept is not None:
                accuracy[student_id].append(kept)
    rows = [
        StudentResult(
            student_id=student.id,
            name=student.name,
            games_started=started[student.id],
            games_finished=len(scores[student.id]),
            mean_score=round(fmean(scores[student.id]), 2) if scores[student.id] else None,
            best_score=max(scores[student.id]) if scores[student.id] else None,
            mean_accuracy=(
                round(fmean(accuracy[student.id]), 2) if accuracy[student.id] else None
            ),
            rank=None,
        )
        for student in students
    ]
    return _ranked(rows)


def _ranked(rows: list[StudentResult]) -> list[StudentResult]:
    scored = sorted(
        ((row.mean_score, row) for row in rows if row.mean_score is not None),
        key=lambda pair: (-pair[0], pair[1].name.casefold()),
    )
    ranked: list[StudentResult] = []
    for position, (_, row) in enumerate(scored, start=1):
        same = ranked and ranked[-1].mean_score == row.mean_score
        rank = ranked[-1].rank if same else position
        ranked.append(StudentResult(**{**vars(row), "rank": rank}))
    unranked = sorted(
        (row for row in rows if row.mean_score is None), key=lambda row: row.name.casefold()
    )
    return ranked + unranked
