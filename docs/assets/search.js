/* Cellula search: the reader's language first, labelled, with a switch for the other language.
 *
 * Loaded by the theme override (generator/templates/overrides/main.html) before Material's bundle.
 * Material's search runs in a Web Worker fed with search/search_index.json; the build writes one
 * index per language (generator/search_index.py), and this script:
 *   - asks for the reader's language index (en/search/search_index.json on English pages);
 *   - wraps Material's search worker: drops Italian and English stop words from a query (Material
 *     adds a trailing wildcard to every word, so "a" would match every word starting with a), and,
 *     when the reader turns the switch on, adds the other language's documents to the index, its
 *     pages listed after the reader's language ones;
 *   - labels every result with the language of its page (IT / EN).
 * The worker protocol (message types SETUP 0, READY 1, QUERY 2, RESULT 3) is Material's. */
(function () {
  "use strict";
  var SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;
  var STORE = "cellula.search.other";
  var READY_MARK = "cellula-search-ready";
  var html = document.documentElement;
  var lang = html.lang === "en" ? "en" : "it";
  var other = lang === "en" ? "it" : "en";

  function jsonOf(id) {
    var el = document.getElementById(id);
    try { return el ? JSON.parse(el.textContent) : {}; } catch (e) { return {}; }
  }
  var ui = jsonOf("cellula-ui");

  /* The site root (where the Italian pages and the en/ folder live), from Material's config. */
  function siteRoot() {
    var base = jsonOf("__config").base || ".";
    return new URL(base.replace(/\/?$/, "/"), location.href).href;
  }
  var root = siteRoot();

  function langOf(href) {
    var url = new URL(href, location.href).href;
    return url.indexOf(root + "en/") === 0 || url === root + "en" ? "en" : "it";
  }
  function indexUrl(which) {
    return root + (which === "en" ? "en/" : "") + "search/search_index.json";
  }

  /* 1. The reader's language index (http only; from file:// search_index.js holds both). */
  var open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url) {
    var args = Array.prototype.slice.call(arguments);
    if (lang === "en" && String(url) === indexUrl("it")) args[1] = indexUrl("en");
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
  var mine = null, otherDocs = null, lastQuery = null, worker = null, includeOther = false, resetup = false;

  function withoutStopwords(query) {
    /* Players type questions: "quante beute?" */
    var words = query.replace(/[?!¿¡,;.]+(\s|$)/g, "$1").split(/\s+/).filter(Boolean);
    var kept = words.filter(function (w) {
      var bare = w.replace(/^[+\-]/, "").replace(/[*~^]\d*$/, "").toLowerCase();
      return !(bare && stopwords[bare]);
    });
    return kept.length ? kept.join(" ") : query;
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
    var post = real.postMessage.bind(real), add = real.addEventListener.bind(real),
        remove = real.removeEventListener.bind(real), wrapped = new Map();
    worker = real;
    real.cellulaPost = post;
    add("message", function (ev) {
      /* For measurements (tools/lighthouse/run.py reads it from Lighthouse's user timings). */
      if (ev.data && ev.data.type === READY && performance.mark && !performance.getEntriesByName(READY_MARK).length) {
        performance.mark(READY_MARK);
      }
      if (ev.data && ev.data.type === READY && resetup) {
        resetup = false;
        if (lastQuery !== null) post({ type: QUERY, data: lastQuery });
      }
    });
    real.postMessage = function (message) {
      if (message && message.type === SETUP) {
        mine = message.data;
        (mine.config.cellula_stopwords || []).forEach(function (w) { stopwords[w] = true; });
        includeOther = wantOther();
        if (includeOther) return setIncludeOther(true);
        return post(message);
      }
      if (message && message.type === QUERY) {
        lastQuery = withoutStopwords(String(message.data));
        return post({ type: QUERY, data: lastQuery });
      }
      return post(message);
    };
    real.addEventListener = function (type, listener, opts) {
      if (type !== "message") return add(type, listener, opts);
      var fn = function (ev) {
        var data = ev.data;
        if (data && data.type === RESULT) data = { type: RESULT, data: readerFirst(data.data) };
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

  /* 3. The switch and the language labels, in Material's search dialog. */
  function labelResults(list) {
    list.querySelectorAll("a.md-search-result__link").forEach(function (a) {
      var head = a.querySelector("h1, h2");
      if (!head || head.querySelector(".cellula-search-lang")) return;
      var which = langOf(a.getAttribute("href"));
      var tag = document.createElement("span");
      tag.className = "cellula-search-lang cellula-search-lang--" + which;
      tag.textContent = which.toUpperCase();
      tag.title = (ui.search_result_language || "") + ": " + (which === "en" ? ui.english : ui.italian);
      head.insertBefore(tag, head.firstChild);
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
    var list = result.querySelector(".md-search-result__list");
    if (list) {
      new MutationObserver(function () { labelResults(list); }).observe(list, { childList: true, subtree: true });
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", addSwitch);
  else addSwitch();
})();
