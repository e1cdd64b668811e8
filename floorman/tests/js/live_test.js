// static/js/live.js, shared by the live screens: reconnect delays, templates, times,
// fetching, the socket, the beeps and alerts, against a fake browser (harness.js: fetch,
// socket, timers, audio, vibration, page visibility).
// Run: node floorman/tests/js/live_test.js (floorman/tests/test_live_js.py does).
"use strict";
const assert = require("assert/strict");

// --- A fake browser (harness.js) --------------------------------------------------------

const harness = require("./harness.js");
const { fakeDocument, lastSocket, oscillators, ramps, sockets, vibrations } = harness;
const tick = harness.advance; // the fake clock moves on
const round = (seconds) => Math.round(seconds * 1000) / 1000;

harness.installBrowser({ audio: false }); // "no audio in the browser" first
// fetch answers at once: 404 for /missing/, else {id: 7}.
const fetches = [];
global.fetch = (url, options) => {
  fetches.push({ url, options });
  const [status, body] = url === "/missing/" ? [404, {}] : [200, { id: 7 }];
  return Promise.resolve({ ok: status < 300, status, json: () => Promise.resolve(body) });
};

const live = harness.script("live.js");

// A Live whose handlers write down what they are told.
function recorded(doc) {
  const calls = [];
  const socket = new live.Live(doc || fakeDocument(), "/ws/tournaments/7/", {
    opened: () => calls.push("opened"),
    online: (online) => calls.push(online ? "online" : "offline"),
    message: (message) => calls.push(message),
  });
  return { socket, calls };
}

// --- The tests ---------------------------------------------------------------------------

