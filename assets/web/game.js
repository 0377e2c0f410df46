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
  // Every position of the game and the game's colours: a Tak board is drawn here, so a step
  // asks the server for nothing (the server's picture stays for the first paint and for
  // browsers without script; Takat's boards are still the server's pictures).
  let viewer = board.dataset.viewer ? JSON.parse(board.dataset.viewer) : null;
  let plies = [].map.call(links(), function (a) { return a.textContent; }).slice(1);
  let selected = null;
  // Whether the game has ended (then nobody is to move after its last ply).
  let over = !board.dataset.events;
  const drawn = viewer && viewer.kind === "tak" && window.bredonBoard ? drawnBoard() : null;
  function drawnBoard() {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.id = "drawn";
    svg.setAttribute("role", "img");
    board.after(svg);
    board.hidden = true;
    svg.addEventListener("click", function (e) {
      const square = e.target.closest("[data-square]");
      if (!square) return;
      const name = square.getAttribute("data-square");
      selected = selected === name ? null : name;
      show(Number(slider.value));
    });
    return svg;
  }
  function links() { return list.querySelectorAll("a[data-ply]"); }
  function show(ply) {
    ply = Math.max(0, Math.min(last, ply));
    slider.value = String(ply);
    const alt = "The board after ply " + ply + " of " + last;
    if (drawn) {
      const shown = bredonBoard.draw(drawn, viewer.positions[ply], {
        theme: viewer.theme, flipped: flipped, ply: plies[ply - 1], selected: selected });
      drawn.setAttribute("aria-label", alt);
      drawn.dataset.ply = String(ply);
      drawn.dataset.flip = flipped ? "1" : "0";
      tally(shown, viewer.hands[ply]);
      tellSquare(shown);
    } else {
      board.src = board.dataset.base + ply + (flipped ? "?flip=1" : "");
      board.alt = alt;
    }
    label.textContent = "ply " + ply + " of " + last;
    let current = null;
    links().forEach(function (a) {
      if (Number(a.dataset.ply) === ply) { a.setAttribute("aria-current", "step"); current = a; }
      else a.removeAttribute("aria-current");
    });
    keepInSight(current);
    history.replaceState(null, "", "?ply=" + ply + (flipped ? "&flip=1" : ""));
    if (position && viewer) {
      position.value = viewer.positions[ply];
      listStacks(position.value);
    }
  }
  // Under the drawn board: each player's flats on top and pieces in hand, and whose move.
  const tallyLine = document.getElementById("tally");
  function tally(shown, hands) {
    if (!tallyLine) return;
    const flats = [0, 0];
    shown.rows.forEach(function (row) {
      row.forEach(function (s) { if (s && !s.top) flats[Number(s.pieces[s.pieces.length - 1]) - 1] += 1; });
    });
    const parts = [];
    [0, 1].forEach(function (seat) {
      const who = document.createElement("bdi");
      who.textContent = viewer.players[seat];
      const stones = hands[seat * 2], caps = hands[seat * 2 + 1];
      parts.push(seat ? " · " : "", seat ? "● " : "○ ", who, ": " + flats[seat] + (flats[seat] === 1 ? " flat" : " flats") +
        ", " + stones + (stones === 1 ? " stone" : " stones") + (caps ? ", " + caps + (caps === 1 ? " cap" : " caps") : "") +
        " in hand" + (shown.toMove === seat && !(over && Number(slider.value) === last) ? ", to move" : ""));
    });
    tallyLine.replaceChildren.apply(tallyLine, parts);
  }
  // The tapped square's stack, in words, beside the board.
  const squareLine = document.getElementById("square");
  function tellSquare(shown) {
    if (!squareLine) return;
    squareLine.hidden = false;
    if (!selected) {
      squareLine.textContent = "Tap or click a square to see its whole stack.";
      return;
    }
    const file = selected.charCodeAt(0) - 97;
    const stack = shown.rows[shown.size - Number(selected.slice(1))][file];
    squareLine.replaceChildren(stack ? stackItem(selected, stack.pieces, stack.top, shown.size, "span")
      : document.createTextNode(selected + ": empty"));
  }
  const position = document.getElementById("position");
  // Every stack of two or more in a TPS, bottom up (○ White, ● Black), the pieces that may be
  // carried off it (as many as the board is wide) underlined, and what is on top; text only.
  const stacks = document.getElementById("stacks");
  const KINDS = { "": "flat", S: "wall", C: "capstone" };
  function listStacks(tps) {
    if (!stacks) return;
    const shown = bredonBoard.parse(tps);
    const items = [];
    shown.rows.forEach(function (row, r) {
      row.forEach(function (stack, file) {
        if (stack && stack.pieces.length >= 2) items.push(stackItem(
          String.fromCharCode(97 + file) + (shown.size - r), stack.pieces, stack.top, shown.size));
      });
    });
    stacks.replaceChildren.apply(stacks, items);
    document.getElementById("stacks-legend").hidden = items.length === 0;
  }
  function stackItem(name, pieces, top, carry, tag) {
    const li = document.createElement(tag || "li");
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
  // The PTN up to the shown ply, asked of the server when the button is pressed, copied.
  const copyPtn = document.getElementById("copy-ptn");
  if (copyPtn) {
    copyPtn.addEventListener("click", function () {
      fetch(copyPtn.dataset.base + slider.value).then(function (r) { return r.ok ? r.text() : Promise.reject(); })
        .then(function (ptn) { return navigator.clipboard.writeText(ptn); })
        .then(function () { copyPtn.textContent = "Copied PTN"; }, function () { copyPtn.textContent = "Not copied"; });
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
  // The drawn board takes the picture's place at once.
  if (drawn) show(Number(slider.value));
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
  if (judged) stepsOnClick(judged, function () { (drawn || board).scrollIntoView({ block: "nearest" }); });
  // A click on the evaluation chart steps the board to the ply under it.
  const chart = document.querySelector("img.chart[data-plot]");
  if (chart) {
    chart.addEventListener("click", function (e) {
      const plot = chart.dataset.plot.split(" ").map(Number);
      const at = (e.clientX - chart.getBoundingClientRect().left) / chart.clientWidth;
      show(Math.round((at - plot[0]) / (plot[1] - plot[0]) * plot[2]));
      (drawn || board).scrollIntoView({ block: "nearest" });
    });
  }
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
    let events = null;
    const listen = function () {
      events = new EventSource(board.dataset.events + "?plies=" + last);
      events.addEventListener("plies", function (e) {
        const news = JSON.parse(e.data);
        const atEnd = Number(slider.value) === last;
        last = news.plies.length;
        slider.max = String(last);
        relist(news.plies, news.took);
        plies = news.plies;
        over = news.finished;
        if (news.viewer) viewer = news.viewer;
        status(news);
        show(atEnd ? last : Number(slider.value));
        if (news.finished) events.close();
      });
    };
    listen();
    // A page left for another closes its stream: kept in the back-forward cache, it would hold
    // one of the few connections a browser opens to the site, and after a handful of live
    // pages the next page waited for one. A page shown again from that cache listens again.
    window.addEventListener("pagehide", function () { events.close(); });
    window.addEventListener("pageshow", function (e) { if (e.persisted && !over) listen(); });
  }
})();
