"""The middleware of ``config/settings.py`` that wraps every request, API or not:
``request_metrics`` (counted and timed for ``/metrics``), ``problem_middleware`` (the bodiless
refusals of Django and WhiteNoise made problem documents) and ``admin_sessions`` (the admin's
session, user and message middleware passed by under ``/api/``)."""
