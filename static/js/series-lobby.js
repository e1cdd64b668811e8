// A series' lobby (issue 17): the rotation through its running events is the lobby's
// own (clock.js); this script only watches the series' socket and loads the page again
// once an event starts or stops running, so the rotation holds the events that run.
(function () {
  "use strict";
  var live = window.FloormanLive;
  live.whenReady(document, function () {
    var node = document.getElementById("series-watch");
    if (!node) return;
    var watch = JSON.parse(node.textContent);
    var running = {};
    watch.running.forEach(function (id) {
      running[id] = true;
    });
    var connected = false;
    live.listen(document, watch.socket, {
      // Reconnected: a start or an end may have been missed while the socket was down.
      refresh: function () {
        if (connected) window.location.reload();
        connected = true;
      },
      events: {
        "tournament.updated": function (message) {
          var runs = Boolean(message.data && message.data.status === "running");
          if (runs !== Boolean(running[message.tournament])) window.location.reload();
        },
      },
    }).wakeOnVisible();
  });
})();
