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
      // by the list's id, so a list has the same colour on every profile
      var colour = colours[(set.key !== undefined ? set.key : i) % colours.length];
      var radius = set.data.length > 80 ? 0 : (set.data.length < 3 ? 5 : 3);
      return {
        label: set.label, data: set.data, borderColor: colour, backgroundColor: colour,
        // the rating he came in with is only where the jump of a reset starts
        pointRadius: function (ctx) { return ctx.raw && ctx.raw.k === "in" ? 0 : radius; },
        pointHoverRadius: 5, borderWidth: 2,
        tension: 0, stepped: false, parsing: { xAxisKey: "x", yAxisKey: "y" }
      };
    });
    // A new player has one or two points on one day: widen both axes around them so the
    // chart shows dates and ratings, not a lone dot on an empty grid.
    var xs = [], ys = [];
    data.datasets.forEach(function (set) { set.data.forEach(function (p) { xs.push(new Date(p.x).getTime()); ys.push(p.y); }); });
    var spanX = xs.length ? Math.max.apply(null, xs) - Math.min.apply(null, xs) : 0;
    var spanY = ys.length ? Math.max.apply(null, ys) - Math.min.apply(null, ys) : 0;
    var monthMs = 31 * 24 * 3600 * 1000;
    var xRange = spanX < monthMs && xs.length ? { min: Math.min.apply(null, xs) - 2 * monthMs, max: Math.max.apply(null, xs) + 2 * monthMs } : {};
    var yRange = spanY < 20 && ys.length ? { suggestedMin: Math.min.apply(null, ys) - 50, suggestedMax: Math.max.apply(null, ys) + 50 } : {};
    new Chart(canvas, {
      type: "line",
      data: { datasets: datasets },
      options: {
        responsive: true, maintainAspectRatio: false, animation: false,
        interaction: { mode: "nearest", intersect: false },
        scales: {
          x: {
            type: "time", time: { minUnit: "month" }, grid: { color: "#eef0f3" },
            min: xRange.min, max: xRange.max,
            ticks: { maxTicksLimit: 8, maxRotation: 0, callback: function (v) { return month.format(new Date(v)); } }
          },
          y: {
            grid: { color: "#eef0f3" }, suggestedMin: yRange.suggestedMin, suggestedMax: yRange.suggestedMax,
            title: { display: !!(data.labels && data.labels.rating), text: data.labels ? data.labels.rating : "" },
            ticks: { callback: function (v) { return number.format(v); } }
          }
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