const tests = [
  ["backoffMs: doubling up to 30 s, within the upper half", () => {
    assert.equal(live.backoffMs(0, () => 0), 500);
    assert.equal(live.backoffMs(0, () => 1), 1000);
    assert.equal(live.backoffMs(3, () => 0.5), 6000);
    assert.equal(live.backoffMs(20, () => 1), 30000);
    assert.equal(live.backoffMs(50, () => 1), 30000);
    assert.equal(live.backoffMs(50, () => 0), 15000);
    const delay = live.backoffMs(2); // Math.random by default
    assert.ok(delay >= 2000 && delay <= 4000);
  }],
  ["interpolate: fills named placeholders, leaves unknown ones", () => {
    assert.equal(live.interpolate("Level %(number)s", { number: 3 }), "Level 3");
    assert.equal(live.interpolate("Page %(page)s of %(pages)s", { page: 3, pages: 40 }), "Page 3 of 40");
    assert.equal(live.interpolate("%(a)s %(b)s", { a: "x" }), "x %(b)s");
    assert.equal(live.interpolate("%(x)s", {}), "%(x)s");
    assert.equal(live.interpolate("%(toString)s", {}), "%(toString)s"); // own names only
  }],
  ["isolated: a name set into text goes between FSI and PDI when it could turn it", () => {
    // The cases of floorman/tests/test_names.py (floorman.names.name_isolated).
    assert.equal(live.isolated("Anna Berger"), "Anna Berger");
    assert.equal(live.isolated("\u202eAnna"), "\u2068\u202eAnna\u2069");
    assert.equal(live.isolated("\u2067Anna"), "\u2068\u2067Anna\u2069\u2069");
    assert.equal(live.isolated("A\u2069\u202eB"), "\u2068A\u202eB\u2069");
    assert.equal(live.isolated(undefined), "");
  }],
  ["fill: the text with names each in a <bdi>, everything else plain text", () => {
    const doc = fakeDocument();
    const item = doc.createElement("li");
    item.appendChild(doc.createTextNode("old"));
    live.fill(item, "%(name)s (#%(number)s) sat down, %(x)s", { name: "\u202eAnna <b>", number: 9 }, ["name"]);
    const parts = item.children.map((c) => [c.tagName || c.nodeName, c.textContent]);
    assert.deepEqual(parts, [["BDI", "\u202eAnna <b>"], ["#text", " (#9) sat down, %(x)s"]]);
    live.fill(item, "Seat %(seat)s: %(name)s.", { seat: 2, name: "Ben" }, ["name"]);
    assert.deepEqual(
      item.children.map((c) => c.textContent),
      ["Seat 2: ", "Ben", "."]
    );
  }],
  ["parseTime: Python's isoformat, with microseconds and an offset, to ms", () => {
    const t0 = Date.UTC(2026, 2, 1, 20, 0, 0);
    assert.equal(live.parseTime("2026-03-01T20:00:00.123456+00:00"), t0 + 123);
    assert.equal(live.parseTime("2026-03-01T21:00:00+01:00"), t0);
    assert.equal(live.parseTime("2026-03-01T20:00:00Z"), t0);
    assert.equal(live.parseTime(null), null);
    assert.equal(live.parseTime("soon"), null);
  }],
  ["timeSample: the midpoint of a probe's round trip", () => {
    assert.deepEqual(live.timeSample(1000, 5050, 1100), { offset: 4000, rtt: 100 });
    assert.deepEqual(live.timeSample(2000, 1500, 2000), { offset: -500, rtt: 0 });
  }],
  ["formatDuration: whole seconds rounded up, hours only when there are some", () => {
    assert.equal(live.formatDuration(20 * 60000), "20:00");
    assert.equal(live.formatDuration(599001), "10:00");
    assert.equal(live.formatDuration(4001), "00:05");
    assert.equal(live.formatDuration(65 * 60000), "1:05:00");
    assert.equal(live.formatDuration(-5), "00:00");
  }],
  ["whenReady: at once on a parsed page, else on DOMContentLoaded", () => {
    const calls = [];
    live.whenReady(fakeDocument(), () => calls.push("parsed"));
    assert.deepEqual(calls, ["parsed"]);
    const loading = fakeDocument({ readyState: "loading" });
    live.whenReady(loading, () => calls.push("loaded"));
    assert.deepEqual(calls, ["parsed"]);
    loading.fire("DOMContentLoaded");
    assert.deepEqual(calls, ["parsed", "loaded"]);
  }],
  ["fetchJson: a JSON GET with the session cookie; an error status rejects", async () => {
    assert.deepEqual(await live.fetchJson("/lobby/7/data/"), { id: 7 });
    assert.deepEqual(fetches[0], {
      url: "/lobby/7/data/",
      options: { credentials: "same-origin", headers: { Accept: "application/json" } },
    });
    await assert.rejects(live.fetchJson("/missing/"), /HTTP 404/);
  }],
  ["Live: connects over wss from an https page; online, then opened", () => {
    const { socket, calls } = recorded();
    socket.connect();
    assert.equal(lastSocket().url, "wss://floor.example/ws/tournaments/7/");
    lastSocket().open();
    assert.deepEqual(calls, ["online", "opened"]);
  }],
  ["Live: over ws from a plain http page", () => {
    global.location = { protocol: "http:", host: "127.0.0.1:8000" };
    try {
      new live.Live(fakeDocument(), "/ws/tournaments/8/", {}).connect();
    } finally {
      global.location = { protocol: "https:", host: "floor.example" };
    }
    assert.equal(lastSocket().url, "ws://127.0.0.1:8000/ws/tournaments/8/");
  }],
  ["Live: messages arrive parsed; garbage and non-objects are dropped", () => {
    const { socket, calls } = recorded();
    socket.connect();
    lastSocket().open();
    lastSocket().raw('{"type": "clock.updated", "tournament": 7, "data": {"version": 2}}');
    lastSocket().raw("not json");
    lastSocket().raw("null");
    lastSocket().raw("42");
    assert.deepEqual(calls.slice(2), [
      { type: "clock.updated", tournament: 7, data: { version: 2 } },
    ]);
  }],
  ["Live: a dropped socket goes offline and reconnects after a growing delay", () => {
    const { socket, calls } = recorded();
    socket.connect();
    lastSocket().open();
    const first = lastSocket();
    first.drop();
    assert.equal(calls[calls.length - 1], "offline");
    tick(1000); // the first retry: within a second
    const second = lastSocket();
    assert.notEqual(second, first);
    second.drop(); // failed before it opened: the next delay is longer
    tick(999);
    assert.equal(lastSocket(), second);
    tick(1001); // within two seconds
    assert.notEqual(lastSocket(), second);
    lastSocket().open(); // back: the delays start over
    assert.equal(socket.attempt, 0);
    assert.deepEqual(calls.slice(-2), ["online", "opened"]);
  }],
  ["Live: a late close of a replaced socket changes nothing", () => {
    const { socket, calls } = recorded();
    socket.connect();
    const old = lastSocket();
    old.drop();
    tick(1000);
    const current = lastSocket();
    current.open();
    const count = sockets.length;
    old.onclose();
    tick(60000);
    assert.equal(sockets.length, count);
    assert.equal(calls[calls.length - 1], "opened");
    assert.equal(socket.socket, current);
  }],
  ["Live: send writes JSON while open and says false otherwise", () => {
    const { socket } = recorded();
    assert.equal(socket.send({ type: "time.ping", client: 1 }), false); // never connected
    socket.connect();
    assert.equal(socket.send({ type: "time.ping", client: 2 }), false); // still connecting
    lastSocket().open();
    assert.equal(socket.send({ type: "time.ping", client: 3 }), true);
    assert.deepEqual(lastSocket().sent, [{ type: "time.ping", client: 3 }]);
    lastSocket().drop();
    assert.equal(socket.send({ type: "time.ping", client: 4 }), false);
  }],
  ["Live: every handler is optional", () => {
    const socket = new live.Live(fakeDocument(), "/ws/tournaments/7/");
    socket.connect();
    lastSocket().open();
    lastSocket().raw('{"type": "hello", "tournament": 7}');
    lastSocket().drop();
    tick(1000);
    assert.equal(lastSocket().url, "wss://floor.example/ws/tournaments/7/");
  }],
  ["Live: a page that becomes visible reconnects at once, not after the backoff", () => {
    const doc = fakeDocument();
    const { socket } = recorded(doc);
    socket.connect();
    socket.wakeOnVisible();
    lastSocket().open();
    doc.fire("visibilitychange"); // connected: nothing to do
    const count = sockets.length;
    lastSocket().drop();
    doc.hidden = true;
    doc.fire("visibilitychange"); // hidden: the backoff runs on
    assert.equal(sockets.length, count);
    doc.hidden = false;
    doc.fire("visibilitychange");
    assert.equal(sockets.length, count + 1);
    tick(60000); // the pending retry was called off
    assert.equal(sockets.length, count + 1);
    doc.fire("visibilitychange"); // connecting already
    assert.equal(sockets.length, count + 1);
  }],
  ["Sound: silent until enabled; no audio in the browser, no sound", () => {
    const sound = new live.Sound();
    assert.equal(sound.beeps(1, 660, 0.1), false);
    assert.equal(sound.enable(), false);
    assert.equal(oscillators.length, 0);
  }],
  ["Sound: enabled by a gesture, it beeps: spaced, at the volume asked", () => {
    global.AudioContext = harness.FakeAudioContext;
    try {
      const sound = new live.Sound();
      assert.equal(sound.enable(), true);
      assert.equal(sound.context.state, "running");
      assert.equal(sound.beeps(3, 880, 0.18), true);
      assert.deepEqual(oscillators.map((osc) => [round(osc.at), osc.frequency.value]), [
        [10, 880], [10.28, 880], [10.56, 880],
      ]);
      assert.equal(ramps[0], 0.6);
      const lobby = new live.Sound({ volume: 0.5, gap: 0.12 });
      lobby.enable();
      oscillators.length = 0;
      ramps.length = 0;
      assert.equal(lobby.beeps(2, 660, 0.2), true);
      assert.deepEqual(oscillators.map((osc) => round(osc.at)), [10, 10.32]);
      assert.equal(ramps[0], 0.5);
    } finally {
      delete global.AudioContext;
    }
  }],
  ["attention: three beeps, a vibration and the node's flash from the start", () => {
    global.AudioContext = harness.FakeAudioContext;
    try {
      const vibrate = navigator.vibrate;
      const sound = new live.Sound();
      sound.enable();
      oscillators.length = 0;
      const node = new harness.Element(fakeDocument(), "DIV");
      node.className = "seat-box flash"; // still flashing from the last time
      const reflows = []; // the classes when the page is laid out again: the flash is off
      Object.defineProperty(node, "offsetWidth", { get: () => (reflows.push(node.className), 0) });
      live.attention(sound, node);
      assert.deepEqual(oscillators.map((osc) => osc.frequency.value), [880, 880, 880]);
      assert.deepEqual(vibrations, [[200, 100, 200]]);
      assert.deepEqual(reflows, ["seat-box"]);
      assert.equal(node.className, "seat-box flash");
      live.attention(sound, null); // no node: sound and vibration only
      assert.equal(vibrations.length, 2);
      navigator.vibrate = () => {
        throw new Error("not without a tap");
      };
      live.attention(sound, node); // refused: the rest still happens
      assert.equal(oscillators.length, 9);
      navigator.vibrate = vibrate;
    } finally {
      delete global.AudioContext;
    }
  }],
];

harness.run(tests);
