"""The memory exercise from the tests' side: questions, brute-force oracles, what differs.

Four contracts are asked about: `activation_bytes` and `peak_bytes` (a
shape, a sequence length, a batch and a recompute mode), `largest_batch`
and `plan_batches` (a `Call`).  The oracles read the contract literally:
the table's first column, ``s*b*h*(34 + 5*a*s/h)``, in exact fractions;
the largest batch by trying b = 0, 1, 2, ... (or, at sizes where that would
take long, by halving: only the definition, peak <= memory, is used); the
plan by a plain simulation that rescans each candidate micro-batch for its
longest sequence.

Answers are read in a normal form: an int (never a float, never a bool); a
plan as `Planned(steps, real_tokens, padded_tokens)` whose steps are tuples
of `Batch(sequences, padded_length, bytes)`, plain tuples underneath, so a
candidate's own NamedTuples or dataclasses compare by field.  The packing's
tests read only the micro-batches, in order, steps aside (`batches_question`),
so that a mistake in the steps is not one in the packing.  A sequence too
long for any micro-batch is a `Refusal`: whether the ValueError's message
names the sequence's position and length.

What differs is said in the contract's words (`plan_difference`,
`packing_problems`, ...): "micro-batch 2 needs 1,234 bytes, over the memory
1,000", "micro-batch 1 is padded to 2, its first sequence's length, not to
its longest".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache, partial
from itertools import pairwise
from typing import Any, NamedTuple

from kata.checks import answer, expect, expect_each, expect_that, expect_value_error
from kata.cost import GROWTH, cost_question, work
from kata.impl import Implementation, Module
from kata.outcomes import Question, ShapeError, brief

RECOMPUTE = ("none", "selective", "full")
BYTES_PER_PARAMETER = 16


class Dims(NamedTuple):
    """A model as the tests describe it; passed to the functions as the candidate's Shape."""

    layers: Any
    hidden: Any
    heads: Any
    parameters: Any

    def __str__(self) -> str:
        return (
            f"Shape(layers={lit(self.layers)}, hidden={lit(self.hidden)}, "
            f"heads={lit(self.heads)}, parameters={lit(self.parameters)})"
        )


class Batch(NamedTuple):
    """A micro-batch as the tests compare it."""

    sequences: tuple[int, ...]
    padded_length: int
    bytes: int


class Planned(NamedTuple):
    """A plan as the tests compare it."""

    steps: tuple[tuple[Batch, ...], ...]
    real_tokens: int
    padded_tokens: int

    def batches(self) -> list[Batch]:
        """Every micro-batch, in order."""
        return [batch for step in self.steps for batch in step]


@dataclass(frozen=True)
class Refusal:
    """plan_batches raised ValueError: does its message name the sequence too long?"""

    position: int
    length: int
    names_position: bool
    names_length: bool
    # It names the position counted from 1 instead: a mistake of its own, told apart
    # from a message that names no position at all.
    from_one: bool = False
    message: str = field(default="", compare=False)


@dataclass(frozen=True)
class TooLong:
    """The oracle's answer when a sequence fits no micro-batch: the first met."""

    position: int
    length: int
    alone: int  # its peak at batch 1


class Call(NamedTuple):
    """One call of plan_batches: the question a test asks."""

    lengths: tuple[Any, ...]
    shape: Dims
    memory: Any
    recompute: Any
    window: Any
    tokens_per_step: Any

    def text(self, form: str = "list") -> str:
        given = _listed(self.lengths)
        if form == "iterator":
            given = f"iter({given})"
        elif form == "generator":
            given = f"(length for length in {given})"
        elif form == "tuple":
            given = f"tuple({given})"
        return (
            f"plan_batches({given}, {self.shape}, memory={lit(self.memory)}, "
            f"recompute={self.recompute!r}, window={lit(self.window)}, "
            f"tokens_per_step={lit(self.tokens_per_step)})"
        )

    def __str__(self) -> str:
        return self.text()


# Full recomputation, one layer of one unit, 10 parameters: 160 + 2*s*b bytes, so with 200
# bytes a micro-batch fits when its padded length times its size is at most 20.  Small enough
# to check every number by hand.
TINY = Dims(layers=1, hidden=1, heads=1, parameters=10)
# Large enough that a float is not exact: bytes in the 10**17s.
BIG = Dims(layers=95, hidden=65536, heads=100, parameters=10**12 + 1)
EVERYTHING = 10**9  # tokens per step: every micro-batch in one step


def plan_call(
    lengths: Sequence[Any],
    *,
    memory: Any = 200,
    window: Any = 100,
    tokens_per_step: Any = EVERYTHING,
    shape: Dims = TINY,
    recompute: Any = "full",
) -> Call:
    """plan_batches of `lengths`: by default the tiny model with 200 bytes, one window, one
    step."""
    return Call(tuple(lengths), shape, memory, recompute, window, tokens_per_step)


