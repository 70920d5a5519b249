"""The seam between classrooms and game analysis: how accurately students played.

The classroom roster shows, per student and ruleset, the mean ``accuracy`` of the
student's finished games where analysis exists (Yahtzee, Yatzy, Forced Yatzy: see the
analysis endpoint). This module is the one place the roster asks for it. A student's seat
in a game is the game's first person seat (the one the student's key created). The
figures come from :func:`games.play.analysis.seat_accuracies`, which keeps each finished game's
accuracies in the cache: the roster costs two queries at most, however many games.
"""

import uuid
from collections import defaultdict
from collections.abc import Iterable
from statistics import fmean

from django.db.models import Min, Q

from games.models import Game
from games.play.analysis import analysable, seat_accuracies
from scoring.match import GameStatus


def mean_accuracies(
    *, classroom_id: uuid.UUID, pairs: Iterable[tuple[uuid.UUID, str]]
) -> dict[tuple[uuid.UUID, str], float | None]:
    """The mean accuracy of each (student, ruleset) pair, to two decimals; ``None`` where
    no finished game of the pair has an analysis."""
    wanted = list(pairs)
    students = {student for student, ruleset in wanted if analysable(ruleset)}
    games = list(
        Game.objects.filter(
            classroom_id=classroom_id, student_id__in=students, status=GameStatus.FINISHED
        )
        .only("id", "ruleset", "options", "status", "last_seq", "student_id")
        .annotate(student_seat=Min("players__seat", filter=Q(players__computer__isnull=True)))
    )
    accuracies = seat_accuracies(games=games)
    found: dict[tuple[uuid.UUID, str], list[float]] = defaultdict(list)
    for game in games:
        accuracy = accuracies.get((game.pk, game.student_seat))
        if accuracy is not None:
            found[(game.student_id, game.ruleset)].append(accuracy)
    return {pair: round(fmean(found[pair]), 2) if found.get(pair) else None for pair in wanted}
