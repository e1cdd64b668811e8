// The seating board and the player's live seat of static/js/seats.js against a fake
// browser (harness.js): a fake DOM, socket, fetch, timers, audio and vibration.
// Run: node seating/tests/js/screens_test.js (seating/tests/test_public.py does).
"use strict";
const assert = require("assert/strict");

const harness = require("../../../floorman/tests/js/harness.js");
const { Element, answer, fetches, sockets, vibrations } = harness;
const beeps = harness.oscillators; // one per beep
const tick = harness.advance; // the fake clock moves on

// --- A fake browser (harness.js) --------------------------------------------------------

function fakeDocument(configs, fields) {
  const doc = harness.fakeDocument({
    title: "Entry #3 · Main Event",
    getElementById: harness.jsonScripts(configs),
    querySelector(selector) {
      const match = /^\[data-(?:seating|live)=(\w+)\]$/.exec(selector);
      return match ? this.nodes[match[1]] || null : null;
    },
  });
  fields.forEach((name) => (doc.nodes[name] = new Element(doc, "P")));
  return doc;
}

harness.installBrowser({ now: Date.UTC(2026, 2, 1, 20, 0, 0) });
const seats = harness.script("seats.js");

// --- The board -----------------------------------------------------------------------------

function row(entry, name, table, seat) {
  return { entry, number: entry, name, table, seat };
}
const STRINGS = {
  page: "Page %(page)s of %(pages)s",
  range: "%(first)s – %(last)s",
  empty: "NO SEATS YET",
  count_one: "%(count)s player seated",
  count_other: "%(count)s players seated",
  name: "Name",
  table: "Table",
  seat: "Seat",
};
// The first page of five seated players (Anna, Ben, Cleo, Dora, Zoe), two a page: the
// server sends one page at a time (issue 20).
const BOARD = {
  id: 7,
  seats: [row(3, "Ben", 2, 1), row(2, "Anna", 1, 2)],
  count: 5,
  columns: 2,
  rows: 1,
  every: 12,
  page: 1,
  strings: STRINGS,
  urls: { data: "/lobby/7/seating/data/", socket: "/ws/tournaments/7/" },
};
const boardDoc = fakeDocument(
  { "seating-config": BOARD },
  ["board", "offline", "page", "range", "empty", "count", "columns"]
);
boardDoc.nodes.offline.hidden = true;
boardDoc.nodes.offline.textContent = "Reconnecting…";
seats.boot(boardDoc);
const b = (name) => boardDoc.nodes[name];
// The names shown, column by column.
const shown = () =>
  b("columns").children.map((table) =>
    table.children[1].children.map((tr) => tr.children.map((td) => td.textContent).join(" "))
  );

// --- The player's page ---------------------------------------------------------------------

const ENTRY = {
  entry: 3,
  number: 3,
  state: { status: "active", table: 2, seat: 1, wait_for_button: false },
  urls: { data: "/seat/7/entry/3/", socket: "/ws/tournaments/7/" },
  strings: {
    not_seated: "not seated yet",
    moved: "MOVED from %(from_table)s-%(from_seat)s",
    seated: "SEATED at %(table)s-%(seat)s",
    freed: "SEAT FREED",
    sound_on: "SOUND ON",
    title_moved: "Moved: %(table)s-%(seat)s",
    statuses: { active: "Active", busted: "Busted" },
  },
};
let entryDoc = null;
const e = (name) => entryDoc.nodes[name];

