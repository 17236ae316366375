// An exercise's page: the editor, the steps and hints, the Run button, and the verdict as
// `python -m kata check` prints it.  Progress (the code, the step reached, the hints taken)
// is kept in this browser's localStorage, under "kata:" and the exercise's name.
import { indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { indentUnit } from "@codemirror/language";
import { keymap } from "@codemirror/view";
import { basicSetup, EditorView } from "codemirror";
import { Engine } from "./engine.js";

const exercise = JSON.parse(document.getElementById("exercise").textContent);
const $ = (id) => document.getElementById(id);
const key = `kata:${exercise.name}`;
const CARD = "/kata/card.json";
const STATE = "/kata/.kata.json";

// --- progress, in localStorage ----------------------------------------------------------

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(key) || "null");
    if (saved && typeof saved.code === "string") return { step: 1, hints: {}, ...saved };
  } catch {}
  return { code: exercise.starter, step: 1, hints: {}, all: false };
}

const progress = load();
const save = () => localStorage.setItem(key, JSON.stringify(progress));

// --- the editor -------------------------------------------------------------------------

let saving = null;
const editor = new EditorView({
  doc: progress.code,
  parent: $("editor"),
  extensions: [
    basicSetup,
    python(),
    indentUnit.of("    "),
    keymap.of([indentWithTab, { key: "Mod-Enter", run: () => (runCheck(), true) }]),
    EditorView.updateListener.of((update) => {
      if (!update.docChanged) return;
      clearTimeout(saving);
      saving = setTimeout(() => {
        progress.code = editor.state.doc.toString();
        save();
      }, 300);
    }),
  ],
});

function setCode(code) {
  editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: code } });
  progress.code = code;
  save();
}

// --- steps and hints --------------------------------------------------------------------

let shown = Math.min(Math.max(progress.step, 1), exercise.steps.length);
let lastCard = null;

function stepResults() {
  const steps = lastCard?.steps?.[exercise.name] || [];
  return Object.fromEntries(steps.map((step) => [step.number, step.result]));
}

function element(tag, fields = {}, ...children) {
  const made = Object.assign(document.createElement(tag), fields);
  made.append(...children.filter((child) => child !== null && child !== undefined));
  return made;
}

function renderSteps() {
  $("question").textContent = exercise.question;
  const results = stepResults();
  $("steps").replaceChildren(
    ...exercise.steps.map((step) => {
      const result = results[step.number] || (step.interview ? "interview" : "");
      const item = element(
        "li",
        { className: `${step.number === shown ? "shown" : ""} ${result.replace(" ", "-")}` },
        element("a", { href: "#", textContent: step.title }),
        result ? element("span", { className: "result", textContent: ` ${result}` }) : null,
        step.number === progress.step ? element("span", { className: "current", textContent: " ← current" }) : null,
      );
      item.querySelector("a").onclick = (event) => {
        event.preventDefault();
        shown = step.number;
        renderSteps();
      };
      return item;
    }),
  );
  const step = exercise.steps[shown - 1];
  const kind = step.interview ? "spoken" : `writes ${step.writes.join(", ")}`;
  const rules = step.rules.map(([number, title]) => element("li", { value: number, textContent: title }));
  const checklist = step.interview && step.checklist.length
    ? element(
        "details",
        {},
        element("summary", { textContent: "Answer it out loud first; then: what a strong answer covers" }),
        element("ul", {}, ...step.checklist.map((item) => element("li", { textContent: item }))),
      )
    : null;
  $("step").replaceChildren(
    element(
      "div",
      {},
      element("h3", {
        textContent: `Step ${step.number} of ${exercise.steps.length}: ${step.title} (${step.minutes} min in an interview; ${kind})`,
      }),
      element("p", { textContent: step.task }),
      rules.length ? element("p", { textContent: `The rules it asks for (${exercise.contract}):` }) : null,
      rules.length ? element("ol", {}, ...rules) : null,
      checklist,
    ),
  );
  const taken = progress.hints[step.name] || 0;
  $("hints").replaceChildren(
    ...step.hints.slice(0, taken).map((hint, rung) =>
      element(
        "p",
        { className: "hint" },
        element("strong", { textContent: `Hint ${rung + 1} of ${step.hints.length} (${exercise.rungs[rung]}): ` }),
        hint,
        element("span", {
          className: "note",
          textContent: ` (caps this step's points at ${exercise.caps[rung]})`,
        }),
      ),
    ),
  );
  $("hint").disabled = taken >= step.hints.length;
  $("hint").textContent = taken >= step.hints.length ? "No more hints" : `Hint ${taken + 1}`;
}

