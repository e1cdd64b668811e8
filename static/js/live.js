// What every live screen needs: one tournament's websocket, its state as JSON, reconnect
// delays, the server's time, translated templates, beeps and alerts. Shared by clock.js,
// seats.js and tablet.js (the dealer tablet); load it first
// (<script defer> runs the scripts in the order of the page). In the browser it is
// window.FloormanLive; under node, require("./live.js").
//
//   var live = new FloormanLive.Live(document, "/ws/tournaments/7/", {
//     opened: function () {},          // on every (re)connection: fetch what was missed
//     message: function (message) {},  // each event as an object: {type, tournament, data}
//     online: function (online) {},    // false while reconnecting, true once open again
//   });                                // (every handler is optional)
//   live.connect();         // reconnects by itself after backoffMs(attempt) ms
//   live.wakeOnVisible();   // a phone or tablet that wakes up tries again at once
//   live.send({ type: "time.ping", client: Date.now() });  // false while not connected
//
//   var sound = new FloormanLive.Sound({ volume: 0.6, gap: 0.1 });  // the defaults
//   sound.enable();               // from a click or tap handler: true if audio exists
//   sound.beeps(3, 880, 0.18);    // count, Hz, seconds each; true when it played
//
//   FloormanLive.attention(sound, node);  // beeps, vibration, node flashes: moved, deal now
//
//   FloormanLive.fetchJson(url).then(...);  // a JSON GET with the session; rejects unless 2xx
//   FloormanLive.interpolate("Table %(table)s", { table: 5 });  // Django's %(name)s
//   FloormanLive.backoffMs(attempt);  // the delay before reconnection attempt (from 0)
//   FloormanLive.parseTime(iso);  // Python's isoformat to ms since the epoch, or null
//   FloormanLive.timeSample(sent, serverMs, received);  // {offset, rtt}: one time probe
//   FloormanLive.formatDuration(ms);  // "09:59", "1:05:00"
//   FloormanLive.whenReady(document, start);  // start() once the page is parsed
//
// Tested with node: floorman/tests/js/live_test.js.
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

  return {
    backoffMs: backoffMs,
    fetchJson: fetchJson,
    formatDuration: formatDuration,
    interpolate: interpolate,
    parseTime: parseTime,
    timeSample: timeSample,
    attention: attention,
    whenReady: whenReady,
    Live: Live,
    Sound: Sound,
  };
});
