"""What the service reads in a launch's claims (LTI 1.3 core, Deep Linking 2.0, NRPS 2.0,
AGS 2.0), each read defensively: the token is the platform's, signed, but its shapes are
only as good as the platform."""

import uuid
from typing import Any

from games.names import NameRefused, name_clean

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPE = LTI + "message_type"
ROLES = LTI + "roles"
CONTEXT = LTI + "context"
RESOURCE_LINK_CLAIM = LTI + "resource_link"
CUSTOM = LTI + "custom"
DEPLOYMENT_ID = LTI + "deployment_id"
DEEP_LINKING_SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
AGS_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/"

RESOURCE_LINK = "LtiResourceLinkRequest"
DEEP_LINKING = "LtiDeepLinkingRequest"

MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership#"
# The context roles that teach here: LIS Instructor (and its TeachingAssistant sub-role),
# ContentDeveloper, Administrator. A role is the full URI, or the short name the core
# specification allows for context roles.
INSTRUCTOR_ROLES = frozenset(
    {
        MEMBERSHIP + "Instructor",
        MEMBERSHIP + "ContentDeveloper",
        MEMBERSHIP + "Administrator",
        "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant",
        "Instructor",
        "ContentDeveloper",
        "Administrator",
        "TeachingAssistant",
    }
)
LEARNER_ROLES = frozenset({MEMBERSHIP + "Learner", "Learner"})
CUSTOM_ASSIGNMENT = "assignment"  # the custom parameter a deep-linked activity carries


def roles(claims: dict[str, Any]) -> set[str]:
    given = claims.get(ROLES)
    return {r for r in given if isinstance(r, str)} if isinstance(given, list) else set()


def is_instructor(claims: dict[str, Any]) -> bool:
    return bool(roles(claims) & INSTRUCTOR_ROLES)


def is_learner(claims: dict[str, Any]) -> bool:
    return bool(roles(claims) & LEARNER_ROLES)


def role_flags(claims: dict[str, Any]) -> dict[str, bool]:
    """django-lti's membership flags for the launch's roles."""
    held = {r.rsplit("#", 1)[-1] for r in roles(claims) if r.startswith(MEMBERSHIP) or "#" not in r}
    return {
        "is_administrator": "Administrator" in held,
        "is_content_developer": "ContentDeveloper" in held,
        "is_instructor": "Instructor" in held or is_instructor(claims),
        "is_learner": "Learner" in held,
        "is_mentor": "Mentor" in held,
    }


def ags_props(claims: dict[str, Any]) -> dict[str, Any]:
    """django-lti's context fields for the AGS claim (none without it)."""
    ags = claims.get(AGS)
    if not isinstance(ags, dict):
        return {}
    given = ags.get("scope")
    scope: list[Any] = given if isinstance(given, list) else []
    return {
        "lineitems_url": str(ags.get("lineitems") or "")[:200],
        "can_query_lineitems": AGS_SCOPE + "lineitem.readonly" in scope,
        "can_manage_lineitems": AGS_SCOPE + "lineitem" in scope,
        "can_publish_scores": AGS_SCOPE + "score" in scope,
        "can_access_results": AGS_SCOPE + "result.readonly" in scope,
    }


def line_item_url(claims: dict[str, Any]) -> str:
    """The link's own line item (AGS ``lineitem``), its query kept; "" if none."""
    ags = claims.get(AGS)
    found = ags.get("lineitem") if isinstance(ags, dict) else None
    return found[:2000] if isinstance(found, str) else ""


def assignment_id(claims: dict[str, Any]) -> uuid.UUID | None:
    """The assignment a deep-linked activity names in its custom parameters, if any."""
    custom = claims.get(CUSTOM)
    value = custom.get(CUSTOM_ASSIGNMENT) if isinstance(custom, dict) else None
    try:
        return uuid.UUID(str(value)) if value else None
    except ValueError:
        return None


def deep_link_settings(claims: dict[str, Any]) -> dict[str, Any]:
    settings = claims.get(DEEP_LINKING_SETTINGS)
    if not isinstance(settings, dict) or not isinstance(settings.get("deep_link_return_url"), str):
        return {}
    return {k: settings[k] for k in ("deep_link_return_url", "data") if k in settings}


def classroom_name(title: str) -> str:
    """A classroom's name from the course's title (80 characters at most)."""
    try:
        return name_clean(title)[:80].strip() or "Course"
    except NameRefused:
        return "Course"


def person_name(claims: dict[str, Any]) -> str:
    """The name the platform gives the person (``name``, else given and family names)."""
    for text in (
        claims.get("name"),
        " ".join(str(claims.get(k) or "") for k in ("given_name", "family_name")),
    ):
        if isinstance(text, str):
            try:
                return name_clean(text)[:50].strip()
            except NameRefused:
                continue
    return ""
