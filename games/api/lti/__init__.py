"""The LTI 1.3 tool's pages (HTML for browsers and platforms, not the JSON API): login
initiation, launch, the tool's JWKS, deep linking's form, the step into a new window,
dynamic registration."""
