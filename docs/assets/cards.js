/* Cellula card index: filters (type, cost and points ranges, text search) and sorting, client side.
   The state lives in the URL query (keys = the form's input names), so a shared address shows the same
   selection. Without this script the form stays invisible (its space is kept, so nothing shifts when it appears) and every card is shown. */
(function () {
  "use strict";

  var KEYS = ["q", "type", "rule", "min_cost", "max_cost", "min_points", "max_points", "sort"];

  /* Lower case, accents dropped: "Proprietà" matches "proprieta". */
  function fold(text) {
    return String(text).toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  function toNumber(value) {
    if (value === undefined || value === null || String(value).trim() === "") return null;
    var n = Number(value);
    return isNaN(n) ? null : n;
  }

  function inRange(value, min, max) {
    if (min === null && max === null) return true;
    if (value === null) return false;
    return (min === null || value >= min) && (max === null || value <= max);
  }

  function readItem(el) {
    return {
      el: el, type: el.getAttribute("data-type"), name: el.getAttribute("data-name") || "",
      cost: toNumber(el.getAttribute("data-cost")), points: toNumber(el.getAttribute("data-points")),
      order: Number(el.getAttribute("data-order")), text: null,
      rules: (el.getAttribute("data-rules") || "").split(" ")
    };
  }

  /* The folded text is read only when a text filter is first used: reading every card's text on load
     would cost the page's start-up for nothing. */
  function textOf(item) {
    if (item.text === null) item.text = fold(item.el.textContent);
    return item.text;
  }

  function matches(item, s) {
    if (s.type && item.type !== s.type) return false;
    if (s.rule && item.rules.indexOf(s.rule) === -1) return false;
    if (!inRange(item.cost, toNumber(s.min_cost), toNumber(s.max_cost))) return false;
    if (!inRange(item.points, toNumber(s.min_points), toNumber(s.max_points))) return false;
    var words = fold(s.q).split(/\s+/).filter(Boolean);
    return !words.length || words.every(function (word) { return textOf(item).indexOf(word) !== -1; });
  }

  /* "name", "cost", "-cost", "points", "-points"; anything else: rulebook order. Missing values go last. */
  function comparator(sort, lang) {
    var desc = sort.charAt(0) === "-";
    var key = desc ? sort.slice(1) : sort;
    return function (a, b) {
      var d = 0;
      if (key === "name") {
        d = a.name.localeCompare(b.name, lang);
      } else if (key === "cost" || key === "points") {
        var x = a[key], y = b[key];
        if (x === null || y === null) d = (x === null) - (y === null);
        else d = desc ? y - x : x - y;
      }
      return d || a.order - b.order;
    };
  }

  /* Material for MkDocs opens its site search when the address has a `q` parameter. On a card page `q` is
     the card filter: an inline script on the page (it runs before Material) moves it to window.__cellulaCardQ
     and the first apply() puts it back in the address. */
  var filterQ = typeof window.__cellulaCardQ === "string" ? window.__cellulaCardQ : null;

  function init() {
    var form = document.getElementById("card-filters");
    var list = document.getElementById("card-list");
    if (!form || !list) return;
    var count = document.getElementById("card-count");
    var none = document.getElementById("card-none");
    var lang = document.documentElement.lang || undefined;
    var items = Array.prototype.map.call(list.querySelectorAll("article.cellula-card"), readItem);

    function control(key) { return form.elements.namedItem(key); }

    function state() {
      var s = {};
      KEYS.forEach(function (key) { var c = control(key); s[key] = c ? c.value.trim() : ""; });
      return s;
    }

    function writeUrl(s) {
      var params = new URLSearchParams(window.location.search);
      KEYS.forEach(function (key) {
        if (s[key] && !(key === "sort" && s[key] === "order")) params.set(key, s[key]);
        else params.delete(key);
      });
      var query = params.toString();
      history.replaceState(history.state, "", window.location.pathname + (query ? "?" + query : "") + window.location.hash);
    }

    function readUrl() {
      var params = new URLSearchParams(window.location.search);
      KEYS.forEach(function (key) {
        var c = control(key);
        if (c && params.has(key)) c.value = params.get(key);
      });
      if (filterQ !== null && control("q")) control("q").value = filterQ;
    }

    function showCount(shown) {
      var template = shown === items.length ? form.getAttribute("data-count-all") : form.getAttribute("data-count-some");
      count.textContent = template.replace("{shown}", shown).replace("{n}", items.length);
      if (none) none.hidden = shown > 0;
    }

    function apply() {
      var s = state();
      var shown = 0;
      items.forEach(function (item) {
        var ok = matches(item, s);
        if (item.el.hidden === ok) item.el.hidden = !ok;  /* untouched cards cost no style recalculation */
        if (ok) shown += 1;
      });
      /* Cards are moved only when the order changes (moving all of them re-lays out the whole list). */
      var sorted = items.slice().sort(comparator(s.sort, lang));
      var current = list.querySelectorAll("article.cellula-card");
      var same = current.length === sorted.length && sorted.every(function (item, i) { return current[i] === item.el; });
      if (!same) sorted.forEach(function (item) { list.appendChild(item.el); });
      showCount(shown);
      writeUrl(s);
    }

    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
    form.addEventListener("reset", function () { window.setTimeout(apply, 0); });

    readUrl();
    form.removeAttribute("data-pending");
    apply();
    var target = window.location.hash && document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    if (target && !target.hidden) target.scrollIntoView();
  }

  /* After Material's own start-up (its listener was added first). */
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else window.setTimeout(init, 0);
})();
