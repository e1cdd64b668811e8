// The lobby screen of static/js/clock.js against a fake browser (harness.js): a fake DOM,
// socket, fetch and timers, so the DOM half runs without a browser. Numbers, not pixels.
// Run: node clock/tests/js/screen_test.js (clock/tests/test_clock_js.py does).
"use strict";
const assert = require("assert/strict");

const harness = require("../../../floorman/tests/js/harness.js");
const { Element, runTimers, sockets } = harness;

const MIN = 60000;
const T0 = Date.UTC(2026, 2, 1, 20, 0, 0);

// --- A fake browser (harness.js) --------------------------------------------------------

const FIELDS = [
  "offline", "name", "rotation", "status", "level_title", "clock", "blinds", "ante",
  "notices", "next", "to_break", "players", "average", "prize_pool", "announcements",
  "sound_hint", "places_paid_fact", "places_paid", "payouts_places", "payouts_lines",
  "payouts_more", "payouts_provisional", "payouts_none",
  "bounty_fact_box", "bounty_label", "bounty_fact", "bounties_lines", "bounties_note",
  "bounties_none",
];

function fakeDocument(config) {
  const doc = harness.fakeDocument({
    getElementById: harness.jsonScripts({ "lobby-config": config }),
    parts: [], // [data-rotation-of] nodes: a rotating screen's seating boards
    querySelectorAll(selector) {
      if (selector === "[data-rotation-of]") return this.parts;
      const name = /^\[data-field=(\w+)\]$/.exec(selector)[1];
      return this.nodes[name] ? [this.nodes[name]] : [];
    },
    querySelector(selector) {
      return this.querySelectorAll(selector)[0] || null;
    },
  });
  FIELDS.forEach((name) => (doc.nodes[name] = new Element(doc, "P")));
  doc.nodes.offline.hidden = true;
  return doc;
}

harness.installBrowser({ now: T0 });
const now = () => Date.now(); // the fake clock
let frame = null;
global.requestAnimationFrame = (fn) => (frame = fn);
const fetched = [];
const answers = {}; // url → the body its next fetch answers with
global.fetch = (url) => {
  fetched.push(url);
  if (!(url in answers)) return new Promise(() => {}); // unanswered: state comes by messages
  const body = answers[url];
  delete answers[url];
  return Promise.resolve({ ok: true, status: 200, json: () => Promise.resolve(body) });
};
const settle = harness.flush; // answered fetches reach the screen

// --- The state the page embeds -----------------------------------------------------------

function step(position, minutes, extra) {
  return Object.assign(
    {
      position, minutes, number: null, is_break: false, small_blind: 0, big_blind: 0,
      ante: 0, big_blind_ante: 0, ante_type: "none", small_bet: 0, big_bet: 0, game: "",
      label: "", color_up: [], addon: false,
    },
    extra
  );
}
const STEPS = [
  step(1, 20, { number: 1, small_blind: 100, big_blind: 200 }),
  step(2, 20, { number: 2, small_blind: 200, big_blind: 400 }),
  step(3, 10, { is_break: true, label: "", color_up: [25], addon: true }),
  step(4, 20, { number: 3, small_blind: 300, big_blind: 600, big_blind_ante: 600 }),
  step(5, 20, { number: 4, small_blind: 400, big_blind: 800, big_blind_ante: 800 }),
];
function clockState(position, leftMs, extra) {
  return Object.assign(
    {
      status: "running",
      level: STEPS[position - 1],
      ms_left: leftMs,
      ends_at: new Date(now() + leftMs).toISOString(),
      next_level: STEPS[position] || null,
      last_level: position === STEPS.length,
      server_time: new Date(now()).toISOString(),
      version: 3,
      steps: STEPS,
      halved_from: null,
      warning_seconds: 90,
      day_end_hands: null,
    },
    extra
  );
}
const STRINGS = {
  level: "Level %(number)s", break: "Break", bets: "Bets %(small)s / %(big)s",
  ante: "Ante %(ante)s", big_blind_ante: "Big blind ante %(ante)s", minutes: "%(minutes)s min",
  no_structure: "No blind structure yet", status_not_started: "Starts soon",
  status_paused: "Clock paused", status_finished: "Tournament finished",
  players: "%(active)s left of %(entries)s", average: "%(chips)s · %(big_blinds)s BB",
  rotation: "%(index)s of %(count)s", new_level: "NEW LEVEL (TDA 23)",
  hold_push: "HOLD THE PUSH (RP-7)", hold_push_break: "HOLD THE PUSH, BREAK (RP-7)",
  break_ending: "PLAY RESUMES", chip_race: "CHIP RACE %(chips)s (TDA 24)", addon: "ADD-ON",
  day_end_one: "%(hands)s HAND LEFT (§28)", day_end_other: "%(hands)s HANDS LEFT (§28)",
  last_level: "LAST LEVEL", places_paid: "Places paid: %(count)s",
};
const LOBBY = {
  id: 7, name: "Sunday Main Event", entries: 3, active: 2,
  prize_pool: { text: "€300.00" },
  average_stack: { chips: 30000 },
  payouts: null, // as lobby data from before the payouts: the screen must cope
  announcements: [],
};
// Twelve places, the last three paying the same; locked by the director.
const PAYOUTS = {
  places_paid: 12,
  locked: true,
  more: false,
  lines: [
    [1, 1, 61000, "€610.00"], [2, 2, 35000, "€350.00"], [3, 3, 25000, "€250.00"],
    [4, 4, 18000, "€180.00"], [5, 5, 14000, "€140.00"], [6, 6, 11000, "€110.00"],
    [7, 7, 9000, "€90.00"], [8, 8, 8000, "€80.00"], [9, 9, 7000, "€70.00"],
    [10, 12, 4000, "€40.00"],
  ].map(([first, last, amount, text]) => ({ first, last, amount, text })),
};
const config = {
  boards: [
    {
      id: 7,
      clock: clockState(2, 100 * 1000), // level 2, 1:40 left
      lobby: LOBBY,
      urls: { clock: "/api/v1/tournaments/7/clock/", data: "/lobby/7/data/", socket: "/ws/tournaments/7/" },
    },
  ],
  every: null,
  layout: "clock",
  notice_seconds: 60,
  strings: STRINGS,
};

