"""What each student's grade for an assignment is, out of 100, by the assignment's grade
mode, from its results (``games.classrooms.results``):

- ``accuracy``: the student's mean accuracy over their finished games (already 0-100);
- ``completion``: their games finished, as a share of the assignment's games, x100;
- ``rank``: 100 x (1 - (rank - 1) / n), n the students ranked (those with a finished game).

A student who finished no game gets 0 whatever the mode. A student's activity is
``Completed`` when they finished every game of the assignment, else ``InProgress``.
"""

import uuid
from dataclasses import dataclass

from games.classrooms.results import StudentResult, assignment_results
from games.models import Assignment, Game
from games.play.analysis import analysable
from scoring.match import GameStatus

SCORE_MAXIMUM = 100


@dataclass(frozen=True)
class Grade:
    score: float
    completed: bool
    comment: str


def grade_default(ruleset_id: str) -> str:
    """An assignment's grade mode when its teacher names none: ``accuracy`` where analysis
    covers the ruleset, else ``completion``."""
    return "accuracy" if analysable(ruleset_id) else "completion"


def grades_of(*, assignment: Assignment) -> dict[uuid.UUID, Grade]:
    """Every student of the assignment's classroom: their grade. Two queries."""
    results = assignment_results(assignment=assignment)
    ranked = sum(1 for row in results if row.rank is not None)
    return {row.student_id: _grade(assignment, row, ranked) for row in results}


def _grade(assignment: Assignment, row: StudentResult, ranked: int) -> Grade:
    finished = row.games_finished
    if finished == 0:
        score = 0.0
    elif assignment.grade == "completion":
        score = SCORE_MAXIMUM * finished / assignment.games
    elif assignment.grade == "rank" and row.rank is not None:
        score = SCORE_MAXIMUM * (1 - (row.rank - 1) / ranked)
    else:
        score = row.mean_accuracy or 0.0
    score = round(min(max(score, 0.0), SCORE_MAXIMUM), 2)
    if row.mean_score is None:
        comment = f"No game finished (0 of {assignment.games})."
    else:
        comment = (
            f"Mean score {row.mean_score:g} over {finished} of {assignment.games} games "
            "finished."
        )
    return Grade(score=score, completed=finished >= assignment.games, comment=comment)


def figures_pending(*, assignment: Assignment) -> bool:
    """Whether a finished game of the assignment still waits for its accuracy to be kept
    (a worker keeps it within seconds of the game's end)."""
    return Game.objects.filter(
        assignment=assignment, status=GameStatus.FINISHED, figures_kept=False
    ).exists()
