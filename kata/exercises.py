"""The kata's exercises, each declared once: adding a variant is adding an `Exercise` here.

An exercise is a contract (the names a candidate's module provides), a
reference module, a starter (``starters/<name>.py``), its tests
(``tests/<name>/``), its contract (a README whose rules are numbered, each
held by an example test that names it with ``@pytest.mark.rules(n)``), its
gallery (``gallery/<name>/``: known mistakes, one per module, and right
answers written unlike the reference) and the rubric points
its tests are marked with.  A test carries exactly one point as a marker
(``@pytest.mark.boundary``); a point belongs to exactly one exercise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# Where the tests, starters, gallery and contracts are: the clone, or the `suite` folder
# an installed wheel carries beside this package (tools/build_wheel.py puts it there).
ROOT = (
    Path(__file__).resolve().parent / "suite"
    if (Path(__file__).resolve().parent / "suite").is_dir()
    else Path(__file__).resolve().parents[1]
)


@dataclass(frozen=True)
class Point:
    """One thing an interviewer scores."""

    name: str
    title: str
    # "tests": scored by the suite.  "interview": scored by the interviewer from the
    # conversation (RUBRIC.md says how); the scorecard lists it as a reminder.
    scored_by: str = "tests"
    # Its tests measure work or time (seconds, not milliseconds): the gallery runs them only
    # for the mistakes that fail this point.
    costly: bool = False


@dataclass(frozen=True)
class Exercise:
    name: str
    title: str
    names: tuple[str, ...]  # what a candidate implements; any of them attempts the exercise
    types: tuple[str, ...]  # record types a module may define itself or import from the reference
    reference: str  # the reference module, which provides every name
    points: tuple[Point, ...]
    contract: str  # the file that states the contract, its rules numbered: "1. **Title.**"
    # The contract's revision: raised when a rule is added, or reworded so that it asks
    # something else; CHANGELOG.md says what changed at each.  Every scorecard records it.
    revision: int
    # Where two exercises share a name (both have a `Scheduler`), what tells them apart: an
    # attribute of one of its names ("Scheduler.usage") the module must have to attempt it.
    marks: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if type(self.revision) is not int or self.revision < 1:
            raise ValueError(f"{self.name}: a revision is an int from 1, not {self.revision!r}")

    def rules(self) -> dict[int, str]:
        """The contract's numbered rules: number -> title."""
        found = re.findall(r"^(\d+)\. \*\*(.+?)\*\*", (ROOT / self.contract).read_text(), re.M)
        return {int(number): title.rstrip(".") for number, title in found}

    @property
    def starter(self) -> Path:
        return ROOT / "starters" / f"{self.name}.py"

    @property
    def tests(self) -> Path:
        return ROOT / "tests" / self.name

    @property
    def gallery(self) -> Path:
        return ROOT / "gallery" / self.name


DETECTOR = Exercise(
    name="detector",
    title="which rank stopped, and when",
    names=("detect", "misses_for_budget", "HeartbeatMonitor"),
    types=("Heartbeat", "Stopped"),
    reference="solution",
    points=(
        Point("receive_clock", "The collector's receive clock, never sender timestamps"),
        Point("boundary", "The exact boundary: reported iff silence > timeout"),
        Point("never_heard", "Never-heard ranks are silent since start"),
        Point("replay", "Replay as of now: later heartbeats ignored, those at now counted"),
        Point(
            "input_order",
            "The latest heartbeat, whatever the input's order or form; the input never modified",
        ),
        Point("ordering", "Ordered by silence, so the first rank to stop comes first"),
        Point("oracle", "Every small case agrees with a brute-force oracle"),
        Point("validation", "Bad input raises ValueError on every path; nothing silently dropped"),
        Point("threshold", "The threshold from a false-positive budget, exactly, at any size"),
        Point("monitor", "The streaming monitor agrees with detect at every step"),
        Point(
            "monitor_cost",
            "A beat costs O(1) and a check O(1 + ranks reported), amortized",
            costly=True,
        ),
        Point(
            "false_positives",
            "What produces false positives: causes, mechanisms, mitigations",
            scored_by="interview",
        ),
    ),
    contract="README.md",
    revision=4,
)

