/* Small conveniences; every page works without this file. */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var link = event.target.closest("a.breakdown-toggle");
    if (!link) { return; }
    var row = document.getElementById(link.getAttribute("href").slice(1));
    if (!row) { return; }
    event.preventDefault();
    row.classList.toggle("open");
    link.setAttribute("aria-expanded", row.classList.contains("open") ? "true" : "false");
  });

  /* Wide tables: say which side has more (a shadow), so a cut-off table reads as scrollable. */
  function cue(box) {
    var wrap = box.querySelector(".table-wrap");
    if (!wrap) { return; }
    var update = function () {
      var over = wrap.scrollWidth - wrap.clientWidth > 1;
      box.classList.toggle("overflowing", over);
      box.classList.toggle("more-left", over && wrap.scrollLeft > 0);
      box.classList.toggle("more-right", over && wrap.scrollLeft + wrap.clientWidth < wrap.scrollWidth - 1);
      var down = wrap.scrollHeight - wrap.clientHeight > 1;
      box.classList.toggle("more-down", down && wrap.scrollTop + wrap.clientHeight < wrap.scrollHeight - 1);
    };
    wrap.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    update();
  }
  function cues() { document.querySelectorAll("[data-scroll-cue]").forEach(cue); }

  /* A box that scrolls takes the keyboard's focus while it has more to show, so its arrows
     scroll it (WCAG 2.1.1; axe's scrollable-region-focusable). */
  function focusableWhileScrolling(box) {
    var update = function () {
      var over = box.scrollWidth - box.clientWidth > 1 || box.scrollHeight - box.clientHeight > 1;
      if (over && !box.hasAttribute("tabindex")) { box.setAttribute("tabindex", "0"); box.dataset.scrollFocus = "1"; }
      if (!over && box.dataset.scrollFocus) { box.removeAttribute("tabindex"); delete box.dataset.scrollFocus; }
    };
    window.addEventListener("resize", update);
    update();
  }
  function start() {
    cues();
    document.querySelectorAll(".table-wrap, .roster-list, .h2h-box").forEach(focusableWhileScrolling);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
