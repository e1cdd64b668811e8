// Seating pages: print buttons, and a table map that follows what other staff change.
// Without this file every page still works; the map just needs a reload.
(function () {
  "use strict";

  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });

  var root = document.getElementById("seating-map");
  if (!root || !window.WebSocket) return;

  // Any seating or entry event (a draw, a move, a bust freeing a seat) redraws the map,
  // unless the TD is typing into one of its forms.
  function refresh() {
    fetch(root.getAttribute("data-refresh-url"), { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("seating-map");
        var active = document.activeElement;
        var typing = active && root.contains(active) && /INPUT|SELECT|TEXTAREA/.test(active.tagName);
        if (fresh && !typing) { root.innerHTML = fresh.innerHTML; }
      });
  }

  var kinds = { "seating.updated": 1, "entry.updated": 1, "entry.registered": 1, "tournament.updated": 1 };
  var delay = 1000;
  var timer = null;
  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + "/ws/tournaments/" + root.getAttribute("data-tournament") + "/");
    socket.onopen = function () { delay = 1000; };
    socket.onmessage = function (event) {
      var message = JSON.parse(event.data);
      if (!kinds[message.type]) return;
      // A break moves many players in one event; a burst of events refreshes once.
      clearTimeout(timer);
      timer = setTimeout(refresh, 300);
    };
    socket.onclose = function () {
      setTimeout(connect, delay * (0.5 + Math.random()));
      delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();
