// The pure functions of static/js/seats.js: sorting, live deltas, paging, seat changes.
// Run: node seating/tests/js/seating_test.js (seating/tests/test_public.py does).
"use strict";
const assert = require("assert/strict");
const harness = require("../../../floorman/tests/js/harness.js");
const seating = harness.script("seats.js");

function row(entry, name, table, seat) {
  return { entry: entry, number: entry, name: name, table: table, seat: seat };
}
const names = (rows) => rows.map((r) => r.name);

const BOARD = seating.sortRows([
  row(1, "Zoe", 1, 1),
  row(2, "Anna", 1, 2),
  row(3, "Müller", 2, 1),
  row(4, "Ben", 2, 2),
  row(5, "Émile", 3, 1),
]);

const tests = [
  ["sortKey: case, accents and ß aside, as the server's sort_key", () => {
    assert.equal(seating.sortKey("Müller"), "muller");
    assert.equal(seating.sortKey("ÉMILE  Zola"), "emile zola");
    assert.equal(seating.sortKey("Groß"), "gross");
    assert.equal(seating.sortKey("Ångström"), "angstrom");
    assert.equal(seating.sortKey(null), "");
  }],
  ["isolated: names that could turn the text around them go between FSI and PDI", () => {
    // The cases of floorman/tests/test_names.py (floorman.names.name_isolated).
    assert.equal(seating.isolated("Anna Berger"), "Anna Berger");
    assert.equal(seating.isolated("Zoë Müller"), "Zoë Müller");
    assert.equal(seating.isolated("\u202eAnna"), "\u2068\u202eAnna\u2069");
    assert.equal(seating.isolated("Anna\u200f"), "\u2068Anna\u200f\u2069");
    assert.equal(seating.isolated("דוד"), "\u2068דוד\u2069");
    assert.equal(seating.isolated("محمد"), "\u2068محمد\u2069");
    assert.equal(seating.isolated("\u{10900}x"), "\u2068\u{10900}x\u2069");
    assert.equal(seating.isolated("\u2067Anna"), "\u2068\u2067Anna\u2069\u2069");
    assert.equal(seating.isolated("\u2066\u2068A"), "\u2068\u2066\u2068A\u2069\u2069\u2069");
    assert.equal(seating.isolated("A\u2069\u202eB"), "\u2068A\u202eB\u2069");
    assert.equal(seating.isolated("\u2066A\u2069B\u2069"), "\u2068\u2066A\u2069B\u2069");
    assert.equal(seating.isolated(null), "");
  }],
  ["usedColumns: a field that fills one column gets the panel's width (issue 16)", () => {
    assert.equal(seating.usedColumns(9, 16, 2), 1);
    assert.equal(seating.usedColumns(16, 16, 2), 1);
    assert.equal(seating.usedColumns(17, 16, 2), 2);
    assert.equal(seating.usedColumns(500, 16, 3), 3);
    assert.equal(seating.usedColumns(0, 16, 2), 1);
  }],
  ["sortRows: alphabetical, then by entry number; only public fields kept", () => {
    assert.deepEqual(names(BOARD), ["Anna", "Ben", "Émile", "Müller", "Zoe"]);
    const twins = seating.sortRows([row(9, "muller", 1, 1), row(3, "Müller", 1, 2)]);
    assert.deepEqual(twins.map((r) => r.entry), [3, 9]);
    const extra = seating.sortRows([Object.assign(row(1, "A", 1, 1), { email: "x@y" })]);
    assert.equal("email" in extra[0], false);
  }],
  ["applyUpdate: a move replaces the row, keeping the alphabet", () => {
    const after = seating.applyUpdate(BOARD, {
      seats: [{ entry: 3, number: 3, name: "Müller", table: 7, seat: 4, from_table: 2, from_seat: 1 }],
      freed: [],
    });
    assert.deepEqual(names(after), ["Anna", "Ben", "Émile", "Müller", "Zoe"]);
    assert.deepEqual([after[3].table, after[3].seat], [7, 4]);
    assert.deepEqual([BOARD[3].table, BOARD[3].seat], [2, 1]); // the old list is untouched
  }],
  ["applyUpdate: new players come in at their letter; freed ones leave", () => {
    const after = seating.applyUpdate(BOARD, {
      seats: [
        { entry: 6, number: 6, name: "Carla", table: 1, seat: 3, from_table: null, from_seat: null },
        { entry: 7, number: 7, name: "aaron", table: 1, seat: 4, from_table: null, from_seat: null },
      ],
      freed: [1, 4, 999],
    });
    assert.deepEqual(names(after), ["aaron", "Anna", "Carla", "Émile", "Müller"]);
  }],
  ["applyUpdate: applying a delta twice changes nothing (resync overlap)", () => {
    const delta = {
      seats: [{ entry: 2, number: 2, name: "Anna", table: 5, seat: 5 }],
      freed: [4],
    };
    const once = seating.applyUpdate(BOARD, delta);
    const twice = seating.applyUpdate(once, delta);
    assert.deepEqual(twice, once);
  }],
  ["applyUpdate: an empty delta (a table added) keeps the same list", () => {
    assert.equal(seating.applyUpdate(BOARD, { seats: [], freed: [] }), BOARD);
    assert.equal(seating.applyUpdate(BOARD, {}), BOARD);
  }],
  ["applyUpdate: one entry twice in a delta: the later seat holds", () => {
    const after = seating.applyUpdate(BOARD, {
      seats: [
        { entry: 2, number: 2, name: "Anna", table: 5, seat: 5 },
        { entry: 2, number: 2, name: "Anna", table: 6, seat: 6 },
      ],
    });
    assert.equal(after.filter((r) => r.entry === 2).length, 1);
    assert.equal(after[0].table, 6);
  }],
  ["applyUpdate: a large board stays sorted", () => {
    let rows = [];
    for (let i = 0; i < 3000; i++) rows.push(row(i, "P" + String((i * 7919) % 3000).padStart(4, "0"), 1, 1));
    rows = seating.sortRows(rows);
    const after = seating.applyUpdate(rows, {
      seats: [{ entry: 5000, number: 5000, name: "P1500x", table: 9, seat: 9 }],
      freed: [0, 1, 2],
    });
    assert.equal(after.length, 2998);
    for (let i = 1; i < after.length; i++) assert.ok(seating.compareRows(after[i - 1], after[i]) < 0);
  }],
  ["pageCount and nextPage: at least one page, and round again", () => {
    assert.equal(seating.pageCount(0, 45), 1);
    assert.equal(seating.pageCount(45, 45), 1);
    assert.equal(seating.pageCount(46, 45), 2);
    assert.equal(seating.pageCount(1800, 45), 40);
    assert.equal(seating.nextPage(1, 40), 2);
    assert.equal(seating.nextPage(40, 40), 1);
    assert.equal(seating.nextPage(3, 1), 1);
  }],
  ["pageColumns: a page cut into columns, top to bottom then left to right", () => {
    const columns = seating.pageColumns(BOARD, 1, 2, 2);
    assert.deepEqual(columns.map(names), [["Anna", "Ben"], ["Émile", "Müller"]]);
    assert.deepEqual(seating.pageColumns(BOARD, 2, 2, 2).map(names), [["Zoe"]]);
    assert.deepEqual(seating.pageColumns([], 1, 2, 2), []);
  }],
  ["seatChange: moved from the seat shown, with the new seat", () => {
    const change = seating.seatChange({ table: 2, seat: 1 }, {
      seats: [{ entry: 3, table: 7, seat: 4, from_table: 2, from_seat: 1 }],
      freed: [],
    }, 3);
    assert.deepEqual(change, { kind: "moved", table: 7, seat: 4, from_table: 2, from_seat: 1 });
  }],
  ["seatChange: a first seat, the same seat, another player's move, freed", () => {
    const first = seating.seatChange({ table: null, seat: null }, {
      seats: [{ entry: 3, table: 7, seat: 4, from_table: null, from_seat: null }],
    }, 3);
    assert.equal(first.kind, "seated");
    assert.equal(first.table, 7);
    const same = seating.seatChange({ table: 7, seat: 4 }, { seats: [{ entry: 3, table: 7, seat: 4 }] }, 3);
    assert.equal(same.kind, null);
    const other = seating.seatChange({ table: 7, seat: 4 }, { seats: [{ entry: 8, table: 1, seat: 1 }], freed: [9] }, 3);
    assert.equal(other.kind, null);
    assert.equal(seating.seatChange({ table: 7, seat: 4 }, { seats: [], freed: [3] }, 3).kind, "freed");
  }],
];

harness.run(tests);
