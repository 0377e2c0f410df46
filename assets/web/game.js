// A game page: the slider, the buttons, the arrow keys and the move list step the board.
"use strict";
(function () {
  const board = document.getElementById("board");
  const slider = document.getElementById("ply");
  if (!board || !slider) return;
  const label = document.getElementById("plyno");
  const last = Number(slider.max);
  const links = document.querySelectorAll("ol.moves a[data-ply]");
  function show(ply) {
    ply = Math.max(0, Math.min(last, ply));
    slider.value = String(ply);
    board.src = board.dataset.base + ply;
    board.alt = "The board after ply " + ply + " of " + last;
    label.textContent = "ply " + ply + " of " + last;
    links.forEach(function (a) {
      if (Number(a.dataset.ply) === ply) a.setAttribute("aria-current", "step");
      else a.removeAttribute("aria-current");
    });
    history.replaceState(null, "", "?ply=" + ply);
  }
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  document.getElementById("prev").addEventListener("click", function () { show(Number(slider.value) - 1); });
  document.getElementById("next").addEventListener("click", function () { show(Number(slider.value) + 1); });
  links.forEach(function (a) {
    a.addEventListener("click", function (e) { e.preventDefault(); show(Number(a.dataset.ply)); });
  });
  document.addEventListener("keydown", function (e) {
    if (e.target === slider) return; // the slider steps itself, and fires "input"
    const keys = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in keys) { e.preventDefault(); show(Number(slider.value) + keys[e.key]); }
    else if (e.key === "Home") { e.preventDefault(); show(0); }
    else if (e.key === "End") { e.preventDefault(); show(last); }
  });
})();
