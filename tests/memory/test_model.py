"""What a micro-batch costs: activations as Korthikanti et al. count them, and the states."""

from __future__ import annotations

import pytest
from hypothesis import given

from tests.support.remembering import Dims, Memory, bytes_question
from tests.support.strategies import (
    large_batches,
    large_dims,
    large_seq_lens,
    recomputes,
    small_batches,
    small_dims,
    small_seq_lens,
)

pytestmark = pytest.mark.memory_model

ACTIVATIONS = (
    "activation_bytes is layers times the bytes per layer of its recompute mode: "
    "34*s*b*h + 5*a*s*s*b with none, 34*s*b*h selective, 2*s*b*h full; exactly, in integers "
    "at any size, never floats (multiply out: no division)."
)
PEAK = (
    "peak_bytes is 16 * parameters (16-bit weights and gradients, 32-bit master weights, "
    "momentum and variance) plus the activations of one micro-batch; batch 0 costs the states "
    "alone."
)
SMALL = Dims(layers=2, hidden=4, heads=3, parameters=10)
BIG = Dims(layers=95, hidden=65536, heads=100, parameters=10**12 + 1)
ODD = BIG._replace(heads=99)  # 99 heads: products of odd factors, which floats round
GPT_1_3B = Dims(layers=24, hidden=2048, heads=16, parameters=1_300_000_000)


@pytest.mark.rules(1)
def test_with_no_recomputation_the_attention_scores_are_kept(memory: Memory) -> None:
    """s=3, b=2, h=4, a=3: 34*3*2*4 = 816 and 5*3*3*3*2 = 270, 1,086 a layer, two layers.
    (5*a*s/h is 45/4: rounded down to 11, the answer would be 2,160.)"""
    memory.activation(SMALL, seq_len=3, batch=2, recompute="none", want=2172, rule=ACTIVATIONS)


@pytest.mark.rules(1)
def test_selective_drops_the_scores_and_full_keeps_only_the_input(memory: Memory) -> None:
    """Selective: 34*3*2*4 = 816 a layer, 1,632. Full: 2*3*2*4 = 48 a layer, 96."""
    memory.activation(SMALL, seq_len=3, batch=2, recompute="selective", want=1632, rule=ACTIVATIONS)
    memory.activation(SMALL, seq_len=3, batch=2, recompute="full", want=96, rule=ACTIVATIONS)


@pytest.mark.rules(1)
def test_one_layer_one_token_one_sequence(memory: Memory) -> None:
    """Every size 1: 34 + 5 = 39 bytes with none, 34 selective, 2 full."""
    one = Dims(layers=1, hidden=1, heads=1, parameters=0)
    for recompute, want in (("none", 39), ("selective", 34), ("full", 2)):
        memory.activation(one, seq_len=1, batch=1, recompute=recompute, want=want, rule=ACTIVATIONS)


@pytest.mark.rules(1)
def test_a_fraction_of_a_byte_per_hidden_unit_is_multiplied_out(memory: Memory) -> None:
    """h=9, a=1, s=3: 5*a*s/h is 5/3 of a byte a hidden unit, which no float holds;
    34*3*9 + 5*1*3*3 = 918 + 45 = 963 exactly (in floats, 3 * 9 * (34 + 15/9) is
    962.9999999999999). And h=7, a=2, s=5: 1,190 + 250 = 1,440."""
    ninth = Dims(layers=1, hidden=9, heads=1, parameters=0)
    memory.activation(ninth, seq_len=3, batch=1, recompute="none", want=963, rule=ACTIVATIONS)
    seventh = Dims(layers=1, hidden=7, heads=2, parameters=0)
    memory.activation(seventh, seq_len=5, batch=1, recompute="none", want=1440, rule=ACTIVATIONS)


@pytest.mark.rules(1, 2)
def test_no_sequence_costs_no_activations_and_the_states_alone(memory: Memory) -> None:
    """batch 0: no activations in any mode; the peak is 16 * 10 = 160 whatever the mode."""
    for recompute in ("none", "selective", "full"):
        memory.activation(SMALL, seq_len=3, batch=0, recompute=recompute, want=0, rule=ACTIVATIONS)
        memory.peak(SMALL, seq_len=3, batch=0, recompute=recompute, want=160, rule=PEAK)


@pytest.mark.rules(2)
def test_the_states_are_sixteen_bytes_a_parameter(memory: Memory) -> None:
    """160 bytes of states plus 2,172, 1,632 and 96 of activations."""
    for recompute, want in (("none", 2332), ("selective", 1792), ("full", 256)):
        memory.peak(SMALL, seq_len=3, batch=2, recompute=recompute, want=want, rule=PEAK)


