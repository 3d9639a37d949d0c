// The tournament form: what the time control allows, refreshed as it is typed (moved out of
// the template so the Content-Security-Policy needs no inline script).
(function () {
  var form = document.getElementById("tournament-form"), box = document.getElementById("advice-box");
  if (!form || !box || !window.fetch) return;
  var timer = null;
  function refresh() {
    var params = new URLSearchParams();
    ["basic_time_minutes", "overtime_kind", "overtime_seconds", "overtime_moves", "tournament_class"].forEach(function (name) {
      var field = form.elements[name]; if (field) params.set(name, field.value);
    });
    fetch(box.dataset.url + "?" + params.toString(), {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html !== null) box.innerHTML = html; });
  }
  form.addEventListener("input", function (e) {
    if (!e.target.name || !/^(basic_time_minutes|overtime_|tournament_class)/.test(e.target.name)) return;
    clearTimeout(timer); timer = setTimeout(refresh, 250);
  });
  form.addEventListener("change", function (e) { if (e.target.tagName === "SELECT") refresh(); });
})();
