// The festival part of the lobby (static/js/festival.js, issue 17): the event's screen
// fetches its flights and chip leaders once when a flight changes (overview.changed), a
// burst of changes once, and nothing for the clock. Against a fake browser (harness.js).
// Run: node web/tests/js/festival_test.js (web/tests/test_festival_screens.py does).
"use strict";
const assert = require("assert/strict");

const harness = require("../../../floorman/tests/js/harness.js");
const { Element, answerPage, fetches, sockets } = harness;
const tick = harness.advance;

harness.installBrowser({ now: Date.UTC(2026, 2, 1, 20, 0, 0) });
global.FloormanLive = harness.script("live.js");

// The event's lobby: #festival with where to fetch it and the kinds that change it.
function festivalPart(doc, id, event) {
  const part = new Element(doc, "SECTION", {
    id,
    "data-festival": "",
    "data-url": `/lobby/${event}/festival/`,
    "data-socket": `/ws/tournaments/${event}/`,
    "data-kinds": "overview.changed entry.registered entry.updated",
  });
  part.innerHTML = "<table>as loaded</table>";
  return part;
}

function openLobby() {
  const doc = harness.fakeDocument();
  const part = festivalPart(doc, "festival", 7);
  doc.querySelectorAll = (selector) => (selector === "[data-festival]" ? [part] : []);
  doc.querySelector = (selector) => (selector === "#festival" ? part : null);
  global.document = doc;
  sockets.length = 0;
  fetches.length = 0;
  harness.clearTimers();
  harness.load("festival.js");
  return part;
}

const change = (flight) => ({
  type: "overview.changed",
  tournament: 7,
  data: { flight, change: "entry.registered" },
});

const tests = [
  ["listens on the event's socket and fetches the part once on connecting", async () => {
    const part = openLobby();
    assert.deepEqual(sockets.map((s) => s.url), ["wss://floor.example/ws/tournaments/7/"]);
    sockets[0].open();
    assert.deepEqual(fetches.map((f) => f.url), ["/lobby/7/festival/"]);
    await answerPage(0, { "#festival": "<table>now</table>" });
    assert.equal(part.innerHTML, "<table>now</table>");
  }],
  ["a burst of changes in the flights is fetched once", () => {
    openLobby();
    sockets[0].open();
    sockets[0].message(change(8));
    sockets[0].message(change(9));
    sockets[0].message({ type: "entry.updated", tournament: 7, data: {} });
    assert.equal(fetches.length, 1, "not at once: the burst may go on");
    tick(400);
    assert.equal(fetches.length, 2);
    sockets[0].message(change(8));
    tick(400);
    assert.equal(fetches.length, 3, "a later change is fetched again");
  }],
  ["the clock and the seats change nothing of the flights", () => {
    openLobby();
    sockets[0].open();
    sockets[0].message({ type: "clock.updated", tournament: 7, data: {} });
    sockets[0].message({ type: "seating.updated", tournament: 7, data: {} });
    tick(1000);
    assert.equal(fetches.length, 1, "the one on connecting");
  }],
  ["a rotating screen keeps each event's part on its own socket", async () => {
    const doc = harness.fakeDocument();
    const parts = [festivalPart(doc, "festival-7", 7), festivalPart(doc, "festival-9", 9)];
    doc.querySelectorAll = (selector) => (selector === "[data-festival]" ? parts : []);
    doc.querySelector = (selector) => parts.find((p) => "#" + p.getAttribute("id") === selector);
    global.document = doc;
    sockets.length = 0;
    fetches.length = 0;
    harness.clearTimers();
    harness.load("festival.js");
    assert.deepEqual(sockets.map((s) => s.url), [
      "wss://floor.example/ws/tournaments/7/",
      "wss://floor.example/ws/tournaments/9/",
    ]);
    sockets[1].open();
    assert.deepEqual(fetches.map((f) => f.url), ["/lobby/9/festival/"]);
    await answerPage(0, { "#festival-9": "<table>now</table>" });
    assert.equal(parts[1].innerHTML, "<table>now</table>");
    assert.equal(parts[0].innerHTML, "<table>as loaded</table>");
  }],
  ["a chip leaders part is fetched again after a count, not for the clock (issue 18)", async () => {
    const doc = harness.fakeDocument();
    const part = new Element(doc, "SECTION", {
      id: "leaders",
      "data-live-part": "",
      "data-url": "/lobby/7/leaders/",
      "data-socket": "/ws/tournaments/7/",
      "data-kinds": "counts.updated entry.updated clock.level",
    });
    part.innerHTML = "<ol>as loaded</ol>";
    doc.querySelectorAll = (selector) => (selector === "[data-live-part]" ? [part] : []);
    doc.querySelector = (selector) => (selector === "#leaders" ? part : null);
    global.document = doc;
    sockets.length = 0;
    fetches.length = 0;
    harness.clearTimers();
    harness.load("festival.js");
    sockets[0].open();
    await answerPage(0, { "#leaders": "<ol>as loaded</ol>" });
    sockets[0].message({ type: "clock.updated", tournament: 7, data: {} });
    tick(1000);
    assert.equal(fetches.length, 1, "the one on connecting");
    sockets[0].message({ type: "counts.updated", tournament: 7, data: { table: 3, level: 4 } });
    tick(400);
    assert.deepEqual(fetches.map((f) => f.url), ["/lobby/7/leaders/", "/lobby/7/leaders/"]);
    await answerPage(1, { "#leaders": "<ol>counted</ol>" });
    assert.equal(part.innerHTML, "<ol>counted</ol>");
  }],
];

harness.run(tests);
