// The pure functions of static/js/tablet.js, and its tablet screen against a fake
// browser (harness.js: DOM, socket, fetch, timers, audio, vibration): numbers and texts,
// no pixels.
// Run: node hands/tests/js/tablet_test.js (hands/tests/test_tablet_js.py does).
"use strict";
const assert = require("assert/strict");

const harness = require("../../../floorman/tests/js/harness.js");
const { Element, answer, fetches, sockets, vibrations } = harness;
const beeps = harness.oscillators; // one per beep
const advance = harness.advance; // the fake clock moves on

const T0 = Date.UTC(2026, 2, 1, 20, 0, 0);
harness.installBrowser({ now: T0 });
const now = () => Date.now(); // the fake clock
global.htmx = { processed: [], process: (node) => global.htmx.processed.push(node) };

const tablet = harness.script("tablet.js");

const STRINGS = {
  came: "%(name)s (#%(number)s) sat down in seat %(seat)s.",
  came_from:
    "%(name)s (#%(number)s) sat down in seat %(seat)s, from table %(from_table)s, seat %(from_seat)s.",
  left: "%(name)s (#%(number)s) left seat %(seat)s.",
  left_to: "%(name)s (#%(number)s) left seat %(seat)s for table %(to_table)s, seat %(to_seat)s.",
  shifted: "%(name)s (#%(number)s) moved from seat %(from_seat)s to seat %(seat)s.",
  title_came: "Player in: seat %(seat)s",
  title_deal: "Deal now",
};

const ANNA = { seat: 1, entry: 11, number: 1, name: "Anna" };
const BEN = { seat: 2, entry: 12, number: 2, name: "Ben" };
const CARL = { seat: 3, entry: 13, number: 3, name: "Carl" };

