"""Benchmarks: performance claims measured side by side, run as scripts."""
