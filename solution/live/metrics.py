"""The collector's metrics, in the Prometheus text format, when asked for.

Off by default.  With a port, `prometheus_client` (the optional extra
``pip install -e '.[metrics]'``) serves them over HTTP; the runtime needs
nothing beyond the standard library otherwise.  The metrics:

* ``heartbeat_collector_heartbeats_total``: heartbeats accepted;
* ``heartbeat_collector_rejected_total{reason}``: datagrams refused, by reason;
* ``heartbeat_collector_silent_ranks``: ranks reported stopped now;
* ``heartbeat_collector_detection_seconds``: the silence at which a rank was
  reported, a histogram (the timeout plus how late the check came);
* ``heartbeat_collector_loop_lag_seconds``: how late each check ran, a histogram.

And, read from the collector when Prometheus scrapes (nothing per heartbeat),
what the alert rules of ``alerts/`` need to decide as the kata does, by the
collector's clock, in integer nanoseconds since the collector started
(float64 holds them exactly for 104 days of uptime; seconds as floats would
blur the boundary at exactly ``timeout``):

* ``heartbeat_collector_clock_nanoseconds``: the collector's clock now;
* ``heartbeat_collector_last_heard_nanoseconds{rank}``: each heard rank's latest receipt;
* ``heartbeat_collector_last_check_nanoseconds``: when the collector's loop last checked;
* ``heartbeat_collector_timeout_nanoseconds``, ``heartbeat_collector_world_size`` and
  ``heartbeat_collector_never_heard_ranks``.
"""

from __future__ import annotations

from typing import Any


class Metrics:
    """No-ops without a port; with one, counters behind an HTTP endpoint on 127.0.0.1."""

    def __init__(self, port: int | None, *, host: str = "127.0.0.1") -> None:
        self.port: int | None = None
        self._server: Any = None
        if port is None:
            return
        try:
            import prometheus_client as prometheus  # optional: only when metrics are asked for
        except ImportError:
            raise RuntimeError(
                "metrics need prometheus_client: pip install -e '.[metrics]'"
            ) from None
        self.registry = prometheus.CollectorRegistry()
        name = "heartbeat_collector"
        self._heartbeats = prometheus.Counter(
            f"{name}_heartbeats", "Heartbeats accepted", registry=self.registry
        )
        self._rejected = prometheus.Counter(
            f"{name}_rejected", "Datagrams refused", ["reason"], registry=self.registry
        )
        self._silent = prometheus.Gauge(
            f"{name}_silent_ranks", "Ranks reported stopped now", registry=self.registry
        )
        self._detection = prometheus.Histogram(
            f"{name}_detection_seconds",
            "The silence at which a rank was reported stopped",
            registry=self.registry,
            buckets=(0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300),
        )
        self._lag = prometheus.Histogram(
            f"{name}_loop_lag_seconds",
            "How late each check ran",
            registry=self.registry,
            buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5),
        )
        self._server, _ = prometheus.start_http_server(port, addr=host, registry=self.registry)
        self.port = int(self._server.server_port)

    def track(self, collector: Any) -> None:
        """Serve the collector's clock and receipts, read at each scrape."""
        if self._server is not None:
            self.registry.register(_Receipts(collector))

    @property
    def enabled(self) -> bool:
        """Whether the series are served (False: every call here does nothing)."""
        return self._server is not None

    def heartbeat(self) -> None:
        if self._server is not None:
            self._heartbeats.inc()

    def rejected(self, reason: str) -> None:
        if self._server is not None:
            self._rejected.labels(reason).inc()

    def silent(self, ranks: int) -> None:
        if self._server is not None:
            self._silent.set(ranks)

    def stopped(self, silence: float) -> None:
        if self._server is not None:
            self._detection.observe(silence)

    def lag(self, seconds: float) -> None:
        if self._server is not None:
            self._lag.observe(seconds)

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()


class _Receipts:
    """A custom collector: the gauges of the alert rules, from the collector's own state."""

    def __init__(self, collector: Any) -> None:
        self.collector = collector

    def describe(self) -> list[Any]:
        return []  # not known before the first scrape: registered without a check

    def collect(self) -> Any:
        from prometheus_client.core import GaugeMetricFamily  # the optional extra, as above

        watched, name = self.collector, "heartbeat_collector"
        start = watched.start
        receipts = watched.monitor.receipts()  # a snapshot: the loop may be mid-beat
        now = watched.clock_now()
        heard = GaugeMetricFamily(
            f"{name}_last_heard_nanoseconds",
            "Each heard rank's latest receipt, ns since the collector started",
            labels=["rank"],
        )
        never = 0
        for rank, last_heard in receipts:
            if last_heard is None:
                never += 1
            else:
                heard.add_metric([str(rank)], last_heard - start)
        yield heard
        for suffix, value, text in (
            ("clock_nanoseconds", now - start, "The collector's clock, ns since it started"),
            ("last_check_nanoseconds", watched.last_check - start, "When its loop last checked"),
            ("timeout_nanoseconds", watched.timeout, "Silence past this is a stopped rank"),
            ("world_size", watched.world_size, "Ranks the job has"),
            ("never_heard_ranks", never, "Ranks never heard since the collector started"),
        ):
            yield GaugeMetricFamily(f"{name}_{suffix}", text, value=value)
