"""Build the kata's page: a static site that runs the kata in a browser, nothing to install.

    python tools/build_site.py [--out site/] [--cache .site-cache/]

A page per exercise (its contract, an editor holding the starter, the steps
and hints, a Run button giving ``python -m kata check``'s verdict), served by
any static host.  Everything the page uses is in the site: Pyodide (Python
compiled to WebAssembly) and the editor from npm (web/package.json and its
lock pin them), the pure-Python wheels of pytest and hypothesis from PyPI
(web/requirements.txt pins them), and the kata itself as the wheel
tools/build_wheel.py builds.  Nothing is fetched at run time.

The downloads are kept in the cache folder and fetched again only when their
pins change; the kata's wheel is built again only when its sources change.
web/README.md says how the page works and what it does not promise.
Prints the site's size and file count.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kata.exercises import EXERCISES, Exercise  # noqa: E402 (after the path is set)
from kata.plan import CAPS, RUNGS, plan  # noqa: E402
from kata.version import version as kata_version  # noqa: E402

WEB = ROOT / "web"
MARKER = ".kata-site"  # a folder holding it was built here, and may be replaced whole
BUNDLED = ("app.js", "judge-worker.js", "judged-worker.js", "clock-worker.js")
COPIED = ("sw.js", "isolate.js", "style.css")
PYODIDE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
PYODIDE_LOCK = "pyodide-lock.json"
# The kata wheel's sources: a change in any of them builds it again.
WHEEL_SOURCES = ("kata", "solution", "variants", "tests", "starters", "gallery")
JUNK = ("__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache", "suite")
# What an exercise's page cannot judge as the command line does, said on the page.
LIMITS = {
    "retry": (
        "Step 6's concurrency tests (retry_concurrency) race two threads, and the page's "
        "Python has none: here they fail for every module, and name mistakes that are not "
        "yours, and the steps after it are not run. Judge step 6 and after with the command "
        "line: python -m kata check."
    ),
}
WHEEL_PLATFORM = [
    "--only-binary=:all:",
    "--python-version=3.14",
    "--platform=any",
    "--implementation=py",
    "--abi=none",
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "site", help="default: site/")
    parser.add_argument(
        "--cache", type=Path, default=ROOT / ".site-cache", help="default: .site-cache/"
    )
    arguments = parser.parse_args(argv)
    began = time.monotonic()
    cache: Path = arguments.cache.resolve()
    cache.mkdir(parents=True, exist_ok=True)
    npm = npm_packages(cache)
    wheels = python_wheels(cache)
    kata = kata_wheel(cache)
    compiled = precompiled(cache, npm, [*wheels, kata])
    out = fresh(arguments.out.resolve())
    build(out, npm, compiled[:-1], compiled[-1])
    files = [path for path in out.rglob("*") if path.is_file()]
    size = sum(path.stat().st_size for path in files)
    print(
        f"{out} ({size / 2**20:.1f} MiB, {len(files)} files) in {time.monotonic() - began:.1f} s;"
        f" serve it: python -m http.server --directory {_shown(out)} 8000"
    )
    return 0


# --- the downloads, cached --------------------------------------------------------------


def npm_packages(cache: Path) -> Path:
    """node_modules as web/package-lock.json pins it (``npm ci``), in the cache."""
    folder = cache / "npm"
    sources = [WEB / "package.json", WEB / "package-lock.json"]
    if _fresh_stamp(folder, sources) and (folder / "node_modules").is_dir():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    for source in sources:
        shutil.copyfile(source, folder / source.name)
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("build_site: npm is needed (Node.js 20 or newer)")
    # esbuild's install script only checks its binary, which comes as a package of its own.
    _run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], folder)
    _stamp(folder, sources)
    return folder


def python_wheels(cache: Path) -> list[Path]:
    """The wheels web/requirements.txt pins, pure Python, downloaded into the cache."""
    folder = cache / "wheels"
    requirements = WEB / "requirements.txt"
    if not _fresh_stamp(folder, [requirements]):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        command = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", *WHEEL_PLATFORM]
        _run([*command, "-d", str(folder), "-r", str(requirements)], ROOT)
        _stamp(folder, [requirements])
    wheels = sorted(folder.glob("*.whl"))
    pinned = [line for line in requirements.read_text().splitlines() if "==" in line]
    if len(wheels) != len(pinned):
        raise SystemExit(f"build_site: {len(pinned)} wheels pinned, {len(wheels)} in {folder}")
    return wheels


def kata_wheel(cache: Path) -> Path:
    """The kata's own wheel (tools/build_wheel.py), built again when its sources change."""
    folder = cache / "kata"
    sources = _wheel_sources()
    wheels = sorted(folder.glob("*.whl"))
    if not (_fresh_stamp(folder, sources) and len(wheels) == 1):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        _run([sys.executable, str(ROOT / "tools" / "build_wheel.py"), "--out", str(folder)], ROOT)
        _stamp(folder, sources)
        wheels = sorted(folder.glob("*.whl"))
    return wheels[0]


