"""The interview's follow-up questions, one exercise each.

- `variants.sweep`: sweep-line utilization: idle windows, utilization per
  bucket, overlapping jobs, peak concurrency.

``python -m variants`` runs their command lines.
"""
