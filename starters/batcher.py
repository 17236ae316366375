"""Batcher kata: requests arrive one at a time, the GPU wants them in groups.

The kata's command line copies this file and gives it to you a step at a time:

    python -m kata start batcher   # my_batcher.py, and step 1
    python -m kata check   # the steps written so far, then the next
    python -m kata hint    # stuck? a hint (three to a step)

(or, all at once: python -m pytest --impl my_batcher.py --rubric).

The batcher is a pure state machine: no clock, no threads, no event loop.
The caller tells it what happened and when (``now``, integer ticks that
never go back), asks `poll` what to send, and `next_wakeup` when to ask
again.  Standard library only.  The full contract, with the reasons behind
each rule, is variants/batcher/README.md; in short:

- Service order: requests queued `ageing` ticks or more first, then higher
  priority, then first come.
- A request's bucket is the number of `buckets` boundaries below its tokens.
- A bucket's batch is its requests in service order, as many as fit (at most
  max_batch_size, and len(batch) x longest <= token_budget), stopping at the
  first that does not fit.  It is *full* if a request of the bucket was left
  out, or no request at all could join it.
- A batch is sent when it is full, when a request of its bucket has waited
  max_wait (now - arrival >= max_wait), or after close(); while fewer than
  max_in_flight batches are out; buckets are tried in the service order of
  their first requests.
- poll first ends the requests queued longer than their timeout.

The records (Config, Request, Batch, Ending, Decision) and the exceptions are
imported below; define your own instead if you like, with the same fields.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from variants.batcher.records import (  # noqa: F401 (the contract's records)
    Batch,
    Closed,
    Config,
    Decision,
    Ending,
    QueueFull,
    Request,
)


class Batcher:
    def __init__(self, config: Config) -> None:
        """ValueError for an impossible config: sizes below 1, a negative max_wait or
        ageing, buckets not strictly increasing from 1.  Check it here: the suite builds
        the reference's Config without its own checks."""
        raise NotImplementedError("Batcher.__init__")

    def submit(self, request: Request, *, now: int) -> None:
        """Queue `request`, arriving at `now`.

        QueueFull if max_queue requests are queued (refused, never dropped);
        Closed after close(); ValueError for tokens < 1, a negative timeout, more
        tokens than token_budget, or an id already queued or in flight.
        """
        raise NotImplementedError("Batcher.submit")

    def cancel(self, request_id: Hashable, *, now: int) -> Ending | None:
        """Queued: remove it, return Ending(id, "cancelled").  In flight: return None;
        at completion it ends "cancelled", its result discarded.  ValueError otherwise."""
        raise NotImplementedError("Batcher.cancel")

    def poll(self, *, now: int) -> Decision:
        """End the requests queued longer than their timeout ("timed out"), then send
        the ready batches while a slot is free: Decision(batches, ended)."""
        raise NotImplementedError("Batcher.poll")

    def complete(
        self, batch_id: int, outcome: Sequence[Any] | BaseException, *, now: int
    ) -> list[Ending]:
        """One Ending per request of the batch.  `outcome`: one result per request in
        batch.requests' order (an exception among them fails that request), or one
        exception for all.  A wrong count fails all with a ValueError.  ValueError for
        a batch not in flight."""
        raise NotImplementedError("Batcher.complete")

    def next_wakeup(self) -> int | None:
        """After a poll: the earliest later tick at which a poll would act unprompted
        (arrival + max_wait while a slot is free, arrival + timeout + 1); None if never."""
        raise NotImplementedError("Batcher.next_wakeup")

    def close(self) -> None:
        """Take no new requests; send what is queued without waiting."""
        raise NotImplementedError("Batcher.close")
