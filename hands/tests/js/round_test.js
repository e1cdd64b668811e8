// The floor's hand-for-hand page (static/js/tablet.js's RoundScreen) keeps its status part
// live through live.js's one socket: on every (re)connection and after a burst of rounds,
// tables and seating. Against a fake browser (harness.js).
// Run: node hands/tests/js/round_test.js (hands/tests/test_tablet_js.py does).
"use strict";
const assert = require("assert/strict");

const harness = require("../../../floorman/tests/js/harness.js");
const { Element, answerPage, fetches, sockets } = harness;
const beeps = harness.oscillators; // one per beep
const tick = harness.advance; // the fake clock moves on

harness.installBrowser({ now: Date.UTC(2026, 2, 1, 20, 0, 0) });
const tablet = harness.script("tablet.js");

const CONFIG = {
  urls: { socket: "/ws/tournaments/7/", page: "/tournaments/7/hand-for-hand/" },
};

function openPage() {
  const status = new Element(null, "SECTION");
  status.innerHTML = "<p>round 3</p>";
  const doc = harness.fakeDocument({
    getElementById: harness.jsonScripts({ "h4h-config": CONFIG }),
    querySelector: (selector) => (selector === "[data-region=status]" ? status : null),
  });
  sockets.length = 0;
  fetches.length = 0;
  harness.clearTimers();
  tablet.boot(doc);
  return { doc, status };
}

const event = (type, data) => ({ type: type, tournament: 7, data: data || {} });

const tests = [
  ["connects once and fetches the status on connecting", async () => {
    const { status } = openPage();
    assert.deepEqual(sockets.map((s) => s.url), ["wss://floor.example/ws/tournaments/7/"]);
    sockets[0].open();
    assert.deepEqual(fetches.map((f) => f.url), ["/tournaments/7/hand-for-hand/"]);
    await answerPage(0, { "[data-region=status]": "<p>round 4</p>" });
    assert.equal(status.innerHTML, "<p>round 4</p>");
  }],
  ["a burst of rounds, tables and seating fetches once; the clock does not", () => {
    openPage();
    sockets[0].open();
    sockets[0].message(event("clock.updated"));
    sockets[0].message(event("no.such.kind"));
    tick(1000);
    assert.equal(fetches.length, 1, "the one on connecting");
    sockets[0].message(event("hand_for_hand.updated"));
    sockets[0].message(event("table.updated", { table: 5 }));
    sockets[0].message(event("seating.updated"));
    tick(1000);
    assert.equal(fetches.length, 2);
  }],
  ["tables running late beep twice (RP-8)", () => {
    const { doc } = openPage();
    doc.fire("pointerdown"); // sound allowed
    sockets[0].open();
    const before = beeps.length;
    sockets[0].message(event("hand_for_hand.updated", { alert: [] }));
    assert.equal(beeps.length, before);
    sockets[0].message(event("hand_for_hand.updated", { alert: [4] }));
    assert.equal(beeps.length - before, 2);
  }],
  ["after a dropped socket: reconnects and fetches the status once", () => {
    openPage();
    sockets[0].open();
    sockets[0].drop();
    tick(1000);
    sockets[1].open();
    assert.equal(fetches.length, 2);
  }],
];

harness.run(tests);
