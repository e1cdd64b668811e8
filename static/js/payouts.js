/* The running sum of the typed amounts against the prize pool. The page works without it:
   the server checks the sum and states the difference. */
(function () {
  var form = document.getElementById("payout-lines");
  var out = document.getElementById("payout-lines-sum");
  if (!form || !out) return;
  var config = JSON.parse(document.getElementById("payout-lines-config").textContent);
  var lang = document.documentElement.lang || "en";
  var currency = out.dataset.currency;
  var format = new Intl.NumberFormat(lang, {style: "currency", currency: currency});
  var scale = Math.pow(10, config.decimals);
  function cents(text) {
    /* Read as the server reads it: the language's decimal separator, no grouping. */
    text = text.trim();
    if (!text) return 0;
    var at = text.indexOf(config.sep);
    if (at >= 0) text = text.slice(0, at) + "." + text.slice(at + 1);
    if (!/^\d*(\.\d*)?$/.test(text) || text === ".") return NaN;
    return Math.round(parseFloat(text) * scale);
  }
  function show() {
    var total = 0;
    var bad = false;
    form.querySelectorAll("input[data-line]").forEach(function (input) {
      var value = cents(input.value);
      if (isNaN(value)) bad = true; else total += value;
    });
    var difference = total - config.pool;
    out.querySelector("[data-sum]").textContent = bad ? "?" : format.format(total / scale);
    out.querySelector("[data-difference]").textContent = bad ? "?" : format.format(difference / scale);
    out.classList.toggle("off", bad || difference !== 0);
    out.classList.toggle("ok", !bad && difference === 0);
  }
  form.addEventListener("input", show);
  show();
})();
