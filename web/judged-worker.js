// The worker a judged module runs in: the command line's judged process, in a page.
// Booted in advance (Python, the kata's harness); then, told which slot to serve, it
// mirrors the module's file, and answers the judge's requests (kata.process.browser
// .serve_judged) until the judge says bye, or the page ends this worker.
import { OUTPUT, REQUESTS, REPLIES, Slot, withBytes } from "./channel.js";
import { boot } from "./python.js";

let slot = null;
const write = {
  write(bytes) {
    if (slot) slot.write(OUTPUT, bytes, { byModule: true });
    return bytes.length;
  },
  isatty: false,
};

const ready = (async () => {
  // The same hash seed as the command line's judged process (PYTHONHASHSEED=0).
  const { pyodide, laps } = await boot("judged", { env: { PYTHONHASHSEED: "0" } });
  pyodide.setStdout(write);
  pyodide.setStderr(write);
  pyodide.registerJsModule("kata_channel", {
    read_request: (most) => slot.readWaiting(REQUESTS, most),
    write_reply: (data) => withBytes(data, (bytes) => slot.write(REPLIES, bytes, { byModule: true })),
  });
  // The harness imported now, so that serving starts at once.
  pyodide.runPython(`
import sys
from kata.exercises import ROOT
sys.path.insert(0, str(ROOT))
from kata.process import browser, judged
browser.fill_in()
for name in judged.HARNESS:
    __import__(name)
`);
  laps.harness = performance.now() / 1000;
  return { pyodide, laps };
})();

ready.then(
  ({ laps }) => postMessage({ type: "ready", laps }),
  (error) => postMessage({ type: "failed", error: String(error) }),
);

onmessage = async (event) => {
  const message = event.data;
  if (message.type !== "serve") return;
  const { pyodide } = await ready;
  slot = new Slot(message.buffer);
  for (const [path, text] of Object.entries(message.files)) {
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")) || "/");
    pyodide.FS.writeFile(path, text);
  }
  slot.serving();
  let status = 0;
  try {
    pyodide.globals.set("kata_paths", pyodide.toPy(message.paths));
    pyodide.globals.set("kata_workdir", message.workdir);
    pyodide.runPython("browser.serve_judged(list(kata_paths), kata_workdir)");
  } catch (error) {
    // The module ended Python itself (os._exit: its status), or Python failed.
    status = typeof error?.status === "number" ? error.status : 1;
    const text = new TextEncoder().encode(`\n${error}\n`);
    slot.write(OUTPUT, text.subarray(0, 4096), { byModule: true });
  }
  slot.end(status);
  postMessage({ type: "ended", status });
};
