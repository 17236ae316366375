"""The asyncio front end, on a real event loop: callers, cancellations, failures, shutdown.

Nothing here is mocked: real tasks on a real loop, a model that really
awaits, waits of a few milliseconds.  Randomness is seeded.  Every scenario
runs under a time limit, so a caller left waiting fails the test instead of
hanging it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import pytest

from variants.batcher import AsyncBatcher, Closed, Config, QueueFull

pytestmark = pytest.mark.reference

LIMIT = 10.0  # seconds for a whole scenario; a hang fails it


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    async def limited() -> None:
        await asyncio.wait_for(scenario(), LIMIT)

    asyncio.run(limited())


class Model:
    """Doubles each item after `delay` seconds; records the batches it was given."""

    def __init__(self, delay: float = 0.001, fail: Callable[[list[Any]], bool] | None = None):
        self.delay, self.fail, self.batches = delay, fail, list[list[Any]]()

    async def __call__(self, items: list[Any]) -> Sequence[Any]:
        self.batches.append(list(items))
        await asyncio.sleep(self.delay)
        if self.fail is not None and self.fail(items):
            raise RuntimeError(f"the model failed on {items}")
        return [item * 2 for item in items]


def test_many_concurrent_callers_each_get_their_own_result() -> None:
    model = Model()

    async def scenario() -> None:
        batcher = AsyncBatcher(model, Config(max_batch_size=8, max_wait=2, max_queue=500))
        results = await asyncio.gather(*(batcher.submit(i) for i in range(300)))
        assert results == [i * 2 for i in range(300)]
        await batcher.close()

    run(scenario)
    assert max(map(len, model.batches)) <= 8
    assert sorted(i for batch in model.batches for i in batch) == list(range(300))
    assert len(model.batches) < 300 / 2, "callers arriving together should share batches"


def test_cancelled_callers_raise_and_the_others_are_undisturbed() -> None:
    model, rng = Model(delay=0.002), random.Random(7)

    async def scenario() -> None:
        batcher = AsyncBatcher(model, Config(max_batch_size=4, max_wait=3, max_queue=500))
        tasks = [asyncio.ensure_future(batcher.submit(i)) for i in range(200)]
        for _ in range(60):
            await asyncio.sleep(rng.random() / 1000)
            rng.choice(tasks).cancel()
        done = await asyncio.gather(*tasks, return_exceptions=True)
        for i, (task, outcome) in enumerate(zip(tasks, done, strict=True)):
            if task.cancelled():
                assert isinstance(outcome, asyncio.CancelledError)
            else:
                assert outcome == i * 2, (i, outcome)
        await batcher.close()

    run(scenario)


@pytest.mark.parametrize("steps", range(12))
def test_a_caller_cancelled_at_any_step_of_the_loop_leaves_its_batch_whole(steps: int) -> None:
    """The cancel lands after `steps` turns of the loop: queued, sent, running or done.

    Walking it across every turn reaches the one between the batch being sent
    and its runner waking, where a cancelled caller must not take its item out
    of a batch that is already on its way (the others would get the model's
    failure on a missing item).
    """
    model = Model()

    async def scenario() -> None:
        batcher = AsyncBatcher(model, Config(max_batch_size=4, max_wait=3, max_queue=50))
        tasks = [asyncio.ensure_future(batcher.submit(i)) for i in range(4)]
        for _ in range(steps):
            await asyncio.sleep(0)
        tasks[0].cancel()
        done = await asyncio.gather(*tasks, return_exceptions=True)
        assert done[1:] == [2, 4, 6], f"cancelled after {steps} turns, the others got {done[1:]}"
        await batcher.close()

    run(scenario)
    assert all(None not in batch for batch in model.batches), model.batches


def test_a_caller_cancelled_while_queued_is_never_sent() -> None:
    model = Model()

    async def scenario() -> None:
        batcher = AsyncBatcher(model, Config(max_batch_size=4, max_wait=10_000, max_queue=10))
        gone = asyncio.ensure_future(batcher.submit(1))
        stays = asyncio.ensure_future(batcher.submit(2))
        await asyncio.sleep(0.005)  # both queued, their batch due in 10 s
        gone.cancel()
        await batcher.close()  # sends what is queued: only 2
        assert await stays == 4
        assert gone.cancelled()

    run(scenario)
    assert model.batches == [[2]]


def test_a_failed_batch_fails_its_callers_and_the_batcher_goes_on() -> None:
    model = Model(fail=lambda items: 13 in items)

    async def scenario() -> None:
        batcher = AsyncBatcher(model, Config(max_batch_size=1, max_wait=0, max_queue=100))
        outcomes = await asyncio.gather(
            *(batcher.submit(i) for i in range(10, 20)), return_exceptions=True
        )
        assert isinstance(outcomes[3], RuntimeError)
        assert [o for i, o in enumerate(outcomes) if i != 3] == [
            2 * i for i in range(10, 20) if i != 13
        ]
        assert await batcher.submit(5) == 10
        await batcher.close()

    run(scenario)


def test_per_item_errors_fail_those_callers_alone() -> None:
    async def model(items: list[Any]) -> list[Any]:
        return [ValueError(f"odd {i}") if i % 2 else i for i in items]

    async def scenario() -> None:
        batcher = AsyncBatcher(model, Config(max_batch_size=10, max_wait=1, max_queue=100))
        outcomes = await asyncio.gather(
            *(batcher.submit(i) for i in range(6)), return_exceptions=True
        )
        assert [o if not isinstance(o, ValueError) else "error" for o in outcomes] == [
            0,
            "error",
            2,
            "error",
            4,
            "error",
        ]
        await batcher.close()

    run(scenario)


@pytest.mark.parametrize("answer", [lambda items: items[:-1], lambda items: 42])
def test_a_model_answering_out_of_shape_fails_every_caller(
    answer: Callable[[list[Any]], Any],
) -> None:
    """The wrong count, or not a sequence at all: an error for each caller, none left hanging."""

    async def model(items: list[Any]) -> Any:
        return answer(items)

    async def scenario() -> None:
        batcher = AsyncBatcher(model, Config(max_batch_size=4, max_wait=1, max_queue=100))
        outcomes = await asyncio.gather(
            *(batcher.submit(i) for i in range(4)), return_exceptions=True
        )
        assert all(isinstance(o, ValueError | TypeError) for o in outcomes), outcomes
        await batcher.close()

    run(scenario)


def test_a_full_queue_refuses_at_once() -> None:
    async def scenario() -> None:
        gate = asyncio.Event()

        async def model(items: list[Any]) -> list[Any]:
            await gate.wait()
            return items

        batcher = AsyncBatcher(model, Config(max_batch_size=1, max_wait=0, max_queue=2))
        first = asyncio.ensure_future(batcher.submit("in flight"))
        await asyncio.sleep(0.002)  # the first is sent and holds the only slot
        queued = [asyncio.ensure_future(batcher.submit(f"q{i}")) for i in range(2)]
        await asyncio.sleep(0)
        with pytest.raises(QueueFull):
            await batcher.submit("one too many")
        gate.set()
        assert await first == "in flight"
        assert await asyncio.gather(*queued) == ["q0", "q1"]
        await batcher.close()

    run(scenario)


def test_a_request_that_outlives_its_timeout_in_the_queue_raises_timeout_error() -> None:
    async def scenario() -> None:
        gate = asyncio.Event()

        async def model(items: list[Any]) -> list[Any]:
            await gate.wait()
            return items

        batcher = AsyncBatcher(model, Config(max_batch_size=1, max_wait=0, max_queue=10))
        first = asyncio.ensure_future(batcher.submit("slow"))
        await asyncio.sleep(0.002)
        with pytest.raises(TimeoutError):
            await batcher.submit("impatient", timeout=0.01)
        gate.set()
        assert await first == "slow"
        await batcher.close()

    run(scenario)


def test_close_sends_what_is_queued_and_waits_for_it() -> None:
    model = Model(delay=0.002)

    async def scenario() -> None:
        batcher = AsyncBatcher(model, Config(max_batch_size=4, max_wait=10_000, max_queue=100))
        tasks = [asyncio.ensure_future(batcher.submit(i)) for i in range(10)]
        await asyncio.sleep(0.002)  # queued, waiting for a batch that fills in 10 s
        await batcher.close()
        assert all(task.done() for task in tasks)
        assert [task.result() for task in tasks] == [2 * i for i in range(10)]
        with pytest.raises(Closed):
            await batcher.submit(99)

    run(scenario)


def test_priorities_and_tokens_pass_through_to_the_core() -> None:
    order: list[Any] = []

    async def model(items: list[Any]) -> list[Any]:
        order.extend(items)
        await asyncio.sleep(0.001)
        return items

    async def scenario() -> None:
        batcher = AsyncBatcher(model, Config(max_batch_size=1, max_wait=0, max_queue=10))
        first = asyncio.ensure_future(batcher.submit("first"))
        await asyncio.sleep(0.0005)  # "first" is sent alone and holds the only slot
        rest = [
            asyncio.ensure_future(batcher.submit(name, priority=p))
            for name, p in [("low", 0), ("high", 2), ("mid", 1)]
        ]
        await asyncio.gather(first, *rest)
        await batcher.close()

    run(scenario)
    assert order == ["first", "high", "mid", "low"]
