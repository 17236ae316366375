"""The interview's follow-up questions, one exercise each.

- `variants.sweep`: sweep-line utilization: idle windows, utilization per
  bucket, overlapping jobs, peak concurrency.
- `variants.retry`: retries: backoff and jitter, what to retry, a retry
  budget, idempotency keys; and simulations of what retries do to load.

``python -m variants`` runs their command lines.
"""