const tests = [
  ["board: the first page from the embedded state, before any message", async () => {
    assert.deepEqual(shown(), [["Anna 1 2"], ["Ben 2 1"]]);
    assert.equal(b("page").textContent, "Page 1 of 3");
    assert.equal(b("range").textContent, "Anna – Ben");
    assert.equal(b("count").textContent, "5 players seated");
    assert.equal(b("empty").hidden, true);
    assert.equal(b("columns").children[0].children[0].children[0].children[0].textContent, "Name");
  }],
  ["board: connects to the tournament's socket and asks for its page on open", async () => {
    assert.equal(sockets[0].url, "wss://floor.example/ws/tournaments/7/");
    sockets[0].open();
    assert.deepEqual(fetches.map((f) => f.url), ["/lobby/7/seating/data/?page=1&per=2"]);
    await answer(0, { id: 7, page: 1, pages: 4, count: 7, seats: [row(6, "Aaron", 4, 4), row(2, "Anna", 1, 2)] });
    assert.deepEqual(shown(), [["Aaron 4 4"], ["Anna 1 2"]]);
    assert.equal(b("page").textContent, "Page 1 of 4");
    assert.equal(b("count").textContent, "7 players seated");
  }],
  ["board: turns a page every 12 seconds, asking the server for each", async () => {
    tick(12000);
    assert.equal(fetches[fetches.length - 1].url, "/lobby/7/seating/data/?page=2&per=2");
    await answer(fetches.length - 1, { page: 2, count: 7, seats: [row(3, "Ben", 2, 1), row(4, "Cleo", 2, 2)] });
    assert.deepEqual(shown(), [["Ben 2 1"], ["Cleo 2 2"]]);
    assert.equal(b("page").textContent, "Page 2 of 4");
    assert.equal(b("range").textContent, "Ben – Cleo");
    boardDoc.fire("keydown", { key: "ArrowLeft" });
    assert.equal(fetches[fetches.length - 1].url, "/lobby/7/seating/data/?page=1&per=2");
    boardDoc.fire("keydown", { key: "ArrowLeft" });
    assert.equal(fetches[fetches.length - 1].url, "/lobby/7/seating/data/?page=4&per=2");
    await answer(fetches.length - 1, { page: 4, count: 7, seats: [row(1, "Zoe", 1, 1)] });
    assert.deepEqual(shown(), [["Zoe 1 1"]]);
    assert.equal(b("page").textContent, "Page 4 of 4");
    tick(12000);
    assert.equal(fetches[fetches.length - 1].url, "/lobby/7/seating/data/?page=1&per=2");
  }],
  ["board: a change asks for the page shown again; only the latest answer counts", async () => {
    const asked = fetches.length;
    sockets[0].message({
      type: "seating.updated",
      tournament: 7,
      data: { seats: [{ entry: 2, number: 2, name: "Anna", table: 9, seat: 5 }], freed: [6] },
    });
    assert.equal(fetches.length, asked + 1);
    await answer(asked, { page: 1, count: 6, seats: [row(2, "Anna", 9, 5), row(3, "Ben", 2, 1)] });
    await answer(asked - 1, { page: 1, count: 7, seats: [row(2, "Old", 1, 1)] }); // too late
    assert.deepEqual(shown(), [["Anna 9 5"], ["Ben 2 1"]]);
    assert.equal(b("count").textContent, "6 players seated");
  }],
  ["board: the page stays in range when players bust", async () => {
    tick(12000 * 2); // page 3
    sockets[0].message({ type: "seating.updated", tournament: 7, data: { seats: [], freed: [8, 1, 4] } });
    // The server answers its last page for one past it.
    await answer(fetches.length - 1, { page: 2, count: 3, seats: [row(5, "Dora", 3, 1)] });
    assert.equal(b("page").textContent, "Page 2 of 2");
    assert.deepEqual(shown(), [["Dora 3 1"]]);
  }],
  ["board: other events are left to the clock; garbage is ignored", async () => {
    const before = JSON.stringify(shown());
    const asked = fetches.length;
    sockets[0].message({ type: "clock.updated", tournament: 7, data: {} });
    sockets[0].raw("not json");
    assert.equal(JSON.stringify(shown()), before);
    assert.equal(fetches.length, asked);
  }],
  ["board: a whole draw says resync: the board fetches its page", async () => {
    const asked = fetches.length;
    sockets[0].message({ type: "seating.updated", tournament: 7, data: { resync: true, seats: [], freed: [] } });
    assert.equal(fetches.length, asked + 1);
    assert.equal(fetches[asked].url, "/lobby/7/seating/data/?page=2&per=2");
    await answer(asked, { page: 1, count: 1, seats: [{ entry: 1, number: 1, name: "Zoe", table: 1, seat: 1 }] });
    assert.deepEqual(shown(), [["Zoe 1 1"]]);
    assert.equal(b("page").hidden, true);
  }],
  ["board: a dropped socket shows reconnecting, retries and resyncs again", async () => {
    sockets[0].drop();
    assert.equal(b("offline").hidden, false);
    assert.equal(b("offline").textContent, "Reconnecting…");
    tick(1000);
    assert.equal(sockets.length, 2);
    sockets[1].open();
    assert.equal(b("offline").hidden, true);
    assert.equal(fetches[fetches.length - 1].url, "/lobby/7/seating/data/?page=1&per=2");
    await answer(fetches.length - 1, { id: 7, page: 1, count: 0, seats: [] });
    assert.equal(b("empty").hidden, false);
    assert.equal(b("empty").textContent, "NO SEATS YET");
    assert.equal(b("page").hidden, true);
    assert.equal(b("count").hidden, true);
    assert.deepEqual(shown(), []);
  }],
  ["board: the range line isolates names that could turn it around", async () => {
    const config = Object.assign({}, BOARD, {
      id: 9,
      // By their sort keys: Bob, the Hebrew name, then the name behind the override.
      seats: [row(22, "Bob", 1, 2), row(23, "\u05d3\u05d5\u05d3", 1, 3)],
      count: 3,
      urls: { data: "/lobby/9/seating/data/", socket: "/ws/tournaments/9/" },
    });
    const doc = fakeDocument({ "seating-config": config }, ["board", "page", "range", "count", "columns"]);
    seats.boot(doc);
    assert.equal(doc.nodes.range.textContent, "Bob – \u2068\u05d3\u05d5\u05d3\u2069");
    doc.fire("keydown", { key: "ArrowRight" });
    await answer(fetches.length - 1, { page: 2, count: 3, seats: [row(21, "\u202eAnna", 1, 1)] });
    assert.equal(doc.nodes.range.textContent, "\u2068\u202eAnna\u2069 – \u2068\u202eAnna\u2069");
  }],
  ["board: a rotating lobby screen keeps one board per tournament", async () => {
    const second = Object.assign({}, BOARD, {
      id: 8,
      seats: [row(11, "Xaver", 9, 4)],
      urls: { data: "/lobby/8/seating/data/", socket: "/ws/tournaments/8/" },
    });
    const parts = ["offline", "page", "range", "empty", "count", "columns"];
    const roots = { 7: fakeDocument({}, parts), 8: fakeDocument({}, parts) };
    const doc = fakeDocument({ "seating-config": BOARD, "seating-config-1": second }, []);
    doc.querySelector = (selector) => roots[/data-board="(\d+)"/.exec(selector)[1]];
    const opened = sockets.length;
    seats.boot(doc);
    const names = (root) =>
      root.nodes.columns.children.map((table) => table.children[1].children[0].children[0].textContent);
    assert.deepEqual(names(roots[7]), ["Anna", "Ben"]);
    assert.deepEqual(names(roots[8]), ["Xaver"]);
    assert.deepEqual(sockets.slice(opened).map((s) => s.url), [
      "wss://floor.example/ws/tournaments/7/",
      "wss://floor.example/ws/tournaments/8/",
    ]);
  }],
  ["entry: shows the seat; a tap turns on the sound", async () => {
    entryDoc = fakeDocument({ "entry-seat-config": ENTRY }, [
      "box", "offline", "where", "table", "seat", "none", "note", "wait", "status", "sound_hint",
      "sound_on",
    ]);
    e("sound_hint").hidden = true;
    e("sound_on").hidden = true;
    e("offline").hidden = true;
    e("box").className = "seat-box";
    seats.boot(entryDoc);
    assert.equal(e("table").textContent, "2");
    assert.equal(e("seat").textContent, "1");
    assert.equal(e("where").hidden, false);
    assert.equal(e("none").hidden, true);
    assert.equal(e("sound_hint").hidden, false); // offered once the script runs
    entryDoc.fire("pointerdown");
    assert.equal(e("sound_hint").hidden, true);
    assert.equal(e("sound_on").textContent, "SOUND ON");
    assert.equal(beeps.length, 1); // the tap confirms with one beep
    const socket = sockets[sockets.length - 1];
    assert.equal(socket.url, "wss://floor.example/ws/tournaments/7/");
    socket.open();
    assert.equal(fetches[fetches.length - 1].url, "/seat/7/entry/3/");
    await answer(fetches.length - 1, { entry: 3, status: "active", table: 2, seat: 1 });
    assert.equal(e("note").hidden, true); // the same seat: no alert
    assert.equal(vibrations.length, 0);
  }],
  ["entry: another player's move changes nothing", async () => {
    sockets[sockets.length - 1].message({
      type: "seating.updated",
      tournament: 7,
      data: { seats: [{ entry: 4, number: 4, name: "X", table: 2, seat: 2 }], freed: [9] },
    });
    assert.equal(e("table").textContent, "2");
    assert.equal(vibrations.length, 0);
  }],
  ["entry: moved: new table and seat, a sound, a vibration, a note", async () => {
    const before = beeps.length;
    sockets[sockets.length - 1].message({
      type: "seating.updated",
      tournament: 7,
      data: {
        seats: [{ entry: 3, number: 3, name: "Me", table: 5, seat: 7, from_table: 2, from_seat: 1 }],
        freed: [],
      },
    });
    assert.equal(e("table").textContent, "5");
    assert.equal(e("seat").textContent, "7");
    assert.equal(e("note").textContent, "MOVED from 2-1");
    assert.equal(e("note").hidden, false);
    assert.deepEqual(vibrations, [[200, 100, 200]]);
    assert.equal(beeps.length - before, 3);
    assert.match(e("box").className, /\bflash\b/);
    assert.equal(entryDoc.title, "Moved: 5-7 · Entry #3 · Main Event");
  }],
  ["entry: a whole draw says resync: the page asks and alerts on a new seat", async () => {
    const socket = sockets[sockets.length - 1];
    const asked = fetches.length;
    socket.message({ type: "seating.updated", tournament: 7, data: { resync: true, seats: [], freed: [] } });
    assert.equal(fetches.length, asked + 1);
    assert.equal(fetches[asked].url, "/seat/7/entry/3/");
    await answer(asked, { entry: 3, status: "active", table: 6, seat: 2 });
    assert.equal(e("table").textContent, "6");
    assert.equal(e("seat").textContent, "2");
    assert.equal(vibrations.length, 2);
  }],
  ["entry: freed: the seat is no longer held; the resync learns the bust", async () => {
    const socket = sockets[sockets.length - 1];
    socket.message({ type: "seating.updated", tournament: 7, data: { seats: [], freed: [3] } });
    assert.equal(e("where").hidden, true);
    assert.equal(e("note").textContent, "SEAT FREED");
    assert.equal(e("none").textContent, "not seated yet");
    await answer(fetches.length - 1, { entry: 3, status: "busted", table: null, seat: null });
    assert.equal(e("none").textContent, "Busted");
    assert.equal(e("status").textContent, "Busted");
    assert.equal(e("status").className, "badge status-busted");
    socket.message({ type: "entry.updated", tournament: 7, data: { id: 3, status: "active" } });
    assert.equal(e("status").textContent, "Active");
  }],
  ["entry: a move missed while offline alerts after the reconnect", async () => {
    const socket = sockets[sockets.length - 1];
    socket.drop();
    assert.equal(e("offline").hidden, false);
    tick(1000);
    sockets[sockets.length - 1].open();
    await answer(fetches.length - 1, {
      entry: 3, status: "active", table: 8, seat: 2, wait_for_button: true,
    });
    assert.equal(e("table").textContent, "8");
    assert.equal(e("note").textContent, "SEATED at 8-2");
    assert.equal(e("wait").hidden, false); // TDA 8-A
    assert.equal(vibrations.length, 3);
  }],
  ["entry: a resync answer older than an event is ignored", async () => {
    const socket = sockets[sockets.length - 1];
    socket.drop();
    tick(1000);
    sockets[sockets.length - 1].open();
    const pending = fetches.length - 1;
    sockets[sockets.length - 1].message({
      type: "seating.updated",
      tournament: 7,
      data: { seats: [{ entry: 3, number: 3, name: "Me", table: 6, seat: 6, from_table: 8, from_seat: 2 }] },
    });
    await answer(pending, { entry: 3, status: "active", table: 8, seat: 2 });
    assert.equal(e("table").textContent, "6");
    assert.equal(vibrations.length, 4);
  }],
  ["entry: a phone that wakes up reconnects at once", async () => {
    const count = sockets.length;
    sockets[count - 1].drop();
    entryDoc.fire("visibilitychange");
    assert.equal(sockets.length, count + 1);
  }],
];

harness.run(tests);
