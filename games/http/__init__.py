"""What stands between HTTP and the services: every module here is one of Django's or DRF's
extension points, named in ``config/settings.py``.

- Who is calling: ``auth`` (a seat's token on a move), ``api_keys`` (classroom keys, and the
  stop for repeated wrong credentials), ``permissions`` (who may do what).
- How much they may: ``limits`` (counters in the shared cache), ``throttles`` (DRF's
  throttles over them).
- What comes in: ``json_bodies`` (DRF's JSON parser, each body bounded), ``strict``
  (bodies exactly as the schema says).
- When it goes wrong: ``problems`` (every error as a problem document, with its code),
  ``error_table`` (``docs/errors.md`` written from the registry).
- Around every request, ``middleware/``: ``request_metrics`` (counted and timed),
  ``problem_middleware`` (the bodiless refusals of Django and WhiteNoise), ``admin_sessions``
  (the admin's middleware passed by for the API), ``table_askers`` (who asks for a missing
  strategy table).
"""
