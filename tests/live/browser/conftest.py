"""A real Chromium (Debian's, never a downloaded one) driven by Playwright against the live
service (``tests/live/conftest.py``).

Every test gets a fresh browser context that records each request its pages make and every
console error; after the test, no request may have left the service's own host and the
console must have shown no error. Requests to any other host are aborted, so a page that
tries one fails here even on a machine with internet access. Every page also reports each
breach of its Content-Security-Policy (the browser's ``securitypolicyviolation`` event, seen
by a script the browser runs in every page before the page's own): after the test, none
may have been reported.
"""

import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest

from tests.live.conftest import LiveService

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SKIP_REASON = (
    f"Chromium not found ({CHROMIUM}): the browser tests are skipped; "
    "install it with `apt-get install chromium`"
)
TIMEOUT_MS = 15_000
# Run in every page before its own scripts: each breach of the page's Content-Security-Policy
# goes to the test (through a binding, which the policy does not govern).
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportPolicyViolation(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"} ` +
    `at ${event.sourceFile}:${event.lineNumber}`);
});
"""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.live)
            if not os.path.exists(CHROMIUM):
                item.add_marker(pytest.mark.skip(reason=SKIP_REASON))


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    """One browser per test module: Playwright's synchronous API runs an event loop in this
    thread while it is open, which the tests outside these modules must not find there."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Recorder:
    """What one browser context did: every request, and every console error."""

    host: str
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    allowed_errors: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)

    def foreign(self) -> list[str]:
        return [url for url in self.requests if not self.is_own(url)]

    def is_own(self, url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme in ("data", "blob", "about") or parts.netloc == self.host

    def unexpected_errors(self) -> list[str]:
        return [e for e in self.errors if not any(a in e for a in self.allowed_errors)]


@dataclass
class Device:
    """One browser context (a device) with its page."""

    context: object
    page: object
    recorder: Recorder


@pytest.fixture
def new_device(chromium, live_service: LiveService) -> Iterator[Callable[..., Device]]:
    devices: list[Device] = []
    host = urlsplit(live_service.url).netloc

    def make(**context_options: object) -> Device:
        context = chromium.new_context(base_url=live_service.url, **context_options)
        context.set_default_timeout(TIMEOUT_MS)
        recorder = Recorder(host)

        def on_request(request) -> None:
            recorder.requests.append(request.url)

        def guard(route) -> None:
            if recorder.is_own(route.request.url):
                route.continue_()
            else:
                route.abort()

        context.on("request", on_request)
        context.route("**/*", guard)
        context.expose_binding(
            "reportPolicyViolation", lambda source, text: recorder.violations.append(text)
        )
        context.add_init_script(REPORT_VIOLATIONS)
        page = context.new_page()

        def on_console(message) -> None:
            if message.type == "error":
                recorder.errors.append(f"console: {message.text}")

        page.on("console", on_console)
        page.on("pageerror", lambda error: recorder.errors.append(f"page error: {error}"))
        device = Device(context, page, recorder)
        devices.append(device)
        return device

    yield make
    problems = []
    for index, device in enumerate(devices):
        foreign = device.recorder.foreign()
        if foreign:
            problems.append(f"device {index} requested other hosts: {foreign}")
        errors = device.recorder.unexpected_errors()
        if errors:
            problems.append(f"device {index} console errors: {errors}")
        if device.recorder.violations:
            problems.append(f"device {index} broke its pages' policy: {device.recorder.violations}")
        device.context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def device(new_device: Callable[..., Device]) -> Device:
    return new_device()
