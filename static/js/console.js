// TD clock console: live countdowns, keyboard shortcuts and their help, confirmations,
// live refresh.
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

  // Keyboard shortcuts, listed in the help that "?" opens (#shortcuts). Each presses a
  // button of the console, so a key does what the click does, asking first where it asks.
  var PRESS = {
    " ": "toggle", // start, pause, resume
    "+": "plus", "=": "plus", // a minute more ("=" is "+" without Shift)
    "-": "minus",
    n: "next", N: "next", ArrowRight: "next",
    p: "previous", P: "previous", ArrowLeft: "previous",
  };
  var CONTROLS = ["BUTTON", "A", "SUMMARY"]; // Space presses these themselves
  var help = document.getElementById("shortcuts");
  var opener = null; // what had the focus before the help opened: it gets it back

  function typing(element) {
    return !!element && (/^(INPUT|SELECT|TEXTAREA)$/.test(element.tagName) || element.isContentEditable === true);
  }

  function helpOpen() {
    if (!help || help.open || typeof help.showModal !== "function") return;
    opener = document.activeElement;
    help.showModal();
  }

  if (help) {
    // Escape (the dialog's own) or the Close button: the focus goes back where it was.
    help.addEventListener("close", function () {
      if (opener && typeof opener.focus === "function" && document.contains(opener)) opener.focus();
      opener = null;
    });
    document.querySelectorAll("[data-shortcuts-open]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", helpOpen);
    });
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat || event.defaultPrevented) return;
    if (help && help.open) return; // the help takes its own keys: Escape closes it
    var active = document.activeElement;
    if (typing(active)) return; // a key typed into a field is only typed
    if (event.key === "?") { event.preventDefault(); helpOpen(); return; }
    if (event.key === "a" || event.key === "A") {
      var field = document.querySelector("#announce [name=text]");
      // The "a" itself is not typed into the field (preventDefault).
      if (field) { event.preventDefault(); field.focus(); }
      return;
    }
    if (event.key === " " && active && CONTROLS.indexOf(active.tagName) >= 0) return;
    var id = PRESS[event.key];
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
