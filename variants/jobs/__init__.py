"""The batch-inference job service: a durable queue with leases, workers that batch,
retries to a dead letter, on SQLite or PostgreSQL.  See README.md."""