SWEEP = Exercise(
    name="sweep",
    title="sweep-line utilization",
    names=(
        "intervals_from_events",
        "idle_windows",
        "underused_windows",
        "utilization",
        "overlapping_jobs",
        "peak_concurrency",
    ),
    types=("Busy", "Window", "Event"),
    reference="variants.sweep",
    points=(
        Point(
            "sweep_convention",
            "Half-open intervals, ends before starts: touching ones neither overlap nor gap",
        ),
        Point("sweep_edges", "Zero-length intervals, horizon, bucket and log edges, empty logs"),
        Point("sweep_input", "Any iterable, in any order, read once"),
        Point(
            "sweep_events",
            "Event logs paired exactly: unterminated starts kept, inconsistencies refused",
        ),
        Point("sweep_windows", "Idle and underused windows, maximal, exactly"),
        Point("sweep_utilization", "Utilization per bucket, in exact arithmetic"),
        Point("sweep_overlaps", "Every pair of overlapping jobs, once each"),
        Point("sweep_peak", "Peak concurrency, and the first window it held"),
        Point("sweep_validation", "Bad input raises ValueError in every function"),
        Point("sweep_scaling", "Overlaps in O(n log n + pairs), not O(n**2)", costly=True),
    ),
    contract="variants/sweep/README.md",
    revision=2,
)

RETRY = Exercise(
    name="retry",
    title="retries: backoff, what to retry, a budget, idempotency keys",
    names=(
        "exponential_backoff",
        "full_jitter",
        "equal_jitter",
        "decorrelated_jitter",
        "is_retryable",
        "is_safe_to_repeat",
        "call_with_retries",
        "RetryBudget",
        "IdempotencyStore",
    ),
    types=("Failure", "Policy", "Attempt", "InProgress"),
    reference="variants.retry",
    points=(
        Point("retry_backoff", "Capped exponential backoff, exact at any retry"),
        Point("retry_jitter", "Full, equal and decorrelated jitter: exact bounds, uniform, seeded"),
        Point("retry_classify", "Only retryable failures of operations safe to repeat"),
        Point("retry_limits", "Attempts include the first; the deadline is never slept past"),
        Point("retry_pushback", "A server's Retry-After honoured, and capped"),
        Point("retry_surface", "Giving up raises the last failure itself, with the history"),
        Point("retry_budget", "A retry budget: gRPC's token throttling, exactly"),
        Point(
            "retry_idempotency",
            "Idempotency keys: run once, outcome replayed, parameters compared, expiry",
        ),
        Point("retry_concurrency", "A duplicate racing the first execution never runs it twice"),
        Point("retry_validation", "Impossible parameters raise ValueError"),
        Point(
            "retry_load",
            "What retries do to load: the arithmetic, synchronized retries, budgets",
            scored_by="interview",
        ),
    ),
    contract="variants/retry/README.md",
    revision=3,
)

BATCHER = Exercise(
    name="batcher",
    title="a request batcher: size and wait, a bounded queue, priorities, tokens, cancellation",
    names=("Batcher",),
    types=("Config", "Request", "Batch", "Ending", "Decision", "QueueFull", "Closed"),
    reference="variants.batcher",
    points=(
        Point(
            "batch_triggers",
            "Sent when full or when its oldest has waited max_wait; never empty; wait 0 waits not",
        ),
        Point(
            "batch_queue", "A bounded queue: QueueFull at once, nothing queued past it or dropped"
        ),
        Point(
            "batch_in_flight", "At most max_in_flight batches out; the rest wait for a completion"
        ),
        Point("batch_priority", "Higher priority first, first come within a level, ageing"),
        Point("batch_tokens", "A token budget of padded tokens; a request over it refused"),
        Point("batch_buckets", "Length buckets: a batch holds one bucket, each waits on its own"),
        Point(
            "batch_cancel",
            "Cancelled or timed out while queued: never sent; in flight: discarded alone",
        ),
        Point(
            "batch_complete",
            "Each result to its caller; a failure fails its batch only; a wrong count fails all",
        ),
        Point("batch_shutdown", "close(): nothing new, the queue sent without waiting, none lost"),
        Point("batch_wakeup", "next_wakeup: the earliest tick a poll would act, never a busy loop"),
        Point("batch_validation", "Impossible configurations and calls raise ValueError"),
        Point("batch_model", "Any session of calls agrees with a brute-force model"),
        Point(
            "batch_tradeoffs",
            "What the knobs buy: size, wait, padding, backpressure, continuous batching",
            scored_by="interview",
        ),
    ),
    contract="variants/batcher/README.md",
    revision=5,
)

