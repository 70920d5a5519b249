"""An assignment's results: every student of its classroom, their games of it and how well
they played them, ranked. A fixed number of queries, however many students and games."""

import uuid
from collections import defaultdict
from dataclasses import dataclass
from statistics import fmean

from django.db.models import Max

from games.models import Assignment, Game, Student
from games.play.analysis import seat_accuracies
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
    games whose ruleset has an analysis. Two queries, and one more for the logs of finished
    games whose accuracy is not cached yet."""
    students = list(Student.objects.filter(classroom_id=assignment.classroom_id))
    games = list(
        Game.objects.filter(assignment=assignment)
        .only("id", "ruleset", "options", "status", "last_seq", "student_id")
        .annotate(score=Max("players__total"))
    )
    accuracies = seat_accuracies(games=games)
    started: dict[uuid.UUID, int] = defaultdict(int)
    scores: dict[uuid.UUID, list[int]] = defaultdict(list)
    accuracy: dict[uuid.UUID, list[float]] = defaultdict(list)
    for game in games:
        started[game.student_id] += 1
        if game.status == GameStatus.FINISHED:
            scores[game.student_id].append(game.score)
            if (game.pk, 0) in accuracies:
                accuracy[game.student_id].append(accuracies[(game.pk, 0)])
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
        (row for row in rows if row.mean_score is not None),
        key=lambda row: (-row.mean_score, row.name.casefold()),  # type: ignore[operator]
    )
    ranked: list[StudentResult] = []
    for position, row in enumerate(scored, start=1):
        same = ranked and ranked[-1].mean_score == row.mean_score
        rank = ranked[-1].rank if same else position
        ranked.append(StudentResult(**{**vars(row), "rank": rank}))
    unranked = sorted(
        (row for row in rows if row.mean_score is None), key=lambda row: row.name.casefold()
    )
    return ranked + unranked
