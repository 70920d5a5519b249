"""Settings of the LTI 1.3 tool (games/lti/), imported by config/settings.py."""

from config.env import env_int

# How long a platform's public keys (JWKS) are kept before they are fetched again; a launch
# signed with a key id not among them fetches them at once whatever this says.
LTI_JWKS_CACHE_SECONDS = env_int("LTI_JWKS_CACHE_SECONDS", 600, minimum=0)
# How old an id_token may be (its iat) and how far ahead of our clock: seconds.
LTI_TOKEN_MAX_AGE = env_int("LTI_TOKEN_MAX_AGE", 600, minimum=60)
LTI_CLOCK_LEEWAY = env_int("LTI_CLOCK_LEEWAY", 60, minimum=0)
