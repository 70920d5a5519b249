"""The seam between classrooms and game analysis: how accurately students played.

The classroom roster shows, per student and ruleset, the mean ``accuracy`` of the
student's finished games, where analysis exists (see the analysis endpoint). This module
is the one place the roster asks for it. Until analysis is stored for games, no figure
exists and every value is ``None`` (the roster then shows ``"mean_accuracy": null``).

To fill it: answer, in a fixed number of queries, the mean accuracy of each
``(student_id, ruleset)`` pair over that student's finished games of that ruleset that have
an analysis (leave ``None`` where none has).
"""

import uuid
from collections.abc import Iterable


def mean_accuracies(
    *, classroom_id: uuid.UUID, pairs: Iterable[tuple[uuid.UUID, str]]
) -> dict[tuple[uuid.UUID, str], float | None]:
    """The mean accuracy of each (student, ruleset) pair; ``None`` where none is known."""
    return dict.fromkeys(pairs)
