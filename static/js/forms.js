// Forms marked data-swap-refusals show the server's answer to a refused input (400 with
// the field errors, 409 with the reason) in place, as the plain form post would.
// A file, not an inline handler: the Content Security Policy allows no inline script.
document.addEventListener("htmx:beforeSwap", function (event) {
  var detail = event.detail || {};
  var status = detail.xhr ? detail.xhr.status : 0;
  var form = detail.requestConfig ? detail.requestConfig.elt : null;
  if (status >= 400 && status < 500 && form && form.closest("[data-swap-refusals]")) {
    detail.shouldSwap = true;
    detail.isError = false;
  }
});

// On a phone the tournament's navigation is one line that scrolls sideways: bring the
// page's own entry into view, so that it shows where you are.
document.addEventListener("DOMContentLoaded", function () {
  var here = document.querySelector('.subnav [aria-current="page"]');
  var nav = here ? here.closest(".subnav") : null;
  if (nav && nav.scrollWidth > nav.clientWidth) {
    nav.scrollLeft = here.offsetLeft - (nav.clientWidth - here.offsetWidth) / 2;
  }
});

// WCAG 2.1.1: a table wider than its box scrolls sideways, and the keyboard reaches and
// scrolls it once it is a tab stop: given only where it scrolls (a table that fits is
// none), and again after htmx swaps a part in or the window changes size.
function tableScrollersReachable() {
  document.querySelectorAll(".table-scroll").forEach(function (box) {
    if (box.scrollWidth > box.clientWidth) box.setAttribute("tabindex", "0");
    else box.removeAttribute("tabindex");
  });
}
document.addEventListener("DOMContentLoaded", tableScrollersReachable);
document.addEventListener("htmx:afterSettle", tableScrollersReachable);
window.addEventListener("resize", tableScrollersReachable);