def lit(value: Any) -> str:
    """A value as a candidate would type it: big ints with underscores."""
    if type(value) is int and abs(value) >= 100_000:
        return f"{value:_}"
    return repr(value)


def _listed(lengths: Sequence[Any]) -> str:
    if len(lengths) > 40:
        head = ", ".join(map(lit, lengths[:20]))
        return f"[{head}, ... ({len(lengths) - 20} more)]"
    return "[" + ", ".join(map(lit, lengths)) + "]"


def comma(value: Any) -> str:
    """An int with thousands separators, as the contract's messages read; else its repr."""
    return f"{value:,}" if type(value) is int else brief(value)


# --- oracles: the contract, read literally -----------------------------------------------


@lru_cache(maxsize=1 << 16)
def activation_oracle(shape: Dims, seq_len: int, batch: int, recompute: str) -> int:
    """``layers`` times the table's bytes per layer, the `"none"` row as the table's first
    column writes it, ``s*b*h*(34 + 5*a*s/h)``, in exact fractions (kept: the oracles ask the
    same shapes again and again)."""
    s, b, h, a = seq_len, batch, shape.hidden, shape.heads
    per_layer = {
        "none": s * b * h * (34 + Fraction(5 * a * s, h)),
        "selective": Fraction(34 * s * b * h),
        "full": Fraction(2 * s * b * h),
    }[recompute]
    total = shape.layers * per_layer
    assert total.denominator == 1, total
    return int(total)


def peak_oracle(shape: Dims, seq_len: int, batch: int, recompute: str) -> int:
    """16 bytes a parameter, plus one micro-batch's activations."""
    states: int = BYTES_PER_PARAMETER * shape.parameters
    return states + activation_oracle(shape, seq_len, batch, recompute)


def largest_oracle(shape: Dims, seq_len: int, memory: int, recompute: str) -> int:
    """The largest b >= 0 with peak(b) <= memory: tried b = 0, 1, 2, ... while the answer is
    small; past that (the tests' large shapes), found by halving on the same definition."""

    def fits(b: int) -> bool:
        return peak_oracle(shape, seq_len, b, recompute) <= memory

    b = 0
    while b < 1_000 and fits(b + 1):
        b += 1
    if b < 1_000:
        return b
    low, high = b, 2 * b  # fits(low); find a high that does not
    while fits(high):
        low, high = high, 2 * high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def too_long_from(shape: Dims, memory: int, recompute: str) -> int:
    """The shortest sequence that does not fit alone (a length from which every one is
    refused), found by trying each length."""
    s = 1
    while peak_oracle(shape, s, 1, recompute) <= memory:
        s += 1
    return s


def windows_of(count: int, window: int) -> list[list[int]]:
    """The input positions of each window, in input order."""
    return [list(range(start, min(start + window, count))) for start in range(0, count, window)]


def plan_oracle(call: Call) -> Planned | TooLong:
    """The contract as a plain simulation: each window sorted by (length, position), each
    sequence tried in the open micro-batch (its longest found by looking at every member),
    steps closed as soon as their real tokens reach the target."""
    lengths, shape, memory, recompute = call.lengths, call.shape, call.memory, call.recompute
    batches: list[Batch] = []
    for members in windows_of(len(lengths), call.window):
        order = sorted(members, key=lambda p: (lengths[p], p))
        open_batch: list[int] = []
        for position in order:
            tried = [*open_batch, position]
            longest = max(lengths[p] for p in tried)
            if peak_oracle(shape, longest, len(tried), recompute) <= memory:
                open_batch = tried
                continue
            alone = peak_oracle(shape, lengths[position], 1, recompute)
            if alone > memory:
                return TooLong(position, lengths[position], alone)
            batches.append(_batch(call, open_batch))
            open_batch = [position]
        if open_batch:
            batches.append(_batch(call, open_batch))
    steps: list[tuple[Batch, ...]] = []
    step: list[Batch] = []
    for batch in batches:
        step.append(batch)
        if sum(lengths[p] for b in step for p in b.sequences) >= call.tokens_per_step:
            steps.append(tuple(step))
            step = []
    if step:
        steps.append(tuple(step))
    padded = sum(b.padded_length * len(b.sequences) for b in batches)
    return Planned(tuple(steps), sum(lengths), padded)


def _batch(call: Call, members: list[int]) -> Batch:
    longest = max(call.lengths[p] for p in members)
    size = peak_oracle(call.shape, longest, len(members), call.recompute)
    return Batch(tuple(members), longest, size)


def planned(call: Call) -> Planned:
    """The oracle's plan of a call the test knows to be plannable."""
    plan = plan_oracle(call)
    assert isinstance(plan, Planned), f"the test's own call cannot be planned: {plan}"
    return plan


