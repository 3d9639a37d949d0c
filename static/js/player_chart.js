/* The profile's rating chart: one line per list, dates spaced by real time. */
(function () {
  "use strict";
  function draw() {
    var canvas = document.getElementById("rating-chart");
    var source = document.getElementById("rating-chart-data");
    if (!canvas || !source || typeof Chart === "undefined") { return; }
    var data = JSON.parse(source.textContent);
    var colours = ["#2f6f4f", "#c2410c", "#1d4ed8", "#7c3aed", "#b91c1c", "#0f766e"];
    var lang = document.documentElement.lang || "en";
    var number = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
    var day = new Intl.DateTimeFormat(lang, { year: "numeric", month: "short", day: "numeric" });
    var month = new Intl.DateTimeFormat(lang, { year: "numeric", month: "short" });
    var datasets = data.datasets.map(function (set, i) {
      var colour = colours[i % colours.length];
      var radius = set.data.length > 80 ? 0 : 3;
      return {
        label: set.label, data: set.data, borderColor: colour, backgroundColor: colour,
        // the rating he came in with is only where the jump of a reset starts
        pointRadius: function (ctx) { return ctx.raw && ctx.raw.k === "in" ? 0 : radius; },
        pointHoverRadius: 5, borderWidth: 2,
        tension: 0, stepped: false, parsing: { xAxisKey: "x", yAxisKey: "y" }
      };
    });
    new Chart(canvas, {
      type: "line",
      data: { datasets: datasets },
      options: {
        responsive: true, maintainAspectRatio: false, animation: false,
        interaction: { mode: "nearest", intersect: false },
        scales: {
          x: {
            type: "time", time: { minUnit: "month" }, grid: { color: "#eef0f3" },
            ticks: { maxTicksLimit: 8, maxRotation: 0, callback: function (v) { return month.format(new Date(v)); } }
          },
          y: { grid: { color: "#eef0f3" }, ticks: { callback: function (v) { return number.format(v); } } }
        },
        plugins: {
          legend: { display: datasets.length > 1, position: "bottom" },
          tooltip: {
            callbacks: {
              title: function (items) { return items.length ? items[0].raw.t : ""; },
              label: function (item) {
                var kind = item.raw.k && data.labels ? " — " + data.labels[item.raw.k] : "";
                return item.dataset.label + ": " + number.format(item.raw.y) + kind + " (" + day.format(new Date(item.raw.x)) + ")";
              }
            }
          }
        }
      }
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", draw); } else { draw(); }
})();
