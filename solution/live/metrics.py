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
