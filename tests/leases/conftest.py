"""The leases exercise's fixture: its implementation under test."""

from __future__ import annotations

import pytest

from tests.support.impl import Implementation
from tests.support.plugin import implementation


@pytest.fixture(scope="session")
def impl(pytestconfig: pytest.Config) -> Implementation:
    return implementation(pytestconfig, "leases")
