// Cross-origin isolation, which the judge's shared memory needs (SharedArrayBuffer,
// Atomics.wait).  A host that sends the COOP and COEP headers gives it at once; on one
// that does not (most static hosts), sw.js adds them: it is registered, and the page is
// loaded once more through it.  A page that still is not isolated says why.
(function () {
  if (window.crossOriginIsolated || !window.isSecureContext || !navigator.serviceWorker) return;
  const tried = "kata-isolation-tried";
  if (sessionStorage.getItem(tried)) return; // loaded through it once already: no loop
  const scope = new URL(".", document.currentScript.src).pathname;
  navigator.serviceWorker.register(new URL("sw.js", document.currentScript.src), { scope }).then(
    (registration) => {
      const reload = () => {
        sessionStorage.setItem(tried, "1");
        window.location.reload();
      };
      if (registration.active && navigator.serviceWorker.controller) reload();
      else navigator.serviceWorker.addEventListener("controllerchange", reload);
    },
    (error) => console.warn("kata: no service worker for cross-origin isolation:", error),
  );
})();
