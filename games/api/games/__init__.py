"""Games: create, list and read them, move in them, follow their log (also as a live
stream), ask for a hint or an analysis.

Beside the three parts of every resource: ``moves`` (the moves' views, a part of
``views.GameViewSet``), ``conditional`` (``ETag``, ``If-Match``, ``If-None-Match`` and
``Idempotency-Key``), ``advice_bodies`` (the hint's and the analysis' answers), ``filters``
(the list's filters and pages, which the classrooms' list shares) and ``stream`` (the live
log, a plain Django view)."""
