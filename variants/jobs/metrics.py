"""The store's state as Prometheus series, read at scrape time (the optional
``prometheus_client`` extra).

Nothing is counted in the workers' memory: each series is read from the store,
so any process can serve them and a killed worker takes none with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, generate_latest, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from variants.jobs.model import PRICE_PER_GPU_HOUR
from variants.jobs.store import Store


class StoreCollector(Collector):
    """The series of `snapshot()`, a store's reading, taken at each scrape."""

    def __init__(
        self, snapshot: Callable[[], dict[str, int]], price_per_gpu_hour: float = PRICE_PER_GPU_HOUR
    ) -> None:
        self.snapshot = snapshot
        self.price = price_per_gpu_hour

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        snapshot = self.snapshot()
        yield GaugeMetricFamily("jobs_queue_depth", "Requests queued", value=snapshot["queued"])
        yield GaugeMetricFamily("jobs_leased", "Requests leased", value=snapshot["leased"])
        yield GaugeMetricFamily(
            "jobs_oldest_waiting_seconds",
            "Age of the request ready the longest (0: none)",
            value=snapshot["oldest_waiting_ms"] / 1000,
        )
        for name, help_text in (
            ("leases_expired", "Leases that expired (a worker stopped renewing)"),
            ("retries", "Failed attempts sent back to the queue"),
            ("dead_letters", "Requests that ended errored"),
        ):
            yield CounterMetricFamily(f"jobs_{name}", help_text, value=snapshot[name])
        alive, busy, done = snapshot["alive_ms"], snapshot["busy_ms"], snapshot["done"]
        yield GaugeMetricFamily(
            "jobs_gpu_busy_ratio", "Share of the workers' time the GPU was busy",
            value=busy / alive if alive else 0.0,
        )  # fmt: skip
        dollars = alive / 3_600_000 * self.price
        yield GaugeMetricFamily(
            "jobs_cost_per_1000_requests_dollars", "The workers' time, per 1,000 requests done",
            value=dollars / done * 1000 if done else 0.0,
        )  # fmt: skip


def exposition(store: Store) -> str:
    registry = CollectorRegistry()
    registry.register(StoreCollector(store.snapshot))
    return generate_latest(registry).decode()


def serve(open_store: Callable[[], Store], port: int) -> None:
    """Serve the series on `port` from prometheus_client's threads, each scrape on a
    connection of its own (a SQLite connection belongs to the thread that made it)."""

    def snapshot() -> dict[str, int]:
        with open_store() as store:
            return store.snapshot()

    registry = CollectorRegistry()
    registry.register(StoreCollector(snapshot))
    start_http_server(port, registry=registry)
