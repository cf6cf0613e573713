"""The pytest plugin: a `lifeline_sqs` fixture per test, and the timeline of a test that failed.

    def test_retry(lifeline_sqs):
        sqs = lifeline_sqs.client()
        ...
        lifeline_sqs.advance("30s")   # the visibility timeout ends; no sleep

When a test using it fails, its run is saved as .pytest-lifeline/TEST.lifeline and drawn as TEST.png, and the
failure report says where ("SQS timeline: .pytest-lifeline/test_retry.png"). --lifeline-keep keeps the run files of
the tests that passed too."""
import os
import re

import pytest

from pytest_lifeline.server import LifelineError, LifelineSQS

_REPORT_KEY = pytest.StashKey[dict]()


def pytest_addoption(parser):
    group = parser.getgroup("lifeline")
    group.addoption("--lifeline-binary", default=None, help="the lifeline program (default: $LIFELINE, then PATH)")
    group.addoption("--lifeline-keep", action="store_true", help="keep every test's run file, not only the failed")
    group.addoption("--lifeline-dir", default=".pytest-lifeline", help="where timelines are written")
    group.addoption("--lifeline-port", type=int, default=0,
                    help="the port the fixtures' server listens on (default 0: a free one); tests in parallel "
                         "(pytest-xdist) need 0")


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    item.stash.setdefault(_REPORT_KEY, {})[report.when] = report


@pytest.fixture
def lifeline_sqs(request):
    """A local SQS for this test, its clock standing until the test advances it."""
    server = LifelineSQS(binary=request.config.getoption("--lifeline-binary"),
                         port=request.config.getoption("--lifeline-port"))
    yield server
    try:
        reports = request.node.stash.get(_REPORT_KEY, {})
        failed = any(r.failed for r in reports.values())
        if failed or request.config.getoption("--lifeline-keep"):
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
            folder = request.config.getoption("--lifeline-dir")
            try:
                run, image = server.save_timeline(folder, name)
                shown = image if failed else run
                for report in reports.values():
                    if report.failed:
                        report.sections.append(("lifeline", f"SQS timeline: {os.path.relpath(shown)}"))
                request.config.stash.setdefault(_SAVED_KEY, []).append(os.path.relpath(shown))
            except (LifelineError, OSError, Exception) as error:  # noqa: BLE001 - a report, never a new failure
                request.config.stash.setdefault(_SAVED_KEY, []).append(f"(timeline not saved: {error})")
    finally:
        server.stop()


_SAVED_KEY = pytest.StashKey[list]()


@pytest.fixture(scope="session")
def lifeline_sqs_session(request):
    """One local SQS for the whole session (its queues and clock shared by every test that takes it): faster to
    start, but tests must not depend on each other's queues or time. No timeline is saved for it."""
    server = LifelineSQS(binary=request.config.getoption("--lifeline-binary"),
                         port=request.config.getoption("--lifeline-port"))
    yield server
    server.stop()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    saved = config.stash.get(_SAVED_KEY, [])
    if saved:
        terminalreporter.section("lifeline")
        for path in saved:
            terminalreporter.write_line(f"SQS timeline: {path}")
