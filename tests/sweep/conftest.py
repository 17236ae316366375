"""Fixtures for the sweep tests: each function of the candidate's, ready to call with Spans."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.impl import Implementation
from tests.support.sweeping import Sweeper

REFERENCE = "variants.sweep"


def sweeper(impl: Implementation, name: str) -> Sweeper:
    return Sweeper(
        impl.require(name), impl.type_named("Busy", REFERENCE), impl.type_named("Window", REFERENCE)
    )


@pytest.fixture(scope="session")
def idle_windows(impl: Implementation) -> Sweeper:
    return sweeper(impl, "idle_windows")


@pytest.fixture(scope="session")
def underused_windows(impl: Implementation) -> Sweeper:
    return sweeper(impl, "underused_windows")


@pytest.fixture(scope="session")
def utilization(impl: Implementation) -> Sweeper:
    return sweeper(impl, "utilization")


@pytest.fixture(scope="session")
def overlapping_jobs(impl: Implementation) -> Sweeper:
    return sweeper(impl, "overlapping_jobs")


@pytest.fixture(scope="session")
def peak_concurrency(impl: Implementation) -> Sweeper:
    return sweeper(impl, "peak_concurrency")


@pytest.fixture(scope="session")
def intervals_from_events(impl: Implementation) -> Any:
    return impl.require("intervals_from_events")


@pytest.fixture(scope="session")
def event_type(impl: Implementation) -> Any:
    return impl.type_named("Event", REFERENCE)
