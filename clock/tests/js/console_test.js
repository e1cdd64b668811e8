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

// The console page: #console with its tournament and the URL that renders it afresh;
// `elements`: more of the page by id (its buttons, the keys' help).
function openConsole(elements = {}) {
  const doc = harness.fakeDocument({ activeElement: null });
  const root = new Element(doc, "DIV", {
    "data-tournament": "7",
    "data-refresh-url": "/tournaments/7/clock/",
  });
  root.innerHTML = "<p>as loaded</p>";
  root.contains = (node) => node === root.field;
  root.field = new Element(doc, "INPUT");
  doc.getElementById = (id) => (id === "console" ? root : elements[id] || null);
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

// A button of the console that counts its presses.
function button(pressed, id) {
  return { tagName: "BUTTON", click: () => pressed.push(id) };
}

// A key as the browser hands it to the page's listener.
function key(doc, name, extra = {}) {
  const event = Object.assign({ key: name, prevented: false }, extra);
  event.preventDefault = () => { event.prevented = true; };
  doc.fire("keydown", event);
  return event;
}

// The keys' help: a <dialog> that remembers its listeners and closes as Escape does.
function fakeDialog() {
  const listeners = {};
  return {
    open: false,
    showModal() { this.open = true; },
    close() { this.open = false; (listeners.close || []).forEach((fn) => fn({})); },
    addEventListener(kind, fn) { (listeners[kind] = listeners[kind] || []).push(fn); },
  };
}

const CONSOLE_BUTTONS = ["toggle", "plus", "minus", "next", "previous"];

function consoleWithButtons(extra = {}) {
  const pressed = [];
  const elements = Object.assign({}, extra);
  CONSOLE_BUTTONS.forEach((id) => { elements[id] = button(pressed, id); });
  const { doc } = openConsole(elements);
  doc.contains = () => true;
  return { doc, pressed };
}

tests.push(
  ["keys press the console's buttons: space, + and -, N and P, arrows", () => {
    const { doc, pressed } = consoleWithButtons();
    const keys = [" ", "+", "=", "-", "n", "N", "ArrowRight", "p", "P", "ArrowLeft", "x"];
    const prevented = keys.map((name) => key(doc, name).prevented);
    assert.deepEqual(pressed, [
      "toggle", "plus", "plus", "minus", "next", "next", "next", "previous", "previous", "previous",
    ]);
    assert.deepEqual(prevented, [...keys.slice(0, -1).map(() => true), false]);
  }],
  ["keys typed into a field are only typed; held down or with Ctrl they do nothing", () => {
    const { doc, pressed } = consoleWithButtons();
    for (const tagName of ["INPUT", "TEXTAREA", "SELECT"]) {
      doc.activeElement = { tagName };
      assert.equal(key(doc, "n").prevented, false);
    }
    doc.activeElement = { tagName: "DIV", isContentEditable: true };
    key(doc, "n");
    doc.activeElement = null;
    key(doc, "n", { ctrlKey: true });
    key(doc, "+", { repeat: true });
    assert.deepEqual(pressed, []);
  }],
  ["a focused button or link keeps every key (WCAG 2.1.4); Escape takes the focus off it", () => {
    const { doc, pressed } = consoleWithButtons();
    for (const tagName of ["BUTTON", "A", "SUMMARY"]) {
      const blurred = { count: 0 };
      doc.activeElement = { tagName, blur() { blurred.count += 1; } };
      for (const name of [" ", "n", "-", "?"]) assert.equal(key(doc, name).prevented, false);
      assert.deepEqual(pressed, [], `a key acted while a ${tagName} had the focus`);
      key(doc, "Escape");
      assert.equal(blurred.count, 1);
    }
    doc.activeElement = null; // off the control: the keys act again
    key(doc, "n");
    assert.deepEqual(pressed, ["next"]);
  }],
  ["keys turned off on this computer do nothing until turned on again", () => {
    const stored = {};
    global.window.localStorage = {
      getItem: (name) => (name in stored ? stored[name] : null),
      setItem: (name, value) => { stored[name] = String(value); },
      removeItem: (name) => { delete stored[name]; },
    };
    try {
      const { doc, pressed } = consoleWithButtons();
      stored["floorman:shortcuts"] = "off";
      assert.equal(key(doc, "n").prevented, false);
      assert.deepEqual(pressed, []);
      delete stored["floorman:shortcuts"];
      key(doc, "n");
      assert.deepEqual(pressed, ["next"]);
    } finally {
      delete global.window.localStorage;
    }
  }],
  ["? opens the help; keys wait while it is open; closing gives the focus back", () => {
    const help = fakeDialog();
    const { doc, pressed } = consoleWithButtons({ shortcuts: help });
    const before = { tagName: "DIV", focused: 0, focus() { this.focused += 1; } };
    doc.activeElement = before;
    assert.equal(key(doc, "?").prevented, true);
    assert.equal(help.open, true);
    key(doc, "n");
    assert.deepEqual(pressed, [], "the console's keys wait");
    help.close(); // Escape, or the Close button
    assert.equal(before.focused, 1);
    key(doc, "n");
    assert.deepEqual(pressed, ["next"]);
  }],
  ["A puts the cursor in the announcement, without typing the a", () => {
    const { doc } = consoleWithButtons();
    const field = { focused: 0, focus() { this.focused += 1; } };
    doc.querySelector = (selector) => (selector === "#announce [name=text]" ? field : null);
    assert.equal(key(doc, "a").prevented, true);
    assert.equal(field.focused, 1);
  }],
);

harness.run(tests);