def plan_of(
    call: Call, *steps: Sequence[tuple[Sequence[int], int]], real: int, padded: int
) -> Planned:
    """A plan written by hand: each step its micro-batches as (positions, padded_length);
    the bytes are the peak at that shape (the tests check them by hand in their docstrings)."""
    return Planned(
        tuple(
            tuple(
                Batch(
                    tuple(sequences),
                    length,
                    peak_oracle(call.shape, length, len(sequences), call.recompute),
                )
                for sequences, length in step
            )
            for step in steps
        ),
        real,
        padded,
    )


def batches_of(call: Call, *batches: tuple[Sequence[int], int]) -> tuple[Batch, ...]:
    """Micro-batches written by hand, (positions, padded_length) each, their bytes the peak at
    that shape."""
    (step,) = plan_of(call, batches, real=0, padded=0).steps
    return step


# --- normal forms ------------------------------------------------------------------------------


def _count(value: Any, what: str) -> int:
    if type(value) is not int:
        raise ShapeError(
            f"expected {what} as an int, got a {type(value).__name__}: every count is an exact "
            "integer, never a float",
            brief(value),
        )
    return value


def _field(record: Any, name: str) -> Any:
    try:
        return getattr(record, name)
    except AttributeError:
        raise ShapeError(f"{type(record).__name__} has no field {name!r}", brief(record)) from None


def _sequence(value: Any, what: str) -> tuple[Any, ...]:
    if not isinstance(value, tuple | list):
        raise ShapeError(f"expected {what} as a tuple, got a {type(value).__name__}", brief(value))
    return tuple(value)


def normal_plan(result: Any) -> Planned:
    """A Plan-like record as `Planned`; ShapeError if it is not one."""
    steps = []
    for step in _sequence(_field(result, "steps"), "Plan.steps"):
        batches = []
        for batch in _sequence(step, "each step (its micro-batches)"):
            sequences = tuple(
                _count(p, "a position")
                for p in _sequence(_field(batch, "sequences"), "MicroBatch.sequences")
            )
            padded = _count(_field(batch, "padded_length"), "MicroBatch.padded_length")
            batches.append(Batch(sequences, padded, _count(_field(batch, "bytes"), "bytes")))
        steps.append(tuple(batches))
    real = _count(_field(result, "real_tokens"), "Plan.real_tokens")
    return Planned(tuple(steps), real, _count(_field(result, "padded_tokens"), "padded_tokens"))


# --- showing -----------------------------------------------------------------------------------


def show_count(value: Any) -> str:
    return comma(value)


def show_batch(batch: Batch) -> str:
    return (
        f"MicroBatch(sequences={batch.sequences}, padded_length={lit(batch.padded_length)}, "
        f"bytes={lit(batch.bytes)})"
    )


def show_plan(plan: Any) -> str:
    """A plan as the contract's records, a step a line."""
    if isinstance(plan, Refusal):
        return show_refusal(plan)
    tokens = f"real_tokens={lit(plan.real_tokens)}, padded_tokens={lit(plan.padded_tokens)}"
    if not plan.steps:
        return f"Plan(steps=(), {tokens})"
    lines = ["Plan(steps=("]
    for number, step in enumerate(plan.steps, 1):
        lines.append(f"    ({', '.join(map(show_batch, step))},),  # step {number}")
    lines.append(f"  ), {tokens})")
    return "\n".join(lines)


def show_refusal(refusal: Any) -> str:
    if not isinstance(refusal, Refusal):
        return show_plan(refusal)
    wanted = f"naming sequence {refusal.position} and its length {refusal.length}"
    if not refusal.message:
        return f"ValueError, its message {wanted}"
    missing = [
        what
        for what, named in (
            (f"the position {refusal.position}", refusal.names_position),
            (f"the length {refusal.length}", refusal.names_length),
        )
        if not named
    ]
    verdict = f"not naming {' nor '.join(missing)}" if missing else wanted
    return f"ValueError({refusal.message!r}), {verdict}"


# --- questions ---------------------------------------------------------------------------------


def bytes_question(name: str, shape: Dims, *, seq_len: Any, batch: Any, recompute: Any) -> Question:
    """activation_bytes or peak_bytes, asked with the candidate's Shape."""
    text = f"{name}({shape}, seq_len={lit(seq_len)}, batch={lit(batch)}, recompute={recompute!r})"
    return Question(text, partial(_ask_bytes, name, shape, seq_len, batch, recompute), show_count)


def _ask_bytes(
    name: str, shape: Dims, seq_len: Any, batch: Any, recompute: Any, impl: Module
) -> int:
    function = impl.require(name)
    result = function(
        impl.record("Shape", *shape), seq_len=seq_len, batch=batch, recompute=recompute
    )
    return _count(result, "bytes")


