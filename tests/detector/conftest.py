"""The detector exercise's fixtures: its implementation under test, and detect ready to ask."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from kata.plugin import implementation
from tests.support.detecting import Detector


@pytest.fixture(scope="session")
def impl(pytestconfig: pytest.Config) -> Implementation:
    return implementation(pytestconfig, "detector")


@pytest.fixture(scope="session")
def detector(impl: Implementation) -> Detector:
    return Detector(impl)
