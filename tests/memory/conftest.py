"""The memory exercise's fixtures: its implementation under test, and its functions ready to ask."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from kata.plugin import implementation
from tests.support.remembering import Memory


@pytest.fixture(scope="session")
def impl(pytestconfig: pytest.Config) -> Implementation:
    return implementation(pytestconfig, "memory")


@pytest.fixture(scope="session")
def memory(impl: Implementation) -> Memory:
    return Memory(impl)