def largest_question(shape: Dims, *, seq_len: Any, memory: Any, recompute: Any) -> Question:
    text = (
        f"largest_batch({shape}, seq_len={lit(seq_len)}, memory={lit(memory)}, "
        f"recompute={recompute!r})"
    )
    return Question(text, partial(_ask_largest, shape, seq_len, memory, recompute), show_count)


def _ask_largest(shape: Dims, seq_len: Any, memory: Any, recompute: Any, impl: Module) -> int:
    function = impl.require("largest_batch")
    result = function(
        impl.record("Shape", *shape), seq_len=seq_len, memory=memory, recompute=recompute
    )
    return _count(result, "a batch size")


def plan_question(call: Call, *, form: str = "list", keeps_input: bool = False) -> Question:
    """plan_batches asked `call`, its lengths a list, a tuple, an iterator or a generator.

    With `keeps_input`, an answer that changes the caller's list is malformed.
    """
    return Question(call.text(form), partial(_ask_plan, call, form, keeps_input), show_plan)


def _given(lengths: list[Any], form: str) -> Iterable[Any]:
    if form == "iterator":
        return iter(lengths)
    if form == "generator":
        return (length for length in lengths)
    if form == "tuple":
        return tuple(lengths)
    return lengths


def _call_plan(call: Call, lengths: Iterable[Any], impl: Module) -> Any:
    return impl.require("plan_batches")(
        lengths,
        impl.record("Shape", *call.shape),
        memory=call.memory,
        recompute=call.recompute,
        window=call.window,
        tokens_per_step=call.tokens_per_step,
    )


def _ask_plan(call: Call, form: str, keeps_input: bool, impl: Module) -> Planned:
    lengths = list(call.lengths)
    result = _call_plan(call, _given(lengths, form), impl)
    if keeps_input and lengths != list(call.lengths):
        raise ShapeError(
            f"it changed the caller's list of lengths (now {_listed(lengths)}): read the "
            "input, never modify it",
            brief(result),
        )
    return normal_plan(result)


def batches_question(call: Call) -> Question:
    """plan_batches asked `call`; the answer read is its micro-batches in order, steps aside
    (what packing decides; the steps are grouped from them)."""
    return Question(call.text(), partial(_ask_batches, call), show_batches)


def _ask_batches(call: Call, impl: Module) -> tuple[Batch, ...]:
    return tuple(normal_plan(_call_plan(call, list(call.lengths), impl)).batches())


def show_batches(batches: Any) -> str:
    if isinstance(batches, Refusal):
        return show_refusal(batches)
    if not batches:
        return "no micro-batch"
    lines = [f"    {show_batch(b)},  # micro-batch {i}" for i, b in enumerate(batches, 1)]
    return "the micro-batches, steps aside:\n" + "\n".join(lines)


def refusal_question(call: Call, position: int, length: int) -> Question:
    """plan_batches asked a call with a sequence too long for any micro-batch: the answer is
    whether its ValueError's message names the sequence's position and length."""
    return Question(
        f"{call}\n  # sequence {position} ({length} tokens) does not fit alone",
        partial(_ask_refusal, call, position, length),
        show_refusal,
    )


def _ask_refusal(call: Call, position: int, length: int, impl: Module) -> Refusal | Planned:
    try:
        result = _call_plan(call, list(call.lengths), impl)
    except ValueError as error:
        message = str(error)
        shown = message or " "  # a message, however empty: this one was raised, not wanted
        named = names(message, position)
        from_one = not named and names(message, position + 1)
        return Refusal(position, length, named, names(message, length), from_one, shown)
    return normal_plan(result)


def names(message: str, number: int) -> bool:
    """Whether `message` holds `number` as a number of its own (4097, 4,097 or 4_097), not
    as a part of another (12 in 120, or in 1,234,512)."""
    spellings = {str(number), f"{number:,}", f"{number:_}"}
    return any(
        re.search(rf"(?<![\d_,.]){re.escape(spelled)}(?![\d_]|[,.]\d)", message)
        for spelled in spellings
    )


def refused_by_name(call: Call) -> Refusal:
    """The answer of `refusal_question` the contract wants for `call`."""
    too_long = plan_oracle(call)
    assert isinstance(too_long, TooLong), f"the test's own call can be planned: {too_long}"
    return Refusal(too_long.position, too_long.length, True, True)


# --- what differs, in the contract's words -----------------------------------------------------


