// A series' public schedule (issue 17), on a phone or a TV: each event's status follows
// play without a reload. The page is right when it loads; its socket (/ws/series/<id>/,
// through live.js) brings each event's "tournament.updated", and on every (re)connection
// the list is fetched once again (events may have been missed while it was down).
(function () {
  "use strict";
  var live = window.FloormanLive;

  function setStatus(document, config, id, status) {
    var row = document.querySelector('[data-tournament="' + id + '"]');
    if (!row || !status) return;
    row.setAttribute("data-status", status);
    var badge = row.querySelector('[data-field="status"]');
    if (badge) {
      badge.className = "badge status-" + status;
      badge.textContent = config.statuses[status] || status;
    }
    var results = row.querySelector('[data-field="results"]');
    if (results) results.hidden = status !== "finished";
  }

  live.whenReady(document, function () {
    var node = document.getElementById("schedule-config");
    if (!node) return;
    var config = JSON.parse(node.textContent);
    var banner = document.querySelector('[data-field="offline"]');
    var channel = live.listen(document, config.socket, {
      refresh: function () {
        live.swapPart(document, config.part, "#schedule");
      },
      events: {
        "tournament.updated": function (message) {
          setStatus(document, config, message.tournament, message.data && message.data.status);
        },
      },
      online: function (online) {
        if (banner) banner.hidden = online;
      },
    });
    channel.wakeOnVisible();
  });
})();
