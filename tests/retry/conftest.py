"""The retry exercise's fixture: its implementation under test."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from kata.plugin import implementation


@pytest.fixture(scope="session")
def impl(pytestconfig: pytest.Config) -> Implementation:
    return implementation(pytestconfig, "retry")
