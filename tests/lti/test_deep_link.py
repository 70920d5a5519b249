"""Deep linking: the instructor's form, and the signed LtiResourceLink it answers; the link's
launches then find the assignment."""

import datetime as dt
import re
from typing import Any

import jwt
import pytest
from django.test import Client
from jwcrypto.jwk import JWK

from games.classrooms.assignments import assignment_create
from games.lti.keys import tool_jwks
from games.models import Assignment, Classroom, Game, LtiLink
from tests.lti.platform import INSTRUCTOR, LEARNER, LTI, Platform

pytestmark = pytest.mark.django_db
DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"


@pytest.fixture
def platform() -> Platform:
    made = Platform()
    made.register()
    return made


def deep_linking(
    platform: Platform, client: Client, roles: tuple[str, ...] = (INSTRUCTOR,)
) -> Any:
    return platform.launch(
        client,
        roles=roles,
        tamper=lambda c: c.update(
            {
                LTI + "message_type": "LtiDeepLinkingRequest",
                DL + "deep_linking_settings": {
                    "deep_link_return_url": "https://platform.test/deep-link-return",
                    "accept_types": ["ltiResourceLink"],
                    "accept_presentation_document_targets": ["iframe", "window"],
                    "data": "opaque-123",
                },
            }
        ),
    )


def field(answer: Any, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"'.encode(), answer.content)
    assert found, answer.content[:1500]
    return found.group(1).decode()


def answered(platform: Platform, answer: Any) -> dict[str, Any]:
    assert answer.status_code == 200, answer.content[:1500]
    assert b'action="https://platform.test/deep-link-return"' in answer.content
    token = field(answer, "JWT")
    header = jwt.get_unverified_header(token)
    keys = {k["kid"]: k for k in tool_jwks()["keys"]}
    assert header["kid"] in keys
    public = JWK(**keys[header["kid"]]).export_to_pem()
    return jwt.decode(token, public, algorithms=["RS256"], audience=platform.issuer)


def test_a_new_assignment_set_in_the_form(platform: Platform) -> None:
    client = Client()
    form = deep_linking(platform, client)
    assert form.status_code == 200 and b"Add an assignment" in form.content
    due = (dt.datetime.now(dt.UTC) + dt.timedelta(days=7)).replace(second=0, microsecond=0)
    answer = client.post(
        "/lti/deep-link/",
        {
            "context": field(form, "context"),
            "title": "Week 3",
            "ruleset": "yatzy",
            "games": "3",
            "due_at": due.strftime("%Y-%m-%dT%H:%M"),
            "tz_offset": "0",
            "grade": "completion",
        },
    )
    message = answered(platform, answer)
    assignment = Assignment.objects.get()
    assert assignment.title == "Week 3" and assignment.grade == "completion"
    assert assignment.classroom == Classroom.objects.get()
    assert message[LTI + "message_type"] == "LtiDeepLinkingResponse"
    assert message[LTI + "deployment_id"] == platform.deployment
    assert message["iss"] == platform.client_id
    assert message[DL + "data"] == "opaque-123"
    [item] = message[DL + "content_items"]
    assert item["type"] == "ltiResourceLink"
    assert item["title"] == "Week 3"
    assert item["url"] == "http://testserver/lti/launch/"
    assert item["lineItem"]["scoreMaximum"] == 100 and item["lineItem"]["label"] == "Week 3"
    assert dt.datetime.fromisoformat(item["submission"]["endDateTime"]) == due
    assert item["custom"] == {"assignment": str(assignment.id)}


def test_an_existing_assignment_picked_and_then_launched(platform: Platform) -> None:
    client = Client()
    form = deep_linking(platform, client)
    classroom = Classroom.objects.get()
    assignment = assignment_create(
        classroom=classroom, title="Warm-up", ruleset_id="yahtzee", options=None, games=2,
        opens_at=None, due_at=dt.datetime.now(dt.UTC) + dt.timedelta(days=1),
    )
    answer = client.post(
        "/lti/deep-link/", {"context": field(form, "context"), "assignment": str(assignment.id)}
    )
    [item] = answered(platform, answer)[DL + "content_items"]
    assert item["title"] == "Warm-up"
    # The platform's resource link now launches with the item's custom parameters.
    learner = Client()
    launched = platform.launch(
        learner,
        sub="learner-1",
        roles=(LEARNER,),
        link="link-42",
        tamper=lambda c: c.update(
            {
                LTI + "custom": item["custom"],
                AGS: {
                    "scope": ["https://purl.imsglobal.org/spec/lti-ags/scope/score"],
                    "lineitem": "https://platform.test/lineitems/7?type=x",
                },
            }
        ),
    )
    assert launched.status_code == 200, launched.content[:800]
    link = LtiLink.objects.get()
    assert link.assignment == assignment
    assert link.line_item_url == "https://platform.test/lineitems/7?type=x"
    went = learner.post("/lti/continue/", {"ticket": field(launched, "ticket")})
    game = Game.objects.get()
    assert game.assignment_id == assignment.id and game.assignment_game == 1
    assert f'data-path="/play/{game.id}/"'.encode() in went.content
    token = re.search(rb'data-token="([^"]+)"', went.content)
    assert token
    # The seat token it hands over moves in that game.
    rolled = learner.post(
        f"/api/v1/games/{game.id}/roll/", {}, content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token.group(1).decode()}",
    )
    assert rolled.status_code == 200, rolled.content


def test_a_learner_cannot_deep_link(platform: Platform) -> None:
    answer = deep_linking(platform, Client(), roles=(LEARNER,))
    assert answer.status_code == 403 and b"lti_role_unknown" in answer.content


def test_a_forged_form_context_is_refused(platform: Platform) -> None:
    answer = Client().post("/lti/deep-link/", {"context": "not-signed", "assignment": ""})
    assert answer.status_code == 400
    assert not Assignment.objects.exists()
