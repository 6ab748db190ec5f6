/* Cellula: the analysis board (issue #70). A position is a puzzle file in the command line's format
 * from end to end: the forms and the board write it (CellulaPuzzleFile.text, the same text as
 * solver/io/writer.py), the text box holds it, the link carries it (#puzzle=...), the download is
 * it, and the solver in the page reads it: window.CellulaAnalysis.analyse(text, lang), which
 * validates it with the project's own loader and answers with the proven optimum and its plan.
 * Data: the JSON generator/puzzles/analysis_page.py writes into .cellula-analysis. */
(function () {
  "use strict";
  var LANG = document.documentElement.lang || "en";
  var RESOURCES = ["atp", "mrna", "protein", "carb", "lipid"];

  function fmt(template, values, count) {
    if (template && typeof template === "object")
      template = template[new Intl.PluralRules(LANG).select(count)] || template.other;
    return String(template).replace(/\{(\w+)\}/g, function (_, k) {
      var v = values[k];
      return typeof v === "number" ? new Intl.NumberFormat(LANG, { maximumFractionDigits: 2 }).format(v) : v;
    });
  }
  function make(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === "className") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }
  var uid = 0;
  // A labelled control: the label's for names the control (Lighthouse: every field has a name).
  function field(label, control, cls) {
    var id = "cellula-analysis-" + (++uid);
    control.id = id;
    var wrap = make("div", { className: "cellula-analysis__field" + (cls ? " " + cls : "") });
    wrap.appendChild(make("label", { "for": id }, label));
    wrap.appendChild(control);
    return wrap;
  }
  function numberInput(min, max) {
    return make("input", { type: "number", min: String(min), max: String(max), step: "1", inputmode: "numeric" });
  }
  function select(options) {
    var s = make("select");
    options.forEach(function (o) { var opt = make("option", { value: o[0] }, o[1]); s.appendChild(opt); });
    return s;
  }
  function intOf(input, fallback) {
    var v = parseInt(input.value, 10);
    return isNaN(v) ? fallback : v;
  }
  function copy(v) { return JSON.parse(JSON.stringify(v)); }

  function setup(box, cfg) {
    var ui = cfg.ui, files = window.CellulaPuzzleFile, boardApi = window.CellulaBoard;
    var data = null, occupiedRound = 1;
    box.textContent = "";

    // ---- the form ------------------------------------------------------------------------
    var form = make("form", { className: "cellula-analysis__form", novalidate: "" });
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    var formSet = make("fieldset", { className: "cellula-analysis__position" });
    formSet.appendChild(make("legend", {}, ui.position));
    var edition = select([["1e", "1e"], ["2e", "2e"]]);
    var side = select(Object.keys(cfg.sides).map(function (s) { return [s, s]; }));
    var players = numberInput(2, 5), rounds = numberInput(1, 12), flasks = numberInput(1, 4), grey = numberInput(0, 2);
    var basics = make("div", { className: "cellula-analysis__row" });
    [[ui.edition, edition], [ui.board_side, side], [ui.players, players], [ui.rounds, rounds], [ui.flasks, flasks],
     [ui.grey_flasks, grey]].forEach(function (p) { basics.appendChild(field(p[0], p[1])); });
    formSet.appendChild(basics);
    var stockRow = make("div", { className: "cellula-analysis__row" });
    var stock = {};
    cfg.resources.forEach(function (r) { stock[r[0]] = numberInput(0, 999); stockRow.appendChild(field(r[1], stock[r[0]])); });
    var health = numberInput(0, 999);
    stockRow.appendChild(field(ui.health, health));
    var stockSet = make("fieldset", {});
    stockSet.appendChild(make("legend", {}, ui.stock));
    stockSet.appendChild(stockRow);
    formSet.appendChild(stockSet);

    var cardsSet = make("fieldset", { className: "cellula-analysis__cards" });
    cardsSet.appendChild(make("legend", {}, ui.cards));
    cardsSet.appendChild(make("p", { className: "cellula-analysis__help" }, ui.cards_help));
    var cardList = make("ol", { className: "cellula-analysis__list" });
    var addCard = make("button", { type: "button" }, ui.add_card);
    cardsSet.appendChild(cardList); cardsSet.appendChild(addCard);

    var goalsSet = make("fieldset", { className: "cellula-analysis__goals" });
    goalsSet.appendChild(make("legend", {}, ui.goals));
    var goalList = make("ol", { className: "cellula-analysis__list" });
    var addGoal = make("button", { type: "button" }, ui.add_goal);
    goalsSet.appendChild(goalList); goalsSet.appendChild(addGoal);

    var eventsSet = make("fieldset", { className: "cellula-analysis__events" });
    eventsSet.appendChild(make("legend", {}, ui.events));
    var eventRow = make("div", { className: "cellula-analysis__row" });
    eventsSet.appendChild(eventRow);

    var occupiedSet = make("fieldset", { className: "cellula-analysis__occupied" });
    occupiedSet.appendChild(make("legend", {}, ui.occupied));
    occupiedSet.appendChild(make("p", { className: "cellula-analysis__help" }, ui.occupied_help));
    var roundPick = select([]);
    occupiedSet.appendChild(field(ui.occupied_round, roundPick));
    var drawing = make("div", { className: "cellula-board__drawing cellula-analysis__board" });
    var occupiedText = make("p", { className: "cellula-analysis__occupied-list", "aria-live": "polite" });
    occupiedSet.appendChild(drawing); occupiedSet.appendChild(occupiedText);
    if (boardApi) occupiedSet.appendChild(boardApi.legend(cfg.board_ui, false));

    form.appendChild(formSet); form.appendChild(cardsSet); form.appendChild(goalsSet); form.appendChild(eventsSet);
    form.appendChild(occupiedSet);

    // ---- the file, the buttons, the answer ------------------------------------------------
    var fileSet = make("section", { className: "cellula-analysis__file" });
    fileSet.appendChild(make("h2", {}, ui.file));
    fileSet.appendChild(make("p", { className: "cellula-analysis__help" }, ui.file_help));
    var textBox = make("textarea", { rows: "12", spellcheck: "false", autocapitalize: "off", autocomplete: "off",
                                     className: "cellula-analysis__text" });
    fileSet.appendChild(field(ui.file, textBox, "cellula-analysis__field--wide"));
    var buttons = make("div", { className: "cellula-analysis__buttons" });
    var readButton = make("button", { type: "button" }, ui.read_form);
    var solveButton = make("button", { type: "button", className: "cellula-analysis__solve" }, ui.solve);
    var downloadButton = make("button", { type: "button" }, ui.download);
    var linkButton = make("button", { type: "button" }, ui.copy_link);
    [solveButton, readButton, downloadButton, linkButton].forEach(function (b) { buttons.appendChild(b); });
    fileSet.appendChild(buttons);
    var note = make("p", { className: "cellula-analysis__note", role: "status" });
    fileSet.appendChild(note);
    var answerSet = make("section", { className: "cellula-analysis__answer", "aria-live": "polite" });
    answerSet.appendChild(make("h2", {}, ui.answer));
    var answer = make("div", { className: "cellula-analysis__result" });
    answerSet.appendChild(answer);

    // The answer right under the buttons on a phone; the form beside the file on a wide screen.
    box.appendChild(fileSet); box.appendChild(answerSet); box.appendChild(form);

    // ---- data -> form ---------------------------------------------------------------------
    function where(id) {
      if ((data.hand || []).indexOf(id) >= 0) return "hand";
      var r = (data.row || []).indexOf(id);
      if (r >= 0) return "row-" + r;
      if ((data.deck || []).indexOf(id) >= 0) return "deck";
      return "unused";
    }
    function slots() { return (cfg.sides[data.board] || cfg.sides[Object.keys(cfg.sides)[0]]).row_slots; }
    function whereOptions() {
      var o = [["unused", ui.unused], ["hand", ui.in_hand]];
      for (var i = 0; i < slots(); i++) o.push(["row-" + i, fmt(ui.row_slot, { n: i + 1 })]);
      o.push(["deck", ui.in_deck]);
      return o;
    }
    function cardRow(card) {
      var li = make("li", { className: "cellula-analysis__item" });
      li.cellulaCard = card;
      var type = select(cfg.card_types);
      type.value = card.type;
      type.setAttribute("data-field", "type");
      li.appendChild(field(ui.card_type, type));
      var macro = card.type === "macromolecule";
      var values = macro ? (card.gain || {}) : (card.cost || {});
      RESOURCES.forEach(function (r, k) {
        var input = numberInput(0, 999);
        input.value = values[r] || 0;
        input.setAttribute("data-resource", r);
        li.appendChild(field((macro ? ui.card_gain : ui.card_cost) + ": " + cfg.resources[k][1], input, "cellula-analysis__field--small"));
      });
      if (!macro && card.type !== "virus-attack") {
        var hp = numberInput(0, 999);
        hp.value = card.health === undefined ? (card.type === "detox" ? 1 : 0) : card.health;
        hp.setAttribute("data-field", "health");
        li.appendChild(field(ui.card_health, hp, "cellula-analysis__field--small"));
      }
      var place = select(whereOptions());
      place.value = where(card.id);
      place.setAttribute("data-field", "where");
      li.appendChild(field(ui.card_where, place));
      var remove = make("button", { type: "button", className: "cellula-analysis__remove" }, ui.remove);
      remove.addEventListener("click", function () { li.remove(); changed(); });
      li.appendChild(remove);
      type.addEventListener("change", function () { fromForm(); fillForm(); });
      return li;
    }
    function goalRow(goal) {
      var li = make("li", { className: "cellula-analysis__item" });
      li.cellulaGoal = goal;
      var type = select(cfg.card_types);
      type.value = (goal.card_types || [])[0] || cfg.card_types[0][0];
      type.setAttribute("data-field", "type");
      li.appendChild(field(ui.goal_types, type));
      [["count", ui.goal_count], ["points", ui.goal_points], ["markers", ui.goal_markers]].forEach(function (p) {
        var input = numberInput(0, p[0] === "markers" ? 2 : 999);
        input.value = goal[p[0]] || 0;
        input.setAttribute("data-field", p[0]);
        li.appendChild(field(p[1], input, "cellula-analysis__field--small"));
      });
      var remove = make("button", { type: "button", className: "cellula-analysis__remove" }, ui.remove);
      remove.addEventListener("click", function () { li.remove(); changed(); });
      li.appendChild(remove);
      return li;
    }
    function fillForm() {
      edition.value = data.edition;
      side.value = data.board;
      players.value = data.players || (data.board === "2p" ? 2 : 3);
      rounds.value = data.rounds; flasks.value = data.flasks;
      grey.value = data.grey_flasks === undefined ? 2 : data.grey_flasks;
      RESOURCES.forEach(function (r) { stock[r].value = (data.start || {})[r] || 0; });
      health.value = (data.start || {}).health || 0;
      var deck = data.deck || [];
      var cards = (data.cards || []).slice().sort(function (a, b) {
        var da = deck.indexOf(a.id), db = deck.indexOf(b.id);
        return (da < 0 ? -1 : da) - (db < 0 ? -1 : db);
      });
      cardList.replaceChildren.apply(cardList, cards.map(cardRow));
      goalList.replaceChildren.apply(goalList, (data.goals || []).map(goalRow));
      eventRow.textContent = "";
      var options = [["", ui.event_none]].concat(cfg.events[data.edition] || []);
      for (var r = 0; r < data.rounds; r++) {
        var s = select(options);
        s.value = (data.events || [])[r] || "";
        s.setAttribute("data-round", String(r));
        eventRow.appendChild(field(fmt(ui.round_n, { n: r + 1 }), s));
      }
      roundPick.textContent = "";
      for (var k = 1; k <= data.rounds; k++) roundPick.appendChild(make("option", { value: String(k) }, fmt(ui.round_n, { n: k })));
      occupiedRound = Math.min(occupiedRound, data.rounds);
      roundPick.value = String(occupiedRound);
      // the board in a task of its own (its text is measured word by word): the page answers first
      setTimeout(drawBoard, 0);
    }

    // ---- form -> data ---------------------------------------------------------------------
    function rulebookCard(card) {
      return cfg.rulebook.some(function (c) {
        if (c.type !== card.type || c.health !== (card.health || 0)) return false;
        return RESOURCES.every(function (r) { return (c.cost[r] || 0) === ((card.cost || {})[r] || 0); });
      });
    }
    function freshId(type, taken) {
      for (var n = 1; ; n++) { var id = type + "-" + n; if (taken.indexOf(id) < 0) return id; }
    }
    function fromForm() {
      delete data.expected;   // the author's claimed optimum was for their position, not the one in the form
      data.edition = edition.value;
      data.board = side.value;
      data.players = intOf(players, 3);
      var oldRounds = data.rounds;
      data.rounds = Math.max(1, Math.min(12, intOf(rounds, 1)));
      data.flasks = intOf(flasks, 1);
      data.grey_flasks = intOf(grey, 0);
      data.start = {};
      RESOURCES.forEach(function (r) { data.start[r] = intOf(stock[r], 0); });
      data.start.health = intOf(health, 0);
      var hand = [], row = [], deck = [], cards = [], ids = [];
      for (var i = 0; i < slots(); i++) row.push(null);
      Array.prototype.forEach.call(cardList.children, function (li) {
        var card = copy(li.cellulaCard), type = li.querySelector('[data-field="type"]').value;
        if (type !== card.type) {            // a new type: its own values, none of the old
          card = { id: card.id, type: type };
        }
        if (!card.id || ids.indexOf(card.id) >= 0) card.id = freshId(type, ids);
        ids.push(card.id);
        var amounts = {};
        li.querySelectorAll("[data-resource]").forEach(function (input) {
          var v = intOf(input, 0);
          if (v) amounts[input.getAttribute("data-resource")] = v;
        });
        delete card.cost; delete card.gain;
        if (type === "macromolecule") card.gain = amounts;
        else if (type !== "virus-attack") card.cost = amounts;
        var hp = li.querySelector('[data-field="health"]');
        if (hp) card.health = intOf(hp, 0); else delete card.health;
        if (type !== "enzyme") delete card.color;
        if (type === "virus-attack" && !card.strain) card.strain = "influenza";
        if (rulebookCard(card)) delete card.illustrative; else card.illustrative = true;
        var at = li.querySelector('[data-field="where"]').value;
        if (at === "hand") hand.push(card.id);
        else if (at === "deck") deck.push(card.id);
        else if (/^row-/.test(at)) {
          var slot = parseInt(at.slice(4), 10);
          if (row[slot] === null) row[slot] = card.id; else hand.push(card.id);
        }
        cards.push(card);
      });
      while (row.length && row[row.length - 1] === null) row.pop();
      data.cards = cards; data.hand = hand; data.row = row; data.deck = deck;
      data.goals = Array.prototype.map.call(goalList.children, function (li, k) {
        var goal = copy(li.cellulaGoal);
        goal.id = goal.id || "goal-" + (k + 1);
        goal.card_types = [li.querySelector('[data-field="type"]').value];
        ["count", "points", "markers"].forEach(function (f) { goal[f] = intOf(li.querySelector('[data-field="' + f + '"]'), 0); });
        goal.illustrative = true;
        return goal;
      });
      var events = [];
      eventRow.querySelectorAll("select").forEach(function (s) { events[parseInt(s.getAttribute("data-round"), 10)] = s.value || null; });
      for (var r = 0; r < data.rounds; r++) if (events[r] === undefined) events[r] = null;
      data.events = events.slice(0, data.rounds);
      // fields by round keep only the rounds there are
      if (data.rounds < oldRounds) {
        [data.occupied, data.laureates_seats, (data.opponents || {}).hormones].forEach(function (byRound) {
          if (!byRound) return;
          Object.keys(byRound).forEach(function (k) { if (parseInt(k, 10) > data.rounds) delete byRound[k]; });
        });
      }
    }
    function occupiedIn(r) { return ((data.occupied || {})[String(r)] || []).slice(); }
    function setOccupied(r, spots) {
      data.occupied = data.occupied || {};
      if (spots.length) data.occupied[String(r)] = spots; else delete data.occupied[String(r)];
      var ordered = {};
      Object.keys(data.occupied).sort(function (a, b) { return a - b; }).forEach(function (k) { ordered[k] = data.occupied[k]; });
      data.occupied = ordered;
    }
    function drawBoard() {
      var layout = cfg.sides[data.board];
      if (!boardApi || !layout) { drawing.textContent = ""; return; }
      var taken = occupiedIn(occupiedRound);
      var names = {};
      for (var k in layout.names) names[k] = layout.names[k];
      var frame = { round: occupiedRound, flasks_left: data.flasks, stock: data.start || {}, health: (data.start || {}).health || 0,
                    placed: taken, grey_spots: [], disks: [], opp_disks: [], row: data.row || [], taken: [],
                    hand: data.hand || [], completed: [], step: 0 };
      var board = { ui: cfg.board_ui, layout: layout, names: names, stock_names: RESOURCES, frames: [frame] };
      var width = drawing.clientWidth || box.clientWidth;
      drawing.replaceChildren(boardApi.draw(board, frame, function (sg, spot, name) {
        var on = taken.indexOf(spot.id) >= 0;
        sg.setAttribute("tabindex", "0");
        sg.setAttribute("role", "button");
        sg.setAttribute("aria-pressed", on ? "true" : "false");
        sg.setAttribute("aria-label", name);
        sg.classList.add("cb-spot--legal");
        function toggle(e) {
          if (e) e.preventDefault();
          var now = occupiedIn(occupiedRound), at = now.indexOf(spot.id);
          if (at >= 0) now.splice(at, 1); else now.push(spot.id);
          setOccupied(occupiedRound, now);
          toText();
          drawBoard();
          var again = drawing.querySelector('[data-spot="' + spot.id + '"]');
          if (again) again.focus({ preventScroll: true });
        }
        sg.addEventListener("click", toggle);
        sg.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") toggle(e); });
      }, width));
      occupiedText.textContent = fmt(ui.round_n, { n: occupiedRound }) + ": " + (taken.map(function (id) {
        var spot = null;
        layout.areas.forEach(function (a) { a.spots.forEach(function (s) { if (s.id === id) spot = a; }); });
        return (spot ? (cfg.board_ui.areas[spot.id] || spot.id) : "") + (layout.names[id] || "");
      }).join(", ") || ui.occupied_none);
    }

    // ---- text <-> form, link, download ----------------------------------------------------
    var lastLinked = "";
    function link(text) {
      return files.encode(text).then(function (fragment) {
        if (text !== textBox.value) return;
        lastLinked = "#" + fragment;
        if (history.replaceState) history.replaceState(null, "", lastLinked);
        return lastLinked;
      });
    }
    function toText() {
      var text = files.text(data);
      textBox.value = text;
      link(text);
    }
    function changed() { fromForm(); toText(); }
    // The text into the form when the small reader reads it; the text stays as it is either way.
    function readText(quiet) {
      try {
        data = files.read(textBox.value);
        form.removeAttribute("data-unread");
        Array.prototype.forEach.call(form.querySelectorAll("fieldset"), function (f) { f.disabled = false; });
        fillForm();
        if (!quiet) note.textContent = "";
        return true;
      } catch (e) {
        if (!(e instanceof files.ReadError)) throw e;
        form.setAttribute("data-unread", "1");
        Array.prototype.forEach.call(form.querySelectorAll("fieldset"), function (f) { f.disabled = true; });
        note.textContent = fmt(ui.read_failed, { line: e.line, message: e.message });
        return false;
      }
    }
    form.addEventListener("change", function (e) {
      if (e.target === roundPick) { occupiedRound = parseInt(roundPick.value, 10) || 1; drawBoard(); return; }
      if (e.target === side || e.target === edition || e.target === rounds) { changed(); fillForm(); return; }
      changed();
    });
    addCard.addEventListener("click", function () {
      fromForm();
      data.cards.push({ id: freshId("enzyme", data.cards.map(function (c) { return c.id; })), type: "enzyme",
                        cost: { atp: 1, protein: 1 }, health: 1, illustrative: true });
      data.hand.push(data.cards[data.cards.length - 1].id);
      fillForm(); toText();
      cardList.lastChild.querySelector("select").focus();
    });
    addGoal.addEventListener("click", function () {
      fromForm();
      var ids = data.goals.map(function (g) { return g.id; });
      data.goals.push({ id: freshId("goal", ids), card_types: ["enzyme"], count: 2, points: 3, markers: 0, illustrative: true });
      fillForm(); toText();
      goalList.lastChild.querySelector("select").focus();
    });
    textBox.addEventListener("input", function () { link(textBox.value); });
    readButton.addEventListener("click", function () { if (readText(false)) toText(); });
    downloadButton.addEventListener("click", function () {
      var id = (data && /^[a-z0-9][a-z0-9-]*$/.test(String(data.id))) ? data.id : "position";
      var a = make("a", { href: URL.createObjectURL(new Blob([textBox.value], { type: "application/yaml" })),
                          download: id + ".yaml" });
      document.body.appendChild(a); a.click(); a.remove();
      setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
    });
    linkButton.addEventListener("click", function () {
      link(textBox.value).then(function () {
        var href = location.href;
        var done = function () { note.textContent = ui.link_copied; };
        if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(href).then(done, function () { note.textContent = href; });
        else note.textContent = href;
      });
    });

    // ---- solving ----------------------------------------------------------------------------
    function show(result) {
      answer.textContent = "";
      answer.setAttribute("data-status", result.ok ? result.status : "error");
      if (!result.ok) {
        answer.appendChild(make("p", { className: "cellula-analysis__errors-title" }, ui.errors_title));
        var ul = make("ul", { className: "cellula-analysis__errors" });
        (result.errors || []).forEach(function (err) { ul.appendChild(make("li", {}, err)); });
        answer.appendChild(ul);
        return;
      }
      var head = result.status === "optimal" ? fmt(ui.optimal_answer, { n: result.health }, result.health)
        : result.status === "feasible" ? fmt(ui.feasible_answer, { health: result.health, bound: result.bound })
        : ui.infeasible_answer;
      var p = make("p", { className: "cellula-analysis__health" }, head);
      p.setAttribute("data-health", result.health === null || result.health === undefined ? "" : String(result.health));
      answer.appendChild(p);
      if (result.status === "infeasible") return;
      answer.appendChild(make("p", { className: "cellula-analysis__why" },
        result.status === "optimal" ? fmt(ui.why_optimal, { health: result.health })
          : fmt(ui.why_feasible, { health: result.health, bound: result.bound })));
      answer.appendChild(make("h3", {}, ui.plan_title));
      var ol = make("ol", { className: "cellula-analysis__plan" });
      (result.plan || []).forEach(function (step) {
        ol.appendChild(make("li", {}, fmt(ui.plan_round, { round: step.round }) + ": " + step.text));
      });
      answer.appendChild(ol);
      if (typeof result.seconds === "number") answer.appendChild(make("p", { className: "cellula-analysis__seconds" }, fmt(ui.seconds, { seconds: result.seconds })));
    }
    solveButton.addEventListener("click", function () {
      var solver = window.CellulaAnalysis;
      if (!solver || typeof solver.analyse !== "function") {
        answer.textContent = "";
        answer.setAttribute("data-status", "unavailable");
        answer.appendChild(make("p", {}, ui.no_solver));
        return;
      }
      answer.textContent = "";
      answer.setAttribute("data-status", "solving");
      answer.appendChild(make("p", {}, ui.solving));
      solveButton.disabled = true;
      var asked = textBox.value;
      Promise.resolve().then(function () { return solver.analyse(asked, LANG); }).then(show, function (err) {
        answer.textContent = "";
        answer.setAttribute("data-status", "error");
        answer.appendChild(make("p", {}, fmt(ui.solver_failed, { error: err && err.message ? err.message : String(err) })));
      }).then(function () { solveButton.disabled = false; });
    });

    // ---- start: the link's position, or the starting puzzle -------------------------------
    function start(text, message) {
      textBox.value = text;
      if (readText(true)) toText(); else link(text);
      if (message) note.textContent = message;
    }
    function fromLink() {
      if (!location.hash || location.hash === lastLinked) return;
      files.decode(location.hash).then(function (text) {
        lastLinked = location.hash;
        start(text, ui.link_loaded);
      }, function (err) {
        if (!data) start(cfg.start);
        note.textContent = fmt(ui.link_failed, { why: (ui.link_steps || {})[err.step] || err.step || "" });
      });
    }
    if (location.hash) fromLink(); else start(cfg.start);
    window.addEventListener("hashchange", fromLink);
    var lastWidth = 0;
    window.addEventListener("resize", function () {
      if (drawing.clientWidth !== lastWidth && data) { lastWidth = drawing.clientWidth; drawBoard(); }
    });
  }

  function init() {
    var box = document.querySelector(".cellula-analysis");
    if (!box || box.dataset.ready || !window.CellulaPuzzleFile) return;
    box.dataset.ready = "1";
    setup(box, JSON.parse(box.getAttribute("data-analysis")));
  }
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(init);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
