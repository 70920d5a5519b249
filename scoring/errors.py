"""Rule errors carry the contract's stable codes; the HTTP layer maps each code to a status."""


class RuleError(Exception):
    """A move or an input that the rules refuse.

    ``code`` is one of the stable codes of the public contract (``no_rolls_left``,
    ``category_filled``, ``invalid_dice``...); ``field`` names the input at fault, if any.
    """

    def __init__(self, code: str, detail: str, *, field: str | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.field = field

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.detail!r})"
