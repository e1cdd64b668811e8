// The dealer's table tablet and the floor's hand-for-hand page, kept live over
// /ws/tournaments/<id>/.
//
// The server renders everything the page shows (templates/hands/_tablet_*.html). On an
// event that may change what this table shows (its own "table.updated", hand-for-hand,
// the clock, seating, a player clock at this table) the tablet fetches its state
// endpoint once, which answers those regions rendered afresh, and swaps them in. The
// buttons and forms ("controls") are swapped only when they would change (the server's
// key), so a chip count being typed in survives a clock event. Whenever the socket
// (re)connects the state is fetched too, since events may have been missed (live.js
// asks: refresh is the screen's one way to catch up).
//
// What only the browser knows is kept here: the players who sat down or left since the
// page was opened ("Players in and out"), the player clock's countdown (its end time
// against the server's clock), and the alerts: a sound and a vibration when
// hand-for-hand says "deal now" (RP-8) and when a player is moved in.
//
// Forms post with htmx (the page is swapped, not reloaded, so sound and vibration stay
// allowed); a refusal (400, 409) is swapped in too, it carries the message. Without
// this script the page works as plain forms.
//
// The pure functions at the top take plain values and are tested with node
// (hands/tests/js/tablet_test.js); the screens below them touch the DOM. Every
// user-facing text comes from the page (json_script "tablet-config"), translated.
// live.js (the page's socket, fetch, server time, beeps and alerts) is loaded first.
(function (root, factory) {
  "use strict";
  var node = typeof module === "object" && module.exports;
  var api = factory(node ? require("./live.js") : root.FloormanLive);
  if (node) {
    module.exports = api;
  } else {
    root.FloormanTablet = api;
    if (root.document) api.boot(root.document);
  }
})(typeof self !== "undefined" ? self : this, function (shared) {
  "use strict";

  var fetchJson = shared.fetchJson;
  var formatDuration = shared.formatDuration; // the player clock's "00:25" (live.js)
  var interpolate = shared.interpolate;
  var Sound = shared.Sound;

  // --- Server time ------------------------------------------------------------------

  var parseTime = shared.parseTime; // ISO 8601 from Python to ms (live.js)

  // Each probe's midpoint and round trip as live.js's timeSample; of several samples the
  // one with the shortest round trip is the best. Unlike the lobby's (clock.js), which
  // keeps only its last ten samples, the best of a tablet's page stays until it is beaten.
  function TimeSync() {
    this.best = null;
  }
  TimeSync.prototype.add = function (sent, serverMs, received) {
    var sample = shared.timeSample(sent, serverMs, received);
    if (this.best === null || sample.rtt <= this.best.rtt) this.best = sample;
  };
  TimeSync.prototype.offset = function () {
    return this.best === null ? 0 : this.best.offset;
  };

  // --- Pure functions -----------------------------------------------------------

  // The events that may change what a tablet shows, and whether only its own table's
  // count: its own table's state, hand-for-hand, the clock (a new level, the end of the
  // day), seating (players in and out; other tables' counts decide a halt), a player
  // clock at this table, a count at this table (issue 18: the stacks the count screen
  // offers).
  var TABLET_EVENTS = {
    "table.updated": "own",
    "counts.updated": "own",
    "player_clock.updated": "own",
    "hand_for_hand.updated": "any",
    "clock.updated": "any",
    "clock.level": "any",
    "seating.updated": "any",
  };

  // The floor's hand-for-hand page: the round and who has finished.
  var ROUND_EVENTS = ["hand_for_hand.updated", "table.updated", "seating.updated"];

  // Does this event change what the tablet of table `table` shows?
  function refreshFor(message, table) {
    var type = message && message.type;
    if (!Object.prototype.hasOwnProperty.call(TABLET_EVENTS, type)) return false;
    var data = message.data || {};
    return TABLET_EVENTS[type] === "any" || data.table === table;
  }

  function refreshForRound(message) {
    return ROUND_EVENTS.indexOf(message && message.type) !== -1;
  }

  // Where the players of one "seating.updated" came from and went to, kept for those
  // who sat down at or left table `table`; `moves` is not changed.
  function recordMoves(moves, update, table) {
    var out = {};
    Object.keys(moves || {}).forEach(function (entry) {
      out[entry] = moves[entry];
    });
    ((update && update.seats) || []).forEach(function (seat) {
      if (seat.table === table || seat.from_table === table) {
        out[seat.entry] = {
          table: seat.table,
          seat: seat.seat,
          from_table: seat.from_table === undefined ? null : seat.from_table,
          from_seat: seat.from_seat === undefined ? null : seat.from_seat,
        };
      }
    });
    return out;
  }

  function byEntry(seats) {
    var map = {};
    (seats || []).forEach(function (seat) {
      if (seat.entry !== null && seat.entry !== undefined) map[seat.entry] = seat;
    });
    return map;
  }

  // Who sat down, left, or changed seats at table `table` between `baseline` (the
  // seats as the page was opened, or last marked seen) and `current`: one change each,
  // by seat. `moves` (recordMoves) says where from and where to, when known.
  function seatChanges(baseline, current, moves, table) {
    var before = byEntry(baseline);
    var now = byEntry(current);
    moves = moves || {};
    var changes = [];
    Object.keys(now).forEach(function (entry) {
      var seat = now[entry];
      var had = before[entry];
      if (!had) {
        var move = moves[entry];
        var from = move && move.from_table !== null && move.from_table !== table;
        changes.push({
          kind: "came",
          entry: seat.entry,
          name: seat.name,
          number: seat.number,
          seat: seat.seat,
          from_table: from ? move.from_table : null,
          from_seat: from ? move.from_seat : null,
        });
      } else if (had.seat !== seat.seat) {
        changes.push({
          kind: "shifted",
          entry: seat.entry,
          name: seat.name,
          number: seat.number,
          seat: seat.seat,
          from_seat: had.seat,
        });
      }
    });
    Object.keys(before).forEach(function (entry) {
      if (now[entry]) return;
      var seat = before[entry];
      var move = moves[entry];
      var away = move && move.table !== table && move.table !== null && move.table !== undefined;
      changes.push({
        kind: "left",
        entry: seat.entry,
        name: seat.name,
        number: seat.number,
        seat: seat.seat,
        to_table: away ? move.table : null,
        to_seat: away ? move.seat : null,
      });
    });
    changes.sort(function (a, b) {
      return a.seat - b.seat || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);
    });
    return changes;
  }

  // Entries seated in `current` that were not in `previous`: players just moved in.
  function arrivals(previous, current) {
    var before = byEntry(previous);
    return (current || []).filter(function (seat) {
      return seat.entry !== null && seat.entry !== undefined && !before[seat.entry];
    });
  }

  // Hand-for-hand says "deal now" to this table, and did not a moment ago (or a new
  // round began while the page was away): sound the alert once per round.
  function dealAlert(previousPhase, nextPhase, previousRound, nextRound) {
    if (nextPhase !== "deal") return false;
    return previousPhase !== "deal" || previousRound !== nextRound;
  }

  // One line of "Players in and out": the page's translated text for the change.
  function changeTemplate(change, strings) {
    if (change.kind === "came") return change.from_table !== null ? strings.came_from : strings.came;
    if (change.kind === "left") return change.to_table !== null ? strings.left_to : strings.left;
    return strings.shifted;
  }

  // The line as plain text (a tab's title): the name isolated, so that direction
  // controls in it cannot turn the line around (issue 15).
  function changeText(change, strings) {
    return interpolate(
      changeTemplate(change, strings),
      Object.assign({}, change, { name: shared.isolated(change.name) })
    );
  }

  // TDA 29: the clock on a player as the tablet shows it at `serverNowMs`.
  function playerClockView(endsAtMs, countdownSeconds, serverNowMs) {
    var left = Math.max(0, endsAtMs - serverNowMs);
    return {
      left: left,
      text: formatDuration(left),
      countingDown: left > 0 && left <= countdownSeconds * 1000,
      expired: left === 0,
    };
  }

  // Which regions an answer replaces: all of them, except the controls when the
  // server's key says they would come out the same (a form may be half filled in).
  function regionsToSwap(names, shownKey, nextKey) {
    return names.filter(function (name) {
      return name !== "controls" || shownKey !== nextKey;
    });
  }

  // Every tablet in the room hears the same event: spread their fetches a little.
  function refreshDelay(random) {
    return Math.round(100 + (random || Math.random)() * 700);
  }

  // --- The tablet ---------------------------------------------------------------------

  function TabletScreen(document, config) {
    this.document = document;
    this.config = config;
    this.strings = config.strings;
    this.table = config.table;
    this.baseline = config.seats || [];
    this.current = config.seats || [];
    this.moves = {};
    this.phase = config.h4h || null;
    this.round = config.h4h_round === undefined ? null : config.h4h_round;
    this.time = new TimeSync();
    var server = parseTime(config.server_time);
    // A rough first offset (the page's own age is unknown): any fetch beats it.
    var loaded = Date.now();
    if (server !== null) this.time.add(loaded - 30000, server, loaded + 30000);
    this.generation = 0;
    this.timer = null;
    this.sound = new Sound();
    this.title = document.title;
    this.live = null; // the tournament's socket, once started
  }

  TabletScreen.prototype.start = function () {
    var self = this;
    this.enableSoundOnTap();
    this.watchHtmx();
    this.document.addEventListener("click", function (event) {
      var target = event.target;
      if (target && target.closest && target.closest("[data-tablet=changes_seen]")) {
        self.baseline = self.current;
        self.moves = {};
        self.renderChanges();
      }
    });
    this.live = shared.listen(this.document, this.config.urls.socket, {
      refresh: function () {
        self.refresh();
      },
      events: shared.on(Object.keys(TABLET_EVENTS), function (message) {
        self.receive(message);
      }),
      online: function (online) {
        self.flag("offline", !online);
      },
    });
    this.live.wakeOnVisible();
    window.setInterval(function () {
      self.tick();
    }, 250);
    this.tick();
  };

  TabletScreen.prototype.receive = function (message) {
    if (message.type === "seating.updated") {
      this.moves = recordMoves(this.moves, message.data, this.table);
    }
    if (refreshFor(message, this.table)) this.schedule();
  };

  TabletScreen.prototype.schedule = function () {
    var self = this;
    if (this.timer !== null) return; // one fetch for a burst of events
    this.timer = window.setTimeout(function () {
      self.timer = null;
      self.refresh();
    }, refreshDelay());
  };

  TabletScreen.prototype.refresh = function () {
    var self = this;
    var generation = ++this.generation;
    var sent = Date.now();
    fetchJson(this.config.urls.state).then(
      function (data) {
        if (generation !== self.generation) return; // a later answer is on its way
        var server = parseTime(data.server_time);
        if (server !== null) self.time.add(sent, server, Date.now());
        self.apply(data);
      },
      function (error) {
        // A revoked link (or a broken table): show the page that says so.
        if (error && /HTTP 404/.test(error.message)) window.location.reload();
      }
    );
  };

  TabletScreen.prototype.apply = function (data) {
    var doc = this.document;
    var controls = doc.querySelector("[data-region=controls]");
    var shownKey = controls ? controls.getAttribute("data-key") : null;
    var names = regionsToSwap(Object.keys(data.regions || {}), shownKey, data.controls_key);
    names.forEach(function (name) {
      var node = doc.querySelector('[data-region="' + name + '"]');
      var html = data.regions[name];
      if (!node || node.innerHTML === html) return;
      node.innerHTML = html; // rendered and escaped by the server's templates
      if (name === "controls") node.setAttribute("data-key", data.controls_key);
      if (window.htmx) window.htmx.process(node);
    });
    var came = arrivals(this.current, data.seats);
    this.current = data.seats || [];
    var deal = dealAlert(this.phase, data.h4h, this.round, data.h4h_round);
    this.phase = data.h4h;
    this.round = data.h4h_round;
    this.renderChanges();
    this.tick();
    if (deal) {
      this.alert(this.strings.title_deal, "[data-h4h]");
    } else if (came.length) {
      var first = Object.assign({}, came[0], { name: shared.isolated(came[0].name) });
      this.alert(interpolate(this.strings.title_came, first), "[data-tablet=changes]");
    }
  };

  TabletScreen.prototype.renderChanges = function () {
    var doc = this.document;
    var box = doc.querySelector("[data-tablet=changes]");
    var list = doc.querySelector("[data-tablet=change_list]");
    if (!box || !list) return;
    var strings = this.strings;
    var changes = seatChanges(this.baseline, this.current, this.moves, this.table);
    while (list.firstChild) list.removeChild(list.firstChild);
    changes.forEach(function (change) {
      var item = doc.createElement("li");
      item.className = change.kind;
      // Text, never HTML; the name in a <bdi> of its own (issue 15).
      shared.fill(item, changeTemplate(change, strings), change, ["name"]);
      list.appendChild(item);
    });
    box.hidden = changes.length === 0;
  };

  // The player clocks (TDA 29): each frame from its end time and the server's clock.
  TabletScreen.prototype.tick = function () {
    var serverNow = Date.now() + this.time.offset();
    var nodes = this.document.querySelectorAll("[data-player-clock]");
    for (var i = 0; i < nodes.length; i++) {
      var item = nodes[i];
      var endsAt = parseTime(item.getAttribute("data-ends-at"));
      if (endsAt === null) continue;
      var view = playerClockView(
        endsAt,
        Number(item.getAttribute("data-countdown-from")) || 0,
        serverNow
      );
      var time = item.querySelector("[data-countdown]");
      if (time && time.textContent !== view.text) time.textContent = view.text;
      item.classList.toggle("counting-down", view.countingDown);
      item.classList.toggle("expired", view.expired);
      var expired = item.querySelector("[data-expired]");
      if (expired) expired.hidden = !view.expired;
    }
  };

  // Sound, vibration, a flash (live.js) and the tab's title: a deal in hand-for-hand, a
  // player in.
  TabletScreen.prototype.alert = function (title, selector) {
    shared.attention(this.sound, this.document.querySelector(selector));
    this.document.title = title + " · " + this.title;
  };

  TabletScreen.prototype.enableSoundOnTap = function () {
    var self = this;
    var hint = this.document.querySelector("[data-tablet=sound_hint]");
    if (hint) hint.hidden = false; // without script it would promise nothing
    var enable = function (tapOver) {
      self.document.title = self.title; // an alert was seen
      if (!self.sound.enable()) return;
      self.soundOn = true;
      // The hint goes once the tap is over: hidden on pointerdown, it would move the page
      // up under the finger and the tap would land on something else.
      var shown = self.document.querySelector("[data-tablet=sound_hint]");
      if (tapOver && shown && !shown.hidden) {
        shown.hidden = true;
        self.sound.beeps(1, 660, 0.12); // this tap: the sound works
      }
    };
    ["pointerdown", "click", "keydown", "touchend"].forEach(function (kind) {
      self.document.addEventListener(kind, function () {
        enable(kind === "click" || kind === "keydown");
      });
    });
  };

  // htmx swaps the whole <main> after a form: a refusal (400, 409) too, since it carries
  // the message; afterwards the script's own parts are drawn again.
  TabletScreen.prototype.watchHtmx = function () {
    var self = this;
    this.document.addEventListener("htmx:beforeSwap", function (event) {
      var status = event.detail && event.detail.xhr ? event.detail.xhr.status : 0;
      if (status >= 400 && status < 500) {
        event.detail.shouldSwap = true;
        event.detail.isError = false;
      }
    });
    this.document.addEventListener("htmx:afterSwap", function () {
      var hint = self.document.querySelector("[data-tablet=sound_hint]");
      if (hint) hint.hidden = !!self.soundOn;
      self.flag("offline", self.live.reconnecting());
      self.renderChanges();
      self.tick();
      self.refresh(); // what the action changed: the phase, the seats
    });
  };

  TabletScreen.prototype.flag = function (name, visible) {
    var node = this.document.querySelector("[data-tablet=" + name + "]");
    if (node) node.hidden = !visible;
  };

  // --- The floor's hand-for-hand page -------------------------------------------------

  function RoundScreen(document, config) {
    this.document = document;
    this.config = config;
    this.timer = null;
    this.sound = new Sound();
    this.live = null; // the tournament's socket, once started
  }

  RoundScreen.prototype.receive = function (message) {
    if (message.type === "hand_for_hand.updated" && message.data && message.data.alert) {
      if (message.data.alert.length) this.sound.beeps(2, 660, 0.2); // tables running late
    }
    if (refreshForRound(message)) this.schedule();
  };

  RoundScreen.prototype.start = function () {
    var self = this;
    ["pointerdown", "keydown"].forEach(function (kind) {
      self.document.addEventListener(kind, function () {
        self.sound.enable();
      });
    });
    this.live = shared.listen(this.document, this.config.urls.socket, {
      refresh: function () {
        self.refresh();
      },
      events: shared.on(ROUND_EVENTS, function (message) {
        self.receive(message);
      }),
    });
    this.live.wakeOnVisible();
  };

  RoundScreen.prototype.schedule = TabletScreen.prototype.schedule;

  // The page again; only its status part is swapped (the settings form is left alone).
  RoundScreen.prototype.refresh = function () {
    shared.swapPart(this.document, this.config.urls.page, "[data-region=status]");
  };

  // --- Helpers --------------------------------------------------------------------

  function boot(document) {
    shared.whenReady(document, function () {
      var tablet = document.getElementById("tablet-config");
      if (tablet) new TabletScreen(document, JSON.parse(tablet.textContent)).start();
      var round = document.getElementById("h4h-config");
      if (round) new RoundScreen(document, JSON.parse(round.textContent)).start();
    });
  }

  return {
    parseTime: parseTime,
    TimeSync: TimeSync,
    formatDuration: formatDuration,
    refreshFor: refreshFor,
    refreshForRound: refreshForRound,
    recordMoves: recordMoves,
    seatChanges: seatChanges,
    arrivals: arrivals,
    dealAlert: dealAlert,
    changeText: changeText,
    playerClockView: playerClockView,
    regionsToSwap: regionsToSwap,
    refreshDelay: refreshDelay,
    TabletScreen: TabletScreen,
    RoundScreen: RoundScreen,
    boot: boot,
  };
});
