"""The admin, for reviewing games (``games``), classrooms (``classrooms``), assignments
(``assignments``), bots and tournaments (``arena``), webhooks with their deliveries
(``webhooks``) and the grades sent to learning platforms (``lti_grades``): Django's
autodiscovery imports this package, which registers them."""

from games.admin import (  # noqa: F401  (registers)
    arena,
    assignments,
    classrooms,
    games,
    lti,
    lti_grades,
    webhooks,
)
