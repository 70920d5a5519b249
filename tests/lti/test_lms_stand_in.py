"""The LMS stand-in (tests/lms/) as an LTI library sees it: pylti1p3 gets a service token
with a client assertion signed by the tool's key, reads the memberships page by page, reads
a line item and posts a score to it, its query kept; the platform's launches verify against
its published keys; away, it refuses; back, it answers again."""

import json
import urllib.error
import urllib.request
from urllib.parse import parse_qs, urlsplit

import jwt
import pytest
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.grade import Grade
from pylti1p3.names_roles import NamesRolesProvisioningService
from pylti1p3.registration import Registration
from pylti1p3.service_connector import ServiceConnector

from tests.lms import AGS_SCOPES, NRPS_SCOPE, Platform
from tests.lms.keys import SigningKey

TOOL = "http://127.0.0.1:9/lti/"


def connector(lms: Platform, key: SigningKey) -> ServiceConnector:
    registration = Registration()
    registration.set_issuer(lms.issuer)
    registration.set_client_id(lms.client_id)
    registration.set_auth_token_url(lms.url("/token"))
    registration.set_tool_private_key(key.private_pem())
    registration.set_tool_public_key(key.public_pem())
    return ServiceConnector(registration)


@pytest.fixture
def tool_key(lms: Platform) -> SigningKey:
    key = SigningKey()
    lms.tool(login_url=TOOL + "login/", launch_url=TOOL + "launch/", keyset={"keys": [key.jwk()]})
    return key


def test_memberships_come_in_pages_with_their_status(lms: Platform, tool_key: SigningKey):
    course = lms.course("Maths-5B", "Maths 5B")
    for n in range(5):
        status = "Inactive" if n == 3 else "Active"
        course.enrol(lms.user(f"u{n}", f"User {n}"), "Learner", status=status)
    course.enrol(lms.user("t", "Tea Cher"), "Instructor")
    nrps = NamesRolesProvisioningService(
        connector(lms, tool_key), {"context_memberships_url": lms.memberships_url(course)}
    )
    members = nrps.get_members()
    assert [m["user_id"] for m in members] == ["u0", "u1", "u2", "u3", "u4", "t"]
    assert [m["status"] for m in members].count("Inactive") == 1
    assert members[-1]["roles"] == ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"]


def test_a_score_is_recorded_on_its_line_item_with_the_query(lms: Platform, tool_key: SigningKey):
    course = lms.course("c1")
    link = lms.link(course, "week-3", "Week 3")
    assert link.line_item is not None
    url = lms.line_item_url(link.line_item)
    assert "?type_id=" in url
    ags = AssignmentsGradesService(
        connector(lms, tool_key), {"scope": list(AGS_SCOPES), "lineitem": url}
    )
    grade = (
        Grade().set_score_given(75).set_score_maximum(100).set_user_id("ann")
        .set_activity_progress("Completed").set_grading_progress("FullyGraded")
        .set_timestamp("2026-01-01T00:00:00+00:00")
    )
    ags.put_grade(grade)
    [score] = lms.scores_for(link)
    assert score.query == link.line_item.query
    assert score.content_type == "application/vnd.ims.lis.v1.score+json"
    assert score.body["scoreGiven"] == 75 and score.body["userId"] == "ann"


def test_a_token_needs_an_assertion_signed_by_the_tool(lms: Platform, tool_key: SigningKey):
    stranger = SigningKey()
    with pytest.raises(Exception, match="400"):
        connector(lms, stranger).get_access_token([NRPS_SCOPE])
    assert "kid" in lms.refusals[-1] or "signature" in lms.refusals[-1].lower()
    assert connector(lms, tool_key).get_access_token([NRPS_SCOPE])


def test_a_launch_is_signed_with_the_published_key(lms: Platform, tool_key: SigningKey):
    course = lms.course("c1", "Maths")
    ann = lms.user("ann", "Ann Lee")
    course.enrol(ann, "Learner")
    link = lms.link(course, "week-3", "Week 3")
    start = lms.launch_url(ann, course, link)
    page = urllib.request.urlopen(start).read().decode()
    assert TOOL + "login/" in page and "lti_message_hint" in page
    hint = page.split('name="lti_message_hint" value="')[1].split('"')[0]
    action, fields = lms.authorize({
        "scope": "openid", "response_type": "id_token", "client_id": lms.client_id,
        "redirect_uri": TOOL + "launch/", "login_hint": "ann", "lti_message_hint": hint,
        "nonce": "n-1", "state": "s-1", "response_mode": "form_post", "prompt": "none",
    })
    assert action == TOOL + "launch/" and fields["state"] == "s-1"
    keys = json.load(urllib.request.urlopen(lms.url("/jwks")))
    key = jwt.PyJWKSet.from_dict(keys).keys[0].key
    claims = jwt.decode(fields["id_token"], key, algorithms=["RS256"], audience=lms.client_id)
    assert claims["nonce"] == "n-1" and claims["sub"] == "ann"
    endpoint = claims["https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"]
    assert parse_qs(urlsplit(endpoint["lineitem"]).query) == {"type_id": ["1"]}


def test_away_and_back(lms: Platform):
    jwks = lms.url("/jwks")
    lms.away("503")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(jwks)
    assert refused.value.code == 503
    lms.back()
    assert urllib.request.urlopen(jwks).status == 200
    lms.away()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(jwks, timeout=2)
    lms.back()
    assert urllib.request.urlopen(jwks).status == 200
