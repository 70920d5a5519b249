"""The HTTP API, one package per resource, each in the same parts:

- ``requests``: the serializers that parse its bodies and query strings, strictly;
- ``bodies``: the shapes of its answers (``TypedDict``, from which the schema's serializers
  are derived: ``schema.shapes``) and the functions that render them;
- ``views``: thin views that parse, call one service and render; who may call them is
  their ``permission_classes`` (``games.http.permissions``).

``fields`` holds the request fields several resources share, ``schema`` what the OpenAPI
document adds to the views' own (shared shapes, examples, hooks), ``operations`` the
service's own paths (health, metrics, pages), and ``urls`` every route.
"""
