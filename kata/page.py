"""The scorecard as a page to keep: one self-contained HTML file, or Markdown.

    python -m kata check FILE --page card.html
    python -m pytest --impl FILE --rubric-page card.md

Rendered from the scorecard's data (`kata.scorecard`, what ``--rubric-json``
writes) and nothing else: the module judged and its SHA-256, when, the kata's
version and each contract's revision, every point with its verdict and
seconds, the known mistakes named with their witness in the test's words,
the failures no known mistake explains, the limits reached, the steps and
the hints taken.  Every text is escaped; the HTML has its style inline and
no script, and prints as it shows.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path
from typing import Any

from kata.plan import RUNGS

# A page is a title and sections; a section a heading and blocks, each one of:
# ("h3", text), ("p", text), ("pre", text), ("list", [text]), ("fields", [[name, value]]),
# ("table", [header], [[cell]]), ("notes",): room to write in.
Block = tuple[Any, ...]

STYLE = """
body { font: 11pt/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #111; }
h1 { font-size: 1.5em; overflow-wrap: anywhere; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #999; padding: 0.2em 0.4em; text-align: left; vertical-align: top;
  overflow-wrap: break-word; }
pre { background: #f4f4f4; border: 1px solid #ccc; padding: 0.5em; white-space: pre-wrap;
  overflow-wrap: anywhere; }
.passed { color: #075e07; } .failed { color: #a00; font-weight: bold; }
.notes { border: 1px solid #999; min-height: 12em; }
tr, pre { break-inside: avoid; }
@media print { body { margin: 0; max-width: none; } }
"""


def write(path: Path, card: dict[str, Any]) -> None:
    """The page of `card` at `path`: Markdown if it ends in .md, else HTML."""
    markdown = path.suffix.lower() == ".md"
    path.write_text(render_markdown(card) if markdown else render_html(card), encoding="utf-8")


def render_html(card: dict[str, Any]) -> str:
    title, sections = _document(card)
    e = _html
    out = [
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">',
        f"<title>{e(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>",
        f"<h1>{e(title)}</h1>",
    ]
    for heading, blocks in sections:
        out.append(f"<h2>{e(heading)}</h2>")
        for kind, *rest in blocks:
            if kind in ("h3", "p"):
                out.append(f"<{kind}>{e(rest[0])}</{kind}>")
            elif kind == "fields":
                rows = "".join(f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>" for k, v in rest[0])
                out.append(f"<table>{rows}</table>")
            elif kind == "pre":
                out.append(f"<pre>{e(rest[0])}</pre>")
            elif kind == "list":
                out.append("<ul>" + "".join(f"<li>{e(item)}</li>" for item in rest[0]) + "</ul>")
            elif kind == "table":
                head = "".join(f"<th>{e(cell)}</th>" for cell in rest[0])
                body = "".join(
                    "<tr>" + "".join(f"<td{_class(c)}>{e(c)}</td>" for c in row) + "</tr>"
                    for row in rest[1]
                )
                out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
            else:
                out.append('<div class="notes"></div>')
    out.append("</body>\n</html>\n")
    return "\n".join(out)


def render_markdown(card: dict[str, Any]) -> str:
    title, sections = _document(card)
    m = _md
    out = [f"# {m(title)}"]
    for heading, blocks in sections:
        out.append(f"## {m(heading)}")
        for kind, *rest in blocks:
            if kind == "h3":
                out.append(f"### {m(rest[0])}")
            elif kind == "p":
                out.append(m(rest[0]))
            elif kind == "fields":
                out.append("\n".join(f"- **{m(k)}**: {m(v)}" for k, v in rest[0]))
            elif kind == "pre":
                fence = "`" * max(3, 1 + max(map(len, re.findall("`+", rest[0])), default=0))
                out.append(f"{fence}\n{rest[0]}\n{fence}")
            elif kind == "list":
                out.append("\n".join(f"- {m(item)}" for item in rest[0]))
            elif kind == "table":
                out.append(
                    "\n".join(
                        "| " + " | ".join(m(cell) for cell in row) + " |"
                        for row in [rest[0], ["---"] * len(rest[0]), *rest[1]]
                    )
                )
    return "\n\n".join(out) + "\n"


def _html(text: object) -> str:
    return html.escape(str(text), quote=True)


def _class(cell: str) -> str:
    return f' class="{cell}"' if cell in ("passed", "failed") else ""


def _md(text: object) -> str:
    """Text as Markdown shows it: no HTML, no markup, one line."""
    escaped = html.escape(" ".join(str(text).split()), quote=False)
    return re.sub(r"([\\`*_\[\]|#~!])", r"\\\1", escaped)


def _document(card: dict[str, Any]) -> tuple[str, list[tuple[str, list[Block]]]]:
    """The page's title and sections, from the scorecard's data alone."""
    contracts = card.get("contracts", {})
    attempted = [n for n, state in card.get("exercises", {}).items() if state == "attempted"]
    judged: list[list[str]] = [["Module", card["implementation"]]]
    judged += [["File", f"{f['path']} (SHA-256 {f['sha256']})"] for f in card.get("files", [])]
    judged.append(["Judged at", card.get("judged_at", "")])
    judged.append(["Kata", f"heartbeat-kata {card.get('kata_version', 'unknown')}"])
    judged += [
        ["Contract", f"{name}: {contracts[name]['file']}, revision {contracts[name]['revision']}"]
        for name in attempted
        if name in contracts
    ]
    if "tests_run" in card:
        ran = f"{card['tests_run']} of {card['tests_collected']} ran"
        judged.append(["Tests", f"{ran}, in {card.get('seconds', 0):.1f} s"])
    for key, label in (("error", "Not loaded"), ("void", "Void: no point counts")):
        if card.get(key):
            judged.append([label, card[key]])
    if card.get("interrupted"):
        judged.append(["Interrupted", "the card covers only the tests that ran"])
    if card.get("stopped_at_step"):
        judged.append(["Stopped", card["stopped_at_step"]])
    sections: list[tuple[str, list[Block]]] = [("What was judged", [("fields", judged)])]
    points = card.get("points", {})
    if points:
        sections.append(("Points", [_point_table(card), _tally(points)]))
    named: list[Block] = []
    for m in card.get("mistakes", []):
        named += [
            ("h3", f"{m['id']}: {m['title']}"),
            *([("p", m["meaning"])] if m.get("meaning") else []),
            ("p", f"Its point: {m['point']}; failed tests it explains: {m['failed_tests']}."),
            ("p", f"Witness: {m['witness']}"),
            *([("pre", m["witness_failure"])] if m.get("witness_failure") else []),
        ]
    if named:
        sections.append(("Known mistakes named", named))
    alone: list[Block] = []
    for name, score in points.items():
        if score.get("unexplained"):
            alone += [("p", f"{name}: {score['unexplained']['test']}")]
            alone += [("pre", score["unexplained"]["failure"])]
    if alone:
        sections.append(("Failures no known mistake explains", alone))
    limits = [
        f"{x['kind']}: {x['detail']} ({x['count']} in all; the first in {x['test']}, during "
        f"{x['question']})"
        for x in card.get("limits", [])
    ]
    if card.get("output_bytes"):
        limits.append(f"the module printed {card['output_bytes']:,} bytes in all")
    if limits:
        sections.append(("Limits reached", [("list", limits)]))
    hints: list[str] = []
    for exercise, steps in card.get("steps", {}).items():
        rows = [[str(s["number"]), s["name"], s["title"], s["result"], _hint(s)] for s in steps]
        sections.append((f"Steps of {exercise}", [("table", _STEP_HEADERS, rows)]))
        taken = [s for s in steps if s["hint"]]
        hints += [f"{exercise}, step {s['number']} ({s['name']}): {_hint(s)}" for s in taken]
    sections.append(("Hints taken", [("list", hints) if hints else ("p", "None.")]))
    sections.append(("Notes", [("notes",)]))
    return f"Rubric scorecard: {card['implementation']}", sections


_POINT_HEADERS = ["Verdict", "Point", "Exercise", "What it scores", "Tests", "Seconds", "Why"]
_STEP_HEADERS = ["Step", "Name", "What it asks", "Result", "Hint taken"]


def _point_table(card: dict[str, Any]) -> Block:
    """The points, a row each; the exercise column only where the card has more than one."""
    rows = _point_rows(card)
    if len({score["exercise"] for score in card["points"].values()}) > 1:
        return ("table", _POINT_HEADERS, rows)
    column = _POINT_HEADERS.index("Exercise")
    return ("table", _without(_POINT_HEADERS, column), [_without(row, column) for row in rows])


def _without(cells: list[str], column: int) -> list[str]:
    return cells[:column] + cells[column + 1 :]


def _point_rows(card: dict[str, Any]) -> list[list[str]]:
    seen = {m["id"]: m["point"] for m in card.get("mistakes", [])}
    rows = []
    for name, score in card["points"].items():
        if score["result"] == "scored in the interview":
            rows.append(["interview", name, score["exercise"], score["title"], "", "", "spoken"])
            continue
        ran = score["passed"] + score["failed"]
        tests = ", ".join(
            ([f"{score['passed']} of {ran} passed"] if ran else [])
            + ([f"{score['not_attempted']} not attempted"] if score["not_attempted"] else [])
        )
        why = [f"mistake {m}" for m in score["mistakes"]]
        why += [f"explained by {m} (see {seen.get(m, '?')})" for m in score["explained_by"]]
        why += score["symptoms"]
        seconds = f"{score.get('seconds', 0):.2f}"
        row = [score["result"], name, score["exercise"], score["title"], tests, seconds]
        rows.append([*row, "; ".join(why)])
    return rows


def _tally(points: dict[str, Any]) -> Block:
    scored = [s["result"] for s in points.values() if s["result"] != "scored in the interview"]
    tally = Counter(scored)
    return (
        "p",
        f"{tally['passed']} of {len(scored)} points passed, {tally['partial']} partial, "
        f"{tally['failed']} failed, {tally['not attempted']} not attempted.",
    )


def _hint(step: dict[str, Any]) -> str:
    rung = int(step.get("hint", 0))
    if not rung:
        return ""
    capped = f"its points capped at {step['capped_at']}"
    return f"hint {rung} of {len(RUNGS)} ({RUNGS[rung - 1]}): {capped}"
