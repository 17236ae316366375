// The clock that stands in for signal.setitimer in the judge's worker, which Pyodide lacks:
// the judge arms it (a signal and a deadline in shared memory) and runs on; when the
// deadline passes still armed, this worker writes the signal into the judge's interrupt
// buffer, and Python raises it there at its next instruction (Pyodide's setInterruptBuffer).
// The kata's trusted in-process calls (the gallery's known mistakes) are timed this way.
const ARMED = 0;
const SIGNAL = 1;
const DEADLINE = 1; // as a Float64 index: ms since the epoch

onmessage = (event) => {
  const clock = new Int32Array(event.data.clock);
  const deadline = new Float64Array(event.data.clock);
  const interrupt = new Int32Array(event.data.interrupt);
  const now = () => performance.timeOrigin + performance.now();
  for (;;) {
    const armed = Atomics.load(clock, ARMED);
    const signal = Atomics.load(clock, SIGNAL);
    if (!signal) {
      Atomics.wait(clock, ARMED, armed);
      continue;
    }
    const left = deadline[DEADLINE] - now();
    if (left > 0) {
      Atomics.wait(clock, ARMED, armed, left);
      continue;
    }
    // Due, unless it was armed again or disarmed meanwhile.
    if (Atomics.compareExchange(clock, SIGNAL, signal, 0) === signal) {
      if (Atomics.load(clock, ARMED) === armed) Atomics.store(interrupt, 0, signal);
    }
  }
};
