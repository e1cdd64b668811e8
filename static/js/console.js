// TD clock console: live countdowns, keyboard shortcuts, confirmations, live refresh.
// Without this file the console still works (plain forms, a confirmation page).
// The socket, the time probe's arithmetic and the swap of a fresh console are live.js's
// (window.FloormanLive), loaded first.
(function (shared) {
  "use strict";

  var root = document.getElementById("console");
  if (!root) return;
  var offset = 0; // server time minus this browser's time, in ms
  var bestRoundTrip = Infinity;
  var format = shared.formatDuration; // "09:59", "1:05:00"

  // Every frame: the end time minus (now + offset). Never a counter that drifts.
  function render() {
    var now = Date.now() + offset;
    root.querySelectorAll("[data-countdown]").forEach(function (el) {
      var ends = el.getAttribute("data-ends-at");
      if (!ends) return;
      var left = Date.parse(ends) - now;
      el.textContent = format(left);
      var item = el.closest("[data-player-clock]");
      if (item) {
        var countdown = Number(item.getAttribute("data-countdown-from")) * 1000;
        item.classList.toggle("counting-down", left > 0 && left <= countdown);
        item.querySelector(".pc-expired").hidden = left > 0;
      }
    });
    window.requestAnimationFrame(render);
  }

  // Confirm before actions that throw away time or a level.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute("data-confirm");
    if (!question) return;
    if (!window.confirm(question)) { event.preventDefault(); return; }
    var field = document.createElement("input");
    field.type = "hidden"; field.name = "confirm"; field.value = "on";
    form.appendChild(field);
  });

  // Space: start / pause / resume. + and -: a minute more or less.
  document.addEventListener("keydown", function (event) {
    var tag = (document.activeElement && document.activeElement.tagName) || "";
    if (/INPUT|SELECT|TEXTAREA|BUTTON/.test(tag) || event.ctrlKey || event.metaKey || event.altKey) return;
    var id = { " ": "toggle", "+": "plus", "-": "minus" }[event.key];
    var button = id && document.getElementById(id);
    if (button) { event.preventDefault(); button.click(); }
  });

  // The console as the server renders it now, unless the TD is in one of its fields.
  function refresh() {
    shared.swapPart(document, root.getAttribute("data-refresh-url"), "#console", function (shown) {
      return document.activeElement && shown.contains(document.activeElement);
    });
  }

  // Any event may change what the console shows (the clock, entries, the prize pool).
  var events = shared.on(shared.KINDS, refresh);
  events["time.pong"] = function (message) {
    var now = Date.now();
    var sample = shared.timeSample(message.client, message.server, now);
    if (sample.rtt < bestRoundTrip) { bestRoundTrip = sample.rtt; offset = sample.offset; }
  };

  var live = shared.listen(document, "/ws/tournaments/" + root.getAttribute("data-tournament") + "/", {
    // On every (re)connection: probe the server's time and fetch the console once.
    refresh: function () {
      for (var i = 0; i < 5; i++) {
        setTimeout(function () { live.send({ type: "time.ping", client: Date.now() }); }, i * 200);
      }
      refresh();
    },
    events: events,
  });

  window.requestAnimationFrame(render);
})(window.FloormanLive);
