// Display formulas a little wider than the text column (up to 1/0.7 of it) are scaled down to fit
// it whole; wider ones keep their size and scroll inside their box, where wide.css shades the side
// that has more.  Runs once MathJax has typeset the page, and again when the window is resized.
(function () {
  "use strict";
  var SMALLEST = 0.7;
  function fit() {
    document.querySelectorAll('mjx-container[display="true"]').forEach(function (container) {
      if (container.dataset.fontSize === undefined) {
        container.dataset.fontSize = container.style.fontSize || "";
      }
      container.style.fontSize = container.dataset.fontSize;
      var math = container.querySelector("mjx-math");
      var box = container.closest(".math-wrapper") || container.parentElement;
      if (!math || !box) {
        return;
      }
      var room = box.clientWidth - 4;
      var need = math.getBoundingClientRect().width;
      if (room > 0 && need > room && room / need >= SMALLEST) {
        var size = parseFloat(window.getComputedStyle(container).fontSize);
        container.style.fontSize = (size * room / need).toFixed(2) + "px";
      }
    });
  }
  function start() {
    if (window.MathJax && window.MathJax.startup && window.MathJax.startup.promise) {
      window.MathJax.startup.promise.then(fit);
    } else {
      window.setTimeout(start, 100);
    }
  }
  var pending;
  window.addEventListener("load", start);
  window.addEventListener("resize", function () {
    window.clearTimeout(pending);
    pending = window.setTimeout(fit, 150);
  });
})();
