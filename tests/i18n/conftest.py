import pytest

# The service's languages besides English, as a request names them.
LANGUAGES = ("sv", "da", "nb", "de", "zh-hans")


@pytest.fixture(autouse=True)
def no_throttles(settings) -> None:
    """These tests ask the same things in every language, faster than any person."""
    settings.THROTTLE_RATES = {}
