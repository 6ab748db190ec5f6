/* Puzzle of the day (issue #19): picks a puzzle from the list the puzzle index carries in
   data-puzzles, by the reader's local date (day number since 0001-01-01 modulo the list length,
   the same rule the build uses for the link shown before this runs). No network: works from
   file:// and offline. The link reuses the index table's own link to that puzzle, so it points
   where the table points in every build (directory URLs or not). */
(function () {
  "use strict";
  function dayNumber(d) {
    // 719163 is the day number of 1970-01-01 (Python's date.toordinal()).
    return Math.floor(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / 86400000) + 719163;
  }
  function tableLink(id) {
    var codes = document.querySelectorAll("table code");
    for (var i = 0; i < codes.length; i++) {
      if (codes[i].textContent === id) {
        var link = codes[i].parentNode.querySelector("a");
        if (link) return link;
      }
    }
    return null;
  }
  function pick(box) {
    var list;
    try { list = JSON.parse(box.getAttribute("data-puzzles") || "[]"); } catch (e) { return; }
    if (!list.length) return;
    var chosen = list[dayNumber(new Date()) % list.length];
    var link = box.querySelector("a");
    var source = tableLink(chosen.id);
    if (!link || !source) return;
    link.setAttribute("href", source.getAttribute("href"));
    link.textContent = chosen.title;
    box.setAttribute("data-chosen", chosen.id);
    var grade = box.querySelector(".cellula-daily__grade");
    if (grade) grade.textContent = "\u2605".repeat(chosen.grade) + "\u2606".repeat(Math.max(0, 5 - chosen.grade));
  }
  function run() {
    var boxes = document.querySelectorAll(".cellula-daily");
    for (var i = 0; i < boxes.length; i++) pick(boxes[i]);
  }
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(run);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
})();
