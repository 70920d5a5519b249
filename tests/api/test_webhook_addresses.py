"""The webhook address check: an IPv6 address that carries an IPv4 address is judged by
the IPv4 address inside, so no form of a private address passes for a public one."""

import pytest

from games.hooks.sending import is_public
from tests.classrooms.conftest import ClassApi

from .conftest import assert_problem

PRIVATE_INSIDE = [
    "64:ff9b::7f00:1",  # NAT64 to 127.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 to 169.254.169.254
    "64:ff9b:1::a00:1",  # local-use NAT64 to 10.0.0.1
    "2002:7f00:1::1",  # 6to4 of 127.0.0.1
    "2002:c0a8:1::1",  # 6to4 of 192.168.0.1
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:10.0.0.1",
    "::127.0.0.1",  # IPv4-compatible
    "::10.1.2.3",
    "::1",
    "::",
]
PUBLIC_INSIDE = ["64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8", "::8.8.8.8"]


@pytest.mark.parametrize("address", PRIVATE_INSIDE)
def test_an_ipv6_address_carrying_a_private_ipv4_is_not_public(address):
    assert not is_public(address)


@pytest.mark.parametrize("address", [*PUBLIC_INSIDE, "8.8.8.8", "2606:4700:4700::1111"])
def test_a_public_address_in_any_form_is_public(address):
    assert is_public(address)


@pytest.mark.parametrize("address", ["64:ff9b::7f00:1", "2002:a9fe:a9fe::1", "::127.0.0.1"])
def test_registering_such_an_address_is_refused(db, address):
    from rest_framework.test import APIClient

    classes = ClassApi(APIClient())
    room = classes.open()
    response = classes.client.post(
        "/api/v1/webhooks/", {"url": f"http://[{address}]/hook", "events": ["game.finished"]},
        format="json", HTTP_X_API_KEY=room.teacher_key,
    )
    assert_problem(response, 400, "url_not_allowed")
    assert classes.client.get("/api/v1/webhooks/", HTTP_X_API_KEY=room.teacher_key).json() == []
