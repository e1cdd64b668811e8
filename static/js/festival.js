// An event with flights on the lobby screen (issue 17): the part web.screens renders
// (#festival) is fetched again once when the event's socket tells of a change:
// "overview.changed" (a change in one of its flights, floorman/live.py) or a Day 2
// entry. The event's lobby and each flight's (the event's total) listen there. Changes
// that come in a burst (a bust frees a seat and tells the clock) are fetched once. No
// polling: a screen that reconnects fetches it once too. Load after live.js.
// Any other server-rendered part marked [data-live-part] with the same attributes is kept
// the same way: the chip leaders on the lobby and a player's count on their page (issue 18).
(function () {
  "use strict";
  var live = window.FloormanLive;
  var BURST_MS = 400;

  // One part, or on a rotating screen one for each event with flights (its own id).
  function watch(part) {
    var url = part.getAttribute("data-url");
    var selector = "#" + part.getAttribute("id");
    var kinds = (part.getAttribute("data-kinds") || "").split(" ").filter(Boolean);
    var waiting = null;

    function fetchPart() {
      waiting = null;
      live.swapPart(document, url, selector);
    }

    function changed() {
      if (waiting === null) waiting = window.setTimeout(fetchPart, BURST_MS);
    }

    live.listen(document, part.getAttribute("data-socket"), {
      refresh: fetchPart,
      events: live.on(kinds, changed),
    });
  }

  live.whenReady(document, function () {
    ["[data-festival]", "[data-live-part]"].forEach(function (selector) {
      Array.prototype.forEach.call(document.querySelectorAll(selector), watch);
    });
  });
})();
