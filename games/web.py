"""The service's own web client (``/play/``): one page; the game id is in its address.

The page is plain ES modules and CSS from ``games/static/play/``, served by WhiteNoise; it
talks to the public API only, as any other frontend does.
"""

from django.views.decorators.http import require_safe
from django.views.generic import TemplateView

play = require_safe(TemplateView.as_view(template_name="play/index.html"))
