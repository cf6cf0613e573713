"""A local SQS for test suites: `lifeline serve --headless --clock manual` per test, its clock in the test's hands."""
from pytest_lifeline.server import LifelineSQS, LifelineError

__all__ = ["LifelineSQS", "LifelineError"]