DIAGNOSIS = Exercise(
    name="diagnosis",
    title="the detector's follow-ups: hung or dead, a collector fault, phi accrual",
    names=("diagnose", "guard_mass_silence", "PhiAccrual"),
    types=("Beat", "Hung", "Diagnosis", "Stopped", "CollectorFault", "Guarded"),
    reference="solution.diagnosis",
    points=(
        Point("hung", "A rank beating without progress is hung, reported apart from stopped"),
        Point("hung_order", "Hung ranks lowest progress first: the one the others wait for"),
        Point("mass_silence", "Many ranks silent within one window: one collector fault"),
        Point("guard_safety", "The guard never hides a single death, nor one at another time"),
        Point(
            "phi_history",
            "Phi's history: Akka's bootstrap, a bounded window, nothing recorded after suspicion",
        ),
        Point("phi_value", "Phi as Akka computes it: pause on the mean, a floor on the deviation"),
        Point("diagnosis_input", "Any iterable, read once; the caller's list never modified"),
        Point("diagnosis_validation", "Bad input raises ValueError in every function"),
        Point(
            "lab",
            "What produces false positives, measured: which causes break n * p**k, and why",
            scored_by="interview",
        ),
    ),
    contract="solution/diagnosis/README.md",
    revision=3,
)

CREDITS = Exercise(
    name="credits",
    title="a GPU credit scheduler: cost and priority, refunds, reservations, limits, fairness",
    names=("Scheduler",),
    types=("Config", "Job", "Balance"),
    reference="variants.credits",
    points=(
        Point(
            "credits_order",
            "Priority, then submission; strict within an account, best effort across",
        ),
        Point(
            "credits_conservation",
            "Integer credits, conserved: deposited = available + reserved + spent",
        ),
        Point("credits_refunds", "Fail or cancel refunds the unused part, once"),
        Point(
            "credits_reservations",
            "Reservations hold credits; released on expiry, release or cancel",
        ),
        Point("credits_limits", "At most max_running running jobs per account, and slots overall"),
        Point("credits_fairness", "Weighted fair share: no account starves, shares within a bound"),
        Point(
            "credits_errors",
            "An operation that cannot be honoured raises ValueError, changes nothing",
        ),
        Point("credits_model", "Any sequence of operations agrees with a brute-force model"),
        Point(
            "credits_scaling",
            "A decision costs O(log n) in the waiting jobs, not a rescan",
            costly=True,
        ),
        Point(
            "credits_design",
            "State, data structures and what a real multi-tenant scheduler adds",
            scored_by="interview",
        ),
    ),
    contract="variants/credits/README.md",
    revision=4,
    marks=("Scheduler.open_account",),
)

