"""Mutation testing: each exercise's reference, mutated, against that exercise's own tests.

    pip install -e '.[mutation]'
    python tools/mutation.py [EXERCISE ...] [--workdir DIR] [--profile gallery]

cosmic-ray mutates source files in place, so the project is first copied
to a scratch folder (`--workdir`, default a fresh temporary one); nothing
here is touched.  For each exercise it mutates the reference's modules (the
contract's code, not its command line or simulations), runs the exercise's
tests in kata mode against each mutant (stopping at the first failure), and
prints the score and every surviving mutant: the file, the line, the
operator, the line as mutated.  A survivor is either a contract sentence no
test holds, to be killed with a test, or an equivalent mutant (one that
changes no answer the contract defines), listed in
tools/equivalent_mutants.md with the reason.

Mutants inside a signature are skipped before the run and counted apart:
every module here has `from __future__ import annotations`, so a mutated
annotation (`int | None` made `int - None`) is a string nobody evaluates,
and `*` made `/` in a parameter list only stops refusing a keyword-only
argument passed by position, which no contract sentence asks for.  A
default value in a signature is code, and is mutated as usual.  A session
left by an interrupted run is resumed, not started again.

Slow by nature (one run of an exercise's tests per mutant): hours for all
six on two cores.  Not part of CI.
"""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = {
    "detector": ["solution/detector.py", "solution/monitor.py", "solution/threshold.py"],
    "sweep": ["variants/sweep/sweep.py", "variants/sweep/events.py"],
    "retry": [
        "variants/retry/backoff.py",
        "variants/retry/policy.py",
        "variants/retry/budget.py",
        "variants/retry/idempotency.py",
    ],
    "batcher": ["variants/batcher/core.py", "variants/batcher/queue.py"],
    "diagnosis": [
        "solution/diagnosis/hung.py",
        "solution/diagnosis/guard.py",
        "solution/diagnosis/phi.py",
    ],
    "credits": ["variants/credits/core.py", "variants/credits/records.py"],
}
CONFIG = """[cosmic-ray]
module-path = {modules}
timeout = 300.0
excluded-modules = []
test-command = "{command}"

[cosmic-ray.distributor]
name = "local"
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("exercises", nargs="*", choices=list(MODULES), default=[])
    parser.add_argument("--workdir", type=Path, help="where the project is copied and mutated")
    parser.add_argument("--profile", default="gallery", help="the hypothesis profile (gallery)")
    args = parser.parse_args(argv)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="kata-mutation-"))
    copy = workdir / "project"
    if not copy.exists():
        shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__"))
    for exercise in args.exercises or list(MODULES):
        report(exercise, run(exercise, copy, args.profile))
    return 0


def run(exercise: str, copy: Path, profile: str) -> list[dict[str, object]]:
    """Every mutant of the exercise's reference, and what its tests said of it."""
    config, session = copy / f"mutation-{exercise}.toml", copy / f"mutation-{exercise}.sqlite"
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
    command += ["--impl", "reference", "--hypothesis-profile", profile, f"tests/{exercise}"]
    config.write_text(
        CONFIG.format(modules=json.dumps(MODULES[exercise]), command=" ".join(command))
    )
    cosmic = [sys.executable, "-m", "cosmic_ray.cli"]
    if not session.exists():
        subprocess.run([*cosmic, "init", str(config), str(session)], cwd=copy, check=True)
        skip_signatures(session, copy)
    subprocess.run([*cosmic, "exec", str(config), str(session)], cwd=copy, check=True)
    dump = subprocess.run(
        [*cosmic, "dump", str(session)], cwd=copy, check=True, capture_output=True, text=True
    ).stdout
    return [_entry(json.loads(line), copy) for line in dump.splitlines() if line.strip()]


def skip_signatures(session: Path, copy: Path) -> None:
    """Mark every mutant that lies in a signature but outside a default value as skipped."""
    from cosmic_ray.work_db import WorkDB, use_db  # the `mutation` extra: imported only here
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    zones: dict[Path, list[tuple[tuple[int, int], tuple[int, int]]]] = {}
    with use_db(session, WorkDB.Mode.open) as db:
        for item in list(db.work_items):
            mutation = item.mutations[0]
            path = copy / mutation.module_path
            if path not in zones:
                zones[path] = signature_zones(ast.parse(path.read_text()))
            if any(start <= mutation.start_pos < end for start, end in zones[path]):
                skipped = WorkResult(worker_outcome=WorkerOutcome.SKIPPED)
                db.set_result(item.job_id, skipped)


def signature_zones(tree: ast.Module) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The (row, column) spans of annotations and of parameter lists less their defaults."""
    zones: list[tuple[tuple[int, int], tuple[int, int]]] = []

    def span(node: ast.AST) -> tuple[tuple[int, int], tuple[int, int]]:
        end = (node.end_lineno or node.lineno, node.end_col_offset or 0)  # type: ignore[attr-defined]
        return (node.lineno, node.col_offset), end  # type: ignore[attr-defined]

    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign):
            zones.append(span(node.annotation))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            start, _ = span(node)
            first = node.body[0]
            head = (start, (first.lineno, first.col_offset))
            defaults = [span(d) for d in [*node.args.defaults, *node.args.kw_defaults] if d]
            zones.extend(_less(head, sorted(defaults)))
    return zones


def _less(
    zone: tuple[tuple[int, int], tuple[int, int]],
    holes: list[tuple[tuple[int, int], tuple[int, int]]],
) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The zone with the (sorted, disjoint, inner) holes cut out of it."""
    pieces, start = [], zone[0]
    for hole_start, hole_end in holes:
        pieces.append((start, hole_start))
        start = hole_end
    return [*pieces, (start, zone[1])]


def _entry(row: list[dict[str, object]], copy: Path) -> dict[str, object]:
    item, result = row
    mutation = item["mutations"][0]  # type: ignore[index]  # cosmic-ray's JSON: one a job
    path = copy / str(mutation["module_path"])
    line = int(mutation["start_pos"][0])
    source = path.read_text().splitlines()[line - 1].strip()
    return {
        "module": str(mutation["module_path"]),
        "line": line,
        "operator": str(mutation["operator_name"]).removeprefix("core/"),
        "occurrence": mutation["occurrence"],
        "source": source,
        "outcome": (result or {}).get("test_outcome"),
        "worker": (result or {}).get("worker_outcome"),
    }


def report(exercise: str, mutants: list[dict[str, object]]) -> None:
    judged = [m for m in mutants if m["outcome"] is not None]
    skipped = [m for m in mutants if m["worker"] == "skipped"]
    survived = [m for m in judged if m["outcome"] == "survived"]
    killed = len(judged) - len(survived)
    score = killed / len(judged) if judged else 1.0
    print(f"\n{exercise}: {killed} of {len(judged)} mutants killed ({score:.1%});", end=" ")
    print(f"{len(skipped)} in signatures skipped")
    for m in survived:
        print(f"  survived  {m['module']}:{m['line']}  {m['operator']} #{m['occurrence']}")
        print(f"            {m['source']}")


if __name__ == "__main__":
    sys.exit(main())
