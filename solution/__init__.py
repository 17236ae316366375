"""Heartbeat kata: detect which rank of a training job stopped, and when.

The contract a candidate implements is these five names; see README.md.
"""

from solution.detector import Heartbeat, Stopped, detect
from solution.monitor import HeartbeatMonitor
from solution.threshold import misses_for_budget

__all__ = ["Heartbeat", "HeartbeatMonitor", "Stopped", "detect", "misses_for_budget"]
