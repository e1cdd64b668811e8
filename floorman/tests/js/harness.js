// A fake browser for the node tests of the live screens (static/js/live.js and the
// scripts that load it): elements and a document, timers on a fake clock, sockets, fetch
// answered by hand (JSON, or a page's parts for DOMParser), audio and vibration; and the
// runner that prints ok/FAIL per test.
// Not a test itself: required by the tests in floorman/, clock/, seating/ and hands/
// tests/js/. Each test runs in a node process of its own, so the state kept here (the
// clock, the sockets, the beeps) is one test file's.
"use strict";
const path = require("path");

function scriptPath(name) {
  return path.join(__dirname, "..", "..", "..", "static", "js", name);
}

// A script of static/js/, as node sees it (module.exports: no boot).
function script(name) {
  return require(scriptPath(name));
}

// A browser-only script of static/js/ (console.js, seating-map.js: no module.exports),
// run again against the globals as they are now: `document`, window.FloormanLive...
function load(name) {
  delete require.cache[require.resolve(scriptPath(name))];
  require(scriptPath(name));
}

// --- Elements and the document ----------------------------------------------------------

// element.classList, kept in element.className as a browser does.
class ClassList {
  constructor(element) {
    this.element = element;
  }
  names() {
    return this.element.className.split(/\s+/).filter(Boolean);
  }
  contains(name) {
    return this.names().includes(name);
  }
  add(name) {
    if (!this.contains(name)) this.element.className = this.names().concat([name]).join(" ");
  }
  remove(name) {
    this.element.className = this.names().filter((n) => n !== name).join(" ");
  }
  toggle(name, on) {
    if (on === undefined) on = !this.contains(name);
    if (on) this.add(name);
    else this.remove(name);
    return on;
  }
}

class Element {
  constructor(doc, tagName, attrs) {
    this.ownerDocument = doc;
    this.tagName = tagName;
    this.attrs = Object.assign({}, attrs || {});
    this.className = "";
    this.classList = new ClassList(this);
    this.textContent = "";
    this.innerHTML = "";
    this.hidden = false;
    this.children = [];
    this.offsetWidth = 0;
    this.parts = {}; // what querySelector finds inside: by selector
  }
  getAttribute(name) {
    return name in this.attrs ? this.attrs[name] : null;
  }
  setAttribute(name, value) {
    this.attrs[name] = String(value);
  }
  get firstChild() {
    return this.children[0] || null;
  }
  removeChild(child) {
    this.children.splice(this.children.indexOf(child), 1);
  }
  appendChild(child) {
    this.children.push(child);
  }
  querySelector(selector) {
    return this.parts[selector] || null;
  }
}

// A parsed page with listeners (doc.fire(kind, event) plays an event to them) and no
// element; `extra` adds the test's own: nodes, getElementById, querySelector...
function fakeDocument(extra) {
  const doc = Object.assign(
    {
      readyState: "complete",
      title: "",
      hidden: false,
      documentElement: { lang: "en" },
      listeners: {},
      nodes: {},
      addEventListener(kind, fn) {
        (this.listeners[kind] = this.listeners[kind] || []).push(fn);
      },
      fire(kind, event) {
        (this.listeners[kind] || []).forEach((fn) => fn(event || {}));
      },
      getElementById() {
        return null;
      },
      querySelector() {
        return null;
      },
      querySelectorAll() {
        return [];
      },
      createElement(tagName) {
        return new Element(doc, tagName.toUpperCase());
      },
      createTextNode(text) {
        return { nodeName: "#text", textContent: String(text) };
      },
    },
    extra
  );
  return doc;
}

// getElementById for a page's json_script configs: {id: config}.
function jsonScripts(configs) {
  return (id) => (configs[id] ? { textContent: JSON.stringify(configs[id]) } : null);
}

// --- Time ------------------------------------------------------------------------------

// Date.now() is the fake clock; timers fall due only when a test moves it on.
let now = 0;
let timers = [];
let timerId = 0;

function schedule(fn, ms, every) {
  timers.push({ at: now + (ms || 0), fn, every, id: ++timerId });
  return timerId;
}

function cancel(id) {
  timers = timers.filter((t) => t.id !== id);
}

// The timers due by `until` (ms of fake time), one at a time and in order, repeating ones
// again as long as they fall due.
function runTimers(until) {
  for (;;) {
    timers.sort((a, b) => a.at - b.at);
    const t = timers[0];
    if (!t || t.at > until) return;
    timers.shift();
    if (t.every) timers.push({ at: t.at + t.every, fn: t.fn, every: t.every, id: t.id });
    t.fn();
  }
}