const pureTests = {
  "times as Python writes them, with microseconds and an offset"() {
    assert.equal(tablet.parseTime("2026-03-01T20:00:00.123456+00:00"), T0 + 123);
    assert.equal(tablet.parseTime("2026-03-01T21:00:00+01:00"), T0);
    assert.equal(tablet.parseTime("2026-03-01T20:00:00Z"), T0);
    assert.equal(tablet.parseTime(null), null);
    assert.equal(tablet.parseTime("soon"), null);
  },

  "the server's offset comes from the sample with the shortest round trip"() {
    const sync = new tablet.TimeSync();
    assert.equal(sync.offset(), 0);
    sync.add(1000, 5050, 1100); // midpoint 1050: the server is 4000 ahead, ±50
    sync.add(2000, 6500, 3000); // a slow answer: less sure
    assert.equal(sync.offset(), 4000);
    sync.add(3000, 7010, 3020);
    assert.equal(sync.offset(), 4000);
  },

  "durations round up to whole seconds"() {
    assert.equal(tablet.formatDuration(25000), "00:25");
    assert.equal(tablet.formatDuration(4001), "00:05");
    assert.equal(tablet.formatDuration(65 * 60000), "1:05:00");
    assert.equal(tablet.formatDuration(-10), "00:00");
  },

  "a table's own events and the tournament-wide ones refresh the tablet"() {
    const r = (type, data) => tablet.refreshFor({ type: type, data: data || {} }, 5);
    assert.equal(r("table.updated", { table: 5 }), true);
    assert.equal(r("table.updated", { table: 6 }), false);
    assert.equal(r("player_clock.updated", { table: 5, seat: 2 }), true);
    assert.equal(r("player_clock.updated", { table: 4, seat: 2 }), false);
    assert.equal(r("hand_for_hand.updated"), true);
    assert.equal(r("clock.updated"), true);
    assert.equal(r("clock.level"), true);
    assert.equal(r("seating.updated"), true);
    assert.equal(r("counts.updated", { table: 5, level: 3 }), true); // issue 18: the stacks
    assert.equal(r("counts.updated", { table: 6, level: 3 }), false);
    assert.equal(r("counts.updated", { sweep: 2, open: true }), false);
    assert.equal(r("clock.warning"), false);
    assert.equal(r("entry.registered"), false);
    assert.equal(r("hello"), false);
    assert.equal(tablet.refreshFor(null, 5), false);
  },

  "the hand-for-hand page follows rounds, tables and seating"() {
    assert.equal(tablet.refreshForRound({ type: "hand_for_hand.updated" }), true);
    assert.equal(tablet.refreshForRound({ type: "table.updated" }), true);
    assert.equal(tablet.refreshForRound({ type: "clock.updated" }), false);
  },

  "moves are kept for players who come to or leave this table only"() {
    const update = {
      seats: [
        { entry: 21, table: 5, seat: 4, from_table: 2, from_seat: 7 },
        { entry: 22, table: 3, seat: 1, from_table: 5, from_seat: 6 },
        { entry: 23, table: 3, seat: 2, from_table: 1, from_seat: 1 },
      ],
      freed: [30],
    };
    const before = { 9: { table: 5, seat: 9, from_table: null, from_seat: null } };
    const moves = tablet.recordMoves(before, update, 5);
    assert.deepEqual(moves, {
      9: { table: 5, seat: 9, from_table: null, from_seat: null },
      21: { table: 5, seat: 4, from_table: 2, from_seat: 7 },
      22: { table: 3, seat: 1, from_table: 5, from_seat: 6 },
    });
    assert.equal(Object.keys(before).length, 1, "the old map is not changed");
    assert.deepEqual(tablet.recordMoves({}, null, 5), {});
  },

  "changes since the page was opened: in, out, seat changes, by seat"() {
    const dora = { seat: 4, entry: 21, number: 9, name: "Dora" };
    const moves = {
      21: { table: 5, seat: 4, from_table: 2, from_seat: 7 },
      12: { table: 3, seat: 1, from_table: 5, from_seat: 2 },
    };
    const changes = tablet.seatChanges(
      [ANNA, BEN, CARL],
      [Object.assign({}, ANNA, { seat: 6 }), CARL, dora],
      moves,
      5
    );
    assert.deepEqual(
      changes.map((c) => [c.kind, c.seat]),
      [
        ["left", 2],
        ["came", 4],
        ["shifted", 6],
      ]
    );
    assert.deepEqual(changes[0], {
      kind: "left",
      entry: 12,
      name: "Ben",
      number: 2,
      seat: 2,
      to_table: 3,
      to_seat: 1,
    });
    assert.deepEqual(
      [changes[1].from_table, changes[1].from_seat, changes[2].from_seat],
      [2, 7, 1]
    );
  },

  "a player out without a known move simply left; one seated without one came"() {
    const changes = tablet.seatChanges([ANNA, BEN], [BEN, CARL], {}, 5);
    assert.deepEqual(
      changes.map((c) => [c.kind, c.seat, c.to_table === undefined ? c.from_table : c.to_table]),
      [
        ["left", 1, null],
        ["came", 3, null],
      ]
    );
    assert.deepEqual(tablet.seatChanges([ANNA], [ANNA], {}, 5), []);
  },

  "a change line as text isolates the name: an override cannot turn the line (issue 15)"() {
    const line = tablet.changeText({ kind: "left", name: "\u202eBen", number: 2, seat: 2, to_table: null }, STRINGS);
    assert.equal(line, "\u2068\u202eBen\u2069 (#2) left seat 2.");
  },

  "change lines are the page's translated texts filled in"() {
    const line = (change) => tablet.changeText(change, STRINGS);
    assert.equal(
      line({ kind: "came", name: "Dora", number: 9, seat: 4, from_table: 2, from_seat: 7 }),
      "Dora (#9) sat down in seat 4, from table 2, seat 7."
    );
    assert.equal(
      line({ kind: "came", name: "Dora", number: 9, seat: 4, from_table: null }),
      "Dora (#9) sat down in seat 4."
    );
    assert.equal(
      line({ kind: "left", name: "Ben", number: 2, seat: 2, to_table: 3, to_seat: 1 }),
      "Ben (#2) left seat 2 for table 3, seat 1."
    );
    assert.equal(
      line({ kind: "left", name: "Ben", number: 2, seat: 2, to_table: null }),
      "Ben (#2) left seat 2."
    );
    assert.equal(
      line({ kind: "shifted", name: "Anna", number: 1, seat: 6, from_seat: 1 }),
      "Anna (#1) moved from seat 1 to seat 6."
    );
  },

  "arrivals are the entries seated now that were not before"() {
    assert.deepEqual(tablet.arrivals([ANNA, BEN], [ANNA, BEN, CARL]), [CARL]);
    assert.deepEqual(tablet.arrivals([ANNA, BEN], [ANNA]), []);
    assert.deepEqual(tablet.arrivals([ANNA], [Object.assign({}, ANNA, { seat: 5 })]), []);
    assert.deepEqual(tablet.arrivals([], null), []);
  },

  "deal now alerts once per round"() {
    assert.equal(tablet.dealAlert("wait", "deal", 3, 4), true);
    assert.equal(tablet.dealAlert("hold", "deal", 3, 3), true);
    assert.equal(tablet.dealAlert(null, "deal", null, 1), true);
    assert.equal(tablet.dealAlert("deal", "deal", 4, 4), false, "the same round again");
    assert.equal(tablet.dealAlert("deal", "deal", 4, 5), true, "a round missed meanwhile");
    assert.equal(tablet.dealAlert("deal", "hold", 4, 4), false);
    assert.equal(tablet.dealAlert("hold", "wait", 4, 4), false);
    assert.equal(tablet.dealAlert("deal", null, 4, null), false);
  },

  "the player clock counts down its last seconds and then expires (TDA 29)"() {
    const ends = T0 + 30000;
    assert.deepEqual(tablet.playerClockView(ends, 5, T0), {
      left: 30000,
      text: "00:30",
      countingDown: false,
      expired: false,
    });
    const late = tablet.playerClockView(ends, 5, T0 + 25500);
    assert.equal(late.text, "00:05");
    assert.equal(late.countingDown, true);
    const over = tablet.playerClockView(ends, 5, T0 + 31000);
    assert.deepEqual([over.left, over.text, over.countingDown, over.expired], [0, "00:00", false, true]);
  },

  "the controls are swapped only when their key changes"() {
    const names = ["head", "alerts", "seats", "controls", "busts"];
    assert.deepEqual(tablet.regionsToSwap(names, "k1", "k1"), ["head", "alerts", "seats", "busts"]);
    assert.deepEqual(tablet.regionsToSwap(names, "k1", "k2"), names);
  },

  "fetches after an event are spread between 0.1 and 0.8 s"() {
    assert.equal(tablet.refreshDelay(() => 0), 100);
    assert.equal(tablet.refreshDelay(() => 1), 800);
  },
};