const doc = fakeDocument(config);
const clock = harness.script("clock.js");
clock.boot(doc);
const field = (name) => doc.nodes[name];
const notices = () => field("notices").children.map((li) => li.textContent);
const payoutRows = () =>
  field("payouts_lines").children.map((li) => li.children.map((span) => span.textContent));
const tick = (ms) => {
  harness.advance(ms);
  frame();
};

// --- The screen, step by step ------------------------------------------------------------

const tests = [
  ["renders from the embedded state before any socket message", () => {
    frame();
    assert.equal(field("name").textContent, "Sunday Main Event");
    assert.equal(field("level_title").textContent, "Level 2");
    assert.equal(field("clock").textContent, "01:40");
    assert.equal(field("blinds").textContent, "200 / 400");
    assert.equal(field("next").textContent, "Break · 10 min");
    assert.equal(field("to_break").textContent, "01:40");
    assert.equal(field("players").textContent, "2 left of 3");
    assert.equal(field("average").textContent, "30,000 · 75 BB");
    assert.equal(field("offline").hidden, true);
    assert.deepEqual(notices(), []);
  }],
  ["without payouts in the lobby data nothing is paid yet", () => {
    assert.equal(field("places_paid_fact").hidden, true);
    assert.equal(field("payouts_places").hidden, true);
    assert.equal(field("payouts_lines").hidden, true);
    assert.deepEqual(payoutRows(), []);
    assert.equal(field("payouts_none").hidden, false);
    assert.equal(field("payouts_more").hidden, true);
    assert.equal(field("payouts_provisional").hidden, true);
  }],
  ["an event without bounties shows none (issue 18)", () => {
    assert.equal(field("bounty_fact_box").hidden, true);
    assert.equal(field("bounties_lines").hidden, true);
    assert.equal(field("bounties_none").hidden, false);
  }],
  ["connects to the tournament's socket, probes the time and resyncs", () => {
    assert.equal(sockets.length, 1);
    assert.equal(sockets[0].url, "wss://floor.example/ws/tournaments/7/");
    sockets[0].open();
    runTimers(now() + 1500); // the five probes at connect
    assert.equal(sockets[0].sent.filter((m) => m.type === "time.ping").length, 5);
    assert.deepEqual(fetched, ["/api/v1/tournaments/7/clock/", "/lobby/7/data/"]);
  }],
  ["a pong sets the offset: this machine is 2 s ahead of the server", () => {
    sockets[0].message({ type: "time.pong", client: now() - 40, server: now() - 2000 - 20 });
    frame();
    assert.equal(field("clock").textContent, "01:42");
    sockets[0].message({ type: "time.pong", client: now() - 10, server: now() - 5 }); // better
    frame();
    assert.equal(field("clock").textContent, "01:40");
  }],
  ["RP-7: at the warning the screen says hold the push", () => {
    tick(11 * 1000); // 89 s left, the break is next
    assert.equal(field("clock").textContent, "01:29");
    assert.deepEqual(notices(), ["HOLD THE PUSH, BREAK (RP-7)"]);
  }],
  ["rolls over into the break by itself: TDA 24 chip race and add-on", () => {
    tick(90 * 1000);
    assert.equal(field("level_title").textContent, "Break");
    assert.equal(field("clock").textContent, "09:59");
    assert.equal(field("blinds").hidden, true);
    assert.deepEqual(notices(), ["CHIP RACE 25 (TDA 24)", "ADD-ON"]);
    assert.equal(field("average").textContent, "30,000 · 50 BB"); // of the next level
  }],
  ["TDA 23: a new level is announced from the next hand", () => {
    tick(10 * MIN);
    assert.equal(field("level_title").textContent, "Level 3");
    assert.equal(field("ante").textContent, "Big blind ante 600");
    assert.deepEqual(notices(), ["NEW LEVEL (TDA 23)"]);
    tick(61 * 1000);
    assert.deepEqual(notices(), []);
  }],
  ["a dropped socket shows reconnecting and comes back after a randomized delay", () => {
    sockets[0].drop();
    frame();
    assert.equal(field("offline").hidden, false);
    assert.equal(sockets.length, 1);
    runTimers(now() + 1000); // the first retry is due within a second
    assert.equal(sockets.length, 2);
    sockets[1].open();
    assert.equal(field("offline").hidden, true);
  }],
  ["clock.updated replaces the state: paused, day end, last level", () => {
    sockets[1].message({
      type: "clock.updated",
      tournament: 7,
      data: clockState(5, 75000, { status: "paused", ends_at: null, day_end_hands: 4, version: 4 }),
    });
    tick(5000); // a paused clock does not move
    assert.equal(field("status").textContent, "Clock paused");
    assert.equal(field("clock").textContent, "01:15");
    assert.equal(field("next").textContent, "LAST LEVEL");
    assert.equal(field("to_break").textContent, "—");
    assert.deepEqual(notices(), ["4 HANDS LEFT (§28)", "LAST LEVEL"]);
  }],
  ["an older state arriving late is ignored", () => {
    sockets[1].message({ type: "clock.updated", tournament: 7, data: clockState(1, 5000) });
    frame();
    assert.equal(field("status").textContent, "Clock paused");
  }],
  ["announcements are shown as text", () => {
    sockets[1].message({
      type: "announcements.updated",
      tournament: 7,
      data: { announcements: [{ id: 1, text: "<b>Dinner</b> at level 6", at: "" }] },
    });
    assert.deepEqual(field("announcements").children.map((li) => li.textContent), [
      "<b>Dinner</b> at level 6",
    ]);
    assert.equal(field("announcements").hidden, false);
  }],
  ["registrations refresh the lobby numbers once per burst", () => {
    const before = fetched.length;
    sockets[1].message({ type: "entry.registered", tournament: 7, data: {} });
    sockets[1].message({ type: "entry.updated", tournament: 7, data: {} });
    runTimers(now() + 3000);
    assert.deepEqual(fetched.slice(before), ["/lobby/7/data/"]);
  }],
  ["payouts and results events refresh the lobby once per burst, spread out", async () => {
    const before = fetched.length;
    answers["/lobby/7/data/"] = Object.assign({}, LOBBY, {
      entries: 20,
      prize_pool: { text: "€2,000.00" },
      payouts: PAYOUTS,
    });
    sockets[1].message({ type: "payouts.updated", tournament: 7, data: { places_paid: 12 } });
    sockets[1].message({ type: "results.updated", tournament: 7, data: {} });
    assert.deepEqual(fetched.slice(before), []); // not all screens at the same moment
    runTimers(now() + 3000);
    assert.deepEqual(fetched.slice(before), ["/lobby/7/data/"]);
    await settle();
    assert.equal(field("prize_pool").textContent, "€2,000.00");
  }],
  ["the payouts panel shows places paid and one line per group of places", () => {
    assert.equal(field("places_paid_fact").hidden, false);
    assert.equal(field("places_paid").textContent, "12");
    assert.equal(field("payouts_places").textContent, "Places paid: 12");
    assert.equal(field("payouts_lines").hidden, false);
    assert.deepEqual(field("payouts_lines").children.map((li) => li.tagName), Array(10).fill("LI"));
    const rows = payoutRows();
    assert.deepEqual(rows[0], ["1", "€610.00"]);
    assert.deepEqual(rows[8], ["9", "€70.00"]);
    assert.deepEqual(rows[9], ["10\u201312", "€40.00"]);
    assert.equal(rows.length, 10);
    assert.equal(field("payouts_none").hidden, true);
    assert.equal(field("payouts_provisional").hidden, true); // locked
    assert.equal(field("payouts_more").hidden, true);
  }],
  ["a bust refreshes a PKO's biggest bounties left (issue 18)", async () => {
    answers["/lobby/7/data/"] = Object.assign({}, LOBBY, {
      payouts: PAYOUTS,
      bounties: {
        format: "pko",
        label: "Biggest bounty",
        fact: "€100.00",
        title: "Biggest bounties left",
        lines: [["Anna", "€100.00"], ["Dora", "€75.00"]],
        note: "Progressive knockout",
      },
    });
    sockets[1].message({ type: "entry.updated", tournament: 7, data: {} }); // the bust
    runTimers(now() + 3000);
    await settle();
    assert.equal(field("bounty_fact_box").hidden, false);
    assert.equal(field("bounty_label").textContent, "Biggest bounty");
    assert.equal(field("bounty_fact").textContent, "€100.00");
    const rows = field("bounties_lines").children.map((li) =>
      li.children.map((span) => span.textContent)
    );
    assert.deepEqual(rows, [["Anna", "€100.00"], ["Dora", "€75.00"]]);
    assert.equal(field("bounties_note").textContent, "Progressive knockout");
    assert.equal(field("bounties_none").hidden, true);
  }],
  ["a table that follows the pool is provisional; a long one says there is more", async () => {
    answers["/lobby/7/data/"] = Object.assign({}, LOBBY, {
      payouts: Object.assign({}, PAYOUTS, {
        locked: false,
        more: true,
        lines: PAYOUTS.lines.slice(0, 2),
      }),
    });
    sockets[1].message({ type: "entry.registered", tournament: 7, data: {} });
    runTimers(now() + 3000);
    await settle();
    assert.deepEqual(payoutRows(), [["1", "€610.00"], ["2", "€350.00"]]);
    assert.equal(field("payouts_provisional").hidden, false);
    assert.equal(field("payouts_more").hidden, false);
  }],
  ["a rotating screen shows each tournament in turn", () => {
    const second = Object.assign({}, config.boards[0], {
      id: 8,
      clock: clockState(1, 5 * MIN),
      lobby: Object.assign({}, LOBBY, { id: 8, name: "Monday Turbo" }),
      urls: { clock: "/c/8/", data: "/d/8/", socket: "/ws/tournaments/8/" },
    });
    const rotating = fakeDocument(Object.assign({}, config, {
      boards: [Object.assign({}, config.boards[0], { clock: clockState(2, MIN) }), second],
      every: 20,
    }));
    const board = (id, hidden) => ({ hidden, getAttribute: () => String(id) });
    rotating.parts = [board(7, false), board(8, true)];
    clock.boot(rotating);
    frame();
    assert.equal(rotating.nodes.name.textContent, "Sunday Main Event");
    assert.equal(rotating.nodes.rotation.textContent, "1 of 2");
    assert.deepEqual(sockets.slice(-2).map((s) => s.url), [
      "wss://floor.example/ws/tournaments/7/",
      "wss://floor.example/ws/tournaments/8/",
    ]);
    tick(20 * 1000);
    assert.equal(rotating.nodes.name.textContent, "Monday Turbo");
    assert.equal(rotating.nodes.rotation.textContent, "2 of 2");
    assert.equal(rotating.nodes.clock.textContent, "04:40");
    assert.equal(rotating.nodes.blinds.textContent, "100 / 200");
    // The seating board beside the clock is the one of the tournament on screen.
    assert.deepEqual(rotating.parts.map((part) => part.hidden), [true, false]);
    tick(20 * 1000);
    assert.deepEqual(rotating.parts.map((part) => part.hidden), [false, true]);
  }],
];

harness.run(tests);
