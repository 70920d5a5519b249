"""Refusals that come from the service rather than the rules (auth, versions, retries)."""

from scoring import RuleError


class ServiceError(RuleError):
    """A refusal with one of the contract's codes (``not_found``, ``invalid_token``...)."""
