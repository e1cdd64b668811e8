// What every live screen needs: the page's one websocket per tournament, its state as
// JSON or as server-rendered parts, reconnect delays, the server's time, translated
// templates, beeps and alerts. Shared by clock.js (lobby), seats.js (seating board,
// player's phone), tablet.js (dealer tablet, hand-for-hand), console.js (TD clock
// console) and seating-map.js (table map); load it first (<script defer> runs the
// scripts in the order of the page). In the browser it is window.FloormanLive; under
// node, require("./live.js").
//
// No other script opens a socket. A screen says what it needs and live.js connects:
//
//   var live = FloormanLive.listen(document, "/ws/tournaments/7/", {
//     refresh: function () {},          // the screen's full state, fetched once on every
//                                       // (re)connection: events may have been missed
//     events: {                         // by kind: {type, tournament, data}; kinds that
//       "clock.updated": function (message) {},  // no screen on the page registered
//     },                                // are ignored (so are "hello" and garbage)
//     online: function (online) {},     // false while reconnecting, true once open again
//   });                                 // (every part is optional)
//   live.send({ type: "time.ping", client: Date.now() });  // false while not connected
//   live.wakeOnVisible();   // a phone or tablet that wakes up tries again at once
//   live.reconnecting();    // true while the socket is down, waiting for its retry
//
//   FloormanLive.on(["clock.updated", "clock.level"], handler);  // one handler, many kinds
//   FloormanLive.KINDS;     // every kind the server publishes (floorman/live.py)
//
// Screens on one page that watch the same tournament (the lobby's clock and its seating
// board) share one socket; it reconnects with backoff (backoffMs) and asks each screen to
// refresh. Underneath is FloormanLive.Live, one reconnecting socket:
//
//   new FloormanLive.Live(document, path, { opened, message, online }).connect();
//
//   var sound = new FloormanLive.Sound({ volume: 0.6, gap: 0.1 });  // the defaults
//   sound.enable();               // from a click or tap handler: true if audio exists
//   sound.beeps(3, 880, 0.18);    // count, Hz, seconds each; true when it played
//
//   FloormanLive.attention(sound, node);  // beeps, vibration, node flashes: moved, deal now
//
//   FloormanLive.fetchJson(url).then(...);  // a JSON GET with the session; rejects unless 2xx
//   FloormanLive.swapPart(document, url, "#console", busy);  // a server-rendered part again
//   FloormanLive.interpolate("Table %(table)s", { table: 5 });  // Django's %(name)s
//   FloormanLive.fill(node, "%(name)s came", { name: "Anna" }, ["name"]);  // names in <bdi>
//   FloormanLive.isolated(name);  // a name set into plain text: FSI…PDI if it needs them
//   FloormanLive.backoffMs(attempt);  // the delay before reconnection attempt (from 0)
//   FloormanLive.parseTime(iso);  // Python's isoformat to ms since the epoch, or null
//   FloormanLive.timeSample(sent, serverMs, received);  // {offset, rtt}: one time probe
//   FloormanLive.formatDuration(ms);  // "09:59", "1:05:00"
//   FloormanLive.whenReady(document, start);  // start() once the page is parsed
//
// Tested with node: floorman/tests/js/live_test.js and channel_test.js.
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.FloormanLive = api;
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var OPEN = 1; // WebSocket.OPEN

  // Reconnect delays: doubling up to 30 s, randomized within the upper half so that
  // every screen and phone in the room does not knock at the same moment after a restart.
  function backoffMs(attempt, random) {
    var cap = Math.min(30000, 1000 * Math.pow(2, Math.min(attempt, 15)));
    return Math.round(cap / 2 + (random || Math.random)() * (cap / 2));
  }

  // Fills the %(name)s placeholders of a translated text; unknown names stay as they are.
  function interpolate(template, values) {
    return String(template).replace(/%\((\w+)\)s/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }

  // --- Names (issue 15) -------------------------------------------------------------
  // A name that holds right-to-left letters or direction controls must not turn the
  // text around it. In an element of its own it goes in <bdi> (fill, below; the
  // templates do the same); set into plain text where no element can hold it (a tab's
  // title, the board's "Anna – Ben") it goes between FSI and PDI, Unicode's isolates,
  // its own unclosed isolates closed and stray PDIs dropped (isolated). As the server's
  // floorman.names.name_isolated, with the same ranges (written out: \p{...} is not in
  // older TV browsers).
  var DIRECTION_CHANGING =
    /[\u0590-\u08FF\u200E\u200F\u202A-\u202E\u2066-\u2069\uFB1D-\uFDFF\uFE70-\uFEFE]|[\uD802\uD803\uD83A\uD83B][\uDC00-\uDFFF]/;
  var FSI = "\u2068";
  var PDI = "\u2069";

  function isolated(name) {
    name = String(name == null ? "" : name);
    if (!DIRECTION_CHANGING.test(name)) return name;
    var kept = "";
    var open = 0;
    for (var i = 0; i < name.length; i++) {
      var c = name.charAt(i);
      if (c === PDI) {
        if (!open) continue; // it would close the isolate around the name
        open -= 1;
      } else if (c >= "\u2066" && c <= FSI) {
        open += 1; // LRI, RLI, FSI
      }
      kept += c;
    }
    for (; open > 0; open--) kept += PDI;
    return FSI + kept + PDI;
  }

  // `node` shows a translated text with its %(name)s placeholders filled in, as text
  // (never HTML); the values named in `names` (people's names) each in a <bdi> of
  // their own. Returns the node.
  function fill(node, template, values, names) {
    var doc = node.ownerDocument;
    var isName = {};
    (names || []).forEach(function (key) {
      isName[key] = true;
    });
    while (node.firstChild) node.removeChild(node.firstChild);
    var text = "";
    var pattern = /%\((\w+)\)s/g;
    var last = 0;
    var m;
    template = String(template);
    while ((m = pattern.exec(template)) !== null) {
      var known = Object.prototype.hasOwnProperty.call(values, m[1]);
      text += template.slice(last, m.index);
      last = pattern.lastIndex;
      if (known && isName[m[1]]) {
        if (text) node.appendChild(doc.createTextNode(text));
        text = "";
        var bdi = doc.createElement("bdi");
        bdi.textContent = String(values[m[1]]);
        node.appendChild(bdi);
      } else {
        text += known ? String(values[m[1]]) : m[0];
      }
    }
    text += template.slice(last);
    if (text) node.appendChild(doc.createTextNode(text));
    return node;
  }

  // ISO 8601 as Python writes it ("2026-03-01T20:15:00.123456+00:00") to ms since the
  // epoch. Only the form with three fraction digits is standard for Date.parse.
  function parseTime(iso) {
    if (!iso) return null;
    var m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?$/.exec(iso);
    if (!m) return null;
    var fraction = ((m[2] || "") + "000").slice(0, 3);
    var ms = Date.parse(m[1] + "." + fraction + (m[3] || "Z"));
    return isNaN(ms) ? null : ms;
  }

  // One time probe: the server's clock was read somewhere between sending and
  // receiving, so take the midpoint (NTP's idea); the round trip bounds the error.
  function timeSample(clientSent, serverMs, clientReceived) {
    return {
      offset: serverMs - (clientSent + clientReceived) / 2,
      rtt: clientReceived - clientSent,
    };
  }

  // "20:00", "9:59" → "09:59", "1:05:00": whole seconds rounded up, as the server does.
  function formatDuration(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(s / 3600);
    var m = Math.floor((s % 3600) / 60);
    var sec = s % 60;
    var mm = (m < 10 ? "0" : "") + m;
    var ss = (sec < 10 ? "0" : "") + sec;
    return h ? h + ":" + mm + ":" + ss : mm + ":" + ss;
  }

  // The state a screen starts from or catches up with after a reconnection.
  function fetchJson(url) {
    return window
      .fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      });
  }

  // The server-rendered screens (the clock console, the table map, hand-for-hand) catch
  // up by fetching their page again and swapping in the part `selector` finds, unless
  // `busy(shown)` says someone is working in it (a form being filled in).
  function swapPart(document, url, selector, busy) {
    return window
      .fetch(url, { credentials: "same-origin" })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (!html) return;
        var fresh = new window.DOMParser().parseFromString(html, "text/html").querySelector(selector);
        var shown = document.querySelector(selector);
        if (!fresh || !shown || (busy && busy(shown))) return;
        if (shown.innerHTML !== fresh.innerHTML) shown.innerHTML = fresh.innerHTML;
      })
      .catch(noop);
  }

  // --- The socket -----------------------------------------------------------------

  // One tournament's live events, reconnecting with backoff; `opened` runs on every
  // (re)connection, so that the screen can fetch what it missed.
  function Live(document, path, handlers) {
    this.document = document;
    this.path = path;
    this.handlers = handlers || {};
    this.socket = null;
    this.attempt = 0;
    this.retry = null;
  }

  Live.prototype.handle = function (name, value) {
    var handler = this.handlers[name];
    if (handler) handler(value);
  };

  Live.prototype.connect = function () {
    var self = this;
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + this.path);
    this.socket = socket;
    socket.onopen = function () {
      self.attempt = 0;
      self.handle("online", true);
      self.handle("opened");
    };
    socket.onmessage = function (event) {
      var message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (message && typeof message === "object") self.handle("message", message);
    };
    socket.onclose = function () {
      if (self.socket !== socket) return; // an earlier socket, already replaced
      self.socket = null;
      self.handle("online", false);
      var delay = backoffMs(self.attempt, Math.random);
      self.attempt += 1;
      self.retry = window.setTimeout(function () {
        self.retry = null;
        self.connect();
      }, delay);
    };
  };

  // Sends a message as JSON if the socket is open; says whether it did.
  Live.prototype.send = function (message) {
    if (!this.socket || this.socket.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  };

  // A phone that wakes up should not wait out a long backoff: try again at once.
  Live.prototype.wakeOnVisible = function () {
    var self = this;
    this.document.addEventListener("visibilitychange", function () {
      if (self.document.hidden || self.socket || self.retry === null) return;
      window.clearTimeout(self.retry);
      self.retry = null;
      self.attempt = 0;
      self.connect();
    });
  };

  // --- The page's one socket per tournament ---------------------------------------

  // Every kind the server publishes: floorman/live.py's KINDS (a test keeps them equal).
  var KINDS = [
    "entry.registered",
    "entry.updated",
    "tournament.updated",
    "alternates.updated",
    "clock.updated",
    "clock.warning",
    "clock.level",
    "player_clock.updated",
    "announcements.updated",
    "seating.updated",
    "table.updated",
    "hand_for_hand.updated",
    "payouts.updated",
    "results.updated",
    "overview.changed",
    "flight.updated",
    "bounties.updated",
    "counts.updated",
  ];

  // document → {path: Channel}: one socket per tournament and page, however many screens
  // on the page watch it.
  var channels = new WeakMap();

  function listen(document, path, screen) {
    var paths = channels.get(document);
    if (!paths) {
      paths = {};
      channels.set(document, paths);
    }
    if (!Object.prototype.hasOwnProperty.call(paths, path)) {
      paths[path] = new Channel(document, path);
    }
    var channel = paths[path];
    channel.add(screen || {});
    return channel;
  }

  // {kind: handler} for each of `kinds`: a screen that treats several kinds alike.
  function on(kinds, handler) {
    var events = {};
    kinds.forEach(function (kind) {
      events[kind] = handler;
    });
    return events;
  }

  // One tournament's socket, shared by the screens of a page: each (re)connection asks
  // every screen to refresh, each event goes to the screens that registered its kind.
  function Channel(document, path) {
    var self = this;
    this.screens = [];
    this.open = false;
    this.waking = false;
    this.live = new Live(document, path, {
      online: function (online) {
        self.open = online;
        self.each(function (screen) {
          if (screen.online) screen.online(online);
        });
      },
      opened: function () {
        self.each(function (screen) {
          if (screen.refresh) screen.refresh();
        });
      },
      message: function (message) {
        self.dispatch(message);
      },
    });
  }

  Channel.prototype.each = function (fn) {
    this.screens.slice().forEach(fn);
  };

  // The first screen connects; one that comes to an open socket has missed its opening,
  // so it fetches its state at once.
  Channel.prototype.add = function (screen) {
    this.screens.push(screen);
    if (this.open) {
      if (screen.online) screen.online(true);
      if (screen.refresh) screen.refresh();
    } else if (!this.live.socket && this.live.retry === null) {
      this.live.connect();
    }
  };

  Channel.prototype.dispatch = function (message) {
    var kind = message.type;
    if (typeof kind !== "string") return;
    this.each(function (screen) {
      var events = screen.events;
      if (events && Object.prototype.hasOwnProperty.call(events, kind)) events[kind](message);
    });
  };

  Channel.prototype.send = function (message) {
    return this.live.send(message);
  };

  Channel.prototype.wakeOnVisible = function () {
    if (this.waking) return;
    this.waking = true;
    this.live.wakeOnVisible();
  };

  Channel.prototype.reconnecting = function () {
    return this.live.retry !== null;
  };

  // --- Sound ------------------------------------------------------------------------

  // Browsers start audio only after a gesture on the page: call enable() from a click or
  // tap handler. `options.volume` is each beep's peak gain, `options.gap` the seconds of
  // silence between beeps.
  function Sound(options) {
    options = options || {};
    this.volume = options.volume === undefined ? 0.6 : options.volume;
    this.gap = options.gap === undefined ? 0.1 : options.gap;
    this.context = null;
  }

  Sound.prototype.enable = function () {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return false;
    if (!this.context) this.context = new Context();
    if (this.context.state === "suspended") this.context.resume();
    return true;
  };

  Sound.prototype.beeps = function (count, frequency, seconds) {
    var ctx = this.context;
    if (!ctx || ctx.state !== "running") return false;
    for (var i = 0; i < count; i++) {
      var start = ctx.currentTime + i * (seconds + this.gap);
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(this.volume, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + seconds);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start(start);
      osc.stop(start + seconds + 0.05);
    }
    return true;
  };

  // --- Alerts and the page ------------------------------------------------------------

  // A player's phone or a dealer's tablet calls for attention (a move, "deal now"):
  // three beeps, a vibration, and `node` (if any) flashes again from the start.
  function attention(sound, node) {
    sound.beeps(3, 880, 0.18);
    var nav = window.navigator;
    if (nav && typeof nav.vibrate === "function") {
      try {
        nav.vibrate([200, 100, 200]);
      } catch (error) {
        // refused without a recent tap on the page: the page still shows it
      }
    }
    if (node) {
      node.classList.remove("flash");
      void node.offsetWidth; // restart the animation
      node.classList.add("flash");
    }
  }

  // Runs `start` once the page is parsed: at once from a deferred script, which runs
  // after parsing, else on DOMContentLoaded.
  function whenReady(document, start) {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", start);
    } else {
      start();
    }
  }

  function noop() {}

  return {
    KINDS: KINDS,
    listen: listen,
    on: on,
    swapPart: swapPart,
    backoffMs: backoffMs,
    fetchJson: fetchJson,
    formatDuration: formatDuration,
    interpolate: interpolate,
    isolated: isolated,
    fill: fill,
    parseTime: parseTime,
    timeSample: timeSample,
    attention: attention,
    whenReady: whenReady,
    Channel: Channel,
    Live: Live,
    Sound: Sound,
  };
});
