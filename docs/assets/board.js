/* Cellula: schematic Cytosis board and step-through of a puzzle's worked example (issue #19).
 * Data: the JSON generator/puzzle_play.py writes into each .cellula-board (every state computed by
 * the rules engine at build time). The drawing is the project's own schematic, not the game's art.
 * Without JavaScript the page's step table stays; this only adds to it. */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var GAP = 10, SPOT_R = 15;
  // assets/ of the site, from this script's own address: Pyodide and the engine load from there,
  // only when a reader starts playing.
  var BASE = ((document.currentScript && document.currentScript.src) || "").replace(/[^\/]*$/, "");

  function el(name, attrs, text) {
    var node = document.createElementNS(SVG, name);
    for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  // The page's language: numbers and plural forms follow it (Intl: the browser's CLDR data).
  var LANG = document.documentElement.lang || "en";
  function num(v) {
    return typeof v === "number" ? new Intl.NumberFormat(LANG, { maximumFractionDigits: 3 }).format(v) : v;
  }
  // A catalogue text filled in; a plural text ({one: ..., other: ...}) takes the form ``count`` asks.
  function fmt(template, values, count) {
    if (template && typeof template === "object")
      template = template[new Intl.PluralRules(LANG).select(count)] || template.other;
    return String(template).replace(/\{(\w+)\}/g, function (_, k) { return num(values[k]); });
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

  // The reader's name of an id (generator/puzzle_play.py names_of); a card row or a hand shows
  // cards by name, never by data id.
  function named(data, id) {
    var names = data.names || {};
    return Object.prototype.hasOwnProperty.call(names, id) && names[id] ? names[id] : id;
  }
  function namedList(data, ids) {
    return ids.map(function (id) { return named(data, id); }).join(", ");
  }

  // Text is laid out in CSS pixels: the drawing is made as wide as its box (one SVG unit is one
  // pixel), so its smallest text is the stylesheet's 12 px at any width; long names wrap onto
  // more lines instead of running into the next area (issue #36, phone first).
  var measureCtx = null;
  function textWidth(text, bold) {
    if (!measureCtx) measureCtx = document.createElement("canvas").getContext("2d");
    if (!measureCtx) return text.length * 7.5;
    var family = getComputedStyle(document.body).fontFamily || "sans-serif";
    measureCtx.font = (bold ? "bold " : "") + "12px " + family;
    return measureCtx.measureText(text).width * 1.05;
  }
  // Lines of ``text`` no wider than ``width`` (a word longer than the width gets its own line).
  function wrapLines(text, width, bold) {
    var words = String(text).split(" "), lines = [], line = "";
    words.forEach(function (w) {
      var next = line ? line + " " + w : w;
      if (line && textWidth(next, bold) > width) { lines.push(line); line = w; } else line = next;
    });
    if (line) lines.push(line);
    return lines.length ? lines : [""];
  }
  var LINE = 15;
  function textBlock(parent, x, y, text, width, cls) {
    var lines = wrapLines(text, width, /cb-label/.test(cls));
    var t = el("text", { x: x, y: y, "class": cls });
    lines.forEach(function (line, i) {
      t.appendChild(el("tspan", { x: x, dy: i ? LINE : 0 }, line));
    });
    parent.appendChild(t);
    return lines.length;
  }

  function draw(data, f, play, width) {
    var ui = data.ui, layout = data.layout;
    var W = Math.max(300, Math.min(760, Math.round(width || 640)));
    var cols = W >= 600 ? 3 : W >= 340 ? 2 : 1;
    var areaW = (W - 20 - (cols - 1) * GAP) / cols;
    var areas = layout.areas.filter(function (a) { return a.id !== "card-row"; });
    var svg = el("svg", { viewBox: "0 0 " + W + " 100", width: W, role: "img", "class": "cellula-board__svg",
                          "aria-labelledby": "" });
    var id = "cb-" + Math.random().toString(36).slice(2, 8);
    var title = el("title", { id: id + "-t" }, ui.board_title + " — " +
      (f.step ? fmt(ui.step_of, { n: f.step, total: data.frames.length - 1 }) : ui.start));
    var desc = el("desc", { id: id + "-d" }, ui.board_desc);
    svg.appendChild(title); svg.appendChild(desc);
    svg.setAttribute("aria-labelledby", id + "-t " + id + "-d");

    // A grid of boxes, row by row; each row as tall as its tallest box.
    var y = 10;
    function grid(items, columns, boxW, drawItem) {
      for (var r = 0; r < items.length; r += columns) {
        var tallest = 0;
        for (var c = 0; c < columns && r + c < items.length; c++) {
          var x = 10 + c * (boxW + GAP);
          tallest = Math.max(tallest, drawItem(items[r + c], x, y, boxW));
        }
        y += tallest + GAP;
      }
    }
    function box(g, x, top, w, h) {
      g.insertBefore(el("rect", { x: x, y: top, width: w, height: h, rx: 8, "class": "cb-area__box" }), g.firstChild);
    }

    grid(areas, cols, areaW, function (area, x, top, w) {
      var g = el("g", { "class": "cb-area", "data-area": area.id });
      var lines = textBlock(g, x + 8, top + 17, ui.areas[area.id] || area.id, w - 16, "cb-label");
      var cy = top + 17 + (lines - 1) * LINE + 10 + SPOT_R + 6;
      var perRow = Math.max(1, Math.floor((w - 16) / (2 * SPOT_R + 12)));
      area.spots.forEach(function (spot, j) {
        var cx = x + 8 + SPOT_R + 4 + (j % perRow) * (2 * SPOT_R + 12);
        var sy = cy + Math.floor(j / perRow) * (2 * SPOT_R + 10);
        var n = count(f.placed, spot.id), grey = count(f.grey_spots, spot.id);
        var state = n ? (grey ? ui.grey : ui.taken) : ui.free;
        var sg = el("g", { "class": "cb-spot" + (n ? " cb-spot--taken" : "") + (grey ? " cb-spot--grey" : "") +
                           (f.spot === spot.id ? " cb-spot--current" : ""), "data-spot": spot.id });
        var spotName = (ui.areas[area.id] || area.id) + ((data.names || {})[spot.id] || "");
        sg.setAttribute("data-name", spotName);
        sg.appendChild(el("title", {}, spotName + ": " + state));
        // A larger transparent target than the drawn circle: at least 44 px to touch.
        sg.appendChild(el("rect", { x: cx - 22, y: sy - 22, width: 44, height: 44, "class": "cb-spot__target" }));
        sg.appendChild(el("circle", { cx: cx, cy: sy, r: SPOT_R }));
        // Text, not colour alone: the printed value, and a mark for a flask on the spot.
        sg.appendChild(el("text", { x: cx, y: sy + 4, "text-anchor": "middle", "class": "cb-value" },
                          n ? (grey ? "G" : "✕") : (spot.value ? String(spot.value) : "·")));
        if (play) play(sg, spot, spotName);
        g.appendChild(sg);
      });
      var spotRows = Math.ceil(area.spots.length / perRow);
      var h = (cy - top) + SPOT_R + 10 + (spotRows - 1) * (2 * SPOT_R + 10);
      box(g, x, top, w, h);
      svg.appendChild(g);
      return h;
    });

    // Budding vesicle locations: own disks (card + load) and other players' disks.
    grid(layout.vesicles, cols, areaW, function (v, x, top, w) {
      var mine = f.disks.filter(function (d) { return d.area === v.area; });
      var theirs = f.opp_disks.filter(function (d) { return d.area === v.area; });
      var g = el("g", { "class": "cb-vesicles", "data-area": v.area });
      var ty = top + 17 + (textBlock(g, x + 8, top + 17, ui.vesicles[v.area] || v.area, w - 16, "cb-label") - 1) * LINE;
      for (var k = 0; k < v.count; k++) {
        var d = mine[k], o = d ? null : theirs[k - mine.length];
        ty += LINE + 4;
        var load = d ? loadText(d.load, ui.stock_names) : "";
        var label = d ? named(data, d.card) + (load ? " [" + load + "]" : "") : o ? ui.opponent_disk : ui.empty_slot;
        var dg = el("g", { "class": "cb-disk-slot" });
        dg.appendChild(el("title", {}, d ? ui.disk + ": " + label : label));
        g.appendChild(dg);
        dg.appendChild(el("rect", { x: x + 8, y: ty - 11, width: 12, height: 12, rx: 6,
                                   "class": d ? "cb-disk cb-disk--mine" : o ? "cb-disk cb-disk--opp" : "cb-disk" }));
        ty += (textBlock(dg, x + 26, ty, label, w - 34, "cb-tiny") - 1) * LINE;
      }
      var h = ty - top + 12;
      box(g, x, top, w, h);
      svg.appendChild(g);
      return h;
    });

    // Card row.
    var rg = el("g", { "class": "cb-row" });
    rg.appendChild(el("text", { x: 10, y: y + 12, "class": "cb-label" }, ui.row));
    y += 20;
    var slots = W >= 600 ? 4 : 2, slotW = (W - 20 - (slots - 1) * GAP) / slots;
    grid(f.row, slots, slotW, function (card, x, top, w) {
      var taken = card && f.taken.indexOf(card) >= 0;
      var g = el("g", {});
      var lines = textBlock(g, x + 6, top + 18, card ? named(data, card) : ui.empty_slot, w - 12, "cb-small");
      if (taken) g.appendChild(el("text", { x: x + 6, y: top + 18 + lines * LINE, "class": "cb-small" }, ui.taken));
      var h = 14 + (lines + (taken ? 1 : 0)) * LINE;
      g.insertBefore(el("rect", { x: x, y: top, width: w, height: h, rx: 6,
                                  "class": "cb-card" + (card ? "" : " cb-card--empty") + (taken ? " cb-card--taken" : "") }), g.firstChild);
      rg.appendChild(g);
      return h;
    });
    svg.appendChild(rg);

    // Stock and Health Points panel.
    var pg = el("g", { "class": "cb-panel" });
    var py0 = y, ty = y + 20;
    ty += textBlock(pg, 20, ty, fmt(ui.round, { n: f.round }) + " · " + fmt(ui.flasks_left, { n: f.flasks_left }), W - 40, "cb-label") * LINE + 4;
    var stock = data.stock_names.map(function (k) { return (ui.stock_names[k] || k) + " " + f.stock[k]; }).join(" · ");
    ty += textBlock(pg, 20, ty, ui.stock + ": " + stock, W - 40, "cb-stock") * LINE + 4;
    ty += textBlock(pg, 20, ty, ui.health + ": " + f.health, W - 40, "cb-health") * LINE + 4;
    ty += textBlock(pg, 20, ty, ui.hand + ": " + (namedList(data, f.hand) || ui.none), W - 40, "cb-hand") * LINE + 4;
    ty += textBlock(pg, 20, ty, ui.completed + ": " + (namedList(data, f.completed) || ui.none), W - 40, "cb-hand") * LINE;
    box(pg, 10, py0, W - 20, ty - py0);
    svg.appendChild(pg);
    var H = Math.ceil(ty + 10);
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("height", H);
    return svg;
  }


  // The board's symbols in words, each beside a small drawing of it (issue #70); ``play`` adds the
  // spots a player can touch.
  function legend(ui, play) {
    var box = document.createElement("div");
    box.className = "cellula-board__legend";
    var head = document.createElement("p");
    head.className = "cellula-board__legend-title";
    head.textContent = ui.legend_title;
    var list = document.createElement("ul");
    // Drawn in CSS (play.css, .cellula-swatch--*) the way the board draws each symbol: the
    // board's own drawings stay the only SVG in the container.
    function swatch(kind, mark) {
      var span = document.createElement("span");
      span.className = "cellula-swatch cellula-swatch--" + kind;
      span.setAttribute("aria-hidden", "true");
      span.textContent = mark;
      return span;
    }
    var items = [["free", "·", ui.legend_free], ["taken", "✕", ui.legend_taken], ["grey", "G", ui.legend_grey],
                 ["current", "", ui.legend_current], ["disk", "", ui.legend_disks]];
    if (play) items.unshift(["legal", "", ui.legend_legal]);
    items.forEach(function (it) {
      var li = document.createElement("li");
      li.appendChild(swatch(it[0], it[1]));
      li.appendChild(document.createTextNode(" " + it[2]));
      list.appendChild(li);
    });
    box.appendChild(head); box.appendChild(list);
    return box;
  }

  // "Analyse from here": the position as a puzzle file in a link to the analysis board (the
  // container's data-analysis: the board's address, the puzzle file's data and the story a
  // position gets), or why this position has none (frame.position: solver/game/position.py).
  function analysisLink(box) {
    var a = document.createElement("a");
    a.className = "cellula-board__analyse";
    return a;
  }
  function setAnalysis(a, box, ui, position) {
    var spec = box.getAttribute("data-analysis");
    var files = window.CellulaPuzzleFile;
    var start = document.querySelector("a.cellula-analyse-link");
    a.textContent = ui.analyse_here;
    if (!spec || !files || !start) { a.hidden = true; return; }
    spec = JSON.parse(spec);
    if (!position || typeof position === "string") {
      // The same words in the same place (the bar above the board never changes height); why there
      // is no analysis from here is the link's title and its name for a screen reader.
      a.removeAttribute("href");
      a.setAttribute("aria-disabled", "true");
      a.title = fmt(ui.analyse_unavailable, { why: (position && ui["position_" + position]) || "" });
      a.setAttribute("aria-label", a.title);
      return;
    }
    var data = {}, k;
    for (k in spec.puzzle) data[k] = spec.puzzle[k];
    for (k in position) { if (position[k] === null) delete data[k]; else data[k] = position[k]; }
    if (position.id !== spec.puzzle.id) data.story = spec.story;
    a.removeAttribute("aria-disabled");
    a.removeAttribute("aria-label");
    a.title = ui.analyse_here_title;
    var asked = files.text(data);
    a.setAttribute("data-text", asked);
    files.encode(asked).then(function (fragment) {
      if (a.getAttribute("data-text") === asked) a.href = start.href.split("#")[0] + "#" + fragment;
    });
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
      r += " " + fmt(ui.play_dropped, { lost: previousBest - view.best, line: view.continuation.join(" → ") }, previousBest - view.best);
    return r;
  }

  // The move table of a small puzzle (generator/puzzle_play.py play_table): every reachable state
  // with its frame, best score and legal moves in the reader's words, built with the page. Play
  // from it needs no Python in the browser: the first legal move shows as soon as the script loads.
  var tables = {};
  function loadTable(box) {
    var path = box.getAttribute("data-table");
    if (!path) return null;
    // filed under "<puzzle id>.<lang>", the language the path names (play/<id>.<lang>.table.js)
    var lang = (/\.([A-Za-z-]+)\.table\.js$/.exec(path) || [])[1];
    var key = box.getAttribute("data-puzzle") + "." + lang;
    if (!tables[path]) {
      tables[path] = loadScript(new URL(BASE + "../" + path, location.href).href).then(function () {
        var found = (window.CELLULA_PLAY_TABLES || {})[key];
        if (!found) throw new Error(path);
        return found;
      });
      tables[path].catch(function () { delete tables[path]; });
    }
    return tables[path];
  }
  // The same views as the Python session (generator/play_runtime.py Session.view), from the table.
  function TableSession(table) {
    var history = [0], texts = [], keys = [];
    function state(i) { return table.states[i]; }
    function moves(i) { return state(i)[3]; }
    function continuation(i) {
      var line = [], best = state(i)[1], guard = 0;
      if (best === null) return line;
      while (moves(i).length && guard++ < 1000) {
        var next = null;
        moves(i).forEach(function (m) { if (!next && state(m[4])[1] === best) next = m; });
        if (!next) break;
        line.push(table.labels[next[0]]);
        i = next[4];
      }
      return line;
    }
    this.view = function () {
      var i = history[history.length - 1], s = state(i);
      var frame = JSON.parse(JSON.stringify(table.frames[s[0]]));
      frame.step = texts.length; frame.text = texts.length ? texts[texts.length - 1] : ""; frame.spot = null;
      var terminal = s[3].length === 0;
      return {
        frame: frame,
        actions: s[3].map(function (m) { return { label: table.labels[m[0]], key: table.labels[m[1]], spot: m[2], group: m[3] }; }),
        moves: texts.slice(), terminal: terminal, score: terminal ? s[2] : null, plan: keys.slice(),
        best: s[1], continuation: continuation(i), regret: s[1] === null ? "dead_end" : "known",
        blocked: s[4] || ""
      };
    };
    this.play = function (index) {
      var i = history[history.length - 1], m = moves(i)[index];
      history.push(m[4]); texts.push(table.labels[m[0]]); keys.push(table.labels[m[1]]);
      return this.view();
    };
    this.undo = function () {
      if (history.length > 1) { history.pop(); texts.pop(); keys.pop(); }
      return this.view();
    };
    this.destroy = function () {};
  }
  // What play needs, started before the click (pointer over or focus on the play button, or the
  // browser idle): the table for a small puzzle, otherwise Pyodide and the play data.
  function preload(box, engineToo) {
    if (box.getAttribute("data-table")) return loadTable(box);
    if (!engineToo) return Promise.resolve();    // Pyodide (about 10 MB) only for a reader's intent
    loadPlayData(box);
    return loadEngine();
  }

  function startPlay(box, data, parts) {
    var ui = data.ui, optimum = box.getAttribute("data-optimum");
    var clicked = performance.now();
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
    var said = document.createElement("p");
    said.className = "cellula-play__said";
    said.setAttribute("aria-live", "polite");
    var previousBest = null;
    var list = document.createElement("div");
    list.className = "cellula-play__actions";
    list.setAttribute("role", "group");
    list.setAttribute("aria-label", ui.play_actions);
    function button(label, cls, onclick) {
      var b = document.createElement("button");
      b.type = "button"; b.className = cls; b.textContent = label;
      b.addEventListener("click", onclick);
      return b;
    }
    var session = null, current = null, pyPosition = null;
    // The position's puzzle-file fields: in a move table's frame, or asked of the engine in Pyodide.
    function positionOf(view) {
      if (view.frame.position !== undefined || !pyPosition) return view.frame.position;
      pyPosition.globals.set("CELLULA_SESSION", session);
      return JSON.parse(pyPosition.runPython(
        "import json\nfrom solver.game.position import position_fields\njson.dumps(position_fields(CELLULA_SESSION.history[-1]))"));
    }
    function parse(v) { return typeof v === "string" ? JSON.parse(v) : v; }
    var undo = button(ui.undo, "cellula-play__undo", function () { previousBest = null; render(session.undo()); });
    var restart = button(ui.restart, "cellula-play__restart", function () { begin(); });
    var stop = button(ui.stop, "cellula-play__stop", function () {
      panel.remove();
      parts.forEach(function (p) { p.hidden = false; });
    });
    var analyse = analysisLink(box);
    tools.appendChild(undo); tools.appendChild(restart); tools.appendChild(stop); tools.appendChild(analyse);
    // Phone first: the board, then the answer, then the moves. The answer (what the move did, the
    // best score still reachable, a spot's choices) stays at the bottom of the window while the
    // board is on screen (issue #70: a tap never moves the page).
    var answer = document.createElement("div");
    answer.className = "cellula-play__answer";
    var help = document.createElement("p");
    help.className = "cellula-play__help";
    help.textContent = ui.play_regret_help;
    help.hidden = true;
    var choices = document.createElement("div");
    choices.className = "cellula-play__choices";
    choices.setAttribute("role", "group");
    said.tabIndex = -1;
    // In the bar: the move and the best score still reachable, short; under it, the whole answer
    // (the continuation can be long) and what regret means, where the regret first shows.
    var summary = document.createElement("p");
    summary.className = "cellula-play__summary";
    summary.setAttribute("aria-hidden", "true");
    answer.appendChild(said); answer.appendChild(summary); answer.appendChild(choices);
    panel.appendChild(tools); panel.appendChild(status); panel.appendChild(drawing); panel.appendChild(answer);
    panel.appendChild(regret); panel.appendChild(help);
    panel.appendChild(legend(ui, true)); panel.appendChild(list);
    parts.forEach(function (p) { p.hidden = true; });
    box.appendChild(panel);

    // After a move the page does not scroll: focus goes back to the spot touched (drawn anew) or,
    // for a move from the list or a spot with no move left, to the line saying what happened,
    // always without scrolling (preventScroll).
    function playMove(i, spotId) {
      render(session.play(i));
      var again = spotId ? drawing.querySelector('[data-spot="' + spotId + '"][tabindex]') : null;
      (again || said).focus({ preventScroll: true });
    }
    // A spot of the board as a target: its one legal move is played, several are listed for a
    // choice; a spot without a legal move says so.
    // Why a spot has no move: a letter per spot in board order (generator/puzzles/move_words.py BLOCKED).
    var BLOCKED = { t: "taken", a: "area_full", f: "no_flask", o: "game_over", v: "attack", e: "turn_open", c: "cannot" };
    function whyBlocked(spot) {
      var code = (current.blocked || "").charAt((data.spot_order || []).indexOf(spot.id));
      return (ui.blocked && ui.blocked[BLOCKED[code] || "cannot"]) || "";
    }
    function spotTarget(sg, spot, name) {
      if (!current || current.terminal) return;
      var here = [];
      current.actions.forEach(function (a, i) { if (a.spot === spot.id) here.push(i); });
      sg.setAttribute("tabindex", "0");
      sg.setAttribute("role", "button");
      var blocked = here.length ? "" : fmt(ui.spot_no_move, { spot: name, why: whyBlocked(spot) });
      sg.setAttribute("aria-label", here.length ? name : blocked);
      if (here.length) sg.classList.add("cb-spot--legal");
      function choose(e) {
        if (e) e.preventDefault();
        choices.textContent = "";
        if (here.length === 1) { playMove(here[0], spot.id); return; }
        if (!here.length) { said.textContent = blocked; return; }
        // Several moves here: offered right under the board, not in the list further down.
        said.textContent = fmt(ui.spot_choose, { spot: name, n: here.length });
        here.forEach(function (i) {
          var b = button(current.actions[i].label, "cellula-play__action", function () { playMove(i, spot.id); });
          b.setAttribute("data-index", String(i));
          choices.appendChild(b);
        });
        choices.firstChild.focus({ preventScroll: true });
      }
      sg.addEventListener("click", choose);
      sg.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") choose(e); });
    }
    // The new drawing replaces the old in one step, its width read first: the page never lays out
    // without a board (which would pull a scrolled page up).
    function redraw() {
      if (!current) return;
      var width = drawing.clientWidth || box.clientWidth;
      drawing.replaceChildren(draw(data, current.frame, spotTarget, width));
    }
    function render(json) {
      var view = parse(json);
      current = view;
      redraw();
      undo.disabled = view.moves.length === 0;
      choices.textContent = "";
      var moves = document.createDocumentFragment();
      // Moves grouped by area (or cards, epigenetic, virus, exhaust), in the board's order.
      var groups = {}, order = [];
      view.actions.forEach(function (a, i) {
        var g = a.group || "";
        if (!groups[g]) { groups[g] = []; order.push(g); }
        groups[g].push(i);
      });
      order.forEach(function (g) {
        var section = document.createElement("div");
        section.className = "cellula-play__group";
        var head = document.createElement("p");
        head.className = "cellula-play__group-name";
        head.textContent = (ui.groups && ui.groups[g]) || ui.areas[g] || g;
        var ul = document.createElement("ul");
        groups[g].forEach(function (i) {
          var li = document.createElement("li");
          var b = button(view.actions[i].label, "cellula-play__action", function () { playMove(i); });
          b.setAttribute("data-index", String(i));
          b.setAttribute("data-key", view.actions[i].key || "");
          li.appendChild(b);
          ul.appendChild(li);
        });
        section.appendChild(head); section.appendChild(ul);
        moves.appendChild(section);
      });
      list.replaceChildren(moves);
      setAnalysis(analyse, box, ui, positionOf(view));
      var text = fmt(ui.play_moves, { n: view.moves.length });
      said.textContent = view.moves.length ? view.moves[view.moves.length - 1] : "";
      var best = optimum === "" ? null : parseInt(optimum, 10);
      if (view.terminal) {
        text = best === null ? fmt(ui.play_over, { score: view.score }, view.score)
          : view.score >= best ? fmt(ui.play_optimal, { score: view.score }, view.score)
          : fmt(ui.play_final, { score: view.score, optimum: best, regret: best - view.score }, view.score);
      }
      status.textContent = text;
      panel.setAttribute("data-terminal", view.terminal ? "1" : "0");
      regret.textContent = regretText(ui, view, best, previousBest, box.getAttribute("data-regret") === "1");
      regret.setAttribute("data-best", view.best === null ? "" : String(view.best));
      regret.setAttribute("data-regret", view.regret || "");
      var before = previousBest;
      help.hidden = !regret.textContent || view.best === null;
      summary.textContent = view.terminal ? text
        : view.best === null || best === null || !regret.textContent ? ""
        : fmt(ui.play_best, { best: view.best, optimum: best, regret: best - view.best });
      previousBest = view.best;
      // No table holds this position: the live solver answers it (docs/assets/live-solve.js).
      if (!view.terminal && (view.regret === "not_computed" || view.regret === "too_far") && window.CellulaAnalysis)
        liveRegret(view, best, before);
    }
    function liveRegret(view, best, before) {
      var asked = view;
      regret.textContent = ui.live.computing;
      regret.setAttribute("data-regret", "computing");
      window.CellulaAnalysis.analyseState(box.getAttribute("data-puzzle"), view.plan, {
        lang: data.lang, words: JSON.stringify(data.words || {}), optimum: best, ceiling: before,
        recorded: data.frames.slice(1).map(function (f) { return f.action; })
      }).then(function (answer) {
        if (current !== asked) return;     // another move since: its own answer is on its way
        regret.textContent = window.CellulaAnalysis.describe(answer, ui, best, before);
        regret.setAttribute("data-regret", answer.ok ? (answer.proven ? "live" : "live-not-proven") : "live-none");
        regret.setAttribute("data-best", answer.ok && answer.proven && answer.health !== null ? String(answer.health) : "");
        regret.setAttribute("data-seconds", String(answer.seconds));
        if (answer.ok && answer.proven) previousBest = answer.health;
        if (answer.ok && answer.health !== null && best !== null) {   // the bar under the board says it too
          summary.textContent = fmt(ui.play_best, { best: answer.health, optimum: best, regret: best - answer.health });
          help.hidden = false;
        }
      }, function (err) {
        if (current !== asked) return;
        regret.textContent = fmt(ui.live.failed, { error: err && err.message ? err.message : String(err) });
        regret.setAttribute("data-regret", "live-failed");
      });
    }
    window.addEventListener("resize", function () { if (panel.isConnected) redraw(); });
    function ready(how) {
      if (!panel.hasAttribute("data-first-move-ms"))
        panel.setAttribute("data-first-move-ms", String(Math.round(performance.now() - clicked)));
      panel.setAttribute("data-engine", how);
    }
    function begin() {
      var table = loadTable(box);
      var loading = table ? table.then(function (t) { return { table: t }; })
        : Promise.all([loadEngine(), loadPlayData(box)]).then(function (loaded) { return { py: loaded[0], play: loaded[1] }; });
      loading.then(function (loaded) {
        if (session) session.destroy();
        if (loaded.table) {
          session = new TableSession(loaded.table);
        } else {
          var py = loaded.py, play = loaded.play;
          py.globals.set("CELLULA_PACKED", play.play);
          py.globals.set("CELLULA_VALUES", play.values);
          py.globals.set("CELLULA_WORDS", JSON.stringify(data.words || {}));
          session = py.runPython("import cellula_play; cellula_play.Session(CELLULA_PACKED, CELLULA_VALUES, CELLULA_WORDS)");
        }
        previousBest = null;
        pyPosition = loaded.table ? null : loaded.py;
        render(session.view());
        ready(loaded.table ? "table" : "pyodide");
        said.focus({ preventScroll: true });
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
    var stepAnalyse = analysisLink(box);
    bar.appendChild(prev); bar.appendChild(next);
    var stepLegend = legend(ui, false);
    box.appendChild(bar); box.appendChild(status); box.appendChild(links); box.appendChild(holder); box.appendChild(stepLegend);
    var hint = box.querySelector(".cellula-board__hint");
    if (box.getAttribute("data-play")) {
      var playButton = document.createElement("button");
      playButton.type = "button";
      playButton.className = "cellula-board__play";
      playButton.textContent = ui.play;
      bar.appendChild(playButton);
      playButton.addEventListener("click", function () {
        startPlay(box, data, [bar, status, links, holder, stepLegend].concat(hint ? [hint] : []));
      });
      // Start loading before the click: on pointer over or focus, or when the browser is idle.
      // Pyodide is fetched on intent only (pointer, focus, touch), the small table also when idle.
      var warm = function () { preload(box, true).catch(function () {}); };
      var idle = function () {
        preload(box, false).catch(function () {});
        // On a desktop (issue #70) the live solver (Pyodide, HiGHS, the puzzle's model) loads in its
        // worker while the reader reads, off the page's thread; not from file:// (no worker there:
        // it would load in the page) and not on a phone (the bytes wait for the reader's intent).
        var desktop = window.matchMedia && window.matchMedia("(min-width: 60em) and (pointer: fine)").matches;
        if (desktop && location.protocol !== "file:" && !box.getAttribute("data-table") && window.CellulaAnalysis)
          loadPlayData(box).then(function () { return window.CellulaAnalysis.prepare(box.getAttribute("data-puzzle"), {
            lang: data.lang, words: JSON.stringify(data.words || {}), optimum: box.getAttribute("data-optimum") === "" ? null
              : parseInt(box.getAttribute("data-optimum"), 10),
            recorded: data.frames.slice(1).map(function (f) { return f.action; }) }); }).catch(function () {});
      };
      playButton.addEventListener("pointerenter", warm, { once: true });
      playButton.addEventListener("focus", warm, { once: true });
      playButton.addEventListener("touchstart", warm, { once: true, passive: true });
      if (window.requestIdleCallback) window.requestIdleCallback(idle, { timeout: 4000 });
      else setTimeout(idle, 1500);
    }
    bar.appendChild(stepAnalyse);

    function show(i, push) {
      current = Math.max(0, Math.min(last, i));
      var f = data.frames[current];
      holder.textContent = "";
      holder.appendChild(draw(data, f, null, holder.clientWidth || box.clientWidth));
      status.textContent = (current ? fmt(ui.step_of, { n: current, total: last }) + ": " + f.text : ui.start);
      prev.disabled = current === 0; next.disabled = current === last;
      setAnalysis(stepAnalyse, box, ui, f.position);
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
    var lastWidth = 0;
    window.addEventListener("resize", function () {
      if (holder.hidden || holder.clientWidth === lastWidth) return;
      lastWidth = holder.clientWidth;
      show(current, false);
    });
    box.hidden = false;
    show(fromHash(), false);
  }

  window.CellulaBoard = { draw: draw, legend: legend };

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll(".cellula-board"), function (box) {
      if (!box.dataset.ready) { box.dataset.ready = "1"; setup(box); }
    });
  }
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(init);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
