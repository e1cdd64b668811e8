// Public seating screens, kept live over /ws/tournaments/<id>/:
//
// - the seating board (lobby TVs, /lobby/<id>/seating/ and the clock's seating layout):
//   every seated player alphabetically, a page at a time, turning every few seconds;
// - a player's own page (the receipt's QR code): their table and seat, with a sound
//   and a vibration when they are moved. It listens on its entry's own socket,
//   /ws/tournaments/<id>/entries/<entry id>/ (config.urls.socket), which carries only
//   that entry's rows of each "seating.updated", its "entry.updated" and the whole
//   field's few messages (a draw's resync; floorman/phones.py), not every event.
//
// The seating services publish "seating.updated" after every change, with the seats
// taken ({entry, number, name, table, seat, from_table, from_seat}) and the entries
// whose seats were freed. Screens apply these deltas; whenever the socket (re)connects
// they fetch the full state once, since events may have been missed meanwhile (live.js
// asks them: their refresh is resync).
//
// The pure functions at the top take plain values and are tested with node
// (seating/tests/js/); the screens below them touch the DOM. Every user-facing text
// comes from the page (json_script "seating-config" / "entry-seat-config"), translated.
// The socket (live.js's one per tournament and page: a lobby's clock and seating board
// share it), JSON fetches, beeps and alerts are live.js's, loaded first.
// (The TD's table map has its own script, static/js/seating-map.js.)
(function (root, factory) {
  "use strict";
  var api = factory(
    typeof module === "object" && module.exports ? require("./live.js") : root.FloormanLive
  );
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.FloormanSeats = api;
    if (root.document) api.boot(root.document);
  }
})(typeof self !== "undefined" ? self : this, function (shared) {
  "use strict";

  var fetchJson = shared.fetchJson;
  var interpolate = shared.interpolate;
  var Sound = shared.Sound;

  // --- Pure functions -----------------------------------------------------------

  // Alphabetical as people read names: case and accents aside (Müller with Muller).
  // Mirrors seating.selectors.sort_key (floorman.names: casefold, marks stripped).
  function sortKey(name) {
    return String(name || "")
      .toLowerCase()
      .replace(/\u00df/g, "ss") // ß, as Python's casefold
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "") // combining marks; \p{M} is not in older TV browsers
      .replace(/\s+/g, " ")
      .trim();
  }

  // A name set into a line of text (the board's "Anna – Ben"): live.js's, as the
  // server's floorman.names.name_isolated.
  var isolated = shared.isolated;

  // A board row: the public fields only, with its sort key computed once.
  function boardRow(data) {
    return {
      entry: data.entry,
      number: data.number,
      name: data.name,
      table: data.table,
      seat: data.seat,
      key: sortKey(data.name),
    };
  }

  function compareRows(a, b) {
    if (a.key < b.key) return -1;
    if (a.key > b.key) return 1;
    return a.number - b.number;
  }

  function sortRows(rows) {
    return rows.map(boardRow).sort(compareRows);
  }

  // The board after one "seating.updated": the entries freed or seated elsewhere leave
  // their old rows, the seats taken come in at their place in the alphabet. `rows` is
  // sorted and is not changed; the answer is a new sorted list (or `rows` itself when
  // the delta is empty: a table added, a seat blocked).
  function applyUpdate(rows, update) {
    update = update || {};
    var seats = update.seats || [];
    var freed = update.freed || [];
    if (!seats.length && !freed.length) return rows;
    var gone = {};
    var taken = {};
    freed.forEach(function (entry) {
      gone[entry] = true;
    });
    seats.forEach(function (seat) {
      gone[seat.entry] = true;
      taken[seat.entry] = seat; // one entry twice in a delta: the later seat holds
    });
    var kept = rows.filter(function (row) {
      return !gone[row.entry];
    });
    var added = sortRows(
      Object.keys(taken).map(function (entry) {
        return taken[entry];
      })
    );
    return merge(kept, added);
  }

  function merge(a, b) {
    var out = [];
    var i = 0;
    var j = 0;
    while (i < a.length && j < b.length) {
      out.push(compareRows(a[i], b[j]) <= 0 ? a[i++] : b[j++]);
    }
    while (i < a.length) out.push(a[i++]);
    while (j < b.length) out.push(b[j++]);
    return out;
  }

  function pageCount(total, perPage) {
    return Math.max(1, Math.ceil(total / perPage));
  }

  // Page `page` (from 1) of the rows, cut into columns of `perColumn`, filled top to
  // bottom then left to right, as people read a list.
  function pageColumns(rows, page, perColumn, columns) {
    var perPage = perColumn * columns;
    var shown = rows.slice((page - 1) * perPage, page * perPage);
    var out = [];
    for (var i = 0; i < shown.length; i += perColumn) out.push(shown.slice(i, i + perColumn));
    return out;
  }

  // How many of the board's `columns` a field of `count` needs: the names of a small
  // field get the width of the panel (as web's seating_board does for the first paint).
  function usedColumns(count, perColumn, columns) {
    return Math.max(1, Math.min(columns, Math.ceil(count / perColumn)));
  }

  // The smallest a long name gets on the board, against the board's own size: still read
  // from across the room.
  var NAME_SCALE_MIN = 0.6;

  function nextPage(page, pages) {
    return page >= pages ? 1 : page + 1;
  }

  function hasSeat(state) {
    return state.table !== null && state.table !== undefined;
  }

  // What one "seating.updated" means for one entry: moved, seated for the first time
  // (with the new seat), freed, or nothing.
  function seatChange(current, update, entry) {
    var seats = (update && update.seats) || [];
    var freed = (update && update.freed) || [];
    var mine = null;
    for (var i = 0; i < seats.length; i++) {
      if (seats[i].entry === entry) mine = seats[i];
    }
    if (mine) {
      if (mine.table === current.table && mine.seat === current.seat) return { kind: null };
      var had = hasSeat(current);
      return {
        kind: had ? "moved" : "seated",
        table: mine.table,
        seat: mine.seat,
        from_table: had ? current.table : mine.from_table,
        from_seat: had ? current.seat : mine.from_seat,
      };
    }
    if (freed.indexOf(entry) !== -1) return { kind: "freed" };
    return { kind: null };
  }

  // --- The seating board --------------------------------------------------------------

  // `root` holds the board's [data-seating] parts: the document, or on a rotating lobby
  // screen the board of one tournament among several. The screen holds one page of the
  // board (issue 20: never the whole field); it asks the server for the page it turns
  // to, and for its page again after a change (the server files each page per seating
  // version, so a room of screens costs it one build).
  function BoardScreen(document, config, root) {
    this.document = document;
    this.root = root || document;
    this.config = config;
    this.strings = config.strings;
    this.rows = sortRows(config.seats || []);
    this.count = config.count === undefined ? this.rows.length : config.count;
    this.perColumn = config.rows;
    this.columns = config.columns;
    this.page = config.page || 1;
    this.generation = 0; // only the latest request's answer counts
    this.shown = null; // what the columns show: redraw only when it changes
    this.live = null; // the tournament's socket, once started
  }

  BoardScreen.prototype.start = function () {
    var self = this;
    this.render();
    // Only seating events: the clock's are clock.js's.
    this.live = shared.listen(this.document, this.config.urls.socket, {
      refresh: function () {
        self.resync();
      },
      events: {
        "seating.updated": function (message) {
          self.seatingUpdated(message);
        },
      },
      online: function (online) {
        self.field("offline", !online);
      },
    });
    window.setInterval(function () {
      self.turn(1);
    }, this.config.every * 1000);
    // A keyboard on the screen's computer pages by hand.
    this.document.addEventListener("keydown", function (event) {
      if (event.key === "ArrowRight" || event.key === "PageDown") self.turn(1);
      if (event.key === "ArrowLeft" || event.key === "PageUp") self.turn(-1);
    });
  };

  BoardScreen.prototype.perPage = function () {
    return this.perColumn * this.columns;
  };

  BoardScreen.prototype.pages = function () {
    return pageCount(this.count, this.perPage());
  };

  BoardScreen.prototype.turn = function (step) {
    var pages = this.pages();
    var page = this.page;
    if (step > 0) page = nextPage(page, pages);
    else page = page <= 1 ? pages : page - 1;
    if (page === this.page && pages === 1) return; // one page: nothing to turn to
    this.page = page;
    this.resync();
  };

  // Any change may move names across pages: the page shown is asked for again.
  BoardScreen.prototype.seatingUpdated = function () {
    this.resync();
  };

  // The page shown, from the server; of several answers only the latest request's
  // counts, so the screen is never older than the last change it heard of.
  BoardScreen.prototype.resync = function () {
    var self = this;
    var generation = ++this.generation;
    var url = this.config.urls.data + "?page=" + this.page + "&per=" + this.perPage();
    fetchJson(url).then(
      function (data) {
        if (generation !== self.generation) return; // a later request is under way
        self.rows = sortRows(data.seats || []);
        self.count = data.count || 0;
        if (data.page) self.page = data.page;
        self.render();
      },
      noop
    );
  };

  BoardScreen.prototype.render = function () {
    var s = this.strings;
    var pages = this.pages();
    var columns = pageColumns(this.rows, 1, this.perColumn, this.columns);
    var holder = this.root.querySelector("[data-seating=columns]");
    if (holder && holder.style) holder.style.setProperty("--columns", String(this.usedColumns()));
    var count = this.count;
    var paged = pages > 1;
    this.field("empty", count ? false : s.empty);
    this.field("page", paged ? interpolate(s.page, { page: this.page, pages: pages }) : "");
    var range = "";
    if (paged && columns.length) {
      var last = columns[columns.length - 1];
      range = interpolate(s.range, {
        first: isolated(columns[0][0].name),
        last: isolated(last[last.length - 1].name),
      });
    }
    this.field("range", range);
    var counted = interpolate(count === 1 ? s.count_one : s.count_other, { count: count });
    this.field("count", count ? counted : "");
    this.drawColumns(columns);
    this.fitNames();
    this.fitColumns();
  };

  // The columns a page needs: a field that fills one column does not leave the other
  // half of the panel empty while its names are cut short (issue 16).
  BoardScreen.prototype.usedColumns = function () {
    return usedColumns(this.count, this.perColumn, this.columns);
  };

  // A name too long for its cell takes a smaller size, down to NAME_SCALE_MIN of the
  // board's, and at that size wraps onto a second line if it must: the full name, never
  // "Wolfgang Sch…" (issue 16). What still does not fit counts for fitColumns.
  BoardScreen.prototype.fitNames = function () {
    var holder = this.root.querySelector("[data-seating=columns]");
    var view = this.document.defaultView;
    if (!holder || !holder.querySelectorAll || !view || !view.getComputedStyle) return;
    var names = holder.querySelectorAll("td.n");
    for (var i = 0; i < names.length; i++) {
      var cell = names[i];
      cell.style.fontSize = "";
      cell.classList.remove("wrap");
      if (cell.scrollWidth <= cell.clientWidth + 1) continue;
      var style = view.getComputedStyle(cell);
      var padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      var scale = (cell.clientWidth - padding) / (cell.scrollWidth - padding);
      scale = Math.max(NAME_SCALE_MIN, Math.floor(scale * 100) / 100);
      cell.style.fontSize = scale * parseFloat(style.fontSize) + "px";
      if (cell.scrollWidth > cell.clientWidth + 1) cell.classList.add("wrap");
    }
  };

  // A screen narrower than the board was set up for (a 4:3 TV beside the clock) leaves
  // most names too long for their cells even at the smallest size (fitNames wraps them):
  // then one column fewer, and more pages, until they can be read. A few long names (at
  // most a quarter) keep the columns, in a smaller size.
  BoardScreen.prototype.fitColumns = function () {
    var holder = this.root.querySelector("[data-seating=columns]");
    if (!holder || !holder.querySelectorAll || this.columns < 2) return;
    var names = holder.querySelectorAll("td.n");
    var cut = 0;
    for (var i = 0; i < names.length; i++) {
      var wrapped = names[i].classList && names[i].classList.contains("wrap");
      if (wrapped || names[i].scrollWidth > names[i].clientWidth + 1) cut += 1;
    }
    if (!names.length || cut * 4 <= names.length) return;
    // The first name shown stays on screen: its page at the new size is asked for.
    var first = (this.page - 1) * this.perPage();
    this.columns -= 1;
    this.page = Math.floor(first / this.perPage()) + 1;
    this.render();
    this.resync();
  };

  // A [data-seating=name] node: a text shows it with that text, true shows it as it
  // is, "" or false hides it.
  BoardScreen.prototype.field = function (name, value) {
    var node = this.root.querySelector("[data-seating=" + name + "]");
    if (!node) return;
    if (typeof value === "string" && value && node.textContent !== value) {
      node.textContent = value;
    }
    node.hidden = !value;
  };

  BoardScreen.prototype.drawColumns = function (columns) {
    var signature = JSON.stringify(
      columns.map(function (column) {
        return column.map(function (row) {
          return [row.name, row.table, row.seat];
        });
      })
    );
    if (signature === this.shown) return;
    this.shown = signature;
    var holder = this.root.querySelector("[data-seating=columns]");
    if (!holder) return;
    var doc = this.document;
    var s = this.strings;
    while (holder.firstChild) holder.removeChild(holder.firstChild);
    columns.forEach(function (column) {
      var table = element(doc, "table", "seat-column");
      var head = element(doc, "thead");
      var headRow = element(doc, "tr");
      headRow.appendChild(element(doc, "th", "n", s.name));
      headRow.appendChild(element(doc, "th", "t", s.table));
      headRow.appendChild(element(doc, "th", "s", s.seat));
      head.appendChild(headRow);
      table.appendChild(head);
      var body = element(doc, "tbody");
      column.forEach(function (row) {
        var tr = element(doc, "tr");
        tr.appendChild(element(doc, "td", "n", row.name)); // names are text, never HTML
        tr.appendChild(element(doc, "td", "t", String(row.table)));
        tr.appendChild(element(doc, "td", "s", String(row.seat)));
        body.appendChild(tr);
      });
      table.appendChild(body);
      holder.appendChild(table);
    });
  };

  // --- A player's own page ----------------------------------------------------------

  function EntryScreen(document, config) {
    this.document = document;
    this.config = config;
    this.strings = config.strings;
    this.entry = config.entry;
    this.state = {
      status: config.state.status,
      table: config.state.table,
      seat: config.state.seat,
      wait_for_button: !!config.state.wait_for_button,
    };
    this.note = "";
    this.version = 0; // events for this entry seen: a resync answer older than one is stale
    this.sound = new Sound();
    this.title = document.title;
    this.live = null; // the entry's socket, once started
  }

  EntryScreen.prototype.start = function () {
    var self = this;
    this.enableSoundOnTap();
    this.render();
    var receive = function (message) {
      self.receive(message);
    };
    this.live = shared.listen(this.document, this.config.urls.socket, {
      refresh: function () {
        self.resync();
      },
      events: shared.on(["seating.updated", "entry.updated"], receive),
      online: function (online) {
        self.show("offline", !online);
      },
    });
    this.live.wakeOnVisible();
  };

  EntryScreen.prototype.enableSoundOnTap = function () {
    var self = this;
    var hint = this.document.querySelector("[data-live=sound_hint]");
    if (hint) hint.hidden = false; // without script it would promise nothing
    var enable = function () {
      if (!self.sound.enable()) return;
      if (hint && !hint.hidden) {
        hint.hidden = true;
        self.sound.beeps(1, 660, 0.12); // this tap: the sound works
      }
      var on = self.document.querySelector("[data-live=sound_on]");
      if (on && on.hidden) {
        on.textContent = self.strings.sound_on;
        on.hidden = false;
      }
    };
    ["pointerdown", "click", "keydown", "touchend"].forEach(function (kind) {
      self.document.addEventListener(kind, enable);
    });
  };

  EntryScreen.prototype.receive = function (message) {
    var data = message.data || {};
    if (message.type === "seating.updated" && data.resync) {
      this.resync(); // a whole draw: ask for this entry's seat (a move still alerts)
    } else if (message.type === "seating.updated") {
      var change = seatChange(this.state, data, this.entry);
      if (change.kind) this.version += 1;
      if (change.kind === "freed") {
        this.state.table = null;
        this.state.seat = null;
        this.state.wait_for_button = false;
        this.note = this.strings.freed;
        this.render();
        this.resync(); // a bust or a cancellation: learn the status too
      } else if (change.kind) {
        this.moveTo(change);
      }
    } else if (message.type === "entry.updated" && data.id === this.entry && data.status) {
      this.version += 1;
      this.state.status = data.status;
      this.render();
    }
  };

  EntryScreen.prototype.moveTo = function (change) {
    this.state.table = change.table;
    this.state.seat = change.seat;
    this.state.wait_for_button = false;
    var from = change.from_table !== null && change.from_table !== undefined;
    this.note = interpolate(
      change.kind === "moved" && from ? this.strings.moved : this.strings.seated,
      change
    );
    this.render();
    this.alert(change);
  };

  // After a (re)connection: the seat as it is now; a move missed meanwhile still alerts.
  EntryScreen.prototype.resync = function () {
    var self = this;
    var seen = this.version;
    fetchJson(this.config.urls.data).then(function (data) {
      if (self.version !== seen) return; // an event brought newer news meanwhile
      var state = self.state;
      state.status = data.status;
      var now = { table: data.table, seat: data.seat };
      if (hasSeat(now) && (now.table !== state.table || now.seat !== state.seat)) {
        self.moveTo({
          kind: hasSeat(state) ? "moved" : "seated",
          table: now.table,
          seat: now.seat,
          from_table: state.table,
          from_seat: state.seat,
        });
      } else if (!hasSeat(now) && hasSeat(state)) {
        state.table = null;
        state.seat = null;
        self.note = self.strings.freed;
      }
      state.wait_for_button = !!data.wait_for_button;
      self.render();
    }, noop);
  };

  // Sound, vibration and a flash of the seat (live.js), and the tab's title.
  EntryScreen.prototype.alert = function (change) {
    shared.attention(this.sound, this.document.querySelector("[data-live=box]"));
    // A tab in the background shows it in its title.
    this.document.title = interpolate(this.strings.title_moved, change) + " · " + this.title;
  };

  EntryScreen.prototype.render = function () {
    var s = this.state;
    var seated = hasSeat(s);
    this.text("table", seated ? String(s.table) : "");
    this.text("seat", seated ? String(s.seat) : "");
    this.show("where", seated);
    var none = s.status === "active" ? this.strings.not_seated : this.strings.statuses[s.status];
    this.text("none", seated ? "" : none || "");
    this.show("none", !seated);
    this.text("note", this.note);
    this.show("note", !!this.note);
    this.show("wait", seated && s.wait_for_button);
    var status = this.document.querySelector("[data-live=status]");
    if (status) {
      status.textContent = this.strings.statuses[s.status] || s.status;
      status.className = "badge status-" + s.status;
    }
  };

  EntryScreen.prototype.text = function (name, value) {
    var node = this.document.querySelector("[data-live=" + name + "]");
    if (node && node.textContent !== value) node.textContent = value;
  };

  EntryScreen.prototype.show = function (name, visible) {
    var node = this.document.querySelector("[data-live=" + name + "]");
    if (node) node.hidden = !visible;
  };

  // --- Helpers --------------------------------------------------------------------

  function noop() {}

  function element(doc, tag, className, text) {
    var node = doc.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // One board, or one per tournament on a rotating lobby screen ("seating-config-1"...).
  function boardConfigs(document) {
    var scripts = [];
    var first = document.getElementById("seating-config");
    for (var n = 1; first; n++) {
      scripts.push(JSON.parse(first.textContent));
      first = document.getElementById("seating-config-" + n);
    }
    return scripts;
  }

  function boot(document) {
    shared.whenReady(document, function () {
      boardConfigs(document).forEach(function (config) {
        var root = document.querySelector('[data-board="' + config.id + '"]');
        new BoardScreen(document, config, root).start();
      });
      var entry = document.getElementById("entry-seat-config");
      if (entry) new EntryScreen(document, JSON.parse(entry.textContent)).start();
    });
  }

  return {
    sortKey: sortKey,
    isolated: isolated,
    boardRow: boardRow,
    compareRows: compareRows,
    sortRows: sortRows,
    applyUpdate: applyUpdate,
    pageCount: pageCount,
    pageColumns: pageColumns,
    usedColumns: usedColumns,
    nextPage: nextPage,
    seatChange: seatChange,
    BoardScreen: BoardScreen,
    EntryScreen: EntryScreen,
    boardConfigs: boardConfigs,
    boot: boot,
  };
});