// --- A fake browser for the screen (harness.js) ----------------------------------------

function fakeDocument(config) {
  const doc = harness.fakeDocument({
    title: "Table 5 · Main Event",
    clocks: [],
    getElementById: harness.jsonScripts({ "tablet-config": config }),
    querySelector(selector) {
      return this.nodes[selector.replace(/"/g, "")] || null;
    },
    querySelectorAll(selector) {
      return selector === "[data-player-clock]" ? this.clocks : [];
    },
  });
  ["head", "alerts", "seats", "busts"].forEach((name) => {
    doc.nodes[`[data-region=${name}]`] = new Element(doc, "DIV");
  });
  doc.nodes["[data-region=controls]"] = new Element(doc, "DIV", { "data-key": "k1" });
  ["changes", "change_list", "sound_hint", "offline"].forEach((name) => {
    doc.nodes[`[data-tablet=${name}]`] = new Element(doc, "SECTION");
  });
  doc.nodes["[data-tablet=changes]"].hidden = true;
  doc.nodes["[data-h4h]"] = new Element(doc, "DIV");
  return doc;
}

const CONFIG = {
  tournament: 7,
  table: 5,
  urls: { socket: "/ws/tournaments/7/", state: "/tournaments/7/tables/5/tablet/state/" },
  server_time: new Date(T0).toISOString(),
  seats: [ANNA, BEN],
  h4h: "hold",
  h4h_round: 3,
  controls_key: "k1",
  strings: STRINGS,
};

function state(extra) {
  return Object.assign(
    {
      table: 5,
      server_time: new Date(now()).toISOString(),
      hand: { number: 8, status: "playing" },
      h4h: "hold",
      h4h_round: 3,
      seats: [ANNA, BEN],
      controls_key: "k1",
      regions: {
        head: "<h1>Table 5</h1>",
        alerts: "",
        seats: "<ol>2 seats</ol>",
        controls: "<form>hand 8</form>",
        busts: "",
      },
    },
    extra || {}
  );
}

function tap(doc) {
  doc.fire("pointerdown");
  doc.fire("click", { target: { closest: () => null } });
}

function boot() {
  sockets.length = 0;
  fetches.length = 0;
  beeps.length = 0;
  vibrations.length = 0;
  harness.clearTimers();
  global.htmx.processed = [];
  const doc = fakeDocument(CONFIG);
  tablet.boot(doc);
  tap(doc); // sound allowed
  sockets[0].open(); // → a resync fetch
  return doc;
}

const screenTests = {
  async "the sound hint stays until the tap is over, so the page does not move under it"() {
    sockets.length = 0;
    beeps.length = 0;
    const doc = fakeDocument(CONFIG);
    tablet.boot(doc);
    const hint = doc.nodes["[data-tablet=sound_hint]"];
    assert.equal(hint.hidden, false);

    doc.fire("pointerdown");
    assert.equal(hint.hidden, false, "still there while the finger is down");
    doc.fire("click", { target: { closest: () => null } });

    assert.equal(hint.hidden, true);
    assert.equal(beeps.length, 1, "the tap's test beep");
  },

  async "the state fetched on connecting fills the regions but leaves the controls"() {
    const doc = boot();
    assert.equal(sockets[0].url, "wss://floor.example/ws/tournaments/7/");
    assert.equal(fetches.length, 1);
    assert.equal(fetches[0].url, CONFIG.urls.state);
    const controls = doc.nodes["[data-region=controls]"];
    controls.innerHTML = "<form>typed in</form>";

    await answer(0, state());

    assert.equal(doc.nodes["[data-region=head]"].innerHTML, "<h1>Table 5</h1>");
    assert.equal(doc.nodes["[data-region=seats]"].innerHTML, "<ol>2 seats</ol>");
    assert.equal(controls.innerHTML, "<form>typed in</form>", "same key: kept");
    assert.equal(beeps.length, 1, "only the tap's test beep");
  },

  async "new controls come in with their key and are handed to htmx"() {
    const doc = boot();
    await answer(0, state({ controls_key: "k2", hand: null }));
    const controls = doc.nodes["[data-region=controls]"];
    assert.equal(controls.innerHTML, "<form>hand 8</form>");
    assert.equal(controls.getAttribute("data-key"), "k2");
    assert.ok(global.htmx.processed.includes(controls));
  },

  async "events for other tables are ignored; a burst of ours makes one fetch"() {
    boot();
    await answer(0, state());
    sockets[0].message({ type: "table.updated", tournament: 7, data: { table: 6 } });
    advance(1000);
    assert.equal(fetches.length, 1);
    sockets[0].message({ type: "table.updated", tournament: 7, data: { table: 5 } });
    sockets[0].message({ type: "clock.updated", tournament: 7, data: {} });
    sockets[0].message({ type: "hand_for_hand.updated", tournament: 7, data: {} });
    advance(1000);
    assert.equal(fetches.length, 2);
  },

  async "deal now in hand-for-hand beeps and vibrates once (RP-8)"() {
    const doc = boot();
    await answer(0, state());
    const before = beeps.length;
    sockets[0].message({ type: "hand_for_hand.updated", tournament: 7, data: { round: 4 } });
    advance(1000);
    await answer(1, state({ h4h: "deal", h4h_round: 4, hand: null, controls_key: "k3" }));
    assert.equal(beeps.length - before, 3);
    assert.equal(vibrations.length, 1);
    assert.match(doc.title, /^Deal now · /);
    assert.ok(doc.nodes["[data-h4h]"].classList.contains("flash"));

    sockets[0].message({ type: "clock.updated", tournament: 7, data: {} });
    advance(1000);
    await answer(2, state({ h4h: "deal", h4h_round: 4, hand: null, controls_key: "k3" }));
    assert.equal(beeps.length - before, 3, "the same round does not ring twice");
  },

  async "a player moved in is listed with where from, and alerts"() {
    const doc = boot();
    await answer(0, state());
    sockets[0].message({
      type: "seating.updated",
      tournament: 7,
      data: { seats: [{ entry: 13, number: 3, name: "Carl", table: 5, seat: 3, from_table: 2, from_seat: 8 }], freed: [] },
    });
    advance(1000);
    await answer(1, state({ seats: [ANNA, BEN, CARL] }));

    const list = doc.nodes["[data-tablet=change_list]"];
    assert.equal(doc.nodes["[data-tablet=changes]"].hidden, false);
    const text = (li) => li.children.map((part) => part.textContent).join("");
    assert.deepEqual(
      list.children.map((li) => [li.className, text(li)]),
      [["came", "Carl (#3) sat down in seat 3, from table 2, seat 8."]]
    );
    // The name in an element of its own that isolates it (issue 15).
    assert.deepEqual(list.children[0].children[0].tagName, "BDI");
    assert.equal(list.children[0].children[0].textContent, "Carl");
    assert.equal(vibrations.length, 1);
    assert.match(doc.title, /^Player in: seat 3 · /);
  },

  async "seen clears the list of players in and out"() {
    const doc = boot();
    await answer(0, state({ seats: [ANNA] }));
    assert.equal(doc.nodes["[data-tablet=changes]"].hidden, false, "Ben left");
    const seen = { closest: (selector) => (selector === "[data-tablet=changes_seen]" ? {} : null) };
    doc.fire("click", { target: seen });
    assert.equal(doc.nodes["[data-tablet=changes]"].hidden, true);
    assert.equal(doc.nodes["[data-tablet=change_list]"].children.length, 0);
  },

  async "the player clock counts down against the server's clock"() {
    const doc = boot();
    const item = new Element(doc, "div", {
      "data-ends-at": new Date(now() + 30000).toISOString(),
      "data-countdown-from": "5",
    });
    item.parts["[data-countdown]"] = new Element(doc, "span");
    item.parts["[data-expired]"] = new Element(doc, "span");
    item.parts["[data-expired]"].hidden = true;
    doc.clocks.push(item);
    await answer(0, state());
    advance(26000);
    assert.equal(item.parts["[data-countdown]"].textContent, "00:04");
    assert.ok(item.classList.contains("counting-down"));
    advance(5000);
    assert.equal(item.parts["[data-countdown]"].textContent, "00:00");
    assert.equal(item.parts["[data-expired]"].hidden, false);
  },

  async "offline shows while the socket reconnects"() {
    const doc = boot();
    await answer(0, state());
    sockets[0].drop();
    assert.equal(doc.nodes["[data-tablet=offline]"].hidden, false);
    advance(2000);
    sockets[1].open();
    assert.equal(doc.nodes["[data-tablet=offline]"].hidden, true);
    assert.equal(fetches.length, 2, "a reconnection fetches the state again");
  },

  async "htmx swaps a refused form in: it carries the message"() {
    const doc = boot();
    const detail = { xhr: { status: 409 }, shouldSwap: false, isError: true };
    doc.fire("htmx:beforeSwap", { detail: detail });
    assert.deepEqual([detail.shouldSwap, detail.isError], [true, false]);
    const server = { xhr: { status: 500 }, shouldSwap: false, isError: true };
    doc.fire("htmx:beforeSwap", { detail: server });
    assert.equal(server.shouldSwap, false);
  },
};

harness.run(Object.assign({}, pureTests, screenTests));
