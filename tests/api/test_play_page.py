"""The web client's page is served by the service, at /play/ and at each game's address."""

import pytest


# A fixed game id: every process that runs the suite must collect the same test names.
@pytest.mark.parametrize("path", ["/play/", "/play/5f0c3a2e-9b1d-4e7a-8c6f-2d4b1a9e7c30/"])
def test_the_web_client_is_one_page_of_the_services_own_modules(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert '<script type="module" src="/static/play/app.js">' in html
    assert "https://" not in html and "http://" not in html


def test_the_web_clients_modules_are_served_as_javascript(client):
    modules = ("play/app.js", "play/start.js", "play/game.js", "common/api.js", "common/dom.js")
    for module in (*modules, "play/words.js"):
        response = client.get(f"/static/{module}")
        assert response.status_code == 200, module
        assert "javascript" in response["Content-Type"]
        body = b"".join(response.streaming_content).decode()
        assert "https://" not in body and "http://" not in body


def test_a_path_that_is_not_a_game_id_is_not_a_page(client):
    assert client.get("/play/not-a-game/").status_code == 404


@pytest.mark.parametrize(
    "path", ["/play/", "/play/5f0c3a2e-9b1d-4e7a-8c6f-2d4b1a9e7c30/", "/teach/"]
)
def test_the_pages_allow_only_their_own_origin_and_are_never_sniffed(client, path):
    response = client.get(path)
    assert response.status_code == 200
    policy = dict(
        part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")
    )
    for directive in ("script-src", "style-src", "img-src", "connect-src", "default-src"):
        assert policy[directive] == "'self'", directive
    assert policy["object-src"] == "'none'"
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert response["X-Content-Type-Options"] == "nosniff"
    # No inline script is left for the policy to refuse: every script is a file (the page's
    # modules, and the catalogue of its words in its language).
    html = response.content.decode()
    modules = html.count('<script type="module" src="/static/')
    files = modules + html.count('<script src="/pages/words/')
    assert html.count("<script") == files
    assert "<script>" not in html


def test_the_pages_scripts_and_styles_are_never_sniffed(client):
    for asset in ("/static/play/app.js", "/static/teach/app.js", "/static/play/style.css"):
        assert client.get(asset)["X-Content-Type-Options"] == "nosniff", asset
