"""IdempotencyStore: one execution per key within its time to live, its outcome replayed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.checks import expect
from kata.impl import Implementation
from tests.support.retrying import Step, store

pytestmark = pytest.mark.retry_idempotency

RULE = (
    "per key, within ttl: the first request runs the operation and stores its outcome, a "
    "result or an exception; a repeat with equal params gets it back (the same exception "
    "object raised again) and runs nothing; other params raise ValueError; a repeat while "
    "it runs raises InProgress; an outcome expires ttl ticks after it was stored."
)


@pytest.mark.rules(17, 18)
def test_a_repeat_gets_the_stored_result_without_running_again(impl: Implementation) -> None:
    steps: list[Step] = [("execute", "k", "p", 1), ("execute", "k", "p", 2)]
    want = ((("returned", 1), ("returned", 1)), ("k",))
    expect(impl, store(100, steps), want, rule=RULE)


@pytest.mark.rules(17, 18)
def test_a_stored_none_is_an_outcome_too(impl: Implementation) -> None:
    """An operation that returns None has run: a repeat gets None back and runs nothing.

    Using None as "nothing stored yet" runs a charge whose handler returns None
    once per retry.
    """
    steps: list[Step] = [("execute", "k", "p", None), ("execute", "k", "p", "again")]
    want = ((("returned", None), ("returned", None)), ("k",))
    expect(impl, store(100, steps), want, rule=RULE)


@pytest.mark.rules(17, 18)
def test_a_failed_execution_is_stored_and_replayed(impl: Implementation) -> None:
    """A retried charge that failed must not run again: the same exception comes back."""
    steps: list[Step] = [("fail", "k", "p", "card declined"), ("execute", "k", "p", "charged")]
    raised = ("raised", "card declined", "exception #1")
    expect(impl, store(100, steps), ((raised, raised), ("k",)), rule=RULE)


@pytest.mark.rules(19)
def test_the_same_key_with_other_parameters_is_an_error(impl: Implementation) -> None:
    steps: list[Step] = [("execute", "k", ("EUR", 10), "ok"), ("execute", "k", ("EUR", 99), "ok")]
    expect(impl, store(100, steps), ((("returned", "ok"), ("ValueError",)), ("k",)), rule=RULE)


@pytest.mark.rules(17)
def test_keys_are_independent(impl: Implementation) -> None:
    steps: list[Step] = [
        ("execute", "a", "p", 1),
        ("execute", "b", "p", 2),
        ("execute", "a", "p", 3),
    ]
    want = ((("returned", 1), ("returned", 2), ("returned", 1)), ("a", "b"))
    expect(impl, store(100, steps), want, rule=RULE)


@pytest.mark.rules(21)
def test_an_outcome_expires_ttl_ticks_after_it_was_stored(impl: Implementation) -> None:
    """Stored at 500, ttl 100: replayed at 599, run anew at 600."""
    steps: list[Step] = [
        ("execute", "k", "p", 1),
        ("advance", 99),
        ("execute", "k", "p", 2),
        ("advance", 1),
        ("execute", "k", "p", 3),
        ("execute", "k", "p", 4),
    ]
    want = ((("returned", 1), ("returned", 1), ("returned", 3), ("returned", 3)), ("k", "k"))
    expect(impl, store(100, steps), want, rule=RULE)


@pytest.mark.rules(21)
def test_an_outcome_is_stored_when_the_operation_returns(impl: Implementation) -> None:
    """ttl 10: an operation running from 500 to 507 is stored at 507, so at 512 it is replayed.

    Stamped when it began (500), it would expire at 510, and run again at 512.
    """
    steps = [("slow", "k", "p", 7), ("advance", 5), ("execute", "k", "p", "again")]
    want = ((("returned", "done"), ("returned", "done")), ("k",))
    expect(impl, store(10, steps), want, rule=RULE)


@pytest.mark.rules(21)
def test_an_expired_key_may_be_reused_with_other_parameters(impl: Implementation) -> None:
    steps: list[Step] = [("execute", "k", "p", 1), ("advance", 100), ("execute", "k", "q", 2)]
    expect(impl, store(100, steps), ((("returned", 1), ("returned", 2)), ("k", "k")), rule=RULE)


@pytest.mark.rules(20)
def test_a_repeat_while_the_first_runs_is_refused(impl: Implementation) -> None:
    """The operation, while running, sees its own key requested again: InProgress, nothing run."""
    steps: list[Step] = [("nested", "k", "p", "p"), ("execute", "k", "p", "again")]
    inner = ("while running", ("refused: in progress",))
    want = ((("returned", inner), ("returned", inner)), ("k",))
    expect(impl, store(100, steps), want, rule=RULE)


@pytest.mark.rules(19)
def test_a_repeat_with_other_parameters_while_running_is_still_an_error(
    impl: Implementation,
) -> None:
    steps: list[Step] = [("nested", "k", "p", "q")]
    expect(
        impl,
        store(100, steps),
        ((("returned", ("while running", ("ValueError",))),), ("k",)),
        rule=RULE,
    )


def model(
    ttl: int, steps: list[Step], start: int = 500
) -> tuple[tuple[object, ...], tuple[str, ...]]:
    """The rule above, read literally, for execute/fail/advance steps."""
    now, runs, outcomes, errors = start, list[str](), list[tuple[object, ...]](), list[str]()
    stored: dict[str, tuple[int, object, tuple[object, ...]]] = {}
    for step in steps:
        if step[0] == "advance":
            now += step[1]
            continue
        kind, key, params, detail = step
        entry = stored.get(key)
        if entry is not None and now - entry[0] >= ttl:
            entry = None
        if entry is None:
            runs.append(key)
            if kind == "fail":
                errors.append(detail)
                outcome: tuple[object, ...] = ("raised", detail, f"exception #{len(errors)}")
            else:
                outcome = ("returned", detail)
            stored[key] = (now, params, outcome)
            outcomes.append(outcome)
        elif entry[1] != params:
            outcomes.append(("ValueError",))
        else:
            outcomes.append(entry[2])
    return tuple(outcomes), tuple(runs)


steps_strategy = st.lists(
    st.one_of(
        st.tuples(
            st.sampled_from(["execute", "fail"]),
            st.sampled_from("ab"),
            st.sampled_from("pq"),
            st.integers(0, 9).map(str),
        ),
        st.tuples(st.just("advance"), st.integers(0, 60)),
    ),
    max_size=15,
)


@pytest.mark.rules(17, 18, 19, 20, 21)
@given(st.integers(1, 100), steps_strategy)
def test_any_sequence_of_requests_matches_the_model(
    impl: Implementation, ttl: int, steps: list[Step]
) -> None:
    expect(impl, store(ttl, steps), model(ttl, steps), rule=RULE)


@pytest.mark.rules(17)
def test_an_interrupted_operation_leaves_the_key_free(impl: Implementation) -> None:
    """The first run is interrupted (a BaseException, as Ctrl-C is): it has no outcome to
    store or replay, and a key left marked running would refuse every retry for ever."""
    steps: list[Step] = [("interrupt", "k", "p", None), ("execute", "k", "p", "charged")]
    want = ((("interrupted",), ("returned", "charged")), ("k", "k"))
    expect(impl, store(100, steps), want, rule=RULE)
