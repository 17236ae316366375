// The judge's worker: pytest and the kata, as `python -m kata check` runs them, with the
// module under test in a worker of its own (judged-worker.js) that the page starts for it.
//
// From the page: {type: "run", argv, files} runs `python -m kata` with argv in /kata after
// writing the files there; what it prints streams back ({type: "output"}), then
// {type: "done", status, card, state}.  The page lends this worker three shared buffers:
// `control` (the page's answer to a request for a judged worker), the judged workers'
// `slots`, and `clock` (the timer that stands in for signal.setitimer).
import { REQUESTS, Slot, withBytes } from "./channel.js";
import { boot, textWriter } from "./python.js";

const CONTROL_GRANTED = 0; // the last request the page has answered
const CONTROL_SLOT = 1; // its slot, or -1 if no worker could be started
const CLOCK_ARMED = 0; // a generation count: every arm or disarm adds one
const CLOCK_SIGNAL = 1; // the signal to raise when due (0: disarmed)
const CLOCK_DEADLINE = 1; // (Float64 index) when, in ms since the epoch

let control, slots, clock, clockDeadline, requests = 0;
const post = (type, fields = {}) => postMessage({ type, ...fields });
const now = () => performance.timeOrigin + performance.now();

const channel = {
  spawn(request, ms) {
    const number = ++requests;
    post("spawn", { number, request: JSON.parse(request) });
    const until = performance.now() + ms;
    for (;;) {
      const granted = Atomics.load(control, CONTROL_GRANTED);
      if (granted >= number) return Atomics.load(control, CONTROL_SLOT);
      const left = until - performance.now();
      if (left <= 0) return -1;
      Atomics.wait(control, CONTROL_GRANTED, granted, Math.min(left, 500));
    }
  },
  kill(index) {
    post("kill", { slot: index });
    slots[index].end(-9);
  },
  write: (index, ring, data) => withBytes(data, (bytes) => slots[index].write(ring, bytes)),
  read: (index, ring, most) => slots[index].read(ring, most),
  poll: (index, most, ms) => slots[index].poll(most, ms),
  // A call has gone a while without its reply: a worker to replace its own, should it be ended.
  slow: () => post("slow"),
  status: (index) => slots[index].status(),
  // signal.setitimer: arm the page's clock worker; the ms that were left of the last timer.
  arm(signal, ms) {
    const was = Atomics.load(clock, CLOCK_SIGNAL) ? clockDeadline[CLOCK_DEADLINE] - now() : 0;
    clockDeadline[CLOCK_DEADLINE] = now() + ms;
    Atomics.store(clock, CLOCK_SIGNAL, ms > 0 ? signal : 0);
    Atomics.add(clock, CLOCK_ARMED, 1);
    Atomics.notify(clock, CLOCK_ARMED);
    return Math.max(was, 0);
  },
};

let ready;

onmessage = async (event) => {
  const message = event.data;
  if (message.type === "start") {
    control = new Int32Array(message.control);
    slots = message.slots.map((buffer) => new Slot(buffer));
    clock = new Int32Array(message.clock);
    clockDeadline = new Float64Array(message.clock);
    ready = start(message.interrupt, message.exercise);
    ready.then(
      (seconds) => post("ready", { seconds }),
      (error) => post("failed", { error: String(error?.stack ?? error) }),
    );
    return;
  }
  if (message.type === "run") {
    await ready;
    post("done", run(self.pyodide, message));
  }
};

async function start(interrupt, exercise) {
  const began = performance.now();
  const phases = {};
  const lap = (name) => (phases[name] = (performance.now() - began) / 1000);
  let quiet = true; // the warm-up's output is nobody's
  const emit = (text) => quiet || post("output", { text });
  const { pyodide, laps } = await boot("judge", { stdout: undefined, stderr: undefined });
  Object.assign(phases, laps);
  lap("python");
  post("booted");
  pyodide.setStdout(textWriter(emit));
  pyodide.setStderr(textWriter(emit));
  pyodide.setInterruptBuffer(new Int32Array(interrupt));
  pyodide.registerJsModule("kata_channel", channel);
  pyodide.runPython(`
import os
os.makedirs("/kata", exist_ok=True)
os.chdir("/kata")
from kata.process import browser
browser.fill_in()
`);
  // A run's imports done now, as a run does them: the first run starts at once.
  if (exercise) {
    pyodide.globals.set("kata_exercise", exercise);
    pyodide.runPython("browser.warm(kata_exercise)");
  }
  lap("warm");
  pyodide.runPython("import sys; sys.stdout.flush(); sys.stderr.flush()");
  quiet = false;
  self.pyodide = pyodide;
  return phases;
}

function run(pyodide, { argv, files, read = [] }) {
  const began = performance.now();
  // What the last run left is not this run's answer; then this run's files.
  for (const path of read) {
    try {
      pyodide.FS.unlink(path);
    } catch {}
  }
  for (const [path, text] of Object.entries(files)) pyodide.FS.writeFile(path, text);
  let status;
  try {
    pyodide.globals.set("kata_argv", pyodide.toPy(argv));
    status = pyodide.runPython(`
import sys
sys.stdout.flush(); sys.stderr.flush()
try:
    status = browser.check(list(kata_argv))
except SystemExit as exit:
    status = exit.code if isinstance(exit.code, int) else 1
finally:
    sys.stdout.flush(); sys.stderr.flush()
status
`);
  } catch (error) {
    post("output", { text: `\n${error}\n` });
    status = 3;
  }
  const got = {};
  for (const path of read) {
    try {
      got[path] = pyodide.FS.readFile(path, { encoding: "utf8" });
    } catch {
      got[path] = null;
    }
  }
  return { status, files: got, seconds: (performance.now() - began) / 1000 };
}

// Unused here, but named so that a reader of kata/process/browser.py finds the rings.
void REQUESTS;
