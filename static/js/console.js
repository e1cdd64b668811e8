// TD clock console: live countdowns, keyboard shortcuts, confirmations, live refresh.
// Without this file the console still works (plain forms, a confirmation page).
(function () {
  "use strict";

  var root = document.getElementById("console");
  if (!root) return;
  var offset = 0; // server time minus this browser's time, in ms
  var bestRoundTrip = Infinity;

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function format(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return h ? h + ":" + pad(m) + ":" + pad(sec) : pad(m) + ":" + pad(sec);
  }

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

  function refresh() {
    fetch(root.getAttribute("data-refresh-url"), { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("console");
        var focused = document.activeElement && root.contains(document.activeElement);
        if (fresh && !focused) { root.innerHTML = fresh.innerHTML; }
      });
  }

  var delay = 1000;
  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + "/ws/tournaments/" + root.getAttribute("data-tournament") + "/");
    socket.onopen = function () {
      delay = 1000;
      for (var i = 0; i < 5; i++) {
        setTimeout(function () { socket.send(JSON.stringify({ type: "time.ping", client: Date.now() })); }, i * 200);
      }
      refresh();
    };
    socket.onmessage = function (event) {
      var message = JSON.parse(event.data);
      if (message.type === "time.pong") {
        var now = Date.now(), trip = now - message.client;
        if (trip < bestRoundTrip) { bestRoundTrip = trip; offset = message.server - (message.client + now) / 2; }
      } else if (message.type !== "hello") {
        refresh();
      }
    };
    socket.onclose = function () {
      // Randomized backoff, so a room of screens does not reconnect at the same instant.
      setTimeout(connect, delay * (0.5 + Math.random()));
      delay = Math.min(delay * 2, 30000);
    };
  }

  window.requestAnimationFrame(render);
  connect();
})();
