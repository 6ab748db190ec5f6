/* Glossary marks: a term's first occurrence in each section links to its glossary entry
   (a.cellula-term, written by the generator with the tooltip text in data-tip). The tooltip shows
   on hover and on keyboard focus, is tied to the link with aria-describedby, and Escape hides it. */
(function () {
  "use strict";
  var tip = null, owner = null;

  function ensureTip() {
    if (tip) return tip;
    tip = document.createElement("div");
    tip.id = "cellula-term-tip";
    tip.className = "cellula-term-tip";
    tip.setAttribute("role", "tooltip");
    tip.hidden = true;
    document.body.appendChild(tip);
    return tip;
  }

  function show(link) {
    var text = link.getAttribute("data-tip");
    if (!text) return;
    var box = ensureTip();
    box.textContent = text;
    box.hidden = false;
    owner = link;
    link.setAttribute("aria-describedby", box.id);
    var rect = link.getBoundingClientRect();
    var width = Math.min(box.offsetWidth, document.documentElement.clientWidth - 16);
    var left = Math.max(8, Math.min(rect.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - width - 8));
    var top = rect.bottom + window.scrollY + 6;
    if (rect.bottom + box.offsetHeight + 12 > window.innerHeight && rect.top > box.offsetHeight + 12) {
      top = rect.top + window.scrollY - box.offsetHeight - 6;
    }
    box.style.left = left + "px";
    box.style.top = top + "px";
  }

  function hide() {
    if (!tip || tip.hidden) return;
    tip.hidden = true;
    if (owner) owner.removeAttribute("aria-describedby");
    owner = null;
  }

  function termOf(event) {
    var target = event.target;
    return target && target.closest ? target.closest("a.cellula-term") : null;
  }

  document.addEventListener("mouseover", function (event) { var link = termOf(event); if (link && link !== owner) show(link); });
  document.addEventListener("mouseout", function (event) {
    var link = termOf(event);
    if (link && link === owner && !(event.relatedTarget && link.contains(event.relatedTarget)) && document.activeElement !== link) hide();
  });
  document.addEventListener("focusin", function (event) { var link = termOf(event); if (link) show(link); else hide(); });
  document.addEventListener("focusout", function (event) { if (termOf(event) === owner) hide(); });
  document.addEventListener("keydown", function (event) { if (event.key === "Escape" || event.key === "Esc") hide(); });
  window.addEventListener("scroll", function () { if (owner && document.activeElement !== owner) hide(); }, { passive: true });
})();
