// The TD's table map (static/js/seating-map.js) keeps itself live through live.js's one
// socket: a fresh map on every (re)connection and after a burst of seating or entry
// events. Against a fake browser (harness.js).
// Run: node seating/tests/js/map_test.js (seating/tests/test_public.py does).
"use strict";
const assert = require("assert/strict");

const harness = require("../../../floorman/tests/js/harness.js");
const { Element, answerPage, fetches, sockets } = harness;
const tick = harness.advance; // the fake clock moves on

harness.installBrowser({ now: Date.UTC(2026, 2, 1, 20, 0, 0) });
global.FloormanLive = harness.script("live.js");

// The map page: #seating-map with its tournament and the URL that renders it afresh.
function openMap(extra) {
  const doc = harness.fakeDocument(Object.assign({ activeElement: null }, extra));
  const root = new Element(doc, "DIV", {
    "data-tournament": "7",
    "data-refresh-url": "/tournaments/7/seating/",
  });
  root.innerHTML = "<p>as loaded</p>";
  root.field = new Element(doc, "SELECT");
  root.contains = (node) => node === root.field;
  doc.getElementById = (id) => (id === "seating-map" ? root : null);
  doc.querySelector = (selector) => (selector === "#seating-map" ? root : null);
  global.document = doc;
  sockets.length = 0;
  fetches.length = 0;
  harness.clearTimers();
  harness.load("seating-map.js");
  return { doc, root };
}

const event = (type) => ({ type: type, tournament: 7, data: {} });

const tests = [
  ["connects once to the tournament's socket and fetches the map on connecting", async () => {
    const { root } = openMap();
    assert.deepEqual(sockets.map((s) => s.url), ["wss://floor.example/ws/tournaments/7/"]);
    sockets[0].open();
    assert.deepEqual(fetches.map((f) => f.url), ["/tournaments/7/seating/"]);
    await answerPage(0, { "#seating-map": "<p>now</p>" });
    assert.equal(root.innerHTML, "<p>now</p>");
  }],
  ["a burst of seating and entry events redraws the map once", () => {
    openMap();
    sockets[0].open();
    sockets[0].message(event("seating.updated"));
    sockets[0].message(event("entry.updated"));
    sockets[0].message(event("entry.registered"));
    sockets[0].message(event("tournament.updated"));
    tick(299);
    assert.equal(fetches.length, 1, "the one on connecting");
    tick(1);
    assert.equal(fetches.length, 2);
  }],
  ["the clock's events and unknown kinds leave the map alone", () => {
    openMap();
    sockets[0].open();
    sockets[0].message(event("clock.updated"));
    sockets[0].message(event("no.such.kind"));
    sockets[0].message({ type: "hello", tournament: 7 });
    tick(1000);
    assert.equal(fetches.length, 1);
  }],
  ["a map the TD is typing in is left alone", async () => {
    const { doc, root } = openMap();
    sockets[0].open();
    doc.activeElement = root.field;
    await answerPage(0, { "#seating-map": "<p>now</p>" });
    assert.equal(root.innerHTML, "<p>as loaded</p>");
  }],
  ["after a dropped socket: reconnects and fetches the map once", () => {
    openMap();
    sockets[0].open();
    sockets[0].drop();
    tick(1000);
    sockets[1].open();
    assert.equal(fetches.length, 2);
  }],
  ["the print pages have no map: no socket", () => {
    const doc = harness.fakeDocument();
    global.document = doc;
    sockets.length = 0;
    harness.load("seating-map.js");
    assert.equal(sockets.length, 0);
  }],
];

harness.run(tests);
