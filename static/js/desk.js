// Registration desk: keyboard-first picking of a matching player.
// ↓ from the name field goes to the first match, ↓/↑ move between matches,
// ↑ from the first match (or Esc) goes back to the name field. Enter on a match
// registers that player (it is a submit button); Enter in the name field registers
// a new player with the typed name. Without this file the desk still works.
(function () {
  "use strict";

  function parts() {
    var desk = document.getElementById("desk");
    if (!desk) return null;
    return {
      desk: desk,
      name: desk.querySelector("#id_name"),
      matches: Array.prototype.slice.call(desk.querySelectorAll("#desk-matches button.match")),
    };
  }

  document.addEventListener("keydown", function (event) {
    var p = parts();
    if (!p || !p.name || !p.desk.contains(document.activeElement)) return;
    var index = p.matches.indexOf(document.activeElement);
    if (event.key === "ArrowDown") {
      if (document.activeElement === p.name && p.matches.length) {
        p.matches[0].focus();
        event.preventDefault();
      } else if (index >= 0 && index < p.matches.length - 1) {
        p.matches[index + 1].focus();
        event.preventDefault();
      }
    } else if (event.key === "ArrowUp" && index >= 0) {
      (index === 0 ? p.name : p.matches[index - 1]).focus();
      event.preventDefault();
    } else if (event.key === "Escape") {
      var cancel = p.desk.querySelector("[data-desk-cancel]");
      if (cancel && cancel.closest(".confirm-reentry").contains(document.activeElement)) {
        cancel.click();
      } else {
        p.name.focus();
        p.name.select();
      }
      event.preventDefault();
    }
  });

  // The receipt's print button: shown only where a script can print. The receipt is
  // swapped in by htmx, so one listener on the document serves every receipt.
  function showPrintButtons() {
    document.querySelectorAll("#desk [data-print]").forEach(function (button) {
      button.hidden = false;
    });
  }
  showPrintButtons();
  document.addEventListener("htmx:afterSettle", showPrintButtons);
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#desk [data-print]")) window.print();
  });

  // WCAG 4.1.3: the result of a registration is read out by #desk-announce, the one
  // live region that stays on the page (a region swapped in with the result is not
  // reliably announced). The server wrote the sentence into data-announce; a desk
  // without a result (an error, the re-entry question) empties the region, so that
  // it never holds the previous player's seat.
  function announce() {
    var region = document.getElementById("desk-announce");
    if (!region) return;
    var result = document.querySelector("#desk [data-announce]");
    region.textContent = result ? result.getAttribute("data-announce") : "";
  }

  // After a registration the desk is swapped in fresh: say what happened, and put
  // the cursor where the next player's name goes (or on the re-entry confirmation).
  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail && event.detail.requestConfig;
    if (!config || config.verb !== "post") return;
    announce();
    var target = document.querySelector("#desk [autofocus]");
    if (target) target.focus();
  });
})();
