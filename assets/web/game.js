// A game page: the slider, the buttons, the arrow keys and the move list step the board; while
// the game is being played, new plies arrive as server-sent events and join the list.
"use strict";
(function () {
  const board = document.getElementById("board");
  const slider = document.getElementById("ply");
  if (!board || !slider) return;
  const label = document.getElementById("plyno");
  const list = document.querySelector("ol.moves");
  let last = Number(slider.max);
  // Seen from Black's side (the Flip button), kept in the address with the ply.
  let flipped = board.dataset.flip === "1";
  function links() { return list.querySelectorAll("a[data-ply]"); }
  function show(ply) {
    ply = Math.max(0, Math.min(last, ply));
    slider.value = String(ply);
    board.src = board.dataset.base + ply + (flipped ? "?flip=1" : "");
    board.alt = "The board after ply " + ply + " of " + last;
    label.textContent = "ply " + ply + " of " + last;
    let current = null;
    links().forEach(function (a) {
      if (Number(a.dataset.ply) === ply) { a.setAttribute("aria-current", "step"); current = a; }
      else a.removeAttribute("aria-current");
    });
    keepInSight(current);
    history.replaceState(null, "", "?ply=" + ply + (flipped ? "&flip=1" : ""));
    showPosition(ply);
  }
  // The shown position's notation beside the board, asked of the server for each ply (a late
  // answer for a ply no longer shown is dropped), and copied by its button.
  const position = document.getElementById("position");
  function showPosition(ply) {
    if (!position) return;
    fetch(position.dataset.base + ply).then(function (r) { return r.ok ? r.text() : ""; })
      .then(function (text) { if (Number(slider.value) === ply) { position.value = text; listStacks(text); } })
      .catch(function () {});
  }
  // Every stack of two or more in a TPS, bottom up (○ White, ● Black), the pieces that may be
  // carried off it (as many as the board is wide) underlined, and what is on top; text only.
  const stacks = document.getElementById("stacks");
  const KINDS = { "": "flat", S: "wall", C: "capstone" };
  function listStacks(tps) {
    if (!stacks) return;
    const rows = tps.split(" ")[0].split("/");
    const items = [];
    rows.forEach(function (row, r) {
      let file = 0;
      row.split(",").forEach(function (square) {
        const empty = /^x(\d*)$/.exec(square);
        if (empty) { file += Number(empty[1] || 1); return; }
        const stack = /^([12]+)([SC]?)$/.exec(square);
        if (stack && stack[1].length >= 2) items.push(stackItem(
          String.fromCharCode(97 + file) + (rows.length - r), stack[1], stack[2], rows.length));
        file += 1;
      });
    });
    stacks.replaceChildren.apply(stacks, items);
    document.getElementById("stacks-legend").hidden = items.length === 0;
  }
  function stackItem(name, pieces, top, carry) {
    const li = document.createElement("li");
    const b = document.createElement("b");
    b.textContent = name;
    const marks = pieces.replace(/1/g, "○").replace(/2/g, "●");
    const cut = Math.max(0, marks.length - carry);
    const shown = document.createElement("span");
    shown.className = "pieces";
    shown.textContent = marks.slice(0, cut);
    const carried = document.createElement("span");
    carried.className = "carry";
    carried.textContent = marks.slice(cut);
    shown.appendChild(carried);
    const owner = pieces[pieces.length - 1] === "1" ? "White" : "Black";
    li.append(b, " ", String(pieces.length), " ", shown, ", " + owner + " " + KINDS[top] + " on top");
    return li;
  }
  if (position) listStacks(position.value);
  const flip = document.getElementById("flip");
  if (flip) {
    flip.addEventListener("click", function () {
      flipped = !flipped;
      flip.setAttribute("aria-pressed", String(flipped));
      show(Number(slider.value));
    });
  }
  const copy = document.getElementById("copy");
  if (position && copy) {
    copy.addEventListener("click", function () {
      position.select();
      const done = function () { copy.textContent = "Copied"; };
      if (navigator.clipboard) navigator.clipboard.writeText(position.value).then(done, function () {});
      else if (document.execCommand("copy")) done();
    });
  }
  // Where the moves are a box of their own (beside the board on a desktop), the current ply
  // is scrolled into its middle when it is out of sight; the page itself never scrolls.
  function keepInSight(a) {
    const box = list.closest("section");
    if (!a || !box || box.scrollHeight <= box.clientHeight) return;
    const shown = box.getBoundingClientRect();
    const at = a.getBoundingClientRect();
    if (at.top < shown.top || at.bottom > shown.bottom) {
      box.scrollTop += at.top - shown.top - shown.height / 2;
    }
  }
  function link(ply, text) {
    const a = document.createElement("a");
    a.href = "?ply=" + ply;
    a.dataset.ply = String(ply);
    a.textContent = text;
    return a;
  }
  // The list again from the plies, two to a move (text only: names and plies are never markup).
  function relist(plies, took) {
    const start = document.createElement("li");
    start.appendChild(link(0, "start"));
    const items = [start];
    for (let i = 0; i < plies.length; i += 2) {
      const li = document.createElement("li");
      const n = document.createElement("span");
      n.className = "n";
      n.textContent = (i / 2 + 1) + ".";
      li.appendChild(n);
      for (let j = i; j < Math.min(i + 2, plies.length); j++) {
        li.appendChild(document.createTextNode(" "));
        li.appendChild(link(j + 1, plies[j]));
        if (took[j]) {
          const t = document.createElement("span");
          t.className = "took";
          t.title = "Time taken";
          t.textContent = took[j];
          li.appendChild(document.createTextNode(" "));
          li.appendChild(t);
        }
      }
      items.push(li);
    }
    list.replaceChildren.apply(list, items);
  }
  function timeOf(ms) {
    const t = document.createElement("time");
    t.dataset.ms = String(ms);
    t.dateTime = new Date(ms).toISOString();
    // As the server writes it ("2026.11.28 14:05 UTC"), kept in the title once localized.
    t.textContent = t.dateTime.slice(0, 16).replace("T", " ").split("-").join(".") + " UTC";
    return t;
  }
  // The status line as the page first drew it (names as text, isolated).
  function status(news) {
    const line = document.getElementById("status");
    if (!news.to_move) { line.textContent = news.status; return; }
    const who = document.createElement("bdi");
    who.textContent = news.to_move;
    const parts = [who, " to move, since ", timeOf(news.since_ms)];
    if (news.deadline_ms) parts.push("; loses on time at ", timeOf(news.deadline_ms));
    parts.push(".");
    line.replaceChildren.apply(line, parts);
    window.bredonLocalize(line);
  }
  keepInSight(list.querySelector("a[aria-current]"));
  // A ply's link in `box` steps the board there in the page, then `after` runs.
  function stepsOnClick(box, after) {
    box.addEventListener("click", function (e) {
      const a = e.target.closest("a[data-ply]");
      if (!a) return;
      e.preventDefault();
      show(Number(a.dataset.ply));
      after();
    });
  }
  stepsOnClick(list, function () {});
  // A commented ply of the analysis also brings the board into sight.
  const judged = document.querySelector("ul.judged");
  if (judged) stepsOnClick(judged, function () { board.scrollIntoView({ block: "nearest" }); });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  document.getElementById("prev").addEventListener("click", function () { show(Number(slider.value) - 1); });
  document.getElementById("next").addEventListener("click", function () { show(Number(slider.value) + 1); });
  document.addEventListener("keydown", function (e) {
    if (e.target === slider) return; // the slider steps itself, and fires "input"
    const keys = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in keys) { e.preventDefault(); show(Number(slider.value) + keys[e.key]); }
    else if (e.key === "Home") { e.preventDefault(); show(0); }
    else if (e.key === "End") { e.preventDefault(); show(last); }
  });
  if (board.dataset.events && window.EventSource) {
    const events = new EventSource(board.dataset.events + "?plies=" + last);
    events.addEventListener("plies", function (e) {
      const news = JSON.parse(e.data);
      const atEnd = Number(slider.value) === last;
      last = news.plies.length;
      slider.max = String(last);
      relist(news.plies, news.took);
      status(news);
      show(atEnd ? last : Number(slider.value));
      if (news.finished) events.close();
    });
  }
})();
