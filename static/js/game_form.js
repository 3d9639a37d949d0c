// The tournament form follows the game (issue 17): board size, komi, the handicap rule and
// Canadian moves are Go's; byo-yomi and Canadian overtime are Go time controls; a rating
// list shows only when it rates the chosen game. The server refuses the same mismatches.
(function () {
  var form = document.getElementById("tournament-form");
  if (!form || !form.elements.game) return;
  var GO_OVERTIMES = ["byoyomi", "canadian"];
  function follow() {
    var game = form.elements.game.value, go = game === "go";
    form.querySelectorAll("[data-go-only]").forEach(function (box) { box.hidden = !go; });
    var overtime = form.elements.overtime_kind;
    if (overtime) {
      Array.prototype.forEach.call(overtime.options, function (option) {
        var goOnly = GO_OVERTIMES.indexOf(option.value) !== -1;
        option.hidden = option.disabled = goOnly && !go;
      });
      if (overtime.selectedOptions.length && overtime.selectedOptions[0].disabled) {
        overtime.value = "sudden_death";
        overtime.dispatchEvent(new Event("change", {bubbles: true}));
      }
    }
    form.querySelectorAll("input[name=rating_lists]").forEach(function (box) {
      var wrapper = box.closest(".form-check") || box.parentNode;
      var fits = !box.dataset.game || box.dataset.game === game;
      wrapper.hidden = !fits;
      if (!fits) box.checked = false;
    });
  }
  form.elements.game.addEventListener("change", follow);
  follow();
})();
