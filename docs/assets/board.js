/* Cellula: schematic Cytosis board and step-through of a puzzle's worked example (issue #19).
 * Data: the JSON generator/puzzle_play.py writes into each .cellula-board (every state computed by
 * the rules engine at build time). The drawing is the project's own schematic, not the game's art.
 * Without JavaScript the page's step table stays; this only adds to it. */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var W = 640, COLS = 3, AREA_W = 200, GAP = 10, SPOT_R = 15;
  // assets/ of the site, from this script's own address: Pyodide and the engine load from there,
  // only when a reader starts playing.
  var BASE = ((document.currentScript && document.currentScript.src) || "").replace(/[^\/]*$/, "");

  function el(name, attrs, text) {
    var node = document.createElementNS(SVG, name);
    for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function fmt(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, k) { return values[k]; });
  }
  function count(list, item) {
    var n = 0;
    for (var i = 0; i < list.length; i++) if (list[i] === item) n++;
    return n;
  }
  function loadText(load, names) {
    var parts = [];
    for (var k in load) parts.push(load[k] + " " + (names[k] || k));
    return parts.join(", ");
  }

  function draw(data, f) {
    var ui = data.ui, layout = data.layout;
    var areas = layout.areas.filter(function (a) { return a.id !== "card-row"; });
    var rows = Math.ceil(areas.length / COLS);
    var AREA_H = 78, top = 10;
    var vesY = top + rows * (AREA_H + GAP);
    var rowY = vesY + 86, panelY = rowY + 80;
    var H = panelY + 86;
    var svg = el("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "class": "cellula-board__svg",
                          "aria-labelledby": "" });
    var id = "cb-" + Math.random().toString(36).slice(2, 8);
    var title = el("title", { id: id + "-t" }, ui.board_title + " — " +
      (f.step ? fmt(ui.step_of, { n: f.step, total: data.frames.length - 1 }) : ui.start));
    var desc = el("desc", { id: id + "-d" }, ui.board_desc);
    svg.appendChild(title); svg.appendChild(desc);
    svg.setAttribute("aria-labelledby", id + "-t " + id + "-d");

    areas.forEach(function (area, i) {
      var x = 10 + (i % COLS) * (AREA_W + GAP), y = top + Math.floor(i / COLS) * (AREA_H + GAP);
      var g = el("g", { "class": "cb-area", "data-area": area.id });
      g.appendChild(el("rect", { x: x, y: y, width: AREA_W, height: AREA_H, rx: 8, "class": "cb-area__box" }));
      g.appendChild(el("text", { x: x + 8, y: y + 16, "class": "cb-label" }, ui.areas[area.id] || area.id));
      area.spots.forEach(function (spot, j) {
        var cx = x + 22 + j * (2 * SPOT_R + 8), cy = y + 48;
        var n = count(f.placed, spot.id), grey = count(f.grey_spots, spot.id);
        var state = n ? (grey ? ui.grey : ui.taken) : ui.free;
        var sg = el("g", { "class": "cb-spot" + (n ? " cb-spot--taken" : "") + (grey ? " cb-spot--grey" : "") +
                           (f.spot === spot.id ? " cb-spot--current" : ""), "data-spot": spot.id });
        sg.appendChild(el("title", {}, spot.id + ": " + state));
        sg.appendChild(el("circle", { cx: cx, cy: cy, r: SPOT_R }));
        // Text, not colour alone: the printed value, and a mark for a flask on the spot.
        sg.appendChild(el("text", { x: cx, y: cy + 4, "text-anchor": "middle", "class": "cb-value" },
                          n ? (grey ? "G" : "✕") : (spot.value ? String(spot.value) : "·")));
        g.appendChild(sg);
      });
      svg.appendChild(g);
    });

    // Budding vesicle locations: own disks (card + load) and other players' disks.
    var vx = 10;
    layout.vesicles.forEach(function (v) {
      var mine = f.disks.filter(function (d) { return d.area === v.area; });
      var theirs = f.opp_disks.filter(function (d) { return d.area === v.area; });
      var g = el("g", { "class": "cb-vesicles", "data-area": v.area });
      g.appendChild(el("rect", { x: vx, y: vesY, width: AREA_W, height: 76, rx: 8, "class": "cb-area__box" }));
      g.appendChild(el("text", { x: vx + 8, y: vesY + 16, "class": "cb-label" }, ui.vesicles[v.area] || v.area));
      for (var k = 0; k < v.count; k++) {
        var d = mine[k], o = d ? null : theirs[k - mine.length];
        var ty = vesY + 34 + k * 18;
        var load = d ? loadText(d.load, ui.stock_names) : "";
        var label = d ? d.card + (load ? " [" + load + "]" : "") : o ? ui.opponent_disk : ui.empty_slot;
        var dg = el("g", { "class": "cb-disk-slot" });
        dg.appendChild(el("title", {}, d ? ui.disk + ": " + label : label));
        g.appendChild(dg);
        dg.appendChild(el("rect", { x: vx + 8, y: ty - 11, width: 12, height: 12, rx: 6,
                                   "class": d ? "cb-disk cb-disk--mine" : o ? "cb-disk cb-disk--opp" : "cb-disk" }));
        dg.appendChild(el("text", { x: vx + 24, y: ty, "class": "cb-tiny" }, label));
      }
      svg.appendChild(g);
      vx += AREA_W + GAP;
    });

    // Card row.
    var rg = el("g", { "class": "cb-row" });
    rg.appendChild(el("text", { x: 10, y: rowY + 12, "class": "cb-label" }, ui.row));
    var slotW = (W - 20 - 3 * GAP) / 4;
    f.row.forEach(function (card, i) {
      var x = 10 + i * (slotW + GAP);
      var taken = card && f.taken.indexOf(card) >= 0;
      rg.appendChild(el("rect", { x: x, y: rowY + 20, width: slotW, height: 46, rx: 6,
                                  "class": "cb-card" + (card ? "" : " cb-card--empty") + (taken ? " cb-card--taken" : "") }));
      rg.appendChild(el("text", { x: x + 6, y: rowY + 40, "class": "cb-small" }, card || ui.empty_slot));
      if (taken) rg.appendChild(el("text", { x: x + 6, y: rowY + 58, "class": "cb-small" }, ui.taken));
    });
    svg.appendChild(rg);

    // Stock and Health Points panel.
    var pg = el("g", { "class": "cb-panel" });
    pg.appendChild(el("rect", { x: 10, y: panelY, width: W - 20, height: 76, rx: 8, "class": "cb-area__box" }));
    pg.appendChild(el("text", { x: 20, y: panelY + 20, "class": "cb-label" },
      fmt(ui.round, { n: f.round }) + " · " + fmt(ui.flasks_left, { n: f.flasks_left })));
    var stock = data.stock_names.map(function (k) { return (ui.stock_names[k] || k) + " " + f.stock[k]; }).join(" · ");
    pg.appendChild(el("text", { x: 20, y: panelY + 42, "class": "cb-stock" }, ui.stock + ": " + stock));
    pg.appendChild(el("text", { x: 20, y: panelY + 64, "class": "cb-health" }, ui.health + ": " + f.health +
      " · " + ui.hand + ": " + (f.hand.join(", ") || ui.none) + " · " + ui.completed + ": " + (f.completed.join(", ") || ui.none)));
    svg.appendChild(pg);
    return svg;
  }


  // ---- Play mode: the Python rules engine itself, in Pyodide, loaded on first use ----------
  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = function () { reject(new Error(src)); };
      document.head.appendChild(s);
    });
  }
  // The offline build (play-engine.js then names window.CELLULA_PYODIDE_BUNDLE): from file://
  // Chromium refuses fetch() and import(), so Pyodide comes as classic scripts (its core module as
  // one, each file it fetches as base64 of its gzip) and its fetches are answered from memory.
  function decodeBase64(text) {
    if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text);
    var bin = atob(text), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes;
  }
  function memoryResponse(name, packed) {
    var body = new Blob([decodeBase64(packed)]).stream().pipeThrough(new DecompressionStream("gzip"));
    // WebAssembly.instantiateStreaming wants this type; the other files are read as bytes or JSON.
    var type = /\.wasm$/.test(name) ? "application/wasm" : "application/octet-stream";
    return new Response(body, { headers: { "Content-Type": type } });
  }
  function loadPyodideFromMemory(indexURL) {
    var files = window.CELLULA_PYODIDE_FILES || {}, realFetch = window.fetch;
    window.fetch = function (input) {
      var url = String(input && input.url ? input.url : input);
      var name = url.indexOf(indexURL) === 0 ? url.slice(indexURL.length) : "";
      if (files[name]) return Promise.resolve(memoryResponse(name, files[name]));
      return realFetch.apply(this, arguments);
    };
    return window.loadPyodide({ indexURL: indexURL, createPyodideModule: window.CELLULA_PYODIDE_MODULE })
      .finally(function () { window.fetch = realFetch; delete window.CELLULA_PYODIDE_FILES; });
  }
  function startPyodide() {
    var indexURL = new URL(BASE + "pyodide/", location.href).href, bundle = window.CELLULA_PYODIDE_BUNDLE;
    if (!bundle && location.protocol === "file:") {
      // The http build opened from disk: its Pyodide needs fetch()/import(); say which build plays here.
      var err = new Error("file://");
      err.cellulaFileUrl = true;
      return Promise.reject(err);
    }
    if (!bundle) return window.loadPyodide({ indexURL: indexURL });
    return Promise.all(bundle.map(function (src) { return loadScript(BASE + src); }))
      .then(function () { return loadPyodideFromMemory(indexURL); });
  }
  var enginePromise = null;
  function loadEngine() {
    if (!enginePromise) {
      enginePromise = loadScript(BASE + "pyodide/pyodide.js")
        .then(function () { return loadScript(BASE + "play-engine.js"); })
        .then(startPyodide)
        .then(function (py) {
          var sources = window.CELLULA_ENGINE_SOURCES;
          for (var path in sources) {
            py.FS.mkdirTree("/cellula/" + path.replace(/\/?[^\/]*$/, ""));
            py.FS.writeFile("/cellula/" + path, sources[path]);
          }
          py.runPython("import sys; sys.path.insert(0, '/cellula')");
          return py;
        });
      enginePromise.catch(function () { enginePromise = null; });
    }
    return enginePromise;
  }

  // The puzzle packed for the engine and its best reachable scores: a script of the site's
  // generated/ folder (data-play, from the site's root), kept out of the page so that it stays
  // small; a classic script, which file:// allows. generator/puzzle_play.py play_data_asset.
  var playData = {};
  function loadPlayData(box) {
    var id = box.getAttribute("data-puzzle");
    if (!playData[id]) {
      playData[id] = loadScript(new URL(BASE + "../" + box.getAttribute("data-play"), location.href).href).then(function () {
        var data = window.CELLULA_PLAY_DATA && window.CELLULA_PLAY_DATA[id];
        if (!data) throw new Error(box.getAttribute("data-play"));
        return data;
      });
      playData[id].catch(function () { delete playData[id]; });
    }
    return playData[id];
  }

  // The regret line under the moves: the best score still reachable and, when the last move
  // lowered it, the best continuation; or why there is no figure (view.regret, play_runtime.Session).
  function regretText(ui, view, best, previousBest, hasValues) {
    if (!hasValues) return ui.play_no_values;
    if (view.regret === "dead_end") return ui.play_dead_end;
    if (view.regret === "not_computed") return ui.play_not_computed;
    if (view.regret === "too_far") return view.terminal ? "" : ui.play_too_far;
    if (view.terminal || view.best === null) return "";
    var r = fmt(ui.play_best, { best: view.best, optimum: best, regret: best - view.best });
    if (previousBest !== null && view.best < previousBest && view.moves.length)
      r += " " + fmt(ui.play_dropped, { lost: previousBest - view.best, line: view.continuation.join(" → ") });
    return r;
  }

  function startPlay(box, data, parts) {
    var ui = data.ui, optimum = box.getAttribute("data-optimum");
    var panel = document.createElement("section");
    panel.className = "cellula-play";
    var status = document.createElement("p");
    status.className = "cellula-play__status";
    status.setAttribute("aria-live", "polite");
    status.textContent = ui.play_loading;
    var drawing = document.createElement("div");
    drawing.className = "cellula-board__drawing";
    var tools = document.createElement("div");
    tools.className = "cellula-board__bar";
    var regret = document.createElement("p");
    regret.className = "cellula-play__regret";
    regret.setAttribute("aria-live", "polite");
    var previousBest = null;
    var list = document.createElement("ul");
    list.className = "cellula-play__actions";
    list.setAttribute("aria-label", ui.play_actions);
    function button(label, cls, onclick) {
      var b = document.createElement("button");
      b.type = "button"; b.className = cls; b.textContent = label;
      b.addEventListener("click", onclick);
      return b;
    }
    var session = null;
    var undo = button(ui.undo, "cellula-play__undo", function () { previousBest = null; render(session.undo()); });
    var restart = button(ui.restart, "cellula-play__restart", function () { begin(); });
    var stop = button(ui.stop, "cellula-play__stop", function () {
      panel.remove();
      parts.forEach(function (p) { p.hidden = false; });
    });
    tools.appendChild(undo); tools.appendChild(restart); tools.appendChild(stop);
    panel.appendChild(tools); panel.appendChild(status); panel.appendChild(regret); panel.appendChild(list); panel.appendChild(drawing);
    parts.forEach(function (p) { p.hidden = true; });
    box.appendChild(panel);

    function render(json) {
      var view = JSON.parse(json);
      drawing.textContent = "";
      drawing.appendChild(draw(data, view.frame));
      undo.disabled = view.moves.length === 0;
      list.textContent = "";
      view.actions.forEach(function (a, i) {
        var li = document.createElement("li");
        li.appendChild(button(a.label, "cellula-play__action", function () {
          render(session.play(i));
          var first = list.querySelector("button");
          (first || undo).focus();
        }));
        list.appendChild(li);
      });
      var text = fmt(ui.play_moves, { n: view.moves.length }) + (view.moves.length ? ": " + view.moves[view.moves.length - 1] : "");
      var best = optimum === "" ? null : parseInt(optimum, 10);
      if (view.terminal) {
        text = best === null ? fmt(ui.play_over, { score: view.score })
          : view.score >= best ? fmt(ui.play_optimal, { score: view.score })
          : fmt(ui.play_final, { score: view.score, optimum: best, regret: best - view.score });
      }
      status.textContent = text;
      panel.setAttribute("data-terminal", view.terminal ? "1" : "0");
      regret.textContent = regretText(ui, view, best, previousBest, box.getAttribute("data-regret") === "1");
      regret.setAttribute("data-best", view.best === null ? "" : String(view.best));
      regret.setAttribute("data-regret", view.regret || "");
      previousBest = view.best;
    }
    function begin() {
      Promise.all([loadEngine(), loadPlayData(box)]).then(function (loaded) {
        var py = loaded[0], play = loaded[1];
        py.globals.set("CELLULA_PACKED", play.play);
        if (session) session.destroy();
        py.globals.set("CELLULA_VALUES", play.values);
        session = py.runPython("import cellula_play; cellula_play.Session(CELLULA_PACKED, CELLULA_VALUES)");
        previousBest = null;
        render(session.view());
        var first = list.querySelector("button");
        if (first) first.focus();
      }).catch(function (err) {
        status.textContent = err && err.cellulaFileUrl ? ui.play_file_url
          : fmt(ui.play_failed, { error: err && err.message ? err.message : String(err) });
      });
    }
    begin();
  }

  function setup(box) {
    var data = JSON.parse(box.getAttribute("data-board"));
    var ui = data.ui, last = data.frames.length - 1, current = 0;
    var bar = document.createElement("div");
    bar.className = "cellula-board__bar";
    var prev = document.createElement("button"), next = document.createElement("button");
    prev.type = next.type = "button";
    prev.className = "cellula-board__prev"; next.className = "cellula-board__next";
    prev.textContent = "◀ " + ui.prev; next.textContent = ui.next + " ▶";
    var status = document.createElement("p");
    status.className = "cellula-board__status";
    status.setAttribute("aria-live", "polite");
    var links = document.createElement("nav");
    links.className = "cellula-board__steps";
    links.setAttribute("aria-label", ui.board_title);
    data.frames.forEach(function (f, i) {
      var a = document.createElement("a");
      a.href = "#step-" + i;
      a.textContent = i ? String(i) : ui.start;
      a.addEventListener("click", function (e) { e.preventDefault(); show(i, true); });
      links.appendChild(a);
    });
    var holder = document.createElement("div");
    holder.className = "cellula-board__drawing";
    holder.tabIndex = 0;
    bar.appendChild(prev); bar.appendChild(next);
    box.appendChild(bar); box.appendChild(status); box.appendChild(links); box.appendChild(holder);
    if (box.getAttribute("data-play")) {
      var playButton = document.createElement("button");
      playButton.type = "button";
      playButton.className = "cellula-board__play";
      playButton.textContent = ui.play;
      bar.appendChild(playButton);
      playButton.addEventListener("click", function () {
        startPlay(box, data, [bar, status, links, holder]);
      });
    }

    function show(i, push) {
      current = Math.max(0, Math.min(last, i));
      var f = data.frames[current];
      holder.textContent = "";
      holder.appendChild(draw(data, f));
      status.textContent = (current ? fmt(ui.step_of, { n: current, total: last }) + ": " + f.text : ui.start);
      prev.disabled = current === 0; next.disabled = current === last;
      Array.prototype.forEach.call(links.children, function (a, k) {
        if (k === current) a.setAttribute("aria-current", "step"); else a.removeAttribute("aria-current");
      });
      if (push && history.replaceState) history.replaceState(null, "", "#step-" + current);
    }
    prev.addEventListener("click", function () { show(current - 1, true); });
    next.addEventListener("click", function () { show(current + 1, true); });
    box.addEventListener("keydown", function (e) {
      if (e.key === "ArrowLeft") { show(current - 1, true); e.preventDefault(); }
      else if (e.key === "ArrowRight") { show(current + 1, true); e.preventDefault(); }
    });
    function fromHash() {
      var m = /^#step-(\d+)$/.exec(location.hash);
      return m ? parseInt(m[1], 10) : 0;
    }
    window.addEventListener("hashchange", function () { show(fromHash(), false); });
    box.hidden = false;
    show(fromHash(), false);
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll(".cellula-board"), function (box) {
      if (!box.dataset.ready) { box.dataset.ready = "1"; setup(box); }
    });
  }
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(init);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
