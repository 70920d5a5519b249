"""The admin, for reviewing games (``games``), classrooms (``classrooms``), assignments
(``assignments``) and webhooks with their deliveries (``webhooks``): Django's autodiscovery
imports this package, which registers them."""

from games.admin import assignments, classrooms, games, lti, webhooks  # noqa: F401  (registers)