$("hint").onclick = () => {
  const step = exercise.steps[shown - 1];
  progress.hints[step.name] = Math.min((progress.hints[step.name] || 0) + 1, step.hints.length);
  save();
  renderSteps();
};

// --- running the check --------------------------------------------------------------------

const output = $("output");
let printed = "";
const engine = new Engine({
  exercise: exercise.name,
  onOutput(text) {
    printed += text;
    output.textContent = printed;
  },
});
const timings = { pageToReady: null, runs: [] };

/** `python -m kata check` on `code` as the module of `name` (my_NAME.py), with the step
 * reached and the hints taken; after `--`, `args` for pytest.  What it printed, the
 * scorecard (--json), the state it left (.kata.json) and the seconds on the clock. */
async function judge({ name = exercise.name, code, all = false, args = [], step = 1, hints = {} }) {
  const file = `my_${name}.py`;
  const state = { current: name, exercises: { [name]: { file, step, hints } } };
  const argv = ["check", file, "--json", CARD, ...(all ? ["--all"] : []), ...(args.length ? ["--", ...args] : [])];
  $("command").textContent = `python -m kata ${argv.filter((a) => a !== "--json" && a !== CARD).join(" ")}`;
  printed = "";
  output.textContent = "";
  output.className = "output running";
  $("run").disabled = true;
  $("stop").disabled = false;
  $("status").textContent = "judging…";
  const began = performance.now();
  const files = { [`/kata/${file}`]: code, [STATE]: JSON.stringify(state) };
  let result;
  try {
    result = await engine.run(argv, files, [CARD, STATE]);
  } catch (error) {
    result = { status: 3, files: {}, error: String(error) };
    printed += `\n${error}\n`;
    output.textContent = printed;
  }
  const seconds = (performance.now() - began) / 1000;
  const card = result.files?.[CARD] ? JSON.parse(result.files[CARD]) : null;
  const after = result.files?.[STATE] ? JSON.parse(result.files[STATE]) : null;
  const verdict = result.stopped ? "stopped" : result.status === 0 ? "passed" : "failed";
  output.className = `output ${verdict}`;
  $("timing").textContent = result.stopped ? "stopped" : `verdict in ${seconds.toFixed(1)} s`;
  $("status").textContent = "ready";
  $("run").disabled = false;
  $("stop").disabled = true;
  timings.runs.push({ name, seconds, sincePage: performance.now() / 1000 });
  return { status: result.status, output: printed, card, state: after, seconds, verdict };
}

/** Scroll the verdict to the first line holding `text` (the scorecard, by default). */
function showLine(text = "==== rubric scorecard") {
  const lines = output.textContent.split("\n");
  const index = lines.findIndex((line) => line.includes(text));
  if (index >= 0) output.scrollTop = (output.scrollHeight / lines.length) * index;
}

/** The Run button: this exercise's check on the editor's code, progress kept. */
async function runCheck({ code, all, args = [] } = {}) {
  if (code !== undefined) setCode(code);
  progress.code = editor.state.doc.toString();
  progress.all = all ?? $("all").checked;
  save();
  const result = await judge({ code: progress.code, all: progress.all, args, step: progress.step, hints: progress.hints });
  const reached = result.state?.exercises?.[exercise.name]?.step;
  if (reached) {
    progress.step = reached;
    shown = reached;
    save();
  }
  lastCard = result.card;
  renderSteps();
  showLine();
  return result;
}

$("run").onclick = () => runCheck();
$("stop").onclick = () => engine.stop();
$("reset").onclick = () => {
  if (confirm("Put the starter back in the editor? Your code here is replaced.")) setCode(exercise.starter);
};
$("all").checked = Boolean(progress.all);
if (exercise.limits) {
  $("limits").textContent = exercise.limits;
  $("limits").hidden = false;
}
$("file").textContent = exercise.file;

renderSteps();

if (!window.crossOriginIsolated) {
  $("status").textContent = "not cross-origin isolated: reload the page";
  output.textContent =
    "This page needs cross-origin isolation (shared memory between its workers). Its service " +
    "worker (sw.js) provides it on any host; reload once. Served over plain http from an " +
    "address other than localhost, browsers allow neither: serve it over https.";
} else {
  engine.ready.then(
    (phases) => {
      timings.pageToReady = performance.now() / 1000;
      $("status").textContent = `ready (Python started in ${phases.warm.toFixed(1)} s)`;
      $("run").disabled = false;
    },
    (error) => {
      $("status").textContent = "Python did not start";
      output.textContent = String(error);
    },
  );
}

// For the page's own tests (tests/web/test_site.py) and the curious: the page's API.
window.kata = { exercise, engine, progress, timings, run: runCheck, judge, setCode, showLine, ready: engine.ready };
