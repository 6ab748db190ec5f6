/* Edition differences page: filters by classification, check and section, kept in the URL
   (?classification=…&check=…&section=…) so a filtered view can be shared or bookmarked. */
(function () {
  "use strict";
  var KEYS = ["classification", "check", "section"];

  function init() {
    var form = document.querySelector("form.cellula-diff-filters");
    if (!form || form.getAttribute("data-ready")) return;
    form.setAttribute("data-ready", "1");
    var findings = Array.prototype.slice.call(document.querySelectorAll(".cellula-finding"));
    var sections = Array.prototype.slice.call(document.querySelectorAll(".cellula-diff-section"));
    var chapters = Array.prototype.slice.call(document.querySelectorAll(".cellula-diff-chapter"));
    var count = form.querySelector(".cellula-diff-count");
    var none = document.querySelector(".cellula-diff-none");
    /* Findings reviewed as false positives are not differences: left out of the count unless a
       classification is chosen ("all" or one of them), so the count never reads "130 of 120". */
    var differences = findings.filter(function (f) { return f.getAttribute("data-classification") !== "false-positive"; }).length;

    function control(key) { return form.elements.namedItem(key); }

    function state() {
      var s = {};
      KEYS.forEach(function (key) { s[key] = control(key) ? control(key).value : ""; });
      return s;
    }

    function readUrl() {
      var params = new URLSearchParams(window.location.search);
      KEYS.forEach(function (key) {
        var c = control(key);
        if (!c || !params.has(key)) return;
        var value = params.get(key);
        var known = Array.prototype.some.call(c.options, function (o) { return o.value === value; });
        if (known) c.value = value;
      });
    }

    function writeUrl(s) {
      var params = new URLSearchParams(window.location.search);
      KEYS.forEach(function (key) { if (s[key]) params.set(key, s[key]); else params.delete(key); });
      var query = params.toString();
      history.replaceState(history.state, "", window.location.pathname + (query ? "?" + query : "") + window.location.hash);
    }

    function matches(finding, s) {
      var cls = finding.getAttribute("data-classification");
      if (s.classification === "" && cls === "false-positive") return false;
      if (s.classification && s.classification !== "all" && cls !== s.classification) return false;
      if (s.check && finding.getAttribute("data-check") !== s.check) return false;
      return true;
    }

    function apply() {
      var s = state();
      var filtered = s.classification !== "" || s.check !== "";
      var shown = 0;
      sections.forEach(function (section) {
        var inSection = !s.section || section.getAttribute("data-section") === s.section;
        var visible = 0;
        section.querySelectorAll(".cellula-finding").forEach(function (finding) {
          var ok = inSection && matches(finding, s);
          finding.hidden = !ok;
          if (ok) visible += 1;
        });
        shown += visible;
        /* Without a classification or check filter a section with curated notes only stays listed. */
        section.hidden = !inSection || (filtered ? visible === 0 : visible === 0 && !section.querySelector(".cellula-prov a[href^='#note-']"));
      });
      chapters.forEach(function (chapter) {
        chapter.hidden = !chapter.querySelector(".cellula-diff-section:not([hidden])");
      });
      var total = s.classification === "" ? differences : findings.length;
      var template = shown === total ? form.getAttribute("data-count-all") : form.getAttribute("data-count-some");
      count.textContent = template.replace("{shown}", shown).replace("{n}", total);
      if (none) none.hidden = shown > 0;
      writeUrl(s);
    }

    form.addEventListener("change", apply);
    form.addEventListener("input", apply);
    form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
    form.addEventListener("reset", function () { window.setTimeout(apply, 0); });
    readUrl();
    form.removeAttribute("data-pending");
    apply();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  /* Material's instant loading is off, but its document$ observable also fires on first load. */
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(init);
})();