def precompiled(cache: Path, npm: Path, wheels: list[Path]) -> list[Path]:
    """The wheels with their modules compiled by the page's own Python (web/precompile.mjs,
    in Node), in the cache: the page imports them without compiling them first."""
    folder = cache / "compiled"
    sources = [*wheels, WEB / "precompile.mjs", npm / "node_modules" / "pyodide" / "package.json"]
    if not _fresh_stamp(folder, sources):
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "in").mkdir(parents=True)
        for wheel in wheels:
            shutil.copyfile(wheel, folder / "in" / wheel.name)
        (folder / "out").mkdir()
        shutil.copyfile(WEB / "precompile.mjs", npm / "precompile.mjs")
        node = shutil.which("node") or "node"
        _run([node, "precompile.mjs", str(folder / "in"), str(folder / "out")], npm)
        shutil.rmtree(folder / "in")
        _stamp(folder, sources)
    return [folder / "out" / wheel.name for wheel in wheels]


def _wheel_sources() -> list[Path]:
    paths = [ROOT / "pyproject.toml", *(ROOT / e.contract for e in EXERCISES.values())]
    for top in WHEEL_SOURCES:
        for path in sorted((ROOT / top).rglob("*")):
            parts = set(path.relative_to(ROOT).parts)
            if path.is_file() and not parts & set(JUNK) and path.suffix != ".pyc":
                paths.append(path)
    return paths


def _digest(sources: list[Path]) -> str:
    digest = hashlib.sha256()
    for source in sources:
        digest.update(source.name.encode() + b"\0")
        digest.update(hashlib.sha256(source.read_bytes()).digest())
    return digest.hexdigest()


def _fresh_stamp(folder: Path, sources: list[Path]) -> bool:
    stamp = folder / "built-from.sha256"
    return stamp.is_file() and stamp.read_text().strip() == _digest(sources)


def _stamp(folder: Path, sources: list[Path]) -> None:
    (folder / "built-from.sha256").write_text(_digest(sources) + "\n")


def _run(command: list[str], cwd: Path, **options: Any) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(command, cwd=cwd, check=True, text=True, **options)
    except subprocess.CalledProcessError as error:
        raise SystemExit(f"build_site: {' '.join(command[:3])} ... failed ({error})") from None


# --- the site -------------------------------------------------------------------------------


def fresh(out: Path) -> Path:
    """`out`, empty: a site built here before is replaced, any other folder refused."""
    if out.exists():
        if not (out / MARKER).is_file() and any(out.iterdir()):
            raise SystemExit(f"build_site: {out} is not empty and was not built here; not touched")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / MARKER).write_text("Built by tools/build_site.py: replaced whole by the next build.\n")
    return out


def build(out: Path, npm: Path, wheels: list[Path], kata: Path) -> None:
    modules = npm / "node_modules"
    (out / "pyodide").mkdir()
    for name in PYODIDE:
        shutil.copyfile(modules / "pyodide" / name, out / "pyodide" / name)
    _pyodide_lock(modules / "pyodide" / PYODIDE_LOCK, out / "pyodide" / PYODIDE_LOCK)
    # The kata's wheel under its digest: a browser never keeps an old one for a new build.
    kata_name = f"kata-{hashlib.sha256(kata.read_bytes()).hexdigest()[:12]}/{kata.name}"
    (out / "wheels" / kata_name).parent.mkdir(parents=True)
    shutil.copyfile(kata, out / "wheels" / kata_name)
    for wheel in wheels:
        shutil.copyfile(wheel, out / "wheels" / wheel.name)
    names = [wheel.name for wheel in wheels] + [kata_name]
    site = {
        "kata": kata_version(),
        "pyodide": json.loads((modules / "pyodide" / "package.json").read_text())["version"],
        # The module's worker boots for every run: the kata's harness and packages only
        # (neither pytest nor hypothesis is imported there), so that it boots sooner.
        "wheels": {"judge": names, "judged": [kata_name]},
        "exercises": list(EXERCISES),
    }
    (out / "site.json").write_text(json.dumps(site, indent=2) + "\n")
    _bundle(out, npm)
    for name in COPIED:
        shutil.copyfile(WEB / name, out / name)
    contracts = _render(npm, {name: _contract(e, out) for name, e in EXERCISES.items()})
    template = (WEB / "exercise.html").read_text()
    for name, exercise in EXERCISES.items():
        page = _fill(
            template,
            name=html.escape(name),
            title=html.escape(exercise.title),
            contract_path=html.escape(exercise.contract),
            contract=contracts[name],
            data=json.dumps(exercise_data(exercise)).replace("</", "<\\/"),
        )
        (out / f"{name}.html").write_text(page)
    rows = "\n".join(
        f'<tr><td><a href="{name}.html">{name}</a></td><td>{html.escape(e.title)}</td>'
        f"<td>{len(plan(name).steps)} steps, {plan(name).minutes} min</td></tr>"
        for name, e in EXERCISES.items()
    )
    index = _fill((WEB / "index.html").read_text(), rows=rows, version=_versions(site))
    (out / "index.html").write_text(index)


