"""The languages the service speaks, for config/settings.py, which takes them all.

The API's problem documents and the rulesets' names follow ``Accept-Language``
(games.http.middleware.language picks the language); the catalogues are locale/<dir>/
LC_MESSAGES/<domain>.po, compiled to .mo by config/catalogues.py (docs/translating.md).
"""

from pathlib import Path

__all__ = ["LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "USE_I18N"]

USE_I18N = True
# English when the request asks for nothing the service speaks (and the text in the code).
LANGUAGE_CODE = "en"
# Each by its own name; Django's codes (its catalogue folders: sv, da, nb, de, zh_Hans).
LANGUAGES = [
    ("en", "English"),
    ("sv", "Svenska"),
    ("da", "Dansk"),
    ("nb", "Norsk bokmål"),
    ("de", "Deutsch"),
    ("zh-hans", "简体中文"),
]
LOCALE_PATHS = [Path(__file__).resolve().parent.parent / "locale"]
