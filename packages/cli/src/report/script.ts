/**
 * The report page's inline script: a hover read-out on both charts (request number, tokens, cache
 * split, costs) from the embedded JSON. The page is complete without it.
 */
export const REPORT_SCRIPT = `
(function () {
  "use strict";
  var source = document.getElementById("replay-data");
  var readout = document.getElementById("readout");
  if (!source || !readout) return;
  var data = JSON.parse(source.textContent || "{}");
  var rows = data.requests || [];
  function tokens(n) { return Math.round(n).toLocaleString("en-US"); }
  function usd(n) { return "$" + (n >= 100 ? n.toFixed(2) : Number(n.toPrecision(4)).toString()); }
  function describe(r) {
    var lines = [
      "request " + r.i + (r.event ? " \\u2014 " + r.event : ""),
      "prompt " + tokens(r.tokens) + " tokens (" + tokens(r.plain) + " without compaction)",
      "cache read " + tokens(r.read) + ", write " + tokens(r.write) + ", uncached " + tokens(r.uncached),
      "cost " + usd(r.cost) + ", cumulative " + usd(r.cum),
      "cumulative without caching " + usd(r.cumNoCache) + ", without compaction " + usd(r.cumPlain)
    ];
    return lines.join("\\n");
  }
  var charts = document.querySelectorAll("svg.chart");
  Array.prototype.forEach.call(charts, function (svg) {
    var plot = JSON.parse(svg.getAttribute("data-plot") || "{}");
    var cursor = svg.querySelector(".cursor");
    var viewWidth = svg.viewBox.baseVal.width;
    svg.addEventListener("mousemove", function (event) {
      if (rows.length === 0) return;
      var box = svg.getBoundingClientRect();
      var x = (event.clientX - box.left) * (viewWidth / box.width);
      var step = plot.count > 1 ? plot.width / (plot.count - 1) : 0;
      var i = step > 0 ? Math.round((x - plot.left) / step) : 0;
      i = Math.max(0, Math.min(rows.length - 1, i));
      var cx = plot.count > 1 ? plot.left + i * step : plot.left + plot.width / 2;
      if (cursor) {
        cursor.setAttribute("x1", String(cx));
        cursor.setAttribute("x2", String(cx));
        cursor.setAttribute("visibility", "visible");
      }
      readout.textContent = describe(rows[i]);
      readout.hidden = false;
      readout.setAttribute("data-request", String(i));
      var left = Math.min(event.clientX + 14, window.innerWidth - readout.offsetWidth - 8);
      readout.style.left = Math.max(8, left) + "px";
      readout.style.top = (event.clientY + 14) + "px";
    });
    svg.addEventListener("mouseleave", function () {
      readout.hidden = true;
      if (cursor) cursor.setAttribute("visibility", "hidden");
    });
  });
})();
`;
