/* Cellula: the live solver (issue #70). The best score still reachable and the best continuation
 * from any position, computed in the reader's browser: the planner's own model built in Python
 * (Pyodide) and solved by HiGHS compiled to WebAssembly, each plan replayed by the rules engine
 * before it is shown (generator/puzzles/live_solve.py). No server.
 *
 * Loaded by a page it defines window.CellulaAnalysis and starts a Web Worker
 * (docs/assets/live-solve-worker.js, which imports this file for its Host), which loads Pyodide,
 * HiGHS and the Python sources, so the page never freezes while a position is solved. The offline build
 * (file://, where Chromium refuses workers from files) runs the same host in the page instead.
 * The interface, documented in docs/dev/puzzle-pages.md ("Live analysis"):
 *   CellulaAnalysis.analyseState(puzzle, moves, options) -> Promise<answer>
 *   CellulaAnalysis.analyse(text, lang) -> Promise<answer>
 *   CellulaAnalysis.warm() -> Promise (load everything now: the reader is reading)
 */
(function () {
  "use strict";
  var INFINITY_NULL = null;   // a bound of null in the model's JSON is infinite

  // ---- HiGHS: one persistent model per puzzle, bounds changed per position ----------------
  function MipHost(highs) {
    var models = {};
    function finite(list, sign) {
      var out = new Float64Array(list.length);
      for (var i = 0; i < list.length; i++) out[i] = list[i] === INFINITY_NULL ? sign * highs.infinity : list[i];
      return out;
    }
    this.open = function (key, arrays) {
      if (models[key]) { models[key].model.dispose(); delete models[key]; }
      if (!arrays) return;
      var data = {
        numCols: arrays.numCols, numRows: arrays.numRows, sense: highs.constants.objectiveSense.maximize,
        offset: arrays.offset, colCost: arrays.colCost, colLower: arrays.colLower, colUpper: arrays.colUpper,
        rowLower: finite(arrays.rowLower, -1), rowUpper: finite(arrays.rowUpper, 1),
        matrix: arrays.matrix, integrality: arrays.integrality
      };
      var model = highs.createModel(data);
      model.options.set({ output_flag: false, mip_rel_gap: 0, mip_abs_gap: 0.99 });
      // One more row, the objective itself: held at most a proven ceiling per position (free otherwise).
      var idx = [], vals = [];
      for (var j = 0; j < arrays.colCost.length; j++) if (arrays.colCost[j]) { idx.push(j); vals.push(arrays.colCost[j]); }
      model.addRow(-highs.infinity, highs.infinity, { indices: Int32Array.from(idx), values: Float64Array.from(vals) });
      models[key] = { model: model, lower: Float64Array.from(arrays.colLower), upper: Float64Array.from(arrays.colUpper),
                      ceilingRow: arrays.numRows, offset: arrays.offset || 0 };
    };
    // The request and answer of generator/puzzles/live_solve.py MipSolve (JSON both ways).
    this.solve = function (requestJson) {
      var req = JSON.parse(requestJson);
      if (req.arrays) this.open(req.model, req.arrays);
      var entry = models[req.model];
      if (!entry) return JSON.stringify({ status: "unknown", objective: null, bound: null, values: [] });
      var model = entry.model, n = entry.lower.length;
      var lower = Float64Array.from(entry.lower), upper = Float64Array.from(entry.upper), k;
      for (k in req.lower) lower[+k] = req.lower[k];
      for (k in req.upper) upper[+k] = req.upper[k];
      model.changeColsBounds({ kind: "range", from: 0, to: n - 1 }, lower, upper);
      model.changeRowBounds(entry.ceilingRow, -highs.infinity,
                            typeof req.ceiling === "number" ? req.ceiling - entry.offset : highs.infinity);
      model.options.set({ time_limit: Math.max(0.1, req.time_limit || 8) });
      if (req.start) {
        var idx = [], vals = [];
        for (k in req.start) { idx.push(+k); vals.push(req.start[k]); }
        try { model.setSolution({ indices: Int32Array.from(idx), values: Float64Array.from(vals) }); } catch (e) { /* a start HiGHS refuses is no start */ }
      }
      model.run();
      var S = highs.constants.modelStatus, status = model.getModelStatus();
      var info = model.info, has = false, bound = null;
      try { has = Number(info.get("primal_solution_status")) === 2; } catch (e) { has = status === S.optimal; }
      try { bound = Number(info.get("mip_dual_bound")); if (!isFinite(bound)) bound = null; } catch (e) { bound = null; }
      var out = { status: "unknown", objective: null, bound: bound === null ? null : Math.floor(bound + 1e-6), values: [] };
      if (status === S.infeasible) out.status = "infeasible";
      else if (has) {
        out.status = status === S.optimal ? "optimal" : "feasible";
        out.objective = model.getObjectiveValue();
        out.values = Array.prototype.slice.call(model.getSolution().colValue);
      }
      return JSON.stringify(out);
    };
  }

  // ---- The host: Pyodide + HiGHS + the Python sources, in a worker or (offline) in the page -----
  // ``load`` gives {pyodide, createHighs (the highs factory), sources (path -> text), highsWasm (bytes or null)}.
  function Host(load) {
    var ready = null, py = null, mip = null, live = null, opened = {};
    this.ready = function () {
      if (!ready) {
        ready = load().then(function (got) {
          py = got.pyodide;
          // From memory (the offline build) the module is instantiated here: this build of HiGHS
          // fetches its WebAssembly itself otherwise, which file:// refuses.
          var highsArgs = got.highsWasm ? {
            instantiateWasm: function (imports, done) {
              WebAssembly.instantiate(got.highsWasm, imports).then(function (r) { done(r.instance, r.module); });
              return {};
            }
          } : { locateFile: got.locateHighs };
          return got.createHighs(highsArgs).then(function (highs) {
            mip = new MipHost(highs);
            for (var path in got.sources) {
              py.FS.mkdirTree("/cellula/" + path.replace(/\/?[^\/]*$/, ""));
              py.FS.writeFile("/cellula/" + path, got.sources[path]);
            }
            py.runPython("import sys\nif '/cellula' not in sys.path: sys.path.insert(0, '/cellula')");
            py.globals.set("cellula_mip_solve", function (request) { return mip.solve(request); });
            live = py.pyimport("cellula_live");
          });
        });
        ready.catch(function () { ready = null; });
      }
      return ready;
    };
    // Open a puzzle once (its model built and handed to HiGHS), then answer positions of it.
    this.open = function (key, play) {
      return this.ready().then(function () {
        if (opened[key] === play.packed) return;
        var arrays = live.open_puzzle(key, play.packed, play.words || "", play.recorded || "",
                                      typeof play.optimum === "number" ? play.optimum : undefined,
                                      py.globals.get("cellula_mip_solve"));
        mip.open(key, JSON.parse(arrays));
        opened[key] = play.packed;
      });
    };
    this.analyseState = function (key, moves, ceiling, budget) {
      return this.ready().then(function () {
        // undefined, not null: Pyodide hands null to Python as JsNull, undefined as None
        return JSON.parse(live.analyse_state(key, JSON.stringify(moves), typeof ceiling === "number" ? ceiling : undefined,
                                             budget || 8));
      });
    };
    this.analyseText = function (text, lang, budget) {
      return this.ready().then(function () {
        return JSON.parse(live.analyse_puzzle_text(text, lang, budget || 8, py.globals.get("cellula_mip_solve")));
      });
    };
  }

  function decodeBase64(text) {
    var bin = atob(text), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes;
  }
  function gunzip(packed) {
    return new Response(new Blob([decodeBase64(packed)]).stream().pipeThrough(new DecompressionStream("gzip")))
      .arrayBuffer().then(function (b) { return new Uint8Array(b); });
  }

  // ---- In the worker (docs/assets/live-solve-worker.js imports this file for the host) ----------
  if (typeof document === "undefined") {
    self.CellulaLiveHost = { Host: Host, MipHost: MipHost };
    return;
  }

  // ---- In the page ------------------------------------------------------------------------
  var BASE = ((document.currentScript && document.currentScript.src) || "").replace(/[^\/]*$/, "");
  var NATIVE_FETCH = window.fetch;    // before any Pyodide load (board.js's or ours) replaces it
  // The worker runs this file by its own name (the page may have it inside the joined bundle,
  // generator/asset_bundle.py, whose other scripts need a document).
  var SELF = BASE + "live-solve.js";
  var worker = null, pageHost = null, nextId = 1, waiting = {};
  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement("script");
      s.src = src; s.onload = resolve;
      s.onerror = function () { reject(new Error(src)); };
      document.head.appendChild(s);
    });
  }
  // From file:// (the offline build): the host in the page, Pyodide and HiGHS from classic scripts
  // (generator/puzzles/play_offline.py), their files served from memory as board.js does.
  function offlineHost() {
    return new Host(function () {
      var bundle = window.CELLULA_PYODIDE_BUNDLE || [];
      return loadScript(BASE + "pyodide/pyodide.js")
        .then(function () { return loadScript(BASE + "play-engine.js"); })
        .then(function () { return loadScript(BASE + "live-engine.js"); })
        .then(function () {
          var scripts = (window.CELLULA_PYODIDE_BUNDLE || bundle).concat(window.CELLULA_HIGHS_BUNDLE || []);
          return Promise.all(scripts.map(function (src) { return loadScript(BASE + src); }));
        })
        .then(function () {
          // The play engine (board.js) may load its own Pyodide from the same scripts at the same
          // time: it answers fetches from window.CELLULA_PYODIDE_FILES and deletes that object when
          // done, then puts back the fetch it found. So: a copy of the files of our own, a wait
          // until no other load holds fetch, and fetch put back only if it is still ours.
          var files = Object.assign({}, window.CELLULA_PYODIDE_FILES || {});
          return new Promise(function (resolve) {
            (function wait() { if (window.fetch === NATIVE_FETCH) resolve(files); else setTimeout(wait, 100); })();
          });
        })
        .then(function (files) {
          var indexURL = new URL(BASE + "pyodide/", location.href).href;
          var ours = function (input) {
            var url = String(input && input.url ? input.url : input);
            var name = url.indexOf(indexURL) === 0 ? url.slice(indexURL.length) : "";
            if (files[name]) {
              return gunzip(files[name]).then(function (bytes) {
                return new Response(bytes, { headers: { "Content-Type": /\.wasm$/.test(name) ? "application/wasm" : "application/octet-stream" } });
              });
            }
            return NATIVE_FETCH.apply(this, arguments);
          };
          window.fetch = ours;
          function putBack() { if (window.fetch === ours) window.fetch = NATIVE_FETCH; }
          var createHighs = window.CELLULA_HIGHS_MODULE;
          return Promise.all([
            window.loadPyodide({ indexURL: indexURL, createPyodideModule: window.CELLULA_PYODIDE_MODULE }),
            gunzip((window.CELLULA_HIGHS_FILES || {})["highs.wasm"] || "")
          ]).finally(putBack).then(function (got) {
            return { pyodide: got[0], createHighs: createHighs, highsWasm: got[1],
                     sources: Object.assign({}, window.CELLULA_ENGINE_SOURCES, window.CELLULA_LIVE_SOURCES) };
          });
        });
    });
  }
  function request(message) {
    if (location.protocol === "file:") {
      if (!pageHost) {
        // The http build opened from disk has no Pyodide as scripts: say so, load nothing of it.
        pageHost = loadScript(BASE + "play-engine.js").then(function () {
          if (!window.CELLULA_PYODIDE_BUNDLE) {
            var err = new Error("file://");
            err.cellulaFileUrl = true;
            throw err;
          }
          return offlineHost();
        });
        pageHost.catch(function () { pageHost = null; });
      }
      var m = message;
      return pageHost.then(function (host) {
        return m.kind === "warm" ? host.ready()
          : m.kind === "open" ? host.open(m.key, m.play)
          : m.kind === "state" ? host.open(m.key, m.play).then(function () { return host.analyseState(m.key, m.moves, m.ceiling, m.budget); })
          : host.analyseText(m.text, m.lang, m.budget);
      });
    }
    if (!worker) {
      // A module worker (Pyodide runs in no other kind); the Python sources go with the first message.
      worker = Promise.all([loadScript(BASE + "play-engine.js"), loadScript(BASE + "live-engine.js")]).then(function () {
        var w = new Worker(BASE + "live-solve-worker.js", { type: "module" });
        w.onmessage = function (event) {
          var wait = waiting[event.data.id];
          delete waiting[event.data.id];
          if (!wait) return;
          if (event.data.error) wait.reject(new Error(event.data.error)); else wait.resolve(event.data.answer);
        };
        w.postMessage({ kind: "sources", id: 0, base: new URL(BASE, location.href).href,
                        sources: Object.assign({}, window.CELLULA_ENGINE_SOURCES, window.CELLULA_LIVE_SOURCES) });
        return w;
      });
      worker.catch(function () { worker = null; });
    }
    message.id = nextId++;
    return worker.then(function (w) {
      return new Promise(function (resolve, reject) {
        waiting[message.id] = { resolve: resolve, reject: reject };
        w.postMessage(message);
      });
    });
  }

  // The play data of a puzzle (generator/puzzles/play_data.py play_data_asset), which board.js
  // loads: the puzzle packed for the engine; filed under the puzzle id.
  function playOf(puzzle) {
    var data = (window.CELLULA_PLAY_DATA || {})[puzzle];
    if (!data) return Promise.reject(new Error("no play data for " + puzzle));
    return Promise.resolve(data);
  }

  function playFor(puzzle, options) {
    return playOf(puzzle).then(function (data) {
      return { packed: data.play, words: options.words || "", recorded: JSON.stringify(options.recorded || []),
               optimum: options.optimum === undefined || options.optimum === null || isNaN(options.optimum) ? null : options.optimum };
    });
  }
  function fmt(template, values) {
    return String(template).replace(/\{(\w+)\}/g, function (_, k) { return values[k]; });
  }

  var started = null;
  window.CellulaAnalysis = {
    /** Load Pyodide, HiGHS and the sources now (the reader is reading); idempotent. */
    warm: function () {
      if (!started) { started = request({ kind: "warm" }); started.catch(function () { started = null; }); }
      return started;
    },
    /** Build ``puzzle``'s model now (its play data loaded), so that its first position is answered
     * without waiting for it; ``options`` as for analyseState. */
    prepare: function (puzzle, options) {
      options = options || {};
      return playFor(puzzle, options).then(function (play) {
        return request({ kind: "open", key: puzzle + "|" + (options.lang || ""), play: play });
      });
    },
    /** The answer for the position ``moves`` reach on ``puzzle`` (its id; its play data, from
     * generator/puzzles/play_data.py, loaded). ``moves``: the engine's move labels or action
     * objects (play mode's plan). ``options``: {lang, words (the page's words, JSON), recorded (the
     * worked example's move labels: a MIP start), optimum, ceiling (a value proven not exceeded
     * from there: the position before), budget (seconds, default 8)}. */
    analyseState: function (puzzle, moves, options) {
      options = options || {};
      return playFor(puzzle, options).then(function (play) {
        return request({ kind: "state", key: puzzle + "|" + (options.lang || ""), play: play, moves: moves,
                         ceiling: options.ceiling === null ? undefined : options.ceiling, budget: options.budget });
      });
    },
    /** The answer for a puzzle file in the command line's YAML format (``python -m solver validate``'s
     * checks and messages), told in ``lang``. */
    analyse: function (text, lang, options) {
      return request({ kind: "text", text: text, lang: lang, budget: (options || {}).budget });
    },
    /** An answer in the page's words (``ui``: the play.* strings; ``optimum``: the puzzle's proven
     * optimum or null; ``before``: the best score before the last move, or null). */
    describe: function (answer, ui, optimum, before) {
      var live = ui.live;
      if (!answer.ok) return fmt(live.no_answer, { error: (answer.errors || []).join("; ") });
      var said = answer.engine === "search" && answer.reason ? fmt(live.search, { reason: answer.reason }) + " " : "";
      if (answer.status === "infeasible") return said + live.dead_end;
      var line = (answer.plan || []).map(function (m) { return m.text; }).join(" → ");
      var text;
      if (!answer.proven) {
        text = answer.bound === null || answer.bound === undefined
          ? fmt(live.not_proven_no_bound, { best: answer.health })
          : fmt(live.not_proven, { best: answer.health, bound: answer.bound, seconds: Math.round(answer.budget || 8) });
      } else if (optimum !== null && optimum !== undefined && !isNaN(optimum)) {
        text = fmt(live.best, { best: answer.health, optimum: optimum, regret: optimum - answer.health });
      } else {
        text = fmt(live.best_plain, { best: answer.health });
      }
      if (line) {
        var lost = before !== null && before !== undefined && answer.proven ? before - answer.health : 0;
        text += " " + (lost > 0 ? fmt(live.dropped, { lost: lost, line: line }) : fmt(live.continuation, { line: line }));
      }
      return said + text;
    }
  };
})();
