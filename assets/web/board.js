// A Tak board drawn in the page from a position's TPS, in the colours of the game's theme, so
// that stepping through a game asks the server for nothing: every square, each stack's top
// piece, beside a stack the colours of its top pieces up to the carry limit (its height in a
// badge), the last ply's squares, the coordinates; seen from either side. Text only: nothing
// read from the position becomes markup.
"use strict";
window.bredonBoard = (function () {
  const NS = "http://www.w3.org/2000/svg";
  const UNIT = 100;
  const LEFT = 48;
  const BOTTOM = 48;
  const PAD = 10;

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    if (parent) parent.appendChild(e);
    return e;
  }

  // The squares of a TPS, rank by rank from the top: null, or { pieces: "1212" bottom up
  // (1 White, 2 Black), top: "" flat, "S" wall, "C" capstone }.
  function parse(tps) {
    const fields = tps.split(" ");
    const rows = fields[0].split("/").map(function (row) {
      const squares = [];
      row.split(",").forEach(function (square) {
        const empty = /^x(\d*)$/.exec(square);
        if (empty) {
          for (let i = 0; i < Number(empty[1] || 1); i++) squares.push(null);
          return;
        }
        const stack = /^([12]+)([SC]?)$/.exec(square);
        squares.push(stack ? { pieces: stack[1], top: stack[2] } : null);
      });
      return squares;
    });
    return { rows: rows, size: rows.length, toMove: fields[1] === "2" ? 1 : 0, move: Number(fields[2]) };
  }

  function squareName(file, rank) { return String.fromCharCode(97 + file) + rank; }

  // The squares a ply (PTN) touched: where it was placed, or where a stack was taken from and
  // each square it dropped on.
  function touched(ply) {
    if (!ply) return { origin: null, drops: [] };
    const text = ply.replace(/[!?'"*]+$/, "");
    const place = /^[FSC]?([a-h][1-8])$/.exec(text);
    if (place) return { origin: null, drops: [place[1]] };
    const move = /^\d?([a-h])([1-8])([<>+-])(\d*)$/.exec(text);
    if (!move) return { origin: null, drops: [] };
    const step = { "<": [-1, 0], ">": [1, 0], "+": [0, 1], "-": [0, -1] }[move[3]];
    const file = move[1].charCodeAt(0) - 97;
    const rank = Number(move[2]);
    const count = Math.max(1, move[4].length);
    const drops = [];
    for (let i = 1; i <= count; i++) drops.push(squareName(file + step[0] * i, rank + step[1] * i));
    return { origin: squareName(file, rank), drops: drops };
  }

  function pieceColors(theme, owner) {
    return owner === "1"
      ? { fill: theme.white_fill, line: theme.white_outline }
      : { fill: theme.black_fill, line: theme.black_outline };
  }

  function topPiece(g, stack, cx, cy, theme) {
    const owner = stack.pieces[stack.pieces.length - 1];
    const c = pieceColors(theme, owner);
    const line = { fill: c.fill, stroke: c.line, "stroke-width": 3 };
    if (stack.top === "C") {
      el("circle", Object.assign({ cx: cx, cy: cy, r: UNIT * theme.cap_size }, line), g);
      el("circle", { cx: cx, cy: cy, r: UNIT * 0.07, fill: c.line }, g);
    } else if (stack.top === "S") {
      const tilt = owner === "1" ? theme.wall_tilt_degrees : -theme.wall_tilt_degrees;
      const h = UNIT * theme.flat_size;
      el("rect", Object.assign({ x: cx - 9, y: cy - h / 2, width: 18, height: h, rx: 4,
        transform: "rotate(" + tilt + " " + cx + " " + cy + ")" }, line), g);
    } else {
      // As wide as the theme says, a little less tall, as the server's pictures draw a flat.
      const s = UNIT * theme.flat_size;
      el("rect", Object.assign({ x: cx - s / 2, y: cy - s * 0.39, width: s, height: s * 0.78, rx: 7 }, line), g);
    }
  }

  // Beside a stack of two or more, as the server's pictures draw it: at the square's right
  // edge a bar for each of its top pieces a player may carry (as many as the board is wide),
  // the top one highest, standing on the strip's bottom; its height in a badge at the top
  // left; under the top piece, how many lie below the bars.
  function stackColumn(g, stack, x, y, size, theme) {
    const height = stack.pieces.length;
    const shown = Math.min(height, size);
    const hidden = height - shown;
    const bottom = y + (hidden > 0 ? 72 : 95);
    const pitch = Math.min(13, (bottom - y - 5) / shown);
    for (let i = 0; i < shown; i++) {
      const owner = stack.pieces[height - 1 - i];
      el("rect", { x: x + 79, y: bottom - (shown - i) * pitch, width: 16, height: pitch * 0.82, rx: 2,
        fill: owner === "1" ? theme.white_fill : theme.black_fill, stroke: theme.white_outline,
        "stroke-width": 1.2 }, g);
    }
    label(g, String(height), x + 17, y + 17, theme.badge_fill, theme.badge_text);
    if (hidden > 0) label(g, "+" + hidden, x + 42, y + 85, theme.badge_text, theme.badge_fill);
  }

  // A label in a pill centred on (cx, cy): its number in `ink` on `fill`.
  function label(g, text, cx, cy, fill, ink) {
    const w = Math.max(28, 11 * text.length + 10);
    el("rect", { x: cx - w / 2, y: cy - 14, width: w, height: 28, rx: 14, fill: fill }, g);
    const t = el("text", { x: cx, y: cy + 6, "text-anchor": "middle", "font-size": 18,
      "font-weight": "bold", fill: ink }, g);
    t.textContent = text;
  }

  // The last move's arrow, from the square its stack left to the last it dropped on, in the
  // theme's arrow colours (a line and a head, outlined).
  function arrow(svg, from, to, theme) {
    const dx = to[0] - from[0], dy = to[1] - from[1];
    const length = Math.hypot(dx, dy);
    const ux = dx / length, uy = dy / length;
    const end = [to[0] - ux * 22, to[1] - uy * 22];
    const head = [[to[0] - ux * 6, to[1] - uy * 6],
      [end[0] - uy * 16 - ux * 10, end[1] + ux * 16 - uy * 10],
      [end[0] + uy * 16 - ux * 10, end[1] - ux * 16 - uy * 10]];
    const points = head.map(function (p) { return p[0] + "," + p[1]; }).join(" ");
    [[theme.arrow_outline, 14, 4], [theme.arrow, 8, 0]].forEach(function (pass) {
      el("line", { x1: from[0], y1: from[1], x2: end[0] - ux * 8, y2: end[1] - uy * 8, stroke: pass[0],
        "stroke-width": pass[1], "stroke-linecap": "round" }, svg);
      el("polygon", { points: points, fill: pass[0], stroke: pass[0], "stroke-width": pass[2],
        "stroke-linejoin": "round" }, svg);
    });
    el("circle", { cx: from[0], cy: from[1], r: 9, fill: theme.arrow, stroke: theme.arrow_outline, "stroke-width": 3 }, svg);
  }

  // Draws `tps` into `svg` (emptied first). options: theme, flipped, ply (the PTN of the ply
  // that led here, marked), selected (a square's name, outlined).
  function draw(svg, tps, options) {
    const theme = options.theme;
    const position = parse(tps);
    const n = position.size;
    const width = LEFT + n * UNIT + PAD;
    const height = PAD + n * UNIT + BOTTOM;
    svg.replaceChildren();
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    el("rect", { x: 0, y: 0, width: width, height: height, rx: 12, fill: theme.background }, svg);
    el("rect", { x: LEFT - 6, y: PAD - 6, width: n * UNIT + 12, height: n * UNIT + 12, rx: 8,
      fill: theme.board_frame }, svg);
    const last = touched(options.ply);
    // Where a square's middle is drawn, seen from the side shown.
    function center(name) {
      const f = name.charCodeAt(0) - 97;
      const r = n - Number(name.slice(1));
      const col = options.flipped ? n - 1 - f : f;
      const row = options.flipped ? n - 1 - r : r;
      return [LEFT + col * UNIT + UNIT / 2, PAD + row * UNIT + UNIT / 2];
    }
    // In layers: the squares, the last move's arrow under the pieces (it never hides the piece
    // that moved), then the pieces and what a tap hits.
    const squares = el("g", {}, svg);
    const arrowLayer = el("g", {}, svg);
    const pieces = el("g", {}, svg);
    for (let r = 0; r < n; r++) {
      for (let f = 0; f < n; f++) {
        const col = options.flipped ? n - 1 - f : f;
        const row = options.flipped ? n - 1 - r : r;
        const x = LEFT + col * UNIT;
        const y = PAD + row * UNIT;
        const name = squareName(f, n - r);
        el("rect", { x: x, y: y, width: UNIT, height: UNIT,
          fill: (f + n - 1 - r) % 2 === 0 ? theme.square_dark : theme.square_light }, squares);
        const mark = name === last.origin ? theme.origin : last.drops.indexOf(name) >= 0 ? theme.destination : null;
        if (mark) {
          el("rect", { x: x, y: y, width: UNIT, height: UNIT, fill: mark, "fill-opacity": 0.3 }, squares);
          el("rect", { x: x + 3, y: y + 3, width: UNIT - 6, height: UNIT - 6, fill: "none", stroke: mark,
            "stroke-width": 6 }, squares);
        }
        const g = el("g", {}, pieces);
        const stack = position.rows[r][f];
        if (stack) {
          const tall = stack.pieces.length > 1;
          const under = stack.pieces.length > n;
          topPiece(g, stack, tall ? x + 42 : x + 50, under ? y + 44 : y + 52, theme);
          if (tall) stackColumn(g, stack, x, y, n, theme);
        }
        if (name === options.selected) {
          el("rect", { x: x + 4, y: y + 4, width: UNIT - 8, height: UNIT - 8, fill: "none", stroke: theme.accent,
            "stroke-width": 5, "stroke-dasharray": "12 8" }, g);
        }
        // What a tap hits: the whole square, named.
        el("rect", { x: x, y: y, width: UNIT, height: UNIT, fill: "transparent", "data-square": name }, g);
      }
    }
    if (last.origin) arrow(arrowLayer, center(last.origin), center(last.drops[last.drops.length - 1]), theme);
    for (let i = 0; i < n; i++) {
      const col = options.flipped ? n - 1 - i : i;
      const file = el("text", { x: LEFT + col * UNIT + UNIT / 2, y: PAD + n * UNIT + 36, "text-anchor": "middle",
        "font-size": 30, "font-weight": "bold", fill: theme.label }, svg);
      file.textContent = String.fromCharCode(97 + i);
      const row = options.flipped ? i : n - 1 - i;
      const rank = el("text", { x: LEFT / 2 - 2, y: PAD + row * UNIT + UNIT / 2 + 10, "text-anchor": "middle",
        "font-size": 30, "font-weight": "bold", fill: theme.label }, svg);
      rank.textContent = String(i + 1);
    }
    return position;
  }

  return { parse: parse, draw: draw };
})();
