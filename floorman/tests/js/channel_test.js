// static/js/live.js's one websocket client: FloormanLive.listen, the page's one socket
// per tournament that every screen registers with (its refresh, its events by kind), and
// swapPart, the server-rendered screens' refresh, against a fake browser (harness.js).
// Run: node floorman/tests/js/channel_test.js (floorman/tests/test_live_js.py does).
"use strict";
const assert = require("assert/strict");

const harness = require("./harness.js");
const { Element, answerPage, fakeDocument, fetches, sockets } = harness;
const tick = harness.advance; // the fake clock moves on

harness.installBrowser();
const live = harness.script("live.js");

// A screen that writes down what live.js asks of it, in `calls`.
function screen(calls, name, kinds) {
  const events = {};
  (kinds || []).forEach((kind) => {
    events[kind] = (message) => calls.push(name + " " + message.type);
  });
  return {
    refresh: () => calls.push(name + " refresh"),
    online: (online) => calls.push(name + (online ? " online" : " offline")),
    events: events,
  };
}

const message = (type, data) => ({ type: type, tournament: 7, data: data || {} });

const tests = [
  ["one socket per tournament and page, however many screens listen", () => {
    const doc = fakeDocument();
    const before = sockets.length;
    const clock = live.listen(doc, "/ws/tournaments/7/", screen([], "clock"));
    const board = live.listen(doc, "/ws/tournaments/7/", screen([], "board"));
    assert.equal(clock, board);
    assert.deepEqual(sockets.slice(before).map((s) => s.url), [
      "wss://floor.example/ws/tournaments/7/",
    ]);
    live.listen(doc, "/ws/tournaments/8/", screen([], "other")); // a rotating lobby
    live.listen(fakeDocument(), "/ws/tournaments/7/", screen([], "phone")); // another page
    assert.deepEqual(sockets.slice(before).map((s) => s.url), [
      "wss://floor.example/ws/tournaments/7/",
      "wss://floor.example/ws/tournaments/8/",
      "wss://floor.example/ws/tournaments/7/",
    ]);
  }],
  ["each screen refreshes once when the socket opens", () => {
    const calls = [];
    const doc = fakeDocument();
    live.listen(doc, "/ws/tournaments/7/", screen(calls, "clock"));
    live.listen(doc, "/ws/tournaments/7/", screen(calls, "board"));
    harness.lastSocket().open();
    assert.deepEqual(calls, ["clock online", "board online", "clock refresh", "board refresh"]);
  }],
  ["after a close it reconnects with backoff, then each screen refreshes once", () => {
    const calls = [];
    const doc = fakeDocument();
    const channel = live.listen(doc, "/ws/tournaments/7/", screen(calls, "clock"));
    live.listen(doc, "/ws/tournaments/7/", screen(calls, "board"));
    const first = harness.lastSocket();
    first.open();
    calls.length = 0;
    first.drop();
    assert.deepEqual(calls, ["clock offline", "board offline"]);
    assert.equal(channel.reconnecting(), true);
    assert.equal(harness.lastSocket(), first, "not at once: after the backoff");
    tick(1000);
    const second = harness.lastSocket();
    assert.notEqual(second, first);
    assert.equal(channel.reconnecting(), false);
    second.drop(); // failed before it opened: no refresh, a longer wait
    tick(2000);
    const third = harness.lastSocket();
    assert.notEqual(third, second);
    third.open();
    assert.deepEqual(calls.slice(-4), [
      "clock online", "board online", "clock refresh", "board refresh",
    ]);
    assert.equal(calls.filter((c) => c === "clock refresh").length, 1);
    tick(60000); // nothing more: no polling
    assert.equal(harness.lastSocket(), third);
    assert.equal(calls.filter((c) => c === "clock refresh").length, 1);
  }],
  ["events go to the screens that registered their kind", () => {
    const calls = [];
    const doc = fakeDocument();
    live.listen(doc, "/ws/tournaments/7/", screen(calls, "clock", ["clock.updated", "time.pong"]));
    live.listen(doc, "/ws/tournaments/7/", screen(calls, "board", ["seating.updated"]));
    const socket = harness.lastSocket();
    socket.open();
    calls.length = 0;
    socket.message(message("seating.updated"));
    socket.message(message("clock.updated"));
    socket.message({ type: "time.pong", client: 1, server: 2 });
    assert.deepEqual(calls, ["board seating.updated", "clock clock.updated", "clock time.pong"]);
  }],
  ["the whole message reaches the handler", () => {
    const got = [];
    const doc = fakeDocument();
    live.listen(doc, "/ws/tournaments/7/", {
      events: { "clock.level": (m) => got.push(m) },
    });
    harness.lastSocket().open();
    harness.lastSocket().message(message("clock.level", { ended: 3 }));
    assert.deepEqual(got, [{ type: "clock.level", tournament: 7, data: { ended: 3 } }]);
  }],
  ["unknown kinds, hello, kinds no screen registered and garbage are ignored", () => {
    const calls = [];
    const doc = fakeDocument();
    live.listen(doc, "/ws/tournaments/7/", screen(calls, "clock", ["clock.updated"]));
    const socket = harness.lastSocket();
    socket.open();
    calls.length = 0;
    socket.message({ type: "hello", tournament: 7 });
    socket.message(message("no.such.kind"));
    socket.message(message("seating.updated")); // a kind, but not this screen's
    socket.message(message("toString")); // not an own key of the events
    socket.message({ type: 42 });
    socket.message({ data: {} });
    socket.raw("not json");
    socket.raw("null");
    assert.deepEqual(calls, []);
  }],
  ["a screen that comes to an open socket fetches its state at once", () => {
    const calls = [];
    const doc = fakeDocument();
    live.listen(doc, "/ws/tournaments/7/", screen(calls, "clock"));
    harness.lastSocket().open();
    const count = sockets.length;
    calls.length = 0;
    live.listen(doc, "/ws/tournaments/7/", screen(calls, "board"));
    assert.deepEqual(calls, ["board online", "board refresh"]);
    assert.equal(sockets.length, count);
  }],
  ["a screen that comes while the socket waits to reconnect waits with it", () => {
    const calls = [];
    const doc = fakeDocument();
    live.listen(doc, "/ws/tournaments/7/", screen(calls, "clock"));
    harness.lastSocket().drop();
    const count = sockets.length;
    live.listen(doc, "/ws/tournaments/7/", screen(calls, "board"));
    assert.equal(sockets.length, count, "no second socket");
    tick(1000);
    harness.lastSocket().open();
    assert.deepEqual(calls.slice(-2), ["clock refresh", "board refresh"]);
  }],
  ["every part of a screen is optional", () => {
    const doc = fakeDocument();
    const channel = live.listen(doc, "/ws/tournaments/7/");
    live.listen(doc, "/ws/tournaments/7/", {});
    harness.lastSocket().open();
    harness.lastSocket().message(message("clock.updated"));
    harness.lastSocket().drop();
    assert.equal(channel.reconnecting(), true);
  }],
  ["send goes over the shared socket while it is open", () => {
    const doc = fakeDocument();
    const channel = live.listen(doc, "/ws/tournaments/7/", {});
    assert.equal(channel.send({ type: "time.ping", client: 1 }), false); // connecting
    harness.lastSocket().open();
    assert.equal(channel.send({ type: "time.ping", client: 2 }), true);
    assert.deepEqual(harness.lastSocket().sent, [{ type: "time.ping", client: 2 }]);
  }],
  ["wakeOnVisible: asked by two screens, one reconnection", () => {
    const doc = fakeDocument();
    live.listen(doc, "/ws/tournaments/7/", {}).wakeOnVisible();
    live.listen(doc, "/ws/tournaments/7/", {}).wakeOnVisible();
    assert.equal(doc.listeners.visibilitychange.length, 1);
    harness.lastSocket().open();
    harness.lastSocket().drop();
    const count = sockets.length;
    doc.fire("visibilitychange");
    assert.equal(sockets.length, count + 1);
  }],
  ["on: one handler for several kinds", () => {
    const handler = () => {};
    assert.deepEqual(live.on(["clock.updated", "clock.level"], handler), {
      "clock.updated": handler,
      "clock.level": handler,
    });
  }],
  ["swapPart: the part as the server renders it now", async () => {
    const shown = new Element(fakeDocument(), "DIV");
    shown.innerHTML = "<p>old</p>";
    const doc = fakeDocument({ querySelector: (s) => (s === "#console" ? shown : null) });
    const done = live.swapPart(doc, "/clock/7/", "#console");
    assert.equal(fetches[fetches.length - 1].url, "/clock/7/");
    assert.deepEqual(fetches[fetches.length - 1].options, { credentials: "same-origin" });
    await answerPage(fetches.length - 1, { "#console": "<p>new</p>" });
    await done;
    assert.equal(shown.innerHTML, "<p>new</p>");
  }],
  ["swapPart: kept while busy, and on an error or a page without the part", async () => {
    const shown = new Element(fakeDocument(), "DIV");
    shown.innerHTML = "<p>old</p>";
    const doc = fakeDocument({ querySelector: (s) => (s === "#map" ? shown : null) });
    const busy = [];
    live.swapPart(doc, "/map/", "#map", (node) => (busy.push(node), true));
    await answerPage(fetches.length - 1, { "#map": "<p>new</p>" });
    assert.deepEqual(busy, [shown]);
    live.swapPart(doc, "/map/", "#map");
    await answerPage(fetches.length - 1, { "#map": "<p>error</p>" }, 500);
    live.swapPart(doc, "/map/", "#map");
    await answerPage(fetches.length - 1, { "#other": "<p>new</p>" });
    live.swapPart(doc, "/map/", "#map");
    fetches[fetches.length - 1].reject(new Error("offline")); // no unhandled rejection
    await harness.flush();
    assert.equal(shown.innerHTML, "<p>old</p>");
  }],
];

// Each test from a quiet clock: no retry left over from the one before.
harness.run(tests.map(([name, test]) => [name, () => (harness.clearTimers(), test())]));
