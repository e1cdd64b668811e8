// Lobby screens: the tournament clock, kept live over /ws/tournaments/<id>/.
//
// The clock is never counted down here. Each frame derives what to show from the last
// state the server sent: the level's end time minus (now + offset to server time).
// Browsers throttle timers in background tabs, and counters drift; a derived clock is
// right on every frame and every screen in the room shows the same second.
//
// The pure functions at the top take plain values and are tested with node
// (clock/tests/js/clock_test.js); the screen below them touches the DOM.
// Every user-facing text comes from the page (json_script "lobby-config"), translated.
// The socket (live.js's one per tournament and page, shared with the seating board
// beside the clock), JSON fetches, time probes and beeps are live.js's, loaded first.
(function (root, factory) {
  "use strict";
  var api = factory(
    typeof module === "object" && module.exports ? require("./live.js") : root.FloormanLive
  );
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.FloormanClock = api;
    if (root.document) api.boot(root.document);
  }
})(typeof self !== "undefined" ? self : this, function (shared) {
  "use strict";

  var fetchJson = shared.fetchJson;
  var formatDuration = shared.formatDuration;
  var interpolate = shared.interpolate;
  var Sound = shared.Sound;

  // --- Pure functions -----------------------------------------------------------

  var RUNNING = "running";
  var SAMPLE_WINDOW = 10; // offsets are taken from the last few probes: clocks drift

  var parseTime = shared.parseTime; // ISO 8601 from Python to ms (live.js)
  var timeSample = shared.timeSample; // one time probe: {offset, rtt} (live.js)

  // The sample with the shortest round trip has the smallest possible error.
  function bestOffset(samples) {
    var best = null;
    for (var i = 0; i < samples.length; i++) {
      if (best === null || samples[i].rtt < best.rtt) best = samples[i];
    }
    return best === null ? 0 : best.offset;
  }

  function remainingMs(endsAtMs, offsetMs, nowMs) {
    return Math.max(0, endsAtMs - (nowMs + offsetMs));
  }

  // As clock.engine.step_ms: a step's length, halved from `halvedFrom` on (casino §31).
  function stepMs(step, halvedFrom) {
    var ms = step.minutes * 60000;
    if (halvedFrom !== null && halvedFrom !== undefined && step.position >= halvedFrom) {
      ms = Math.floor(ms / 2);
    }
    return ms;
  }

  // Milliseconds until the next break begins; null during a break or with none ahead.
  function msToBreak(steps, position, leftMs, halvedFrom) {
    if (!steps.length || steps[position - 1].is_break) return null;
    var total = leftMs;
    for (var p = position + 1; p <= steps.length; p++) {
      if (steps[p - 1].is_break) return total;
      total += stepMs(steps[p - 1], halvedFrom);
    }
    return null;
  }

  // The clock_public state as this module keeps it.
  function clockBase(data) {
    return {
      status: data.status,
      position: data.level ? data.level.position : 1,
      level: data.level,
      msLeft: data.ms_left || 0,
      endsAt: parseTime(data.ends_at),
      steps: data.steps || [],
      halvedFrom: data.halved_from === undefined ? null : data.halved_from,
      lastLevel: !!data.last_level,
      warningSeconds: data.warning_seconds || 0,
      dayEndHands: data.day_end_hands === undefined ? null : data.day_end_hands,
      version: data.version || 0,
      stepsVersion: data.steps_version || "",
    };
  }

  // What the clock shows at `nowMs` (this machine's clock) given its offset to the
  // server. Mirrors clock.engine.read: while running, roll into the following steps
  // as they end, each as long as its minutes (halved from halvedFrom on); the last
  // step goes on until the director acts.
  function clockReading(base, nowMs, offsetMs) {
    var steps = base.steps;
    var position = base.position;
    var left = base.msLeft;
    if (base.status === RUNNING && base.endsAt !== null) {
      var endsAt = base.endsAt;
      var serverNow = nowMs + offsetMs;
      while (endsAt <= serverNow && position < steps.length) {
        position += 1;
        endsAt += stepMs(steps[position - 1], base.halvedFrom);
      }
      left = remainingMs(endsAt, offsetMs, nowMs);
    }
    var level = steps.length ? steps[position - 1] : base.level;
    return {
      status: base.status,
      position: position,
      msLeft: left,
      level: level || null,
      next: steps[position] || null,
      last: steps.length ? position >= steps.length : base.lastLevel,
      msToBreak: steps.length ? msToBreak(steps, position, left, base.halvedFrom) : null,
    };
  }

  // Average stack in big blinds, half up: whole ones from 10 on ("418", not "417.8"),
  // one decimal below (as web.screens.views.big_blinds).
  var WHOLE_BIG_BLINDS_FROM = 10;
  function averageBigBlinds(averageChips, bigBlind) {
    if (averageChips === null || averageChips === undefined || !bigBlind) return null;
    var tenths = Math.floor((20 * averageChips + bigBlind) / (2 * bigBlind));
    if (tenths >= 10 * WHOLE_BIG_BLINDS_FROM) {
      return Math.floor((2 * averageChips + bigBlind) / (2 * bigBlind));
    }
    return tenths / 10;
  }

  // The big blind the average is measured in: the level in play, or after a break the
  // level that follows it.
  function bigBlindFor(reading) {
    if (!reading.level) return 0;
    if (!reading.level.is_break) return reading.level.big_blind || reading.level.big_bet;
    var next = reading.next;
    return next && !next.is_break ? next.big_blind || next.big_bet : 0;
  }

  // A payout line's places: "1", or "10–12" for places that pay the same (as
  // web.screens.views._places). `format` writes a number in the page's language.
  function placesText(line, format) {
    if (line.first === line.last) return format(line.first);
    return format(line.first) + "\u2013" + format(line.last);
  }

  // The stage of play beyond the clock (as web.screens.views.stage_texts): hand-for-hand
  // on the bubble (RP-8: the hand, the tables still playing it, the all-in tables, the
  // bubble), the final table (RP-9), and once the event is over its winner and results.
  // `format` writes a number in the page's language.
  function stageFields(lobby, strings, format) {
    var over = lobby.status === "finished" || lobby.status === "cancelled";
    var h4h = over ? null : lobby.hand_for_hand || null;
    var end = lobby.end || {};
    var tables = function (numbers) {
      return (numbers || []).map(format).join(", ");
    };
    var fields = {
      over: over,
      end: over, // the panel with the winner and results
      stage: lobby.final_table && !over ? strings.final_table : "",
      h4h: h4h !== null,
      h4h_hand: "",
      h4h_playing: "",
      h4h_held: "",
      h4h_bubble: "",
      winner: end.winner ? interpolate(strings.winner, { name: end.winner }) : "",
      end_note: end.deal ? interpolate(strings.deal_end, { count: end.deal }) : "",
      results: (end.results || []).map(function (row) {
        return [row.place, row.name, row.prize];
      }),
    };
    if (h4h) {
      fields.h4h_hand =
        h4h.round === 0
          ? strings.h4h_round_zero
          : interpolate(strings.h4h_hand, { number: format(h4h.round) });
      if (h4h.playing && h4h.playing.length) {
        fields.h4h_playing = interpolate(strings.h4h_playing, { tables: tables(h4h.playing) });
      }
      if (h4h.held && h4h.held.length) {
        fields.h4h_held = interpolate(strings.h4h_held, { tables: tables(h4h.held) });
      }
      fields.h4h_bubble = interpolate(strings.h4h_bubble, {
        left: format(h4h.players_left),
        paid: format(h4h.places_paid),
      });
    }
    return fields;
  }

  // --- Time to the server ----------------------------------------------------------

  function TimeSync() {
    this.samples = [];
  }
  TimeSync.prototype.add = function (sample) {
    this.samples.push(sample);
    if (this.samples.length > SAMPLE_WINDOW) this.samples.shift();
  };
  TimeSync.prototype.offset = function () {
    return bestOffset(this.samples);
  };
  TimeSync.prototype.serverNow = function () {
    return Date.now() + this.offset();
  };

  // --- Sound ------------------------------------------------------------------------

  // A lobby's signals: longer, softer and further apart than a phone's (live.js's).
  var LOBBY_SOUND = { volume: 0.5, gap: 0.12 };

  function levelChangeBeeps(sound) {
    return sound.beeps(3, 880, 0.35);
  }

  function warningBeeps(sound) {
    return sound.beeps(2, 660, 0.2);
  }

  // --- One tournament on the screen -------------------------------------------------

  function Board(data, screen) {
    this.id = data.id;
    this.urls = data.urls;
    this.base = clockBase(data.clock);
    this.lobby = data.lobby;
    this.screen = screen;
    this.online = true; // until a connection is lost: no banner while first connecting
    this.pingTimer = null;
    this.refreshTimer = null;
    this.previous = null; // the last frame's reading: level changes and warnings cross it
    this.newLevelUntil = 0; // TDA 23 notice shown until then (server ms)
    this.warnedAt = { position: 0, at: 0 };
    this.live = null; // the tournament's socket, once connected
  }

  // The kinds a lobby board follows (Board.receive); player clocks belong to the tables.
  var BOARD_EVENTS = [
    "time.pong",
    "clock.updated",
    "clock.level",
    "clock.warning",
    "announcements.updated",
    "tournament.updated",
    "entry.registered",
    "entry.updated",
    "payouts.updated",
    "results.updated",
    "hand_for_hand.updated", // RP-8: the panel follows the round as tables report
    "seating.updated", // a table broken: the final table (RP-9)
    "counts.updated", // chips taken out of play (TDA 8-B, 63, 64): the average stack
  ];

  Board.prototype.apply = function (data) {
    if (!data || (data.version || 0) < this.base.version) return; // an older state
    if (!data.steps) {
      // Live events leave the structure out; fetch it when it has changed.
      if (data.steps_version !== this.base.stepsVersion) {
        this.resync();
        return;
      }
      data = Object.assign({}, data, { steps: this.base.steps });
    }
    this.base = clockBase(data);
  };

  Board.prototype.connect = function () {
    var self = this;
    this.live = shared.listen(this.screen.document, this.urls.socket, {
      refresh: function () {
        self.opened();
      },
      events: shared.on(BOARD_EVENTS, function (message) {
        self.receive(message);
      }),
      online: function (online) {
        self.setOnline(online);
      },
    });
  };

  // On every (re)connection: measure the time again, keep measuring, and fetch the state.
  Board.prototype.opened = function () {
    var self = this;
    this.probeTime(5);
    this.pingTimer = window.setInterval(function () {
      self.ping();
    }, 30000);
    this.resync(); // events may have been missed while the socket was down
  };

  Board.prototype.setOnline = function (online) {
    if (!online) {
      window.clearInterval(this.pingTimer); // the next connection starts its own
      this.pingTimer = null;
    }
    this.online = online;
    this.screen.invalidate();
  };

  Board.prototype.ping = function () {
    this.live.send({ type: "time.ping", client: Date.now() });
  };

  Board.prototype.probeTime = function (count) {
    var self = this;
    for (var i = 0; i < count; i++) {
      window.setTimeout(function () {
        self.ping();
      }, i * 300);
    }
  };

  // The full state from the API: the clock (also a time sample) and the lobby numbers.
  Board.prototype.resync = function () {
    var self = this;
    var sent = Date.now();
    fetchJson(this.urls.clock).then(function (data) {
      var received = Date.now();
      var server = parseTime(data.server_time);
      if (server !== null) self.screen.time.add(timeSample(sent, server, received));
      self.apply(data); // unless an event brought a newer state meanwhile
      self.screen.invalidate();
    }, noop);
    this.refreshLobby();
  };

  Board.prototype.refreshLobby = function () {
    var self = this;
    fetchJson(this.urls.data).then(function (data) {
      self.lobby = data;
      self.screen.invalidate();
    }, noop);
  };

  // Registrations come in bursts at the desk: one fetch per burst, spread over the
  // screens in the room so they do not all ask at the same moment.
  Board.prototype.scheduleLobbyRefresh = function () {
    var self = this;
    if (this.refreshTimer) return;
    this.refreshTimer = window.setTimeout(
      function () {
        self.refreshTimer = null;
        self.refreshLobby();
      },
      1000 + Math.random() * 1500
    );
  };

  Board.prototype.receive = function (message) {
    var data = message.data || {};
    switch (message.type) {
      case "time.pong":
        if (typeof message.client === "number" && typeof message.server === "number") {
          this.screen.time.add(timeSample(message.client, message.server, Date.now()));
        }
        return;
      case "clock.updated":
      case "clock.level": // the frame loop sees the new position: TDA 23 notice, sound
        this.apply(data);
        break;
      case "clock.warning":
        this.apply(data);
        this.warn(data.ending); // RP-7, in case this screen's frames missed the moment
        break;
      case "announcements.updated":
        this.lobby.announcements = data.announcements || [];
        break;
      case "hand_for_hand.updated":
        this.lobby = Object.assign({}, this.lobby, { hand_for_hand: data.active ? data : null });
        break;
      case "seating.updated":
        this.scheduleLobbyRefresh(); // a draw or a break sends many: one fetch for them
        return;
      case "tournament.updated":
        this.resync(); // a finished tournament finishes its clock too
        return;
      case "entry.registered":
      case "entry.updated":
      case "payouts.updated": // the director changed the table, or a prize was paid
      case "results.updated":
      case "counts.updated":
        this.scheduleLobbyRefresh(); // the pool and the payout table come with lobby data
        return;
      default:
        return; // not registered (BOARD_EVENTS): never here
    }
    this.screen.invalidate();
  };

  // RP-7: one warning sound per step, whether the event or the local clock is first.
  Board.prototype.warn = function (position) {
    var now = this.screen.time.serverNow();
    if (this.warnedAt.position === position && now - this.warnedAt.at < 60000) return;
    this.warnedAt = { position: position, at: now };
    if (this.screen.current() === this) warningBeeps(this.screen.sound);
  };

  // Called every frame with the fresh reading: sound and notices at the moments that
  // matter, found by comparing with the previous frame.
  Board.prototype.observe = function (reading, serverNow) {
    var before = this.previous;
    this.previous = reading;
    if (!before || reading.status !== RUNNING) return;
    if (reading.position > before.position) {
      if (reading.level && !reading.level.is_break) {
        this.newLevelUntil = serverNow + this.screen.config.notice_seconds * 1000;
      }
      if (this.screen.current() === this) levelChangeBeeps(this.screen.sound);
      return;
    }
    var warnMs = this.base.warningSeconds * 1000;
    if (
      warnMs > 0 &&
      reading.position === before.position &&
      before.msLeft > warnMs &&
      reading.msLeft <= warnMs &&
      !reading.last
    ) {
      this.warn(reading.position);
    }
  };

  // --- The screen --------------------------------------------------------------------

  function Screen(document, config) {
    this.document = document;
    this.config = config;
    this.strings = config.strings;
    this.time = new TimeSync();
    this.sound = new Sound(LOBBY_SOUND);
    this.numbers = new Intl.NumberFormat(document.documentElement.lang || undefined);
    var self = this;
    this.boards = config.boards.map(function (data) {
      return new Board(data, self);
    });
    this.index = 0;
    this.shown = {}; // field → text on screen: touch the DOM only when it changes
    // Until the first probe answers: the time the page was made, with a round trip
    // so long that any real probe replaces it.
    var made = parseTime(config.boards[0].clock.server_time);
    if (made !== null) this.time.add({ offset: made - Date.now(), rtt: 1e12 });
  }

  Screen.prototype.current = function () {
    return this.boards[this.index];
  };

  // Something changed: show it now rather than at the next frame, which a browser may
  // hold back while the page is not visible.
  Screen.prototype.invalidate = function () {
    this.render();
  };

  Screen.prototype.start = function () {
    var self = this;
    this.boards.forEach(function (board) {
      board.connect();
    });
    if (this.boards.length > 1 && this.config.every) {
      window.setInterval(function () {
        self.index = (self.index + 1) % self.boards.length;
        self.shown = {};
        self.showParts();
      }, this.config.every * 1000);
    }
    this.enableSoundOnGesture();
    var frame = function () {
      self.render();
      window.requestAnimationFrame(frame);
    };
    window.requestAnimationFrame(frame);
  };

  // Parts of the page that belong to one tournament (a rotating screen's seating
  // boards, [data-rotation-of=<id>]) show while its clock is on screen.
  Screen.prototype.showParts = function () {
    if (!this.document.querySelectorAll) return;
    var id = String(this.current().id);
    var parts = this.document.querySelectorAll("[data-rotation-of]");
    Array.prototype.forEach.call(parts, function (part) {
      part.hidden = part.getAttribute("data-rotation-of") !== id;
    });
  };

  Screen.prototype.enableSoundOnGesture = function () {
    var self = this;
    var hint = this.document.querySelector("[data-field=sound_hint]");
    var enable = function () {
      if (!self.sound.enable()) return;
      if (hint) hint.hidden = true;
      // A lobby TV should not dim or sleep; asked for where the browser offers it.
      if (navigator.wakeLock && navigator.wakeLock.request) {
        navigator.wakeLock.request("screen").catch(noop);
      }
    };
    ["pointerdown", "click", "keydown"].forEach(function (kind) {
      self.document.addEventListener(kind, enable);
    });
  };

  Screen.prototype.render = function () {
    var now = Date.now();
    var offset = this.time.offset();
    var serverNow = now + offset;
    var self = this;
    var readings = this.boards.map(function (board) {
      var reading = clockReading(board.base, now, offset);
      board.observe(reading, serverNow);
      return reading;
    });
    var board = this.current();
    var fields = this.fields(board, readings[this.index], serverNow);
    Object.keys(fields).forEach(function (name) {
      self.show(name, fields[name]);
    });
  };

  Screen.prototype.show = function (name, value) {
    var key = Array.isArray(value) ? "\u0001" + JSON.stringify(value) : value;
    if (this.shown[name] === key) return;
    this.shown[name] = key;
    var nodes = this.document.querySelectorAll("[data-field=" + name + "]");
    for (var i = 0; i < nodes.length; i++) {
      var node = nodes[i];
      if (Array.isArray(value)) {
        fillList(node, value);
      } else if (typeof value === "boolean") {
        node.hidden = !value;
      } else {
        node.textContent = value;
        node.hidden = value === "";
      }
    }
  };

  Screen.prototype.chips = function (amount) {
    return this.numbers.format(amount);
  };

  Screen.prototype.blinds = function (level) {
    if (!level || level.is_break) return "";
    if (level.small_bet || level.big_bet) {
      return interpolate(this.strings.bets, {
        small: this.chips(level.small_bet),
        big: this.chips(level.big_bet),
      });
    }
    return this.chips(level.small_blind) + " / " + this.chips(level.big_blind);
  };

  Screen.prototype.ante = function (level) {
    if (!level || level.is_break) return "";
    if (level.big_blind_ante) {
      return interpolate(this.strings.big_blind_ante, { ante: this.chips(level.big_blind_ante) });
    }
    if (level.ante) return interpolate(this.strings.ante, { ante: this.chips(level.ante) });
    return "";
  };

  Screen.prototype.title = function (level) {
    if (!level) return this.strings.no_structure;
    if (level.is_break) return level.label || this.strings["break"];
    var title = interpolate(this.strings.level, { number: level.number });
    return level.game ? title + " · " + level.game : title;
  };

  Screen.prototype.nextText = function (reading) {
    var next = reading.next;
    if (!next) return reading.level ? this.strings.last_level : "—";
    if (next.is_break) {
      var minutes = interpolate(this.strings.minutes, { minutes: next.minutes });
      return (next.label || this.strings["break"]) + " · " + minutes;
    }
    var ante = this.ante(next);
    return this.blinds(next) + (ante ? " · " + ante : "");
  };

  Screen.prototype.status = function (reading) {
    return this.strings["status_" + reading.status] || "";
  };

  Screen.prototype.fields = function (board, reading, serverNow) {
    var lobby = board.lobby;
    var average = lobby.average_stack.chips;
    var bigBlinds = averageBigBlinds(average, bigBlindFor(reading));
    var stage = stageFields(lobby, this.strings, this.chips.bind(this));
    return Object.assign(this.payoutFields(lobby.payouts), bountyFields(lobby.bounties), stage, {
      clock_panel: !stage.over, // the end shows no stale clock (issue 16)
      facts: !stage.over,
      offline: !board.online,
      name: lobby.name,
      rotation:
        this.boards.length > 1
          ? interpolate(this.strings.rotation, {
              index: this.index + 1,
              count: this.boards.length,
            })
          : "",
      status: stage.over
        ? this.strings["status_" + lobby.status] || ""
        : stage.h4h
          ? this.strings.status_h4h // its clock is paused: each hand takes its time off
          : this.status(reading),
      level_title: this.title(reading.level),
      clock: reading.level ? formatDuration(reading.msLeft) : "",
      blinds: this.blinds(reading.level),
      ante: this.ante(reading.level),
      next: this.nextText(reading),
      to_break: reading.msToBreak === null ? "—" : formatDuration(reading.msToBreak),
      players: interpolate(this.strings.players, {
        active: this.chips(lobby.active),
        entries: this.chips(lobby.entries),
      }),
      average:
        average === null
          ? "—"
          : bigBlinds === null
            ? this.chips(average)
            : interpolate(this.strings.average, {
                chips: this.chips(average),
                big_blinds: this.numbers.format(bigBlinds),
              }),
      prize_pool: lobby.prize_pool.text,
      // Issue 18: the bounty money beside the pool, never in it (none without bounties).
      bounty_pool_fact: !!lobby.bounty_pool,
      bounty_pool: lobby.bounty_pool ? lobby.bounty_pool.text : "",
      notices: this.notices(board, reading, serverNow),
      announcements: (lobby.announcements || []).map(function (a) {
        return a.text;
      }),
    });
  };

  // Places paid (a fact beside the prize pool) and the payouts panel: one line per group
  // of places that pay the same. Lobby data from before the payouts has none.
  Screen.prototype.payoutFields = function (payouts) {
    var paid = (payouts && payouts.places_paid) || 0;
    var lines = (payouts && payouts.lines) || [];
    var chips = this.chips.bind(this);
    return {
      places_paid_fact: paid > 0,
      places_paid: paid > 0 ? chips(paid) : "",
      payouts_places:
        paid > 0 ? interpolate(this.strings.places_paid, { count: chips(paid) }) : "",
      payouts_lines: lines.map(function (line) {
        return [placesText(line, chips), line.text];
      }),
      payouts_more: !!(payouts && payouts.more),
      payouts_provisional: lines.length > 0 && !payouts.locked,
      payouts_none: lines.length === 0,
    };
  };

  // Issue 18: the bounty fact beside the prize pool and the bounties panel, as the
  // server words them (web.screens.views.bounties_lobby); none for an event without.
  function bountyFields(bounties) {
    var none = !bounties;
    return {
      bounty_fact_box: !none && !!bounties.fact,
      bounty_label: none ? "" : bounties.label,
      bounty_fact: none ? "" : bounties.fact,
      bounties_lines: none ? [] : bounties.lines,
      bounties_note: none ? "" : bounties.note,
      bounties_none: none,
    };
  }

  // The notices under the clock, most urgent first; each cites its rule.
  Screen.prototype.notices = function (board, reading, serverNow) {
    var s = this.strings;
    var base = board.base;
    var level = reading.level;
    var notices = [];
    if (!level) return notices;
    var running = reading.status === RUNNING;
    var warnMs = base.warningSeconds * 1000;
    if (running && !reading.last && warnMs > 0 && reading.msLeft <= warnMs && reading.msLeft > 0) {
      var next = reading.next;
      if (level.is_break) notices.push(s.break_ending);
      else notices.push(next && next.is_break ? s.hold_push_break : s.hold_push); // RP-7
    }
    if (running && !level.is_break && serverNow < board.newLevelUntil) {
      notices.push(s.new_level); // TDA 23
    }
    if (level.is_break && level.color_up && level.color_up.length) {
      var chips = level.color_up.map(this.chips, this).join(", ");
      notices.push(interpolate(s.chip_race, { chips: chips })); // TDA 24
    }
    if (level.is_break && level.addon) notices.push(s.addon);
    if (base.dayEndHands) {
      var phrase = base.dayEndHands === 1 ? s.day_end_one : s.day_end_other;
      notices.push(interpolate(phrase, { hands: base.dayEndHands })); // casino §28
    }
    if (reading.last && !level.is_break && reading.status !== "finished") {
      notices.push(s.last_level);
    }
    return notices;
  };

  // --- Helpers --------------------------------------------------------------------

  function noop() {}

  // One <li> per item: a text, or a row of texts as <span>s (a payout line's places
  // and amount).
  function fillList(node, items) {
    var document = node.ownerDocument;
    while (node.firstChild) node.removeChild(node.firstChild);
    items.forEach(function (value) {
      var item = document.createElement("li");
      if (Array.isArray(value)) {
        value.forEach(function (text) {
          var cell = document.createElement("span");
          cell.textContent = text;
          item.appendChild(cell);
        });
      } else {
        item.textContent = value; // announcements are the TD's text: never HTML
      }
      node.appendChild(item);
    });
    node.hidden = items.length === 0;
  }

  function boot(document) {
    shared.whenReady(document, function () {
      var element = document.getElementById("lobby-config");
      if (!element) return;
      var screen = new Screen(document, JSON.parse(element.textContent));
      screen.start();
    });
  }

  return {
    parseTime: parseTime,
    timeSample: timeSample,
    bestOffset: bestOffset,
    remainingMs: remainingMs,
    stepMs: stepMs,
    msToBreak: msToBreak,
    clockBase: clockBase,
    clockReading: clockReading,
    formatDuration: formatDuration,
    averageBigBlinds: averageBigBlinds,
    bigBlindFor: bigBlindFor,
    placesText: placesText,
    stageFields: stageFields,
    TimeSync: TimeSync,
    boot: boot,
  };
});
