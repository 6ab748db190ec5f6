/* Cellula: the live solver's Web Worker (issue #70), a module worker (Pyodide runs in no other kind).
 * It holds Pyodide, HiGHS compiled to WebAssembly and the Python sources the page sends first, and
 * answers the page's requests (docs/assets/live-solve.js, whose Host it runs). */
import { loadPyodide } from "./pyodide/pyodide.mjs";
import createHighs from "./highs/highs.mjs";
import "./live-solve.js";

var base = null, sources = null;
var host = new self.CellulaLiveHost.Host(function () {
  return loadPyodide({ indexURL: base + "pyodide/" }).then(function (pyodide) {
    return { pyodide: pyodide, createHighs: createHighs, sources: sources, highsWasm: null,
             locateHighs: function (path) { return base + "highs/" + path; } };
  });
});
self.onmessage = function (event) {
  var m = event.data;
  if (m.kind === "sources") { base = m.base; sources = m.sources; return; }
  var work = m.kind === "warm" ? host.ready()
    : m.kind === "open" ? host.open(m.key, m.play)
    : m.kind === "state" ? host.open(m.key, m.play).then(function () { return host.analyseState(m.key, m.moves, m.ceiling, m.budget); })
    : m.kind === "text" ? host.analyseText(m.text, m.lang, m.budget)
    : Promise.reject(new Error("unknown request " + m.kind));
  work.then(function (answer) { self.postMessage({ id: m.id, answer: answer === undefined ? null : answer }); },
            function (err) { self.postMessage({ id: m.id, error: String(err && err.message || err) }); });
};
