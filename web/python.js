// Python in a worker: Pyodide from the site's own copy, and the kata's wheels from the
// site's own files (site.json lists them); nothing is fetched from anywhere else.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = new URL(".", import.meta.url);

/** Pyodide booted, with the wheels of `role` ("judge" or "judged") installed. */
export async function boot(role, { stdout, stderr, env = {} } = {}) {
  const site = await (await fetch(new URL("site.json", here))).json();
  const pyodide = await loadPyodide({
    indexURL: new URL("pyodide/", here).href,
    env: { HOME: "/home/pyodide", ...env },
    stdout,
    stderr,
  });
  const booted = performance.now();
  const wheels = site.wheels[role].map((name) => new URL(`wheels/${name}`, here).href);
  await pyodide.loadPackage(wheels, { messageCallback: () => {}, errorCallback: console.error });
  const laps = { pyodide: booted / 1000, wheels: performance.now() / 1000 };
  return { pyodide, site, laps };
}

/** A raw writer for setStdout: bytes to text, whole characters at a time, to `emit`. */
export function textWriter(emit) {
  const decoder = new TextDecoder();
  return {
    write(bytes) {
      emit(decoder.decode(bytes, { stream: true }));
      return bytes.length;
    },
    isatty: false,
  };
}
