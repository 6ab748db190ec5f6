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
      button.textContent = "⧉";
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
  function keepPlace(ev) {
    var a = ev.target && ev.target.closest && ev.target.closest("a.md-select__link[hreflang]");
    if (!a) return;
    var base = a.href.split("#")[0].split("?")[0];
    a.href = base + location.search + location.hash;
    // Material's own alternate-language handler (on body) would navigate to the page without its
    // anchor; the link's default navigation already goes to the right place.
    if (ev.type === "click") ev.stopPropagation();
  }
  ["click", "auxclick", "focusin", "mouseover", "contextmenu"].forEach(function (type) {
    document.addEventListener(type, keepPlace, true);
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", addCopyButtons);
  else addCopyButtons();
})();
