/* The project's tooltips, one for the whole page: any link the generator writes with its tooltip
   text in data-tip (a glossary mark, a.cellula-term; a rule link from a puzzle step or the rules
   coverage). The tooltip shows on hover and on keyboard focus, is tied to the link with
   aria-describedby, and Escape hides it.
   Why not a title attribute and Material's content.tooltips: Material mounts one set of observers
   per element with a title when the page loads. A whole game's step tables link about 200 rule
   sections; their titles cost 0.25-0.3 s of main-thread work on a slow phone, before the page
   answers. These listeners are on the document, so their cost does not grow with the page. */
(function () {
  "use strict";
  var tip = null, owner = null;

  function ensureTip() {
    if (tip) return tip;
    tip = document.createElement("div");
    tip.id = "cellula-tip";
    tip.className = "cellula-tip";
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

  function linkOf(event) {
    var target = event.target;
    return target && target.closest ? target.closest("a[data-tip]") : null;
  }

  /* On a touch screen there is no hover: the first tap on a mark shows its tooltip (and does not
     leave the page), a second tap on the same mark follows the link, a tap elsewhere hides it. */
  var touching = false, openBeforeTap = false;
  document.addEventListener("pointerdown", function (event) {
    touching = event.pointerType === "touch" || event.pointerType === "pen";
    var link = linkOf(event);
    // focus (which shows the tip) comes between this and the click: decide on what was shown before
    openBeforeTap = !!(link && link === owner && tip && !tip.hidden);
  }, true);
  document.addEventListener("click", function (event) {
    var link = linkOf(event);
    if (!touching) return;
    if (link && !openBeforeTap) {
      event.preventDefault();
      show(link);
    } else if (!link) {
      hide();
    }
  }, true);
  document.addEventListener("mouseover", function (event) { var link = linkOf(event); if (!touching && link && link !== owner) show(link); });
  document.addEventListener("mouseout", function (event) {
    var link = linkOf(event);
    if (link && link === owner && !(event.relatedTarget && link.contains(event.relatedTarget)) && document.activeElement !== link) hide();
  });
  document.addEventListener("focusin", function (event) { var link = linkOf(event); if (link) show(link); else hide(); });
  document.addEventListener("focusout", function (event) { if (linkOf(event) === owner) hide(); });
  document.addEventListener("keydown", function (event) { if (event.key === "Escape" || event.key === "Esc") hide(); });
  window.addEventListener("scroll", function () { if (owner && document.activeElement !== owner) hide(); }, { passive: true });
})();
