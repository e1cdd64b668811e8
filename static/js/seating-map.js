// Seating pages: print buttons, and a table map that follows what other staff change.
// Without this file every page still works; the map just needs a reload.
// The map's socket and the swap of a fresh map are live.js's (window.FloormanLive),
// which the map page loads first; the print pages need only the buttons.
(function () {
  "use strict";

  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });

  var root = document.getElementById("seating-map");
  var shared = window.FloormanLive;
  if (!root || !shared || !window.WebSocket) return;

  // The map as the server renders it now, unless the TD is typing into one of its forms.
  function refresh() {
    shared.swapPart(document, root.getAttribute("data-refresh-url"), "#seating-map", function (shown) {
      var active = document.activeElement;
      return active && shown.contains(active) && /INPUT|SELECT|TEXTAREA/.test(active.tagName);
    });
  }

  // Any seating or entry event (a draw, a move, a bust freeing a seat) redraws the map.
  // A break moves many players in one event; a burst of events refreshes once.
  var timer = null;
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 300);
  }

  shared.listen(document, "/ws/tournaments/" + root.getAttribute("data-tournament") + "/", {
    refresh: refresh, // on every (re)connection: events may have been missed
    events: shared.on(["seating.updated", "entry.updated", "entry.registered", "tournament.updated"], schedule),
  });
})();
