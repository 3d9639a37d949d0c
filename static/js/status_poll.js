// Moved out of referee/_status_poll.html for the Content-Security-Policy.
(function () {
  // Reload the recompute status every 2 s while a list is still being rated.
  function poll() {
    var box = document.getElementById("recompute-status");
    if (!box || !box.dataset.waiting || !window.fetch) return;
    setTimeout(function () {
      fetch(box.dataset.url, {credentials: "same-origin"})
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (html === null) return;
          var holder = document.createElement("div"); holder.innerHTML = html.trim();
          var fresh = holder.querySelector("#recompute-status");
          if (fresh) { box.replaceWith(fresh); poll(); }
        });
    }, 2000);
  }
  poll();
})();