QUOTAS = Exercise(
    name="quotas",
    title="GPU quotas: guaranteed quotas, borrowing, preemption that never thrashes",
    names=("Scheduler",),
    types=("Tenant", "Job", "Decision"),
    reference="variants.quotas",
    points=(
        Point(
            "quota_validation",
            "Integers, a configuration the cluster can honour, refusals that change nothing",
        ),
        Point("quota_order", "Strict within a tenant; guaranteed heads before borrowers, by share"),
        Point(
            "quota_reclaim",
            "Reclaim: capacity over quotas taken back in Kueue's order, minimal, all or nothing",
        ),
        Point("quota_priority", "Within a tenant, only strictly lower priority is preempted"),
        Point("quota_preempted", "A preempted job keeps its place; work since its checkpoint lost"),
        Point(
            "quota_guarantees",
            "Bounds, the guarantee and no thrashing under any sequence, against a model",
        ),
        Point(
            "quota_cost",
            "A decision pops heaps: O(log n) per job looked at, never a rescan",
            costly=True,
        ),
        Point(
            "quota_design",
            "The system-design conversation: tenants, SLAs, quotas, preemption, metrics",
            scored_by="interview",
        ),
    ),
    contract="variants/quotas/README.md",
    revision=1,
    marks=("Scheduler.usage",),
)

LEASES = Exercise(
    name="leases",
    title="leases for a batch-inference queue: claim, renew, fence, retry, dead-letter",
    names=("Queue",),
    types=("Lease", "Item", "Fenced"),
    reference="variants.leases",
    points=(
        Point(
            "lease_validation", "Integers, a queue that makes sense, refusals that change nothing"
        ),
        Point("lease_claims", "Claims expire what is due, then take the longest ready"),
        Point("lease_fencing", "A write only from the live lease that holds the request, once"),
        Point(
            "lease_expiry", "Expired when now - renewed_at > lease_ticks: the detector's boundary"
        ),
        Point("lease_retries", "Backoff with full jitter, then a dead letter; a release is free"),
        Point("lease_model", "Any session agrees with a brute-force model; one outcome each"),
        Point("lease_cost", "A claim pops heaps: no scan of the queue", costly=True),
        Point(
            "lease_design",
            "The batch-inference service: API, store, workers, leases, retries, cost",
            scored_by="interview",
        ),
    ),
    contract="variants/leases/README.md",
    revision=1,
)

MEMORY = Exercise(
    name="memory",
    title="training batches without running out of memory: micro-batches, recomputation, steps",
    names=("activation_bytes", "peak_bytes", "largest_batch", "plan_batches"),
    types=("Shape", "MicroBatch", "Plan"),
    reference="variants.memory",
    points=(
        Point(
            "memory_model",
            "Activations as Korthikanti et al. count them, 16 bytes a parameter, exact",
        ),
        Point("memory_fit", "The largest micro-batch: exactly the memory fits, 0 when none does"),
        Point("memory_packing", "Windows kept, sorted within, packed greedily, never over"),
        Point("memory_refusal", "A sequence too long for any micro-batch refused by name"),
        Point("memory_steps", "Gradient accumulation to the target tokens; padding exact"),
        Point("memory_validation", "Bad input raises ValueError; any iterable, read once"),
        Point(
            "memory_cost",
            "Costs that do not grow: a plan in O(n log n), the largest batch computed",
            costly=True,
        ),
        Point(
            "memory_design",
            "Profile first, then the memory levers in order of cost, then monitoring",
            scored_by="interview",
        ),
    ),
    contract="variants/memory/README.md",
    revision=1,
)

EXERCISES: dict[str, Exercise] = {
    exercise.name: exercise
    for exercise in (DETECTOR, SWEEP, RETRY, BATCHER, DIAGNOSIS, CREDITS, QUOTAS, LEASES, MEMORY)
}

# Every point by name, with its exercise, in rubric order.
POINTS: dict[str, tuple[Exercise, Point]] = {
    point.name: (exercise, point) for exercise in EXERCISES.values() for point in exercise.points
}

# Tests of this project's own tools (CLI, demo, write-up, the harness itself),
# not of a contract: they run only against the reference.
REFERENCE_ONLY = "reference"


def exercise_of_path(path: Path) -> Exercise | None:
    """The exercise whose tests live at or under `path`, if any."""
    for exercise in EXERCISES.values():
        if path == exercise.tests or exercise.tests in path.parents:
            return exercise
    return None
