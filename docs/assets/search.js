/* Cellula search: the reader's language first, labelled, with a switch for the other language.
 *
 * Loaded by the theme override (generator/templates/overrides/main.html) before Material's bundle.
 * Material's search runs in a Web Worker fed with search/search_index.json; the build writes one
 * index per language (generator/search_index.py), and this script:
 *   - asks for the reader's language index (en/search/search_index.json on English pages);
 *   - wraps Material's search worker: drops Italian and English stop words from a query (Material
 *     adds a trailing wildcard to every word, so "a" would match every word starting with a), shapes
 *     every word into a query that forgives (shapeQuery below: stems, prefixes, typos), and, when the
 *     reader turns the switch on, adds the other language's documents to the index, its pages listed
 *     after the reader's language ones;
 *   - labels every result with the language of its page (IT / EN);
 *   - offers the glossary's nearest terms when a lookup finds nothing or looks mistyped ("did you
 *     mean"), in the reader's language (the build puts the forms in the index: cellula_glossary);
 *   - reads a question as the rulebook would say it (paraphrased below: the table
 *     data/search/paraphrases.yaml, shipped in the index as cellula_paraphrases);
 *   - points each result's page entry at its best-matching section, with the words highlighted. 
 * The worker protocol (message types SETUP 0, READY 1, QUERY 2, RESULT 3) is Material's. */
