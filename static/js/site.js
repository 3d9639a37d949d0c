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
})();
