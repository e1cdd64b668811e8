// TD clock console: live countdowns, keyboard shortcuts and their help, confirmations,
// live refresh.
// Without this file the console still works (plain forms, a confirmation page).
// The socket, the time probe's arithmetic and the swap of a fresh console are live.js's
// (window.FloormanLive), loaded first.
(function (shared) {
  "use strict";

  var root = document.getElementById("console");
  if (!root) return;
  var offset = 0; // server time minus this browser's time, in ms
  var bestRoundTrip = Infinity;
  var format = shared.formatDuration; // "09:59", "1:05:00"

  // Every frame: the end time minus (now + offset). Never a counter that drifts.
  function render() {
    var now = Date.now() + offset;
    root.querySelectorAll("[data-countdown]").forEach(function (el) {
      var ends = el.getAttribute("data-ends-at");
      if (!ends) return;
      var left = Date.parse(ends) - now;
      var text = format(left);
      if (el.textContent !== text) el.textContent = text; // once a second, not every frame
      var item = el.closest("[data-player-clock]");
      if (item) {
        var countdown = Number(item.getAttribute("data-countdown-from")) * 1000;
        item.classList.toggle("counting-down", left > 0 && left <= countdown);
        item.querySelector(".pc-expired").hidden = left > 0;
      }
    });
    window.requestAnimationFrame(render);
  }

  // Confirm before actions that throw away time or a level.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute("data-confirm");
    if (!question) return;
    if (!window.confirm(question)) { event.preventDefault(); return; }
    var field = document.createElement("input");
    field.type = "hidden"; field.name = "confirm"; field.value = "on";
    form.appendChild(field);
  });

  // WCAG 2.4.3: a console button used from the keyboard has the focus again once the
  // console has loaded after its post; the state it left is announced if it changed.
  var FOCUS_KEY = "floorman:console-focus";
  var STATE_KEY = "floorman:console-state";
  document.addEventListener("submit", function (event) {
    if (event.defaultPrevented || !root.contains(event.target)) return;
    var used = event.submitter;
    try {
      window.sessionStorage.setItem(STATE_KEY, stateText());
      if (used && used.id && document.activeElement === used) window.sessionStorage.setItem(FOCUS_KEY, used.id);
    } catch (error) { /* storage refused: the page still works */ }
  });

  // --- What a screen reader hears (WCAG 4.1.3) ----------------------------------------
  // The ticking time is a timer, never live; the one live region (#clock-announce, outside
  // the console) gets the status and the level when either changes.
  var announcer = document.getElementById("clock-announce");

  function stateText() {
    return [".clock-status", ".clock-level"].map(function (selector) {
      var el = root.querySelector(selector);
      return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
    }).filter(Boolean).join(". ");
  }

  var said = stateText();

  function announceChange() {
    var now = stateText();
    if (now === said) return;
    said = now;
    if (announcer) announcer.textContent = now;
  }

  function restore() {
    var before = null, focus = null;
    try {
      before = window.sessionStorage.getItem(STATE_KEY);
      focus = window.sessionStorage.getItem(FOCUS_KEY);
      window.sessionStorage.removeItem(STATE_KEY);
      window.sessionStorage.removeItem(FOCUS_KEY);
    } catch (error) { return; }
    var used = focus && document.getElementById(focus);
    if (used) used.focus();
    // Set after the page has settled: a region filled as it loads is not read out.
    if (before !== null && before !== said && announcer) {
      window.setTimeout(function () { announcer.textContent = said; }, 300);
    }
  }
  restore();

  // Keyboard shortcuts, listed in the help that "?" opens (#shortcuts). Each presses a
  // button of the console, so a key does what the click does, asking first where it asks.
  var PRESS = {
    " ": "toggle", // start, pause, resume
    "+": "plus", "=": "plus", // a minute more ("=" is "+" without Shift)
    "-": "minus",
    n: "next", N: "next", ArrowRight: "next",
    p: "previous", P: "previous", ArrowLeft: "previous",
  };
  var help = document.getElementById("shortcuts");
  var opener = null; // what had the focus before the help opened: it gets it back
  var SWITCH_KEY = "floorman:shortcuts"; // "off": this computer's director turned them off

  // WCAG 2.1.4: a single key acts only while no control has the focus (a key pressed on
  // a link or a button is that control's), and the keys can be turned off.
  var CONTROLS = ["A", "BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY"];
  function control(element) {
    if (!element || element === document.body) return false;
    if (CONTROLS.indexOf(element.tagName) >= 0 || element.isContentEditable === true) return true;
    var stop = typeof element.getAttribute === "function" ? element.getAttribute("tabindex") : null;
    return stop !== null && Number(stop) >= 0; // a tab stop of its own (a wide table)
  }

  function typing(element) {
    return !!element && (/^(INPUT|SELECT|TEXTAREA)$/.test(element.tagName) || element.isContentEditable === true);
  }

  function keysOn() {
    try { return window.localStorage.getItem(SWITCH_KEY) !== "off"; } catch (error) { return true; }
  }

  document.querySelectorAll("[data-shortcuts-toggle]").forEach(function (box) {
    box.checked = keysOn();
    box.addEventListener("change", function () {
      try {
        if (box.checked) window.localStorage.removeItem(SWITCH_KEY);
        else window.localStorage.setItem(SWITCH_KEY, "off");
      } catch (error) { /* storage refused: the keys stay as they were */ }
    });
  });

  function helpOpen() {
    if (!help || help.open || typeof help.showModal !== "function") return;
    opener = document.activeElement;
    help.showModal();
  }

  if (help) {
    // Closed, the focus goes back where it was. Escape and the Close button close the
    // dialog at once and the browser gives the focus back as it closes; the close event
    // comes a moment later, when a key (Escape off the button) may have moved it on
    // already: it must not take the focus back then. Closed any other way, it does.
    help.addEventListener("cancel", function () { opener = null; });
    var closeForm = typeof help.querySelector === "function" && help.querySelector('form[method="dialog"]');
    if (closeForm) closeForm.addEventListener("submit", function () { opener = null; });
    help.addEventListener("close", function () {
      if (opener && typeof opener.focus === "function" && document.contains(opener)) opener.focus();
      opener = null;
    });
    document.querySelectorAll("[data-shortcuts-open]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", helpOpen);
    });
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat || event.defaultPrevented) return;
    if (help && help.open) return; // the help takes its own keys: Escape closes it
    var active = document.activeElement;
    if (event.key === "Escape" && control(active)) {
      active.blur(); // off the control: the keys act again
      return;
    }
    if (control(active) || !keysOn()) return; // the key is the control's, or keys are off
    if (event.key === "?") { event.preventDefault(); helpOpen(); return; }
    if (event.key === "a" || event.key === "A") {
      var field = document.querySelector("#announce [name=text]");
      // The "a" itself is not typed into the field (preventDefault).
      if (field) { event.preventDefault(); field.focus(); }
      return;
    }
    var id = PRESS[event.key];
    var button = id && document.getElementById(id);
    if (button) { event.preventDefault(); button.click(); }
  });

  // The console as the server renders it now, unless the TD is in one of its fields.
  // A button with the focus has it again in the fresh console (the same id).
  function refresh() {
    var focused = document.activeElement;
    var id = focused && root.contains(focused) ? focused.id : "";
    shared.swapPart(document, root.getAttribute("data-refresh-url"), "#console", function (shown) {
      return typing(document.activeElement) && shown.contains(document.activeElement);
    }).then(function () {
      var again = id && !root.contains(document.activeElement) && document.getElementById(id);
      if (again) again.focus();
      announceChange();
    });
  }

  // Any event may change what the console shows (the clock, entries, the prize pool).
  var events = shared.on(shared.KINDS, refresh);
  events["time.pong"] = function (message) {
    var now = Date.now();
    var sample = shared.timeSample(message.client, message.server, now);
    if (sample.rtt < bestRoundTrip) { bestRoundTrip = sample.rtt; offset = sample.offset; }
  };

  var live = shared.listen(document, "/ws/tournaments/" + root.getAttribute("data-tournament") + "/", {
    // On every (re)connection: probe the server's time and fetch the console once.
    refresh: function () {
      for (var i = 0; i < 5; i++) {
        setTimeout(function () { live.send({ type: "time.ping", client: Date.now() }); }, i * 200);
      }
      refresh();
    },
    events: events,
  });

  window.requestAnimationFrame(render);
})(window.FloormanLive);
