"""Log records of refusals an operator foresees, cut to one line.

Django logs every request naming a host outside ``ALLOWED_HOSTS`` (``DisallowedHost``)
as an error with its whole traceback: a scanner of the address space sends such requests
all day, and their tracebacks, the same each time, buried the ones worth reading. The
client's mistake is answered 400 and said in the record's message; the traceback says only
where Django noticed it.
"""

import logging


class OneLine(logging.Filter):
    """Keeps a record's message, drops its traceback, and makes it a warning (the client's
    fault, not the service's: no error to alert on, no mail to the admins)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def one_line(error: BaseException) -> str:
    """An exception's text on one line for a log record (its type's name if it has none):
    an outage the operator reads about, said without the traceback of where it was met."""
    return " ".join(str(error).split()) or type(error).__name__