// Moves the clock on by `ms` and runs the timers due meanwhile.
function advance(ms) {
  now += ms;
  runTimers(now);
}

function clearTimers() {
  timers = [];
}

// --- The socket, fetch, audio and vibration --------------------------------------------

const sockets = []; // every socket a script opened, in order
class FakeSocket {
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    sockets.push(this);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  open() {
    this.readyState = 1;
    this.onopen();
  }
  message(obj) {
    this.onmessage({ data: JSON.stringify(obj) });
  }
  raw(text) {
    this.onmessage({ data: text });
  }
  drop() {
    this.readyState = 3;
    this.onclose();
  }
}
const lastSocket = () => sockets[sockets.length - 1];

// fetch answered by hand: each call waits until the test answers it.
const fetches = [];
function manualFetch(url, options) {
  return new Promise((resolve, reject) => fetches.push({ url, options, resolve, reject }));
}
// Let settled promises reach the screen (their callbacks run as microtasks).
const flush = () => new Promise((resolve) => setImmediate(resolve));
function answer(index, body) {
  fetches[index].resolve({ ok: true, status: 200, json: () => Promise.resolve(body) });
  return flush().then(flush); // the response, then its JSON
}

// A server-rendered page as FakeDOMParser reads it: its parts' innerHTML by selector
// ({"#console": "<p>…</p>"}), as the text of the answer to fetch `index`.
function answerPage(index, parts, status) {
  status = status || 200;
  fetches[index].resolve({
    ok: status < 300,
    status,
    text: () => Promise.resolve(JSON.stringify(parts)),
  });
  return flush().then(flush); // the response, then its text
}
class FakeDOMParser {
  parseFromString(text) {
    const parts = JSON.parse(text);
    return {
      querySelector: (selector) => (selector in parts ? { innerHTML: parts[selector] } : null),
    };
  }
}

const oscillators = []; // one per beep started: {at (s of audio time), frequency: {value}}
const ramps = []; // the gains ramped to, in order
class FakeAudioContext {
  constructor() {
    this.state = "suspended";
    this.currentTime = 10;
    this.destination = {};
  }
  resume() {
    this.state = "running";
  }
  createOscillator() {
    const osc = { frequency: {}, connect() {}, start: (at) => (osc.at = at), stop() {} };
    oscillators.push(osc);
    return osc;
  }
  createGain() {
    return {
      gain: { setValueAtTime() {}, exponentialRampToValueAtTime: (value) => ramps.push(value) },
      connect() {},
    };
  }
}

const vibrations = []; // the patterns asked for

// --- The browser -----------------------------------------------------------------------

// Makes node's globals a browser page's: window, its https location, the socket, the
// timers on a fake clock from `options.now` (ms), fetch answered by hand, a navigator
// that vibrates, and audio unless `options.audio` is false.
function installBrowser(options) {
  options = options || {};
  now = options.now || 0;
  Date.now = () => now;
  global.window = global;
  global.self = global;
  global.location = { protocol: "https:", host: "floor.example" };
  global.WebSocket = FakeSocket;
  global.setTimeout = (fn, ms) => schedule(fn, ms, 0);
  global.setInterval = (fn, ms) => schedule(fn, ms, ms);
  global.clearTimeout = cancel;
  global.clearInterval = cancel;
  global.fetch = manualFetch;
  global.DOMParser = FakeDOMParser;
  if (options.audio !== false) global.AudioContext = FakeAudioContext;
  Object.defineProperty(global, "navigator", {
    value: { vibrate: (pattern) => vibrations.push(pattern) },
    configurable: true,
    writable: true,
  });
}

// --- The runner ------------------------------------------------------------------------

// Runs the tests ([name, fn] pairs or {name: fn}) in order, each awaited; prints ok or
// FAIL with the stack for each, and exits with 1 if any failed.
async function run(tests) {
  let failed = 0;
  for (const [name, test] of Array.isArray(tests) ? tests : Object.entries(tests)) {
    try {
      await test();
      console.log("ok   " + name);
    } catch (error) {
      failed += 1;
      console.log("FAIL " + name + "\n" + (error.stack || error.message));
    }
  }
  console.log(failed ? failed + " failed" : "all passed");
  process.exit(failed ? 1 : 0);
}

module.exports = {
  script,
  load,
  Element,
  fakeDocument,
  jsonScripts,
  runTimers,
  advance,
  clearTimers,
  sockets,
  lastSocket,
  FakeSocket,
  fetches,
  answer,
  answerPage,
  flush,
  oscillators,
  ramps,
  FakeAudioContext,
  vibrations,
  installBrowser,
  run,
};
