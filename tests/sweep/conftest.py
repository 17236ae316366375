"""The sweep exercise's fixtures: its implementation under test, and its functions ready to ask."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from kata.plugin import implementation
from tests.support.sweeping import Sweep


@pytest.fixture(scope="session")
def impl(pytestconfig: pytest.Config) -> Implementation:
    return implementation(pytestconfig, "sweep")


@pytest.fixture(scope="session")
def sweep(impl: Implementation) -> Sweep:
    return Sweep(impl)
