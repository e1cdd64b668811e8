// The pure time functions of static/js/clock.js, with numbers.
// Run: node clock/tests/js/clock_test.js (clock/tests/test_clock_js.py does).
"use strict";
const assert = require("assert/strict");
const harness = require("../../../floorman/tests/js/harness.js");
const clock = harness.script("clock.js");

const MIN = 60000;
const T0 = Date.UTC(2026, 2, 1, 20, 0, 0); // 2026-03-01 20:00:00 UTC

function step(position, minutes, extra) {
  return Object.assign(
    { position: position, minutes: minutes, is_break: false, big_blind: 0, big_bet: 0 },
    extra || {}
  );
}

// 20-minute levels, a 10-minute break after level 2, as clock/tests/factories.py.
const STEPS = [
  step(1, 20, { number: 1, small_blind: 100, big_blind: 200 }),
  step(2, 20, { number: 2, small_blind: 200, big_blind: 400 }),
  step(3, 10, { is_break: true, color_up: [25] }),
  step(4, 20, { number: 3, small_blind: 300, big_blind: 600 }),
  step(5, 20, { number: 4, small_blind: 400, big_blind: 800 }),
];

function running(position, endsAt, extra) {
  return Object.assign(
    {
      status: "running",
      position: position,
      level: STEPS[position - 1],
      msLeft: endsAt - T0,
      endsAt: endsAt,
      steps: STEPS,
      halvedFrom: null,
      lastLevel: false,
      warningSeconds: 90,
      dayEndHands: null,
      version: 1,
    },
    extra || {}
  );
}