@pytest.mark.rules(2)
def test_a_model_without_parameters_peaks_at_its_activations(memory: Memory) -> None:
    """No parameters, no states: the peak is the 2,172 bytes of activations alone."""
    shape = Dims(layers=2, hidden=4, heads=3, parameters=0)
    memory.peak(shape, seq_len=3, batch=2, recompute="none", want=2172, rule=PEAK)


@pytest.mark.rules(1, 2)
def test_a_1_3b_model_at_2048_tokens(memory: Memory) -> None:
    """24 layers, h=2048, a=16, s=2048: 34*s*h = 142,606,336 and 5*a*s*s = 335,544,320 a
    layer; 11,475,615,744 bytes a sequence with none, 3,422,552,064 selective, 201,326,592
    full; the states, 16 * 1.3e9 = 20.8e9 bytes, on top."""
    cases = (("none", 11_475_615_744), ("selective", 3_422_552_064), ("full", 201_326_592))
    for recompute, want in cases:
        memory.activation(
            GPT_1_3B, seq_len=2048, batch=1, recompute=recompute, want=want, rule=ACTIVATIONS
        )
        memory.peak(
            GPT_1_3B,
            seq_len=2048,
            batch=1,
            recompute=recompute,
            want=20_800_000_000 + want,
            rule=PEAK,
        )


@pytest.mark.rules(1)
def test_activations_are_exact_where_floats_are_not(memory: Memory) -> None:
    """95 layers, h=65,536, a=99, s=999,999, b=33: 34*s*b*h = 73,531,318,468,608 and
    5*a*s*s*b = 16,334,967,330,016,335 a layer; 1,558,807,371,606,069,585 in all. A float
    cannot hold it: s*b*h*(34 + 5*a*s/h) in floats is 81 bytes off, a layer's in floats
    times the layers 95 bytes."""
    memory.activation(
        ODD,
        seq_len=999_999,
        batch=33,
        recompute="none",
        want=1_558_807_371_606_069_585,
        rule=ACTIVATIONS,
    )


@pytest.mark.rules(2)
def test_the_peak_is_exact_where_floats_are_not(memory: Memory) -> None:
    """s=10**6, b=3: 143,135,043,840,000,000 bytes of activations (a float holds that one),
    plus 16 * (10**12 + 1) of states: 143,151,043,840,000,016, which a float does not (16
    bytes off)."""
    memory.peak(
        BIG, seq_len=10**6, batch=3, recompute="none", want=143_151_043_840_000_016, rule=PEAK
    )


@pytest.mark.rules(1, 2)
@given(small_dims, small_seq_lens, small_batches, recomputes)
def test_small_shapes_match_the_table(
    memory: Memory, shape: Dims, seq_len: int, batch: int, recompute: str
) -> None:
    """Every mode, small shapes whose numbers a float still holds: the table, literally."""
    memory.activation(shape, seq_len=seq_len, batch=batch, recompute=recompute, rule=ACTIVATIONS)
    memory.peak(shape, seq_len=seq_len, batch=batch, recompute=recompute, rule=PEAK)


@pytest.mark.rules(1, 2)
@given(large_dims, large_seq_lens, large_batches, recomputes)
def test_large_shapes_match_the_table_exactly(
    memory: Memory, shape: Dims, seq_len: int, batch: int, recompute: str
) -> None:
    """Bytes in the 10**20s: only integers are exact there."""
    memory.activation(shape, seq_len=seq_len, batch=batch, recompute=recompute, rule=ACTIVATIONS)
    memory.peak(shape, seq_len=seq_len, batch=batch, recompute=recompute, rule=PEAK)


@pytest.mark.rules(1)
@given(large_dims, large_seq_lens, large_batches, recomputes)
def test_activations_grow_in_proportion_to_the_batch_and_the_layers(
    memory: Memory, shape: Dims, seq_len: int, batch: int, recompute: str
) -> None:
    """b sequences cost b times one; L layers L times one layer: at any size, exactly."""
    one_layer = shape._replace(layers=1)
    questions = [
        bytes_question("activation_bytes", s, seq_len=seq_len, batch=b, recompute=recompute)
        for s, b in ((shape, batch), (shape, 1), (one_layer, 1))
    ]
    memory.holds(
        questions,
        lambda many, one, layer: many == batch * one and one == shape.layers * layer,
        claim=f"{batch} sequences of {shape.layers} layers must cost {batch} x {shape.layers} "
        "times one sequence of one layer",
        rule=ACTIVATIONS,
    )