def _versions(site: dict[str, Any]) -> str:
    return f"heartbeat-kata {site['kata']}, Python by Pyodide {site['pyodide']}"


def _pyodide_lock(source: Path, target: Path) -> None:
    """Pyodide's package index, emptied: the page installs only the site's own wheels, and
    a lock naming packages the site lacks would only invite a fetch from elsewhere."""
    lock = json.loads(source.read_text())
    lock["packages"] = {}
    target.write_text(json.dumps(lock))


def _bundle(out: Path, npm: Path) -> None:
    esbuild = npm / "node_modules" / ".bin" / "esbuild"
    environment = {**os.environ, "NODE_PATH": str(npm / "node_modules")}
    for name in BUNDLED:
        command = [str(esbuild), str(WEB / name), "--bundle", "--format=esm", "--minify"]
        command += ["--external:./pyodide/*", "--log-level=warning", f"--outfile={out / name}"]
        _run(command, ROOT, env=environment)


def _contract(exercise: Exercise, out: Path) -> str:
    """The exercise's contract as Markdown for the page: the detector's is a section of the
    README; images are copied beside the page, links to other files become their text."""
    source = ROOT / exercise.contract
    text = source.read_text()
    if exercise.contract == "README.md":
        found = re.search(r"^## The contract\n(.*?)(?=^## |\Z)", text, re.M | re.S)
        text = found.group(1) if found else text

    def image(match: re.Match[str]) -> str:
        alt, path = match.group(1), match.group(2)
        if re.match(r"[a-z]+:", path):
            return match.group(0)
        found = (source.parent / path).resolve()
        if not found.is_file():
            return alt
        (out / "figures").mkdir(exist_ok=True)
        shutil.copyfile(found, out / "figures" / found.name)
        return f"![{alt}](figures/{found.name})"

    text = re.sub(r"!\[([^\]]*)\]\(([^)\s]+)\)", image, text)
    return re.sub(r"(?<!!)\[([^\]]+)\]\((?!https?:)[^)\s]+\)", r"\1", text)


def _render(npm: Path, pages: dict[str, str]) -> dict[str, str]:
    shutil.copyfile(WEB / "render.mjs", npm / "render.mjs")
    node = shutil.which("node") or "node"
    done = _run([node, "render.mjs"], npm, input=json.dumps(pages), capture_output=True)
    rendered: dict[str, str] = json.loads(done.stdout)
    return rendered


def exercise_data(exercise: Exercise) -> dict[str, Any]:
    """What an exercise's page needs: its starter, its plan's steps and hints."""
    found = plan(exercise.name)
    rules = exercise.rules()
    return {
        "name": exercise.name,
        "title": exercise.title,
        "file": f"my_{exercise.name}.py",
        "starter": exercise.starter.read_text(),
        "contract": exercise.contract,
        "question": found.question,
        "rungs": list(RUNGS),
        "caps": list(CAPS),
        "limits": LIMITS.get(exercise.name, ""),
        "steps": [
            {
                "number": step.number,
                "name": step.name,
                "title": step.title,
                "minutes": step.minutes,
                "writes": list(step.writes),
                "interview": step.interview,
                "rules": [[number, rules[number]] for number in step.rules],
                "points": list(step.points),
                "task": " ".join(step.task.split()),
                "hints": [" ".join(hint.split()) for hint in step.hints],
                "checklist": list(step.checklist),
            }
            for step in found.steps
        ],
    }


def _fill(template: str, **values: str) -> str:
    return re.sub(r"\{\{(\w+)\}\}", lambda match: values[match.group(1)], template)


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    sys.exit(main())
