"""Refusals that come from the service rather than the rules (auth, versions, retries)."""

from scoring import RuleError


class ServiceError(RuleError):
    """Carries one of the contract's codes: ``not_found``, ``invalid_token``, ``version_mismatch``..."""
