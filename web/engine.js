// The page's side of the judge: the judge's worker, the judged module's workers (one
// booted in advance: between runs, and during a run once a call is slow, so that a fresh
// one is ready when a call must be stopped), the clock worker, and the shared memory
// between them.  The page's own thread never waits: it
// answers the judge's requests (a worker for a judged module; ending one) as messages.
import { Slot } from "./channel.js";

const SLOTS = 4; // judged workers' channels, used in turn: an ended worker's is not reused soon

export class Engine {
  constructor({ exercise = null, onOutput = () => {} } = {}) {
    this.exercise = exercise;
    this.onOutput = onOutput;
    this.control = new Int32Array(new SharedArrayBuffer(8));
    this.slots = Array.from({ length: SLOTS }, () => Slot.create());
    this.active = new Map(); // slot index -> its worker
    this.spare = null;
    this.running = null;
    this.timings = { judgeReady: null, spareReady: [] };
    this.started = performance.now();
    // The judged module's first worker boots once the judge's Python has: two booting at
    // once on a small machine each take as long as both one after the other.
    this.startJudge();
  }

  startJudge() {
    this.clockBuffer = new SharedArrayBuffer(16);
    this.interrupt = new SharedArrayBuffer(4);
    this.clock?.terminate();
    this.clock = new Worker(new URL("clock-worker.js", import.meta.url));
    this.clock.postMessage({ clock: this.clockBuffer, interrupt: this.interrupt });
    this.judge = new Worker(new URL("judge-worker.js", import.meta.url), { type: "module" });
    this.ready = new Promise((resolve, reject) => {
      this.judge.onmessage = (event) => {
        const message = event.data;
        if (message.type === "ready") {
          this.timings.judgeReady = (performance.now() - this.started) / 1000;
          this.timings.judgePhases = message.seconds;
          resolve(message.seconds);
        } else if (message.type === "failed") reject(new Error(message.error));
        else this.fromJudge(message);
      };
      this.judge.onerror = (event) => reject(new Error(event.message || "the judge's worker failed"));
    });
    this.judge.postMessage({
      type: "start",
      control: this.control.buffer,
      slots: this.slots.map((slot) => slot.buffer),
      clock: this.clockBuffer,
      interrupt: this.interrupt,
      exercise: this.exercise,
    });
  }

  fromJudge(message) {
    if (message.type === "output") this.onOutput(message.text);
    else if (message.type === "booted" && !this.spare) this.bootSpare();
    else if (message.type === "slow" && !this.spare) this.bootSpare(); // a call may be stopped
    else if (message.type === "spawn") this.grant(message.number, message.request);
    else if (message.type === "kill") this.end(message.slot);
    else if (message.type === "done" && this.running) {
      const { resolve } = this.running;
      this.running = null;
      if (!this.spare) this.bootSpare(); // between runs, not beside one: it would take a core
      resolve(message);
    }
  }

  bootSpare() {
    const worker = new Worker(new URL("judged-worker.js", import.meta.url), { type: "module" });
    const began = performance.now();
    const spare = { worker };
    spare.ready = new Promise((resolve, reject) => {
      worker.onmessage = (event) => {
        if (event.data.type === "ready") {
          this.timings.spareReady.push((performance.now() - began) / 1000);
          this.timings.spareLaps = event.data.laps;
          resolve(worker);
        } else if (event.data.type === "failed") reject(new Error(event.data.error));
      };
      worker.onerror = (event) => reject(new Error(event.message || "a judged worker failed"));
    });
    spare.ready.catch(() => {});
    this.spare = spare;
    return spare;
  }

  /** The judge asked for a worker for its judged module: the spare, serving a fresh slot. */
  async grant(number, request) {
    const spare = this.spare || this.bootSpare();
    this.spare = null;
    let index = -1;
    try {
      const worker = await spare.ready;
      index = number % SLOTS;
      this.end(index);
      const slot = this.slots[index];
      slot.reset();
      worker.onmessage = (event) => {
        if (event.data.type === "ended") slot.end(event.data.status);
      };
      worker.onerror = () => slot.end(null);
      worker.postMessage({ type: "serve", buffer: slot.buffer, ...request });
      this.active.set(index, worker);
    } catch (error) {
      this.onOutput(`\n(the page could not start a worker for your module: ${error})\n`);
      index = -1;
    }
    Atomics.store(this.control, 1, index);
    Atomics.store(this.control, 0, number);
    Atomics.notify(this.control, 0);
  }

  end(index) {
    const worker = this.active.get(index);
    if (worker) {
      worker.terminate();
      this.active.delete(index);
      this.slots[index].end(-9);
    }
  }

  /** `python -m kata` with argv, the files written first, the files in `read` read after. */
  async run(argv, files, read) {
    await this.ready;
    if (this.running) throw new Error("a run is under way");
    const done = new Promise((resolve, reject) => (this.running = { resolve, reject }));
    this.judge.postMessage({ type: "run", argv, files, read });
    return done;
  }

  /** Stop the run under way: the judge's worker and the module's are ended, and a fresh
   * judge starts (Python boots again: a few seconds). */
  stop() {
    if (!this.running) return;
    const { resolve } = this.running;
    this.running = null;
    this.judge.terminate();
    for (const index of [...this.active.keys()]) this.end(index);
    this.control = new Int32Array(new SharedArrayBuffer(8));
    this.started = performance.now();
    this.startJudge();
    resolve({ status: null, stopped: true, files: {}, seconds: null });
  }
}
