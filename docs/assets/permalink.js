/* Cellula permanent links: a copy-link button beside every numbered rule section heading, and a
 * language switch that keeps the section anchor (#...) and the query string (card filters).
 * Section anchors are the same in both languages (they come from the rule's id in data/rules). */
(function () {
  "use strict";
  var ui = {};
  try { ui = JSON.parse(document.getElementById("cellula-ui").textContent); } catch (e) { /* defaults */ }

  function permalink(id) {
    return location.href.split("#")[0].split("?")[0] + "#" + id;
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {  // file:// and plain http: the old way
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      var ok = document.execCommand("copy");
      document.body.removeChild(area);
      if (ok) resolve(); else reject(new Error("copy refused"));
    });
  }

  function addCopyButtons() {
    document.querySelectorAll("article h2[data-rule-number][id]").forEach(function (head) {
      if (head.querySelector(".cellula-copy-link")) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "cellula-copy-link";
      button.title = ui.copy_link || "";
      button.setAttribute("aria-label", (ui.copy_link || "") + " " + head.getAttribute("data-rule-number"));
      button.setAttribute("data-link", permalink(head.id));
      // A drawn link icon, not a character: "⧉" is a box in the fonts most phones and desktops have.
      var svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("viewBox", "0 0 24 24"); svg.setAttribute("width", "16"); svg.setAttribute("height", "16");
      svg.setAttribute("aria-hidden", "true"); svg.setAttribute("focusable", "false");
      var path = document.createElementNS("http://www.w3.org/2000/svg", "path");
      path.setAttribute("d", "M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1");
      path.setAttribute("fill", "none"); path.setAttribute("stroke", "currentColor");
      path.setAttribute("stroke-width", "2"); path.setAttribute("stroke-linecap", "round");
      svg.appendChild(path);
      button.appendChild(svg);
      var status = document.createElement("span");
      status.className = "cellula-copy-status";
      status.setAttribute("role", "status");
      button.addEventListener("click", function () {
        copyText(permalink(head.id)).then(function () {
          status.textContent = ui.link_copied || "";
          button.classList.add("cellula-copy-link--done");
          setTimeout(function () {
            status.textContent = "";
            button.classList.remove("cellula-copy-link--done");
          }, 2000);
        }, function () { status.textContent = permalink(head.id); });
      });
      head.appendChild(button);
      head.appendChild(status);
    });
  }

  /* The language switch: Material's links point at the other language's page; add what the reader
   * is looking at (section and filters) just before the link is followed (capture phase, before
   * anything else sees the click). */
  /* Without an anchor in the address, the reading position goes along (issue #36): the nearest
   * heading with an id at or above the top of the window, and how far down the page it is, kept in
   * sessionStorage for the other page, which scrolls to the same heading (the rules' anchors are
   * the same in both languages) or else to the same share of its height. */
  var PLACE_KEY = "cellula-reading-place";
  function readingPlace(target) {
    var heads = document.querySelectorAll("article h1[id], article h2[id], article h3[id], article h4[id]");
    var id = "", offset = 0;
    for (var i = 0; i < heads.length; i++) {
      var top = heads[i].getBoundingClientRect().top;
      if (top > 80) break;
      id = heads[i].id; offset = top;
    }
    var height = Math.max(1, document.documentElement.scrollHeight - window.innerHeight);
    return { to: target, id: id, offset: offset, share: window.scrollY / height };
  }
  function keepPlace(ev) {
    var a = ev.target && ev.target.closest && ev.target.closest("a.md-select__link[hreflang]");
    if (!a) return;
    var base = a.href.split("#")[0].split("?")[0];
    a.href = base + location.search + location.hash;
    if (ev.type === "click" && !location.hash && window.scrollY > 0) {
      try { sessionStorage.setItem(PLACE_KEY, JSON.stringify(readingPlace(new URL(base, location.href).pathname))); }
      catch (e) { /* storage refused: the other page opens at its top */ }
    }
    // Material's own alternate-language handler (on body) would navigate to the page without its
    // anchor; the link's default navigation already goes to the right place.
    if (ev.type === "click") ev.stopPropagation();
  }
  ["click", "auxclick", "focusin", "mouseover", "contextmenu"].forEach(function (type) {
    document.addEventListener(type, keepPlace, true);
  });

  function restorePlace() {
    var place = null;
    try { place = JSON.parse(sessionStorage.getItem(PLACE_KEY) || "null"); sessionStorage.removeItem(PLACE_KEY); }
    catch (e) { return; }
    if (!place || location.hash || place.to !== location.pathname) return;
    var head = place.id ? document.getElementById(place.id) : null;
    if (head) window.scrollTo(0, head.getBoundingClientRect().top + window.scrollY - place.offset);
    else window.scrollTo(0, place.share * Math.max(0, document.documentElement.scrollHeight - window.innerHeight));
  }

  function ready() { addCopyButtons(); restorePlace(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