(function () {
  "use strict";
  var SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;
  var STORE = "cellula.search.other";
  var READY_MARK = "cellula-search-ready";
  var html = document.documentElement;

  function jsonOf(id) {
    var el = document.getElementById(id);
    try { return el ? JSON.parse(el.textContent) : {}; } catch (e) { return {}; }
  }
  var ui = jsonOf("cellula-ui");

  /* The site languages, from the build (mkdocs.yml's i18n languages, the default first: its pages
   * at the root, each other one under <lang>/), and the reader's. The "other" language the switch
   * adds is the first of English, then the default, that is not the reader's (a third language's
   * reader gets the English pages, as its missing texts fall back to English). */
  var languages = ui.languages && ui.languages.length ? ui.languages : ["it", "en"];
  var home = languages[0];
  var lang = languages.indexOf(html.lang) >= 0 ? html.lang : home;
  var other = lang !== "en" && languages.indexOf("en") >= 0 ? "en" : (lang !== home ? home : languages[1] || home);
  function languageName(which) {
    return (ui.language_names || {})[which] || which.toUpperCase();
  }

  /* The site root (where the Italian pages and the en/ folder live), from Material's config. */
  function siteRoot() {
    var base = jsonOf("__config").base || ".";
    return new URL(base.replace(/\/?$/, "/"), location.href).href;
  }
  var root = siteRoot();

  function langOf(href) {
    var url = new URL(href, location.href).href;
    for (var i = 1; i < languages.length; i++) {
      if (url.indexOf(root + languages[i] + "/") === 0 || url === root + languages[i]) return languages[i];
    }
    return home;
  }
  function indexUrl(which) {
    return root + (which === home ? "" : which + "/") + "search/search_index.json";
  }

  /* 1. The reader's language index (http only; from file:// search_index.js holds both). */
  var open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url) {
    var args = Array.prototype.slice.call(arguments);
    if (lang !== home && String(url) === indexUrl(home)) args[1] = indexUrl(lang);
    return open.apply(this, args);
  };

  function wantOther() {
    try { return localStorage.getItem(STORE) === "1"; } catch (e) { return false; }
  }
  function setWantOther(on) {
    try { localStorage.setItem(STORE, on ? "1" : "0"); } catch (e) { /* private mode: this page only */ }
  }

  function loadOther() {
    if (location.protocol === "file:") {
      var both = window.__cellula_index;
      return both && both[other] ? Promise.resolve(both[other]) : Promise.reject(new Error("no offline index"));
    }
    return fetch(indexUrl(other)).then(function (res) {
      if (!res.ok) throw new Error(indexUrl(other) + ": " + res.status);
      return res.json();
    });
  }

  /* 2. Material's search worker, wrapped. */
  var stopwords = {};
  var mine = null, otherDocs = null, lastQuery = null, lastTyped = "", worker = null, includeOther = false,
      resetup = false;
  /* What the worker still owes an answer to, in the order asked: it answers every SETUP with a READY
   * and every QUERY with a RESULT, one at a time, in order. A RESULT is matched to the query that
   * asked it, not to the query typed last: under load a result for an earlier query ("" when the
   * box is cleared) arrives after the next one is sent, and must not send the next one again relaxed. */
  var pending = [], answering = null;
  function owed(type) {
    while (pending.length) {
      var asked = pending.shift();
      if (asked.type === type) return asked;
    }
    return null;
  }
  function stillOwed(type) {
    return pending.some(function (asked) { return asked.type === type; });
  }

  /* A question as the rulebook would say it, from the reader's language's paraphrase table
   * (data/search/paraphrases.yaml): number words before a player word become digits ("due giocatori"),
   * phrases become the rule's words ("in due" -> "2 giocatori", "with 4" at the end -> "4 players"),
   * question frames ("cosa succede", "how do I") go, and a count phrase ("quante", "how many") goes
   * too, the words after it returned as `counted`: shapeQuery looks them up among the words a rule
   * section counts (its `counts` field). A query with a digit counts all its words. */
  var para = null;
  function escapeRegExp(text) { return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  function paraphrased(query) {
    var plain = " " + query.toLowerCase().replace(/[?!¿¡,;.]+(\s|$)/g, "$1").replace(/[’]/g, "'").replace(/\s+/g, " ").trim() + " ";
    if (!para) return { text: plain.trim(), counted: [] };
    var players = para.players || [];
    Object.keys(para.numbers || {}).forEach(function (word) {
      players.forEach(function (p) {
        plain = plain.split(" " + word + " " + p + " ").join(" " + para.numbers[word] + " " + p + " ");
      });
    });
    var phrases = para.phrases || [];
    if (phrases.length) {
      var alternatives = phrases.map(function (e) { return escapeRegExp(e[0]).replace("\\{n\\}", "\\d+"); });
      var byKey = {};
      phrases.forEach(function (e) { if (!(e[0] in byKey)) byKey[e[0]] = e; });
      var any = new RegExp(" (" + alternatives.join("|") + ")(?= )", "g");
      plain = plain.replace(any, function (match, phrase, offset, whole) {
        var number = (phrase.match(/\d+/) || [""])[0];
        var entry = byKey[phrase] || byKey[phrase.replace(/\d+/, "{n}")];
        if (!entry) return match;
        if (number && entry[0].indexOf("{n}") >= 0) {
          /* "in 4" is a player count at the end of a question, not before another word ("per 2 anticorpi") */
          var next = whole.slice(offset + match.length).trim().split(" ")[0];
          if (next && players.indexOf(next) < 0) return match;
          if (next) return " " + number;
        }
        var means = entry[1].replace("{n}", number);
        return " " + (entry[2] ? means : phrase + " " + means);
      });
    }
    (para.frames || []).forEach(function (frame) { plain = plain.split(" " + frame + " ").join(" "); });
    var counted = [];
    var asksCount = (para.counts || []).some(function (phrase) {
      var at = plain.indexOf(" " + phrase + " ");
      if (at < 0) return false;
      counted = plain.slice(at + phrase.length + 2).split(" ").filter(Boolean);
      plain = plain.slice(0, at) + " " + plain.slice(at + phrase.length + 2);
      return true;
    });
    var words = plain.split(" ").filter(Boolean);
    if (!asksCount && words.some(function (w) { return /^\d+$/.test(w); })) counted = words;
    return { text: words.join(" "), counted: counted };
  }

  function withoutStopwords(query) {
    /* Players type questions: "quante beute?" */
    var words = query.replace(/[?!¿¡,;.]+(\s|$)/g, "$1").split(/\s+/).filter(Boolean);
    var kept = words.filter(function (w) {
      var bare = w.replace(/^[+\-]/, "").replace(/[*~^]\d*$/, "").toLowerCase();
      return !(bare && stopwords[bare]);
    });
    return kept.length ? kept.join(" ") : query;
  }

  /* Every word of a query, as lunr clauses (Material leaves a word alone when it ends in ^N or ~N;
   * otherwise it appends * and lunr then skips the stemmer):
   *   word^10    the word stemmed as the index is (plugins.search.pipeline in mkdocs.yml): "mutazioni"
   *              meets "mutazione", "ribosomes" "ribosome";
   *   word*^3    the word as a prefix, so a word being typed already finds;
   *   word~1^1   one edit away, for words of 5 letters or more ("exocitosis"); two edits for words of
   *              9 or more; at a tenth of the weight, so exact matches rank first.
   * A word written with lunr's own syntax (+word, -word, word~2, field:word, word*) is kept as it is. */
  var EXACT = 10, PREFIX = 3, FUZZY = 1, FUZZY_MIN = 5, FUZZY_LONG = 9;
  var separator = /[\s\-]+/;
  /* The pieces of a word as the index cut its words: at the separator, without the punctuation around
   * them ("Tossicita'", "“Normale”", "(3", "Fase 6:"), which the index trims too. */
  function piecesOf(word) {
    return word.split(separator).map(function (piece) {
      return piece.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    }).filter(Boolean);
  }
  function isSyntax(word) { return /^[+\-]|[~^*]|\p{L}:\p{L}/u.test(word); }
  function clausesOf(word) {
    if (isSyntax(word)) return [word];
    return piecesOf(word).map(function (piece) {
      var letters = (piece.match(/\p{L}/gu) || []).length;
      /* A number is meant as typed: as a prefix "4" met "40", and "4beute", "4atp" (counts field) alike */
      if (/^\d+$/.test(piece)) return piece + "^" + EXACT;
      var out = [piece + "^" + EXACT, piece + "*^" + PREFIX];
      if (letters >= FUZZY_MIN && letters === piece.length) {
        out.push(piece + "~" + (letters >= FUZZY_LONG ? 2 : 1) + "^" + FUZZY);
      }
      return out.join(" ");
    });
  }
  /* Runs of 2 to 4 words typed, joined into one ("grey flask" -> "greyflask"): the index holds each
   * glossary form so on the section that defines it (generator/search_index.py, joined), so the
   * whole term finds that section and one of its words alone does not. */
  var RUN_MAX = 4;
  function joinedRuns(words) {
    var pieces = [];
    words.forEach(function (w) { if (!isSyntax(w)) pieces = pieces.concat(piecesOf(w).map(function (p) { return p.toLowerCase(); })); });
    var out = [];
    for (var i = 0; i < pieces.length; i++) {
      for (var n = 2; n <= RUN_MAX && i + n <= pieces.length; n++) {
        var run = pieces.slice(i, i + n).join("");
        var letters = (run.match(/\p{L}/gu) || []).length;
        out.push(run + "^" + EXACT);
        if (letters >= FUZZY_LONG) out.push(run + "~1^" + FUZZY);
      }
    }
    return out;
  }
  /* The words a question counts, looked up in the counts field (the words a rule section states a
   * number of): each word, and runs of two joined ("goal cards" -> "goalcards"), stemmed there too. */
  var COUNTED = 10;
  function countClauses(counted) {
    var pieces = [];
    counted.forEach(function (w) {
      if (isSyntax(w) || stopwords[w] || /^\d+$/.test(w)) return;
      pieces = pieces.concat(piecesOf(w).map(function (p) { return p.toLowerCase(); }));
    });
    var out = pieces.map(function (p) { return "counts:" + p + "^" + COUNTED; });
    for (var i = 0; i + 1 < pieces.length; i++) out.push("counts:" + pieces[i] + pieces[i + 1] + "^" + COUNTED);
    return out;
  }
  function shapeQuery(query) {
    var read = paraphrased(query);
    var words = withoutStopwords(read.text).split(/\s+/).filter(Boolean);
    if (!words.length) words = withoutStopwords(query).split(/\s+/).filter(Boolean);
    return words.map(function (w) { return clausesOf(w).join(" "); }).concat(joinedRuns(words), countClauses(read.counted))
      .join(" ");
  }
  /* Asked only when the shaped query finds nothing, so it never outranks a match: one edit in words
   * of 3 or 4 letters ("bute"), two from 6 letters; and, since the index holds stems and a typo can
   * keep a word from being stemmed ("stsrvation" stays whole, "starvation" is "starvat"), the word's
   * first letters one edit away (two from 7 letters), cut where stems end (1 to 4 letters off); long words also as a
   * prefix ("mitochondrion" -> "mitochond*" finds "mitochondria"). */
  var RELAXED_MIN = 3, RELAXED_TWO = 6, CUTS = [1, 2, 3, 4], STEM_MIN = 4, CUT_TWO = 7, PREFIX_FROM = 9,
      PREFIX_CUT = 3;
  function relaxedQuery(query) {
    return withoutStopwords(paraphrased(query).text || query).split(/\s+/).filter(Boolean).map(function (word) {
      if (isSyntax(word)) return word;
      return piecesOf(word).map(function (piece) {
        var letters = (piece.match(/\p{L}/gu) || []).length;
        if (letters < RELAXED_MIN || letters !== piece.length) return piece + "^" + EXACT;
        var out = [piece + "~" + (letters >= RELAXED_TWO ? 2 : 1) + "^" + FUZZY];
        if (letters >= FUZZY_MIN) {
          CUTS.forEach(function (cut) {
            var kept = letters - cut;
            if (kept >= STEM_MIN) out.push(piece.slice(0, kept) + "~" + (kept >= CUT_TWO ? 2 : 1) + "^" + FUZZY);
          });
        }
        if (letters >= PREFIX_FROM) out.push(piece.slice(0, letters - PREFIX_CUT) + "*^" + FUZZY);
        return out.join(" ");
      }).join(" ");
    }).join(" ");
  }

  /* 3. "Did you mean": the glossary forms of the reader's language nearest to what was typed. */
  function fold(text) {
    return text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/\s+/g, " ").trim();
  }
  /* Edits between a and b, an adjacent swap counting as one (as lunr's fuzzy matching counts them). */
  function distance(a, b) {
    var rows = [], i, j;
    for (i = 0; i <= a.length; i++) { rows.push([i]); }
    for (j = 1; j <= b.length; j++) rows[0][j] = j;
    for (i = 1; i <= a.length; i++) {
      for (j = 1; j <= b.length; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
          rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
        }
      }
    }
    return rows[a.length][b.length];
  }
  var SUGGESTIONS = 5;
  /* The nearest forms (one per glossary term), nearest first: [{form, edits}]. */
  function nearestTerms(query) {
    var typed = fold(query), best = {};
    if (typed.length < 3 || !mine) return [];
    (mine.config.cellula_glossary || []).forEach(function (entry) {
      var form = String(entry[0]), anchor = String(entry[1]), folded = fold(form);
      var edits = folded.indexOf(typed) === 0 ? 0 : distance(typed, folded);
      if (!best[anchor] || edits < best[anchor].edits) best[anchor] = { form: form, edits: edits, exact: folded === typed };
    });
    return Object.keys(best).map(function (k) { return best[k]; })
      .sort(function (x, y) { return x.edits - y.edits || x.form.length - y.form.length; })
      .slice(0, SUGGESTIONS);
  }
  /* What to offer for `query`: on no results the nearest terms; with results, a term one or two
   * edits away from what was typed (a likely slip), unless the query is a term as it is. */
  function suggestionsFor(query, found) {
    var near = nearestTerms(query);
    if (!found) return { kind: "none", terms: near };
    if (near.some(function (t) { return t.exact; })) return { kind: "mean", terms: [] };
    var limit = Math.min(2, Math.floor(fold(query).length / 4));
    return { kind: "mean", terms: near.filter(function (t) { return t.edits > 0 && t.edits <= limit; }).slice(0, 3) };
  }

  function groupLang(group) {
    return group.length ? langOf(root + group[0].location) : lang;
  }
  function readerFirst(data) {
    if (!data || !data.items) return data;
    var mineFirst = data.items.filter(function (g) { return groupLang(g) === lang; });
    var rest = data.items.filter(function (g) { return groupLang(g) !== lang; });
    return Object.assign({}, data, { items: mineFirst.concat(rest) });
  }

  /* Material marks a query word "missing" on a result when no indexed word starts with it, and only
   * the words it found go into the result link's highlight (?h=). The index holds stems ("ribosom"),
   * so a whole word typed ("ribosoma") would be marked missing on the very results it found, and not
   * highlighted on the page it leads to: every query word of a result counts as found. */
  function withoutMissingTerms(data) {
    if (!data || !data.items) return data;
    return Object.assign({}, data, { items: data.items.map(function (group) {
      return group.map(function (item) {
        var terms = {};
        Object.keys(item.terms || {}).forEach(function (t) { terms[t] = true; });
        return Object.assign({}, item, { terms: terms });
      });
    }) });
  }

  function setup(post) {
    var docs = includeOther && otherDocs ? mine.docs.concat(otherDocs) : mine.docs;
    /* The query runs again once the worker is READY: from file:// the iframe-worker shim loads the
     * lunr language scripts asynchronously, so a query sent right away would meet the old index. */
    resetup = true;
    post({ type: SETUP, data: Object.assign({}, mine, { docs: docs }) });
  }

  function setIncludeOther(on) {
    includeOther = on;
    setWantOther(on);
    if (!worker || !mine) return Promise.resolve();
    var ready = on && !otherDocs ? loadOther().then(function (index) { otherDocs = index.docs; }) : Promise.resolve();
    return ready.then(function () { setup(worker.cellulaPost); }, function (err) {
      includeOther = false;
      console.warn("cellula search: the other language's index could not be loaded", err);
    });
  }

  var RealWorker = window.Worker;
  function CellulaWorker(url, options) {
    var real = new RealWorker(url, options);
    if (!/\/workers\/search\.[^/]*\.js/.test(String(url))) return real;
    var send = real.postMessage.bind(real), add = real.addEventListener.bind(real),
        remove = real.removeEventListener.bind(real), wrapped = new Map();
    /* Every message to the worker, noted in `pending`: a query with what was typed and whether it is
     * the relaxed retry. */
    function post(message, typed, isRelaxed) {
      pending.push({ type: message.type, query: message.data, typed: typed || "", relaxed: !!isRelaxed });
      return send(message);
    }
    worker = real;
    real.cellulaPost = post;
    add("message", function (ev) {
      var type = ev.data && ev.data.type;
      /* For measurements (tools/lighthouse/run.py reads it from Lighthouse's user timings). */
      if (type === READY && performance.mark && !performance.getEntriesByName(READY_MARK).length) {
        performance.mark(READY_MARK);
      }
      if (type === RESULT) {
        var asked = owed(QUERY) || { query: lastQuery, typed: lastTyped, relaxed: false };
        answering = asked;
        /* Nothing found for the newest query: ask once more, relaxed, before Material (and anyone
         * else listening) hears of it. An earlier query's empty result is passed on as it is: the
         * newest one's is still to come. */
        if (!asked.relaxed && asked.query && !stillOwed(QUERY) && !(ev.data.data.items || []).length) {
          var again = relaxedQuery(asked.typed);
          if (again && again !== asked.query) {
            ev.stopImmediatePropagation();
            post({ type: QUERY, data: again }, asked.typed, true);
            return;
          }
        }
      }
      /* The index changed: the query typed last runs again on it, once the last set-up asked for is
       * done (a query sent during a set-up may be answered from the old index, see setup()). */
      if (type === READY) {
        owed(SETUP);
        if (resetup && !stillOwed(SETUP)) {
          resetup = false;
          if (lastQuery !== null) post({ type: QUERY, data: lastQuery }, lastTyped);
        }
      }
    });
    real.postMessage = function (message) {
      if (message && message.type === SETUP) {
        mine = message.data;
        (mine.config.cellula_stopwords || []).forEach(function (w) { stopwords[w] = true; });
        para = mine.config.cellula_paraphrases || null;
        if (mine.config.separator) {
          try { separator = new RegExp(mine.config.separator); } catch (e) { /* keep the default */ }
        }
        includeOther = wantOther();
        if (includeOther) return setIncludeOther(true);
        return post(message);
      }
      if (message && message.type === QUERY) {
        lastTyped = String(message.data);
        lastQuery = shapeQuery(lastTyped);
        return post({ type: QUERY, data: lastQuery }, lastTyped);
      }
      return post(message);
    };
    real.addEventListener = function (type, listener, opts) {
      if (type !== "message") return add(type, listener, opts);
      var fn = function (ev) {
        var data = ev.data;
        if (data && data.type === RESULT) {
          data = { type: RESULT, data: withoutMissingTerms(readerFirst(data.data)) };
          showSuggestions(suggestionsFor(answering ? answering.typed : lastTyped, data.data.items.length > 0));
        }
        var forward = { type: "message", data: data, target: real, currentTarget: real };
        return typeof listener === "function" ? listener.call(real, forward) : listener.handleEvent(forward);
      };
      wrapped.set(listener, fn);
      return add(type, fn, opts);
    };
    real.removeEventListener = function (type, listener, opts) {
      return remove(type, wrapped.get(listener) || listener, opts);
    };
    return real;
  }
  CellulaWorker.prototype = RealWorker && RealWorker.prototype;
  window.Worker = CellulaWorker;

  /* 4. The switch, the language labels and the suggestions, in Material's search dialog. */
  /* Material links a result's page entry to the top of the page, highlighting nothing when the page
   * itself did not match (it lists it above its matching sections all the same): it opens at the
   * best-matching section instead, the first one listed, with that section's highlighting. */
  function pointPageEntries(list) {
    list.querySelectorAll(".md-search-result__item").forEach(function (item) {
      var links = item.querySelectorAll("a.md-search-result__link");
      if (links.length < 2 || links[0].dataset.cellulaSection) return;
      var best = links[1].getAttribute("href");
      if (!best || best.indexOf("#") < 0) return;
      /* the page itself matched best (its own text): its entry stays at the page top */
      var score = function (a) { return parseFloat((a.querySelector("[data-md-score]") || {}).dataset ? a.querySelector("[data-md-score]").dataset.mdScore : "0") || 0; };
      if (score(links[0]) >= score(links[1])) return;
      links[0].dataset.cellulaSection = "1";
      links[0].setAttribute("href", best);
    });
  }
  function labelResults(list) {
    pointPageEntries(list);
    list.querySelectorAll("a.md-search-result__link").forEach(function (a) {
      var head = a.querySelector("h1, h2");
      if (!head || head.querySelector(".cellula-search-lang")) return;
      var which = langOf(a.getAttribute("href"));
      var tag = document.createElement("span");
      tag.className = "cellula-search-lang cellula-search-lang--" + which;
      tag.textContent = which.toUpperCase();
      tag.title = (ui.search_result_language || "") + ": " + languageName(which);
      head.insertBefore(tag, head.firstChild);
    });
  }

  /* The suggestion line under the count line: buttons that search for the term. */
  function showSuggestions(offer) {
    var box = document.querySelector(".cellula-search-suggest");
    if (!box) return;
    box.textContent = "";
    box.hidden = !offer.terms.length;
    if (!offer.terms.length) return;
    var lead = document.createElement("span");
    lead.textContent = (offer.kind === "none" ? ui.search_nearest_terms : ui.search_did_you_mean) || "";
    box.appendChild(lead);
    offer.terms.forEach(function (term) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "cellula-search-suggestion";
      button.textContent = term.form;
      button.addEventListener("click", function () {
        var input = document.querySelector("input.md-search__input");
        if (!input) return;
        input.value = term.form;
        input.focus();
        input.dispatchEvent(new KeyboardEvent("keyup", { key: "End", bubbles: true }));
      });
      box.appendChild(document.createTextNode(" "));
      box.appendChild(button);
    });
  }

  function addSwitch() {
    var result = document.querySelector(".md-search-result");
    if (!result || result.querySelector(".cellula-search-other")) return;
    var label = document.createElement("label");
    label.className = "cellula-search-other";
    var box = document.createElement("input");
    box.type = "checkbox";
    box.checked = wantOther();
    box.addEventListener("change", function () { setIncludeOther(box.checked); });
    label.appendChild(box);
    label.appendChild(document.createTextNode(" " + (ui.search_include_other || other.toUpperCase())));
    /* Between the count line and the list: Material finds those two as the result area's first and
     * last child, and this script runs before Material's (both deferred), so the switch must not
     * take either place. */
    var meta = result.querySelector(".md-search-result__meta");
    result.insertBefore(label, meta ? meta.nextSibling : result.firstChild);
    var suggest = document.createElement("p");
    suggest.className = "cellula-search-suggest";
    suggest.hidden = true;
    suggest.setAttribute("aria-live", "polite");
    result.insertBefore(suggest, label.nextSibling);
    var list = result.querySelector(".md-search-result__list");
    if (list) {
      new MutationObserver(function () { labelResults(list); }).observe(list, { childList: true, subtree: true });
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", addSwitch);
  else addSwitch();
})();
