"""The docs and the web client work with no internet access: every request a page makes
goes to the service itself (the device fixture fails the test otherwise)."""

import pytest
from playwright.sync_api import expect


@pytest.mark.parametrize(
    ("path", "landmark"),
    [
        ("/api/v1/docs/", "#swagger-ui .information-container"),
        ("/api/v1/redoc/", "#redoc-container h1"),
        ("/play/", "#ruleset"),
    ],
)
def test_the_page_loads_everything_from_the_service_itself(device, path, landmark):
    page = device.page
    page.goto(path)
    # The API's docs draw once they have read the whole schema: seconds on a busy machine.
    expect(page.locator(landmark).first).to_be_visible(timeout=30_000)
    page.wait_for_load_state("networkidle")
    assert any(path in url for url in device.recorder.requests)
    assert device.recorder.foreign() == []


def test_redoc_draws_its_menu_logo_from_the_service(device):
    page = device.page
    page.goto("/api/v1/redoc/")
    logo = page.get_by_role("img", name="redocly logo")
    # ReDoc draws its menu once it has read the whole schema, seconds on a busy machine.
    expect(logo).to_be_visible(timeout=30_000)
    assert "/static/docs/redoc-logo.svg" in logo.get_attribute("src")
    page.wait_for_load_state("networkidle")
    fonts = [url for url in device.recorder.requests if "font" in url]
    assert fonts == []


@pytest.mark.parametrize(("path", "landmark"), [("/play/", "#ruleset"), ("/teach/", "main h1")])
def test_the_pages_work_under_their_policy_which_refuses_an_injected_script(
    device, path, landmark
):
    page = device.page
    answer = page.goto(path)
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    assert answer.headers["x-content-type-options"] == "nosniff"
    expect(page.locator(landmark).first).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert device.recorder.violations == []
    # A script put into the page (as an injected name would be) does not run, and the
    # breach is seen: the check that no page breaks its policy can fail.
    page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.injected = true'; document.body.append(s); }"
    )
    page.wait_for_function("() => true")
    expect(page.locator("body")).to_be_visible()
    assert page.evaluate("() => window.injected") is None
    page.wait_for_timeout(200)
    assert any("script-src" in v for v in device.recorder.violations), device.recorder.violations
    device.recorder.violations.clear()
    device.recorder.allowed_errors.append("Content Security Policy")