const tests = {
  "parseTime reads Python's isoformat with microseconds and an offset"() {
    assert.equal(clock.parseTime("2026-03-01T20:00:00.123456+00:00"), T0 + 123);
    assert.equal(clock.parseTime("2026-03-01T21:00:00+01:00"), T0);
    assert.equal(clock.parseTime("2026-03-01T20:00:00.5Z"), T0 + 500);
    assert.equal(clock.parseTime(null), null);
    assert.equal(clock.parseTime("yesterday"), null);
  },

  "a time sample takes the midpoint of the round trip"() {
    // Sent at 1000, answered at 1100: the server read 5050 around 1050 → offset 4000.
    assert.deepEqual(clock.timeSample(1000, 5050, 1100), { offset: 4000, rtt: 100 });
  },

  "the offset comes from the sample with the smallest round trip"() {
    const samples = [
      clock.timeSample(1000, 5300, 1400), // rtt 400, offset 4100
      clock.timeSample(2000, 6020, 2040), // rtt 40, offset 4000
      clock.timeSample(3000, 7150, 3200), // rtt 200, offset 4050
    ];
    assert.equal(clock.bestOffset(samples), 4000);
    assert.equal(clock.bestOffset([]), 0);
  },

  "TimeSync keeps the last ten samples only: clocks drift"() {
    const sync = new clock.TimeSync();
    sync.add({ offset: 999, rtt: 1 }); // very good, but old
    for (let i = 0; i < 10; i++) sync.add({ offset: 10 + i, rtt: 50 + i });
    assert.equal(sync.offset(), 10);
  },

  "remaining time is the end minus (now + offset), never below zero"() {
    // The level ends at server time T0 + 5 min; this machine is 2 s behind the server.
    const endsAt = T0 + 5 * MIN;
    assert.equal(clock.remainingMs(endsAt, 2000, T0 - 2000), 5 * MIN);
    assert.equal(clock.remainingMs(endsAt, 2000, T0 + 5 * MIN), 0);
    assert.equal(clock.remainingMs(endsAt, -500, T0 + 60000), 4 * MIN + 500);
  },

  "a running clock rolls over into the break and then the next level"() {
    const base = running(2, T0 + 1000); // level 2 ends one second from now
    let r = clock.clockReading(base, T0, 0);
    assert.equal(r.position, 2);
    assert.equal(r.msLeft, 1000);
    assert.equal(r.msToBreak, 1000);

    r = clock.clockReading(base, T0 + 1000, 0); // the break begins
    assert.equal(r.position, 3);
    assert.equal(r.level.is_break, true);
    assert.equal(r.msLeft, 10 * MIN);
    assert.equal(r.msToBreak, null);

    r = clock.clockReading(base, T0 + 1000 + 10 * MIN + 30000, 0); // 30 s into level 3
    assert.equal(r.position, 4);
    assert.equal(r.level.number, 3);
    assert.equal(r.msLeft, 20 * MIN - 30000);
    assert.equal(r.next.number, 4);
  },

  "roll-over across a break halves the steps from halved_from on (casino §31)"() {
    // Heads-up declared during level 2: from position 3 on, steps last half as long.
    const base = running(2, T0 + 1000, { halvedFrom: 3 });
    let r = clock.clockReading(base, T0 + 1000 + 4 * MIN, 0);
    assert.equal(r.position, 3); // the break lasts 5 minutes, not 10
    assert.equal(r.msLeft, MIN);
    r = clock.clockReading(base, T0 + 1000 + 5 * MIN, 0);
    assert.equal(r.position, 4);
    assert.equal(r.msLeft, 10 * MIN); // level 3 lasts 10 minutes, not 20
  },

  "the offset shifts what the screen shows, not the state"() {
    const base = running(1, T0 + 10 * MIN);
    // This machine's clock runs 3 s behind the server: add the offset.
    assert.equal(clock.clockReading(base, T0 - 3000, 3000).msLeft, 10 * MIN);
  },

  "the last level goes on at zero"() {
    const base = running(5, T0 + 1000);
    const r = clock.clockReading(base, T0 + 5 * MIN, 0);
    assert.equal(r.position, 5);
    assert.equal(r.msLeft, 0);
    assert.equal(r.last, true);
    assert.equal(r.next, null);
  },

  "a paused clock shows its frozen time whatever the hour"() {
    const base = running(2, null, { status: "paused", msLeft: 75000 });
    const r = clock.clockReading(base, T0 + 99 * MIN, 0);
    assert.equal(r.position, 2);
    assert.equal(r.msLeft, 75000);
    assert.equal(r.msToBreak, 75000);
  },

  "clockBase reads the public state"() {
    const base = clock.clockBase({
      status: "running",
      level: STEPS[1],
      ms_left: 60000,
      ends_at: "2026-03-01T20:01:00+00:00",
      steps: STEPS,
      halved_from: null,
      last_level: false,
      warning_seconds: 90,
      day_end_hands: 5,
      version: 7,
    });
    assert.equal(base.position, 2);
    assert.equal(base.endsAt, T0 + MIN);
    assert.equal(base.dayEndHands, 5);
    assert.equal(base.version, 7);
  },

  "durations round up to whole seconds"() {
    assert.equal(clock.formatDuration(20 * MIN), "20:00");
    assert.equal(clock.formatDuration(599001), "10:00");
    assert.equal(clock.formatDuration(599000), "09:59");
    assert.equal(clock.formatDuration(65 * MIN), "1:05:00");
    assert.equal(clock.formatDuration(-5), "00:00");
  },

  "average stack in big blinds: whole from 10 on, one decimal below, half up"() {
    assert.equal(clock.averageBigBlinds(30000, 200), 150);
    assert.equal(clock.averageBigBlinds(417800, 1000), 418); // not 417.8 (issue 16)
    assert.equal(clock.averageBigBlinds(12345, 1000), 12);
    assert.equal(clock.averageBigBlinds(12500, 1000), 13);
    assert.equal(clock.averageBigBlinds(9949, 1000), 9.9);
    assert.equal(clock.averageBigBlinds(9950, 1000), 10);
    assert.equal(clock.averageBigBlinds(4350, 1000), 4.4);
    assert.equal(clock.averageBigBlinds(null, 200), null);
    assert.equal(clock.averageBigBlinds(30000, 0), null);
  },

  "during a break the average is measured in the next level's big blind"() {
    const r = clock.clockReading(running(3, T0 + MIN), T0, 0);
    assert.equal(clock.bigBlindFor(r), 600);
  },

  "a payout line's places: one place, or the first and last of a group"() {
    const grouped = (n) => n.toLocaleString("en");
    assert.equal(clock.placesText({ first: 1, last: 1 }, grouped), "1");
    assert.equal(clock.placesText({ first: 10, last: 12 }, grouped), "10\u201312");
    assert.equal(clock.placesText({ first: 1001, last: 1200 }, grouped), "1,001\u20131,200");
  },

  // --- The stage of play and the end (issue 16) ---------------------------------------

  "hand-for-hand: the hand, the tables still playing it, the all-in tables, the bubble"() {
    const lobby = {
      status: "running",
      hand_for_hand: {
        active: true,
        round: 3,
        playing: [7, 12],
        held: [4],
        players_left: 52,
        places_paid: 50,
      },
      final_table: null,
      end: null,
    };
    const f = clock.stageFields(lobby, STRINGS, String);
    assert.equal(f.h4h, true);
    assert.equal(f.h4h_hand, "Hand-for-hand hand 3");
    assert.equal(f.h4h_playing, "Tables still playing the hand: 7, 12");
    assert.equal(f.h4h_held, "All-in, waiting to show down: 4 (RP-8 F)");
    assert.equal(f.h4h_bubble, "The bubble: 52 players left, 50 places paid");
    assert.equal(f.over, false);
  },

  "hand-for-hand round 0 is the hand each table was playing at the announcement"() {
    const lobby = {
      status: "running",
      hand_for_hand: {
        active: true,
        round: 0,
        playing: [],
        held: [],
        players_left: 51,
        places_paid: 50,
      },
    };
    const f = clock.stageFields(lobby, STRINGS, String);
    assert.equal(f.h4h_hand, "Finishing the hand in play (RP-8 A)");
    assert.equal(f.h4h_playing, "");
  },

  "the final table shows while play goes on, not once it is over"() {
    const playing = clock.stageFields({ status: "running", final_table: 3 }, STRINGS, String);
    const over = clock.stageFields({ status: "finished", final_table: 3 }, STRINGS, String);
    assert.equal(playing.stage, "Final table");
    assert.equal(over.stage, "");
  },

  "at the end: the winner, the deal and the results instead of the clock"() {
    const lobby = {
      status: "finished",
      hand_for_hand: { active: true, round: 9, playing: [1], held: [] },
      end: {
        winner: "Anna Berger",
        deal: 2,
        results: [
          { place: "1", name: "Anna Berger", prize: "€500.00" },
          { place: "2", name: "Jörg Müller", prize: "€300.00" },
        ],
      },
    };
    const f = clock.stageFields(lobby, STRINGS, String);
    assert.equal(f.over, true);
    assert.equal(f.end, true);
    assert.equal(f.h4h, false); // over: no stale hand-for-hand either
    assert.equal(f.winner, "Winner: Anna Berger");
    assert.equal(f.end_note, "The last 2 players made a deal (casino §6).");
    assert.deepEqual(f.results, [
      ["1", "Anna Berger", "€500.00"],
      ["2", "Jörg Müller", "€300.00"],
    ]);
  },
};

const STRINGS = {
  final_table: "Final table",
  h4h_round_zero: "Finishing the hand in play (RP-8 A)",
  h4h_hand: "Hand-for-hand hand %(number)s",
  h4h_playing: "Tables still playing the hand: %(tables)s",
  h4h_held: "All-in, waiting to show down: %(tables)s (RP-8 F)",
  h4h_bubble: "The bubble: %(left)s players left, %(paid)s places paid",
  winner: "Winner: %(name)s",
  deal_end: "The last %(count)s players made a deal (casino §6).",
};

harness.run(tests);
