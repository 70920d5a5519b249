"""A learning platform's courses beyond the launch (LTI Advantage services): the roster
synced from the platform's Names and Role Provisioning Service (``roster``) and the grades
sent back through its Assignment and Grade Services once an assignment closes (``grades``
makes them, ``passback`` sends them, as work that is never lost). The calls to the platform
are pylti1p3's (under django-lti), with its service tokens (``connect``)."""
