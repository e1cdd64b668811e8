// The TD's clock console (static/js/console.js) keeps itself live through live.js's one
// socket: a fresh console on every (re)connection and on every event, time probes on
// connecting. Against a fake browser (harness.js); the countdown frames are not run here.
// Run: node clock/tests/js/console_test.js (clock/tests/test_clock_js.py does).
"use strict";
const assert = require("assert/strict");

const harness = require("../../../floorman/tests/js/harness.js");
const { Element, answerPage, fetches, sockets } = harness;
const tick = harness.advance; // the fake clock moves on

harness.installBrowser({ now: Date.UTC(2026, 2, 1, 20, 0, 0) });
global.FloormanLive = harness.script("live.js");
global.requestAnimationFrame = () => {}; // no frames: the countdowns are not tested here

// The console page: #console with its tournament and the URL that renders it afresh.
function openConsole() {
  const doc = harness.fakeDocument({ activeElement: null });
  const root = new Element(doc, "DIV", {
    "data-tournament": "7",
    "data-refresh-url": "/tournaments/7/clock/",
  });
  root.innerHTML = "<p>as loaded</p>";
  root.contains = (node) => node === root.field;
  root.field = new Element(doc, "INPUT");
  doc.getElementById = (id) => (id === "console" ? root : null);
  doc.querySelector = (selector) => (selector === "#console" ? root : null);
  global.document = doc;
  sockets.length = 0;
  fetches.length = 0;
  harness.clearTimers();
  harness.load("console.js");
  return { doc, root };
}

const tests = [
  ["connects once to the tournament's socket through live.js", () => {
    openConsole();
    assert.deepEqual(sockets.map((s) => s.url), ["wss://floor.example/ws/tournaments/7/"]);
  }],
  ["on connecting: five time probes and one fresh console", async () => {
    const { root } = openConsole();
    sockets[0].open();
    tick(1000);
    assert.equal(sockets[0].sent.filter((m) => m.type === "time.ping").length, 5);
    assert.deepEqual(fetches.map((f) => f.url), ["/tournaments/7/clock/"]);
    await answerPage(0, { "#console": "<p>now</p>" });
    assert.equal(root.innerHTML, "<p>now</p>");
  }],
  ["every event brings a fresh console; hello, pongs and unknown kinds do not", () => {
    openConsole();
    sockets[0].open();
    sockets[0].message({ type: "hello", tournament: 7 });
    sockets[0].message({ type: "time.pong", client: Date.now() - 10, server: Date.now() });
    sockets[0].message({ type: "no.such.kind", tournament: 7, data: {} });
    assert.equal(fetches.length, 1, "the one on connecting");
    sockets[0].message({ type: "clock.updated", tournament: 7, data: {} });
    sockets[0].message({ type: "entry.registered", tournament: 7, data: {} });
    assert.equal(fetches.length, 3);
  }],
  ["a console the TD is typing in is left alone", async () => {
    const { doc, root } = openConsole();
    sockets[0].open();
    doc.activeElement = root.field;
    await answerPage(0, { "#console": "<p>now</p>" });
    assert.equal(root.innerHTML, "<p>as loaded</p>");
  }],
  ["after a dropped socket: reconnects, probes again and fetches the console once", () => {
    openConsole();
    sockets[0].open();
    tick(1000);
    sockets[0].drop();
    tick(1000);
    assert.equal(sockets.length, 2);
    sockets[1].open();
    tick(1000);
    assert.equal(sockets[1].sent.filter((m) => m.type === "time.ping").length, 5);
    assert.equal(fetches.length, 2);
  }],
];

harness.run(tests);