def activation_difference(
    shape: Dims, seq_len: int, batch: int, recompute: str, want: int, got: int
) -> str:
    """What an activation_bytes answer got wrong, if it is a mistake the contract names."""
    s, b, h, a, layers = seq_len, batch, shape.hidden, shape.heads, shape.layers
    per_layer = want // layers
    if got == per_layer and layers > 1:
        return f"one layer's bytes ({comma(got)}), not times the {layers} layers."
    for other in RECOMPUTE:
        if other != recompute and got == activation_oracle(shape, s, b, other):
            return f"the bytes of recompute={other!r}, not {recompute!r}."
    if recompute == "none":
        if got == layers * s * b * h * (34 + 5 * a * s // h):
            return (
                "5*a*s/h rounded down to an integer: multiply out, 34*s*b*h + 5*a*s*s*b, "
                "with no division."
            )
        if got == layers * (34 * s * b * h + 5 * a * s * b):
            return "the attention term 5*a*s*b, not 5*a*s*s*b: the scores are s x s."
    if got != want and (abs(got - want) * 10**9 < want or abs(got - want) == 1):
        off = f"{comma(abs(got - want))} byte{'s' * (abs(got - want) != 1)}"
        return (
            f"{off} {'short of' if got < want else 'over'} {comma(want)}: a float's rounding; "
            "every count is an exact integer."
        )
    return (
        f"{comma(got)} bytes, not {layers} layers x {comma(per_layer)} "
        f"({_per_layer_terms(shape, s, b, recompute)})."
    )


def _per_layer_terms(shape: Dims, s: int, b: int, recompute: str) -> str:
    h, a = shape.hidden, shape.heads
    if recompute == "none":
        return (
            f"34*s*b*h = {comma(34 * s * b * h)} plus 5*a*s*s*b = {comma(5 * a * s * s * b)} "
            "a layer"
        )
    factor = 34 if recompute == "selective" else 2
    return f"{factor}*s*b*h = {comma(factor * s * b * h)} a layer"


def peak_difference(
    shape: Dims, seq_len: int, batch: int, recompute: str, want: int, got: int
) -> str:
    """What a peak_bytes answer got wrong."""
    activations = activation_oracle(shape, seq_len, batch, recompute)
    states = BYTES_PER_PARAMETER * shape.parameters
    if got == activations and states:
        return (
            f"the activations alone: the states, 16 bytes a parameter ({comma(states)} "
            "bytes), are resident whatever the batch."
        )
    per, left = divmod(got - activations, shape.parameters or 1)
    if shape.parameters > 1 and not left and per != BYTES_PER_PARAMETER and 0 <= per <= 64:
        return f"{per} bytes a parameter, not 16 (2 + 2 + 4 + 4 + 4: mixed precision with Adam)."
    if got - states != activations:
        return (
            f"the activations counted as {comma(got - states)} bytes, not "
            f"{comma(activations)}: {activation_difference(shape, seq_len, batch, recompute, activations, got - states)}"  # noqa: E501
        )
    return f"{comma(got)} bytes, not {comma(states)} + {comma(activations)}."


def largest_difference(
    shape: Dims, seq_len: int, memory: int, recompute: str, want: int, got: int
) -> str:
    """What a largest_batch answer got wrong: the peak at its answer, or at the right one."""
    if got < 0:
        return (
            f"a negative batch: when not even the states fit ({comma(peak_oracle(shape, seq_len, 0, recompute))} "  # noqa: E501
            f"bytes, over the memory {comma(memory)}), the answer is 0."
        )
    if got > want:
        need = peak_oracle(shape, seq_len, got, recompute)
        return f"batch {got} needs {comma(need)} bytes, over the memory {comma(memory)}."
    need = peak_oracle(shape, seq_len, want, recompute)
    exactly = ": a micro-batch that needs exactly the memory fits" if need == memory else ""
    return f"batch {want} needs {comma(need)} bytes, within the memory {comma(memory)}{exactly}."


def plan_difference(call: Call, want: Any, got: Any) -> str:
    """What differs between two plans, in the contract's words (the first few things)."""
    if isinstance(want, Refusal):
        return _refusal_difference(call, want, got)
    if isinstance(got, Refusal):
        return "a ValueError, though every sequence fits alone: nothing here is too long."
    parts = packing_problems(call, got.batches()) + steps_problems(call, got)
    parts += token_problems(call, got)
    if not parts:
        parts.append(_first_different_batch(want, got))
    return "; ".join(parts[:3]) + "."


def packing_problems(call: Call, batches: Sequence[Batch]) -> list[str]:
    """Where a plan's micro-batches (in order, steps aside) break the contract: positions
    lost or repeated, windows mixed or out of order, padding, bytes, the memory, the order of
    joining, a micro-batch closed though the next sequence fitted.  Empty if none."""
    lengths, parts = call.lengths, list[str]()
    seen = Counter(p for batch in batches for p in batch.sequences)
    outside = sorted(p for p in seen if not 0 <= p < len(lengths))
    if outside:
        return [f"positions {outside} are not positions of the input (0 to {len(lengths) - 1})"]
    missing = [p for p in range(len(lengths)) if not seen[p]]
    if missing:
        parts.append(f"positions {missing} are in no micro-batch")
    repeated = sorted(p for p, count in seen.items() if count > 1)
    if repeated:
        parts.append(f"positions {repeated} are in more than one micro-batch")
    for number, batch in enumerate(batches, 1):
        parts += _batch_difference(call, number, batch)
    return parts + _order_difference(call, list(batches))


def packing_difference(call: Call, want: Any, got: Any) -> str:
    """What differs between two packings (micro-batches in order), in the contract's words."""
    if isinstance(want, Refusal) or isinstance(got, Refusal):
        return plan_difference(call, want, got)
    parts = packing_problems(call, got)
    if not parts:
        parts.append(_first_different_batch(want, got))
    return "; ".join(parts[:3]) + "."


def token_problems(call: Call, got: Planned) -> list[str]:
    """Where real_tokens or padded_tokens are not the sums they are."""
    parts, lengths = list[str](), call.lengths
    if got.real_tokens != sum(lengths):
        parts.append(
            f"real_tokens is {comma(got.real_tokens)}, the sum of the lengths is "
            f"{comma(sum(lengths))}"
        )
    padded = sum(b.padded_length * len(b.sequences) for b in got.batches())
    if got.padded_tokens != padded:
        parts.append(
            f"padded_tokens is {comma(got.padded_tokens)}, the sum of padded_length * "
            f"len(sequences) over its micro-batches is {comma(padded)}"
        )
    return parts


def _refusal_difference(call: Call, want: Refusal, got: Any) -> str:
    alone = peak_oracle(call.shape, want.length, 1, call.recompute)
    if isinstance(got, Planned):
        return (
            f"sequence {want.position} ({want.length} tokens) needs {comma(alone)} bytes alone, "
            f"over the memory {comma(call.memory)}: it fits no micro-batch, so nothing is "
            "planned; a ValueError names it"
        )
    missing = [
        what
        for what, named in (
            (f"its position {want.position}", got.names_position),
            (f"its length {want.length}", got.names_length),
        )
        if not named
    ]
    return f"the ValueError's message does not name {' nor '.join(missing)}: {got.message!r}."


def _batch_difference(call: Call, number: int, batch: Batch) -> list[str]:
    lengths, parts = call.lengths, list[str]()
    if not batch.sequences:
        return [f"micro-batch {number} is empty"]
    windows = sorted({p // call.window + 1 for p in batch.sequences})
    if len(windows) > 1:
        parts.append(
            f"micro-batch {number} holds sequences of {len(windows)} windows (windows "
            f"{', '.join(map(str, windows))}, of {call.window} sequences in input order): a "
            "micro-batch holds one window's"
        )
    longest = max(lengths[p] for p in batch.sequences)
    size = len(batch.sequences)
    if batch.padded_length != longest:
        first = lengths[batch.sequences[0]]
        if batch.padded_length == first:
            parts.append(
                f"micro-batch {number} is padded to {first}, its first sequence's length, not "
                f"to its longest, {longest}: the padding counted from the first sequence"
            )
        else:
            parts.append(
                f"micro-batch {number} is padded to {batch.padded_length}; its longest "
                f"sequence has {longest} tokens"
            )
    need = peak_oracle(call.shape, longest, size, call.recompute)
    if need > call.memory:
        parts.append(
            f"micro-batch {number} needs {comma(need)} bytes ({size} sequences padded to "
            f"{longest}), over the memory {comma(call.memory)}"
        )
    if batch.bytes != need:
        parts.append(
            f"micro-batch {number} says {comma(batch.bytes)} bytes; the peak at padded length "
            f"{longest} and {size} sequences is {comma(need)}"
        )
    order = tuple(sorted(batch.sequences, key=lambda p: (p // call.window, lengths[p], p)))
    if batch.sequences != order and len(windows) == 1:
        parts.append(
            f"micro-batch {number} lists {batch.sequences}, but sequences join shortest "
            f"first, ties by position: {order}"
        )
    return parts


def _order_difference(call: Call, batches: list[Batch]) -> list[str]:
    """Windows out of order, or a micro-batch closed while the next sequence still fit."""
    lengths, parts = call.lengths, list[str]()
    for number, (before, after) in enumerate(pairwise(batches), 1):
        if not (before.sequences and after.sequences):
            continue
        window_before = max(p // call.window for p in before.sequences) + 1
        window_after = min(p // call.window for p in after.sequences) + 1
        if window_after < window_before:
            parts.append(
                f"micro-batch {number + 1} (window {window_after}) comes after micro-batch "
                f"{number} (window {window_before}): windows keep their input order"
            )
            continue
        if window_after != window_before:
            continue
        joined = after.sequences[0]
        tried = [*before.sequences, joined]
        need = peak_oracle(call.shape, max(lengths[p] for p in tried), len(tried), call.recompute)
        if need <= call.memory:
            exactly = " (exactly the memory fits)" if need == call.memory else ""
            parts.append(
                f"sequence {joined} opened micro-batch {number + 1}, though micro-batch {number} "
                f"with it needs {comma(need)} bytes, within the memory "
                f"{comma(call.memory)}{exactly}: it joins"
            )
    return parts


def steps_problems(call: Call, got: Planned) -> list[str]:
    """Where a plan's steps break the contract: empty, closed short of the target before the
    last, or holding micro-batches past the one that reached it."""
    lengths, target, parts = call.lengths, call.tokens_per_step, list[str]()
    for number, step in enumerate(got.steps, 1):
        if not step:
            parts.append(f"step {number} is empty")
            continue
        real = [sum(lengths[p] for p in batch.sequences) for batch in step]
        padded = sum(b.padded_length * len(b.sequences) for b in step)
        last = number == len(got.steps)
        if sum(real) < target and not last:
            counted = " (its padded tokens, not its real ones)" if padded >= target else ""
            parts.append(
                f"step {number} closed at {sum(real)} real tokens{counted}, short of "
                f"tokens_per_step {target}"
            )
        elif sum(real[:-1]) >= target:
            parts.append(
                f"step {number} had reached {sum(real[:-1])} real tokens before its last "
                f"micro-batch: a step closes as soon as its real tokens reach {target}"
            )
    return parts


def _first_different_batch(want: Any, got: Any) -> str:
    wanted = want.batches() if isinstance(want, Planned) else list(want)
    given = got.batches() if isinstance(got, Planned) else list(got)
    for number, (w, g) in enumerate(zip(wanted, given, strict=False), 1):
        if w != g:
            return f"micro-batch {number} is {show_batch(g)}, expected {show_batch(w)}"
    if len(wanted) != len(given):
        return f"{len(given)} micro-batches, expected {len(wanted)}"
    if isinstance(want, Planned) and isinstance(got, Planned):
        return "the micro-batches grouped into other steps"
    return "the same micro-batches"


# --- the implementation, asked -----------------------------------------------------------------


class Memory:
    """The implementation's memory functions, asked with the tests' shapes and calls."""

    def __init__(self, impl: Implementation) -> None:
        self.impl = impl

    def activation(
        self,
        shape: Dims,
        *,
        seq_len: int,
        batch: int,
        recompute: str,
        rule: str,
        want: int | None = None,
    ) -> int:
        """Fail unless activation_bytes answers `want` (default: the oracle's)."""
        expected = activation_oracle(shape, seq_len, batch, recompute) if want is None else want
        question = bytes_question(
            "activation_bytes", shape, seq_len=seq_len, batch=batch, recompute=recompute
        )
        symptom = partial(activation_difference, shape, seq_len, batch, recompute)
        result: int = expect(self.impl, question, expected, rule=rule, symptom=symptom)
        return result

    def peak(
        self,
        shape: Dims,
        *,
        seq_len: int,
        batch: int,
        recompute: str,
        rule: str,
        want: int | None = None,
    ) -> int:
        """Fail unless peak_bytes answers `want` (default: the oracle's)."""
        expected = peak_oracle(shape, seq_len, batch, recompute) if want is None else want
        question = bytes_question(
            "peak_bytes", shape, seq_len=seq_len, batch=batch, recompute=recompute
        )
        symptom = partial(peak_difference, shape, seq_len, batch, recompute)
        result: int = expect(self.impl, question, expected, rule=rule, symptom=symptom)
        return result

    def largest(
        self,
        shape: Dims,
        *,
        seq_len: int,
        memory: int,
        recompute: str,
        rule: str,
        want: int | None = None,
    ) -> int:
        """Fail unless largest_batch answers `want` (default: the oracle's)."""
        expected = largest_oracle(shape, seq_len, memory, recompute) if want is None else want
        question = largest_question(shape, seq_len=seq_len, memory=memory, recompute=recompute)
        symptom = partial(largest_difference, shape, seq_len, memory, recompute)
        result: int = expect(self.impl, question, expected, rule=rule, symptom=symptom)
        return result

    def largest_each(self, cases: Iterable[tuple[Dims, int, int, str]], *, rule: str) -> None:
        """`largest` of many (shape, seq_len, memory, recompute) against the oracle, sent
        together: fails at the first wrong answer."""

        def asked(case: tuple[Dims, int, int, str]) -> tuple[Question, int]:
            shape, seq_len, memory, recompute = case
            question = largest_question(shape, seq_len=seq_len, memory=memory, recompute=recompute)
            return question, largest_oracle(shape, seq_len, memory, recompute)

        expect_each(self.impl, map(asked, cases), rule=rule)

    def plan(
        self,
        call: Call,
        want: Planned | None = None,
        *,
        rule: str,
        form: str = "list",
        keeps_input: bool = False,
    ) -> Planned:
        """Fail unless plan_batches answers `want` (default: the simulation's)."""
        expected = planned(call) if want is None else want
        question = plan_question(call, form=form, keeps_input=keeps_input)
        symptom = partial(plan_difference, call)
        result: Planned = expect(self.impl, question, expected, rule=rule, symptom=symptom)
        return result

    def packs(self, call: Call, want: Sequence[Batch] | None = None, *, rule: str) -> None:
        """Fail unless plan_batches packs `call` into `want`, micro-batches in order, steps
        aside (default: the simulation's)."""
        expected = tuple(planned(call).batches() if want is None else want)
        symptom = partial(packing_difference, call)
        expect(self.impl, batches_question(call), expected, rule=rule, symptom=symptom)

    def packs_each(self, calls: Iterable[Call], *, rule: str) -> None:
        """`packs` of many calls against the simulation, sent together."""
        cases = ((batches_question(c), tuple(planned(c).batches())) for c in calls)
        expect_each(self.impl, cases, rule=rule)

    def refuses_by_name(self, call: Call, *, rule: str) -> None:
        """Fail unless plan_batches raises ValueError naming the sequence too long (the
        first the simulation meets), its position and its length."""
        want = refused_by_name(call)
        question = refusal_question(call, want.position, want.length)
        symptom = partial(plan_difference, call)
        expect(self.impl, question, want, rule=rule, symptom=symptom)

    def answer(self, question: Question, *, rule: str = "") -> Any:
        return answer(self.impl, question, rule=rule)

    def holds(
        self, questions: Sequence[Question], holds: Callable[..., bool], *, claim: str, rule: str
    ) -> list[Any]:
        return expect_that(self.impl, questions, holds, claim=claim, rule=rule)

    def refuses(self, question: Question, problem: str) -> None:
        expect_value_error(self.impl, question, problem)


# --- cost ---------------------------------------------------------------------------------------

COST_SHAPE = TINY


def cost_lengths(count: int) -> list[int]:
    """Lengths 1 to 32 in a scrambled order, the same at every run."""
    return [1 + (i * 37 + i // 7) % 32 for i in range(count)]


WORKLOADS = {
    # One window, one micro-batch: everything fits.  Looking at every member of the open
    # micro-batch, for each sequence, does n times the work at n.
    "one micro-batch": ("one window of n sequences, all in one micro-batch", None, 10**15),
    # Windows of 8 and micro-batches of about 4, all in one step: looking at every window or
    # at every micro-batch of the step, for each, does n times the work.
    "windows of 8": (
        "windows of 8, micro-batches of 4 or more, all in one step",
        8,
        peak_oracle(COST_SHAPE, 32, 4, "full"),
    ),
}


def per_sequence(workload: str, impl: Module) -> Callable[[int], float]:
    """The lines plan_batches runs per sequence, for n sequences of `workload`."""
    plan_batches = impl.require("plan_batches")
    shape = impl.record("Shape", *COST_SHAPE)
    _, window, memory = WORKLOADS[workload]

    def measure(count: int) -> float:
        lengths = cost_lengths(count)
        size = count if window is None else window

        def plan() -> None:
            plan_batches(
                lengths,
                shape,
                memory=memory,
                recompute="full",
                window=size,
                tokens_per_step=10**9,
            )

        return work(plan) / count

    return measure


def plan_cost_question(workload: str, n: int, limit: float) -> Question:
    what, window, memory = WORKLOADS[workload]
    return cost_question(
        f"plan_batches of n = {n}, then {GROWTH * n} sequences (lengths 1 to 32, {COST_SHAPE}, "
        f"memory={lit(memory)}, recompute='full', window={'n' if window is None else window}, "
        f"tokens_per_step=10**9): {what}",
        partial(per_sequence, workload),
        n,
        limit=limit,
        unit="sequence",
    )


LARGEST_SEQ_LEN = 5


def per_answer(impl: Module) -> Callable[[int], float]:
    """The lines largest_batch runs for a memory that holds exactly `count` sequences."""
    largest_batch = impl.require("largest_batch")
    shape = impl.record("Shape", *COST_SHAPE)

    def measure(count: int) -> float:
        memory = peak_oracle(COST_SHAPE, LARGEST_SEQ_LEN, count, "full")
        return work(
            lambda: largest_batch(shape, seq_len=LARGEST_SEQ_LEN, memory=memory, recompute="full")
        )

    return measure


def largest_cost_question(n: int, limit: float) -> Question:
    memory = peak_oracle(COST_SHAPE, LARGEST_SEQ_LEN, n, "full")
    return cost_question(
        f"largest_batch({COST_SHAPE}, seq_len={LARGEST_SEQ_LEN}, memory={lit(memory)}, "
        f"recompute='full') (answer {n:,}), then with {GROWTH}x the memory for activations "
        f"(answer {GROWTH * n:,})",
        per_answer,
        n,
        limit=limit,
        unit="call",
    )
