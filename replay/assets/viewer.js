// Colony's replay viewer: draws the games carried by the page's replay-data element (package
// replay writes it). No network: everything is in the page.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("replay-data").textContent);
  var SVG = "http://www.w3.org/2000/svg";
  var COLORS = {
    "bacteria-war": ["#d9483b", "#2f6fd6"],
    "catch-the-mouse": ["#7d8590", "#e08a1e"],
    "slime": ["#e4572e", "#29a35a", "#2f6fd6", "#c9a400"],
    "petri": ["#d9483b", "#2f6fd6"]
  };
  var LEGEND = {
    "bacteria-war": "O moves first, X second. A move copies a piece to a neighbouring cell or jumps it two cells; the enemy pieces around the target are infected (they flash).",
    "catch-the-mouse": "Mice (R) are FIRST and step down one row; Nadori's team is SECOND: cats (C) move like queens, Nadori (N) like a king and takes mice. Cats and Nadori stay in the shaded rows 2-6; a mouse on row 7 wins.",
    "slime": "Four players, 1 to 4, in turn. A spread or jump takes the empty target and converts the enemy slime around it (flashing); a merge fills the empty cells around an own cell. Counts are each player's cells, the score.",
    "petri": "Player 1 (red) and player 2 (blue): living cells show HP/energy, corpses are crosses. Cells act one at a time: the yellow frame is the cell that acts next, the dashed frame the cell that just acted."
  };
  // ROLES name what each seat plays where the seat's letter does not say it.
  var ROLES = { "catch-the-mouse": ["mice", "cats + Nadori"] };
  var game = null, gameIndex = 0, ply = 0, timer = null;

  function h(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function s(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function colors(g) { return COLORS[g.game] || ["#d9483b", "#2f6fd6", "#29a35a", "#c9a400"]; }
  function clockText(ms) {
    if (ms === undefined || ms === null) return "";
    var neg = ms < 0; ms = Math.abs(ms);
    return (neg ? "-" : "") + Math.floor(ms / 1000) + "." + String(Math.floor(ms % 1000)).padStart(3, "0") + " s";
  }
  function infoText(info) {
    if (!info) return "";
    var parts = [];
    if (info.proven) parts.push(info.proven > 0 ? "proven win" : "proven loss");
    else if (info.score !== undefined) parts.push("score " + (info.score > 0 ? "+" : "") + (info.score / 100).toFixed(2));
    else if (info.value !== undefined) parts.push("value " + (info.value > 0 ? "+" : "") + info.value.toFixed(3));
    if (info.depth) parts.push("depth " + info.depth);
    if (info.visits) parts.push(info.visits + " visits");
    else if (info.nodes) parts.push(info.nodes + " nodes");
    return parts.join(", ");
  }
  // ---- the board ----
  var CS = 48, M = 26;
  function drawBoard(g, f, move) {
    var svg = document.getElementById("board");
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var cs = Math.min(CS, Math.floor(640 / Math.max(f.cols, 1)));
    svg.setAttribute("width", M + f.cols * cs + 4);
    svg.setAttribute("height", M + f.rows * cs + 4);
    svg.setAttribute("data-ply", ply);
    var col = colors(g);
    for (var c = 0; c < f.cols; c++) svg.appendChild(s("text", { "class": "coord", x: M + c * cs + cs / 2, y: M / 2 }, String(c + g.base)));
    for (var r = 0; r < f.rows; r++) svg.appendChild(s("text", { "class": "coord", x: M / 2, y: M + r * cs + cs / 2 }, String(r + g.base)));
    var flipped = {};
    (f.flipped || []).forEach(function (i) { flipped[i] = true; });
    for (var i = 0; i < f.rows * f.cols; i++) {
      var r0 = Math.floor(i / f.cols), c0 = i % f.cols, x = M + c0 * cs, y = M + r0 * cs;
      var cls = "sq";
      if (g.game === "catch-the-mouse") cls += r0 === f.rows - 1 ? " goal" : (r0 > 0 && r0 < f.rows - 1 ? " zone" : "");
      svg.appendChild(s("rect", { "class": cls, x: x, y: y, width: cs, height: cs, "data-sq": i }));
      var ch = f.cells.charAt(i), own = f.owner[i];
      if (ch === ".") continue;
      var p = s("g", { "class": "piece", "data-cell": i, "data-piece": ch, "data-owner": own });
      var cx = x + cs / 2, cy = y + cs / 2, rad = cs * 0.38;
      if (g.game === "slime") {
        p.appendChild(s("rect", { x: x + 3, y: y + 3, width: cs - 6, height: cs - 6, rx: 6, fill: col[own] }));
        p.appendChild(s("text", { x: cx, y: cy, "font-size": cs * 0.4 }, ch));
      } else if (g.game === "petri" && ch === "c") {
        p.setAttribute("class", "piece corpse");
        p.appendChild(s("path", { d: "M" + (cx - rad / 1.6) + " " + (cy - rad / 1.6) + "L" + (cx + rad / 1.6) + " " + (cy + rad / 1.6) + "M" + (cx + rad / 1.6) + " " + (cy - rad / 1.6) + "L" + (cx - rad / 1.6) + " " + (cy + rad / 1.6), stroke: "#777", "stroke-width": 4 }));
      } else if (g.game === "petri") {
        p.appendChild(s("circle", { cx: cx, cy: cy, r: rad, fill: col[own] }));
        p.appendChild(s("text", { "class": "small", x: cx, y: cy - 6 }, "♥" + f.hp[i]));
        p.appendChild(s("text", { "class": "small", x: cx, y: cy + 7 }, "⚡" + f.energy[i]));
      } else if (g.game === "catch-the-mouse") {
        var fill = ch === "R" ? col[0] : (ch === "N" ? "#b3261e" : col[1]);
        var rr = ch === "N" ? rad * 1.08 : (ch === "R" ? rad * 0.8 : rad);
        if (ch === "R") { // ears
          p.appendChild(s("circle", { cx: cx - rr * 0.7, cy: cy - rr * 0.75, r: rr * 0.38, fill: fill }));
          p.appendChild(s("circle", { cx: cx + rr * 0.7, cy: cy - rr * 0.75, r: rr * 0.38, fill: fill }));
        }
        p.appendChild(s(ch === "C" ? "rect" : "circle", ch === "C" ?
          { x: cx - rr, y: cy - rr, width: 2 * rr, height: 2 * rr, rx: rr * 0.45, fill: fill } : { cx: cx, cy: cy, r: rr, fill: fill }));
        p.appendChild(s("text", { x: cx, y: cy, "font-size": cs * 0.36 }, ch));
      } else {
        p.appendChild(s("circle", { cx: cx, cy: cy, r: rad, fill: own >= 0 ? col[own] : "#888" }));
        p.appendChild(s("text", { x: cx, y: cy, "font-size": cs * 0.4 }, ch));
      }
      if (flipped[i]) {
        p.setAttribute("class", p.getAttribute("class") + " flash");
        p.appendChild(s("circle", { "class": "ring", cx: cx, cy: cy, r: rad + 3 }));
      }
      svg.appendChild(p);
    }
    function mark(i, cls) {
      if (i === undefined || i < 0) return;
      var r1 = Math.floor(i / f.cols), c1 = i % f.cols;
      svg.appendChild(s("rect", { "class": "mark " + cls, x: M + c1 * cs + 2, y: M + r1 * cs + 2, width: cs - 4, height: cs - 4, rx: 4 }));
    }
    if (move) { mark(move.from, "from"); mark(move.to, "to"); }
    if (f.actor >= 0) mark(f.actor, "actor");
  }

  // ---- the side panel ----
  function updateSide(g) {
    var f = g.frames[ply], n = g.moves.length, move = ply > 0 ? g.moves[ply - 1] : null;
    document.getElementById("status").textContent = ply === 0 ?
      "Start" + (g.opening ? " (after " + g.opening + " random opening plies)" : "") + " — " + n + " moves" :
      "Move " + ply + " of " + n;
    g.seats.forEach(function (seat, i) {
      document.getElementById("count-" + i).textContent = f.counts[i];
      var clk = "";
      if (g.clocks) clk = clockText(move && move.clocks ? move.clocks[i] : g.clocks[i]);
      document.getElementById("clock-" + i).textContent = clk;
      document.getElementById("seat-" + i).className = f.to_move === i ? "tomove" : "";
    });
    var last = "";
    if (move) {
      last = g.seats[move.seat].name + ": " + move.text + (move.note ? " (" + move.note + ")" : "") + ", " + move.ms.toFixed(1) + " ms";
    }
    document.getElementById("last").textContent = last;
    document.getElementById("evalnow").textContent = move && move.info ? "engine: " + infoText(move.info) : "";
    var res = document.getElementById("result");
    res.hidden = ply !== n;
    // The graph's cursor and the move list's highlight.
    var cur = document.getElementById("cursor");
    if (cur) { var x = gx(g, ply); cur.setAttribute("x1", x); cur.setAttribute("x2", x); }
    var old = document.querySelector("#moves td.mv.current");
    if (old) old.classList.remove("current");
    var td = document.querySelector('#moves td.mv[data-ply="' + ply + '"]');
    if (td) {
      td.classList.add("current");
      var wrap = td.closest(".moves-wrap");
      if (wrap && (td.offsetTop < wrap.scrollTop || td.offsetTop > wrap.scrollTop + wrap.clientHeight - 20)) wrap.scrollTop = td.offsetTop - 40;
    }
  }

  function go(k) {
    if (!game) return;
    ply = Math.max(0, Math.min(game.moves.length, k));
    drawBoard(game, game.frames[ply], ply > 0 ? game.moves[ply - 1] : null);
    updateSide(game);
    document.body.setAttribute("data-ply", ply);
  }
  function autoplay(on) {
    if (timer) { clearInterval(timer); timer = null; }
    var btn = document.getElementById("btn-play");
    if (!on || !game) { if (btn) btn.textContent = "▶ play"; return; }
    if (ply >= game.moves.length) go(0);
    var step = game.moves.length > 400 ? 60 : 500;
    timer = setInterval(function () {
      if (ply >= game.moves.length) { autoplay(false); return; }
      go(ply + 1);
    }, step);
    if (btn) btn.textContent = "❚❚ pause";
  }

  // ---- the evaluation graph ----
  var GW = 640, GH = 150, GP = 22;
  function gx(g, k) { return GP + (g.moves.length ? k / g.moves.length : 0) * (GW - 2 * GP); }
  function gy(v) { return GH / 2 - v * (GH / 2 - 12); }
  // The points are the page's g.eval: each engine's evaluation of its moves, in a two-player
  // game turned to the first seat's view and drawn as one line per seat; the big swings are
  // g.swings, an engine's evaluation against its own previous one (the page's Go side).
  function drawGraph(g, wrap) {
    var pts = g.eval || [];
    if (!pts.length) { wrap.appendChild(h("p", { "class": "meta", id: "noeval" }, "No evaluations logged by the engines of this game.")); return; }
    var svg = s("svg", { id: "graph", width: GW, height: GH });
    svg.appendChild(s("line", { "class": "axis", x1: GP, y1: 12, x2: GP, y2: GH - 12 }));
    svg.appendChild(s("line", { "class": "zero", x1: GP, y1: gy(0), x2: GW - GP, y2: gy(0) }));
    var two = g.seats.length === 2;
    svg.appendChild(s("text", { x: 2, y: 14 }, "+1"));
    svg.appendChild(s("text", { x: 2, y: GH - 6 }, "−1"));
    svg.appendChild(s("text", { x: GP + 4, y: 10 }, two ? g.seats[0].name + " better ↑ (each engine's score from " + g.seats[0].name + "'s side)" : "mover's value"));
    var col = colors(g), swings = g.swings || [];
    if (two) {
      g.seats.forEach(function (seat, k) {
        var mine = pts.filter(function (p) { return p.seat === k; });
        if (!mine.length) return;
        var d = mine.map(function (p, i) { return (i ? "L" : "M") + gx(g, p.ply).toFixed(1) + " " + gy(p.v).toFixed(1); }).join("");
        svg.appendChild(s("path", { "class": "series", d: d, stroke: col[k], "data-seat": k }));
      });
    }
    pts.forEach(function (p) {
      svg.appendChild(s("circle", { cx: gx(g, p.ply), cy: gy(p.v), r: 2.5, fill: col[p.seat], "data-ply": p.ply }));
    });
    swings.forEach(function (w) {
      svg.appendChild(s("circle", { "class": "swing", cx: gx(g, w.ply), cy: gy(w.to), r: 6, "data-swing": w.ply }));
    });
    svg.appendChild(s("line", { "class": "cursor", id: "cursor", x1: gx(g, ply), y1: 8, x2: gx(g, ply), y2: GH - 8 }));
    svg.addEventListener("click", function (ev) {
      var r = svg.getBoundingClientRect(), frac = (ev.clientX - r.left - GP) / (GW - 2 * GP);
      go(Math.round(frac * g.moves.length));
    });
    wrap.appendChild(svg);
    if (two) {
      var key = h("div", { "class": "meta", id: "graph-key" });
      g.seats.forEach(function (seat, k) {
        if (k) key.appendChild(document.createTextNode("  "));
        key.appendChild(h("span", { "class": "swatch", style: "background:" + col[k] }));
        key.appendChild(document.createTextNode(seat.name + "'s engine (" + seat.entry + ")"));
      });
      wrap.appendChild(key);
    }
    var sw = h("div", { id: "swings" });
    if (swings.length) {
      sw.appendChild(document.createTextNode("Big swings (one engine's score moving ≥ 0.5 from its last, " + g.seats[0].name + "'s side): "));
      swings.forEach(function (w, i) {
        var a = h("a", { href: "javascript:void 0", "data-ply": w.ply }, "move " + w.ply + " by " + g.seats[w.seat].name + " (" + w.from.toFixed(2) + " → " + w.to.toFixed(2) + ")");
        a.addEventListener("click", function () { go(w.ply); });
        if (i) sw.appendChild(document.createTextNode(", "));
        sw.appendChild(a);
      });
    } else if (two) sw.textContent = "No big swings (one engine's score moving ≥ 0.5 from its last).";
    wrap.appendChild(sw);
  }

  // ---- the move list ----
  function moveCell(g, k) {
    var m = g.moves[k], td = h("td", { "class": "mv", "data-ply": k + 1, title: m.note || "" }, m.text);
    if (m.note) td.classList.add("note");
    if (m.info) td.appendChild(h("span", { "class": "ev" }, infoText(m.info).split(",")[0]));
    td.addEventListener("click", function () { autoplay(false); go(k + 1); });
    return td;
  }
  function drawMoves(g, wrap) {
    var t = h("table", { id: "moves" });
    var alternate = g.seats.length === 2 && g.moves.every(function (m, k) { return k === 0 || m.seat !== g.moves[k - 1].seat; });
    var head = h("tr");
    head.appendChild(h("th", { "class": "num" }, "#"));
    if (alternate) g.seats.forEach(function (seat) { head.appendChild(h("th", {}, seat.name + " (" + seat.entry + ")")); });
    else { head.appendChild(h("th", {}, "player")); head.appendChild(h("th", {}, "move")); }
    t.appendChild(head);
    if (alternate) {
      var first = g.moves.length ? g.moves[0].seat : 0;
      for (var k = 0, row = 1; k < g.moves.length; row++) {
        var tr = h("tr");
        tr.appendChild(h("td", { "class": "num" }, String(row)));
        if (first === 1 && k === 0) tr.appendChild(h("td", {}, "…"));
        tr.appendChild(moveCell(g, k++));
        if (k < g.moves.length && g.moves[k].seat === 1) tr.appendChild(moveCell(g, k++));
        t.appendChild(tr);
      }
    } else {
      g.moves.forEach(function (m, k) {
        var tr = h("tr");
        tr.appendChild(h("td", { "class": "num" }, String(k + 1)));
        var who = h("td");
        who.appendChild(h("span", { "class": "swatch", style: "background:" + colors(g)[m.seat] }));
        who.appendChild(document.createTextNode(g.seats[m.seat].name));
        tr.appendChild(who);
        tr.appendChild(moveCell(g, k));
        t.appendChild(tr);
      });
    }
    var box = h("div", { "class": "moves-wrap" });
    box.appendChild(t);
    wrap.appendChild(box);
  }

  // ---- one game ----
  function showGame(i) {
    autoplay(false);
    gameIndex = i;
    game = D.games[i];
    var g = game, v = document.getElementById("viewer");
    while (v.firstChild) v.removeChild(v.firstChild);
    v.setAttribute("data-game", i);
    v.appendChild(h("h2", { id: "game-title" }, g.title));
    var main = h("div", { "class": "main" });
    main.appendChild(s("svg", { id: "board" }));
    var side = h("div", { "class": "side" });
    side.appendChild(h("div", { id: "status" }));
    var pt = h("table", { id: "players" }), col = colors(g);
    g.seats.forEach(function (seat, k) {
      var tr = h("tr", { id: "seat-" + k }), td = h("td");
      td.appendChild(h("span", { "class": "swatch", style: "background:" + col[k] }));
      td.appendChild(h("b", {}, seat.name));
      if (ROLES[g.game]) td.appendChild(h("span", { "class": "role" }, " " + ROLES[g.game][k]));
      tr.appendChild(td);
      tr.appendChild(h("td", { title: seat.command }, seat.entry + ": " + shortName(seat.command)));
      var cnt = h("td", { "class": "num" });
      cnt.appendChild(h("span", { id: "count-" + k, "class": "count" }));
      cnt.appendChild(document.createTextNode(g.game === "slime" || g.game === "petri" ? " cells" : " pieces"));
      tr.appendChild(cnt);
      tr.appendChild(h("td", { "class": "num clock", id: "clock-" + k }));
      pt.appendChild(tr);
    });
    side.appendChild(pt);
    side.appendChild(h("div", { id: "last" }));
    side.appendChild(h("div", { id: "evalnow" }));
    var res = h("div", { id: "result" }, g.result);
    (g.verdicts || []).forEach(function (vd) {
      res.appendChild(h("div", { "class": "verdict" }, g.seats[vd.seat].name + " " + vd.kind + ": " + vd.detail));
    });
    if (g.scores && g.seats.length > 2) res.appendChild(h("div", {}, "Scores: " + g.scores.map(function (x, k) { return g.seats[k].name + " " + x; }).join(", ")));
    res.hidden = true;
    side.appendChild(res);
    var ctl = h("div", { "class": "controls" });
    [["btn-home", "|◀", function () { go(0); }], ["btn-prev", "◀", function () { go(ply - 1); }],
     ["btn-next", "▶", function () { go(ply + 1); }], ["btn-end", "▶|", function () { go(g.moves.length); }],
     ["btn-play", "▶ play", function () { autoplay(!timer); }]].forEach(function (b) {
      var e = h("button", { id: b[0], type: "button" }, b[1]);
      e.addEventListener("click", b[2]);
      ctl.appendChild(e);
    });
    side.appendChild(ctl);
    side.appendChild(h("div", { "class": "legend" }, "Keys: Home, ←, →, End; Space plays. " + (LEGEND[g.game] || "")));
    main.appendChild(side);
    v.appendChild(main);
    v.appendChild(h("h3", {}, "Evaluation"));
    var gw = h("div", { id: "graph-wrap" });
    v.appendChild(gw);
    drawGraph(g, gw);
    v.appendChild(h("h3", {}, "Moves"));
    drawMoves(g, v);
    ply = 0;
    go(0);
    document.querySelectorAll("#run tr.game-row").forEach(function (tr) {
      tr.classList.toggle("current", Number(tr.getAttribute("data-game")) === i);
    });
  }
  function shortName(cmd) {
    var f = (cmd || "").split(/\s+/), name = (f[0] || "").split("/").pop();
    var i = f.indexOf("-engine");
    return i > 0 && i + 1 < f.length ? name + " " + f[i + 1] : name;
  }

  // ---- the run view ----
  function pct(x) { return (100 * x).toFixed(1) + "%"; }
  function showRun() {
    var run = document.getElementById("run");
    run.hidden = false;
    var scored = D.games.some(function (g) { return g.seats.length > 2; });
    run.appendChild(h("h2", {}, "Standings"));
    if (D.summary) {
      var sm = D.summary, bits = [];
      if (sm.clock_ms) bits.push("clock " + sm.clock_ms / 1000 + " s" + (sm.b_clock_ms ? " (B " + sm.b_clock_ms / 1000 + " s)" : ""));
      if (sm.openings) bits.push(sm.openings + " random opening plies");
      // The seed as the arena wrote it: a JavaScript number would round its low digits.
      if (D.seed_text) bits.push("seed " + D.seed_text);
      if (sm.sprt && sm.sprt.verdict) bits.push("SPRT: " + sm.sprt.verdict + " accepted");
      if (bits.length) run.appendChild(h("p", { "class": "meta" }, bits.join(", ")));
    }
    var t = h("table", { id: "standings" }), hr = h("tr");
    var cols = ["#", "program", "entry", "games", "W-D-L", scored ? "avg score" : "score"];
    if (!scored) cols.push("Elo (95%)");
    var seatNames = (D.standings[0] && D.standings[0].by_seat || []).map(function (x) { return x.seat; });
    seatNames.forEach(function (n) { cols.push("as " + n); });
    cols.push("verdicts");
    cols.forEach(function (c) { hr.appendChild(h("th", {}, c)); });
    t.appendChild(hr);
    D.standings.forEach(function (st, i) {
      var tr = h("tr", { "class": "standing" });
      tr.appendChild(h("td", { "class": "num" }, String(i + 1)));
      tr.appendChild(h("td", { title: st.command }, st.command.replace(/^\S*\//, "")));
      tr.appendChild(h("td", {}, st.entry));
      tr.appendChild(h("td", { "class": "num" }, String(st.games)));
      tr.appendChild(h("td", { "class": "num" }, st.wins + "-" + st.draws + "-" + st.losses));
      tr.appendChild(h("td", { "class": "num score" }, scored ? st.score.toFixed(2) : pct(st.score)));
      if (!scored) {
        var elo = (st.elo >= 0 ? "+" : "") + st.elo.toFixed(0) + " ± " + st.elo_err.toFixed(0);
        if (st.bound === "lower") elo = "≥ " + elo; else if (st.bound === "upper") elo = "≤ " + elo;
        tr.appendChild(h("td", { "class": "num" }, elo));
      }
      st.by_seat.forEach(function (sr) {
        tr.appendChild(h("td", { "class": "num" }, sr.games ? (scored ? sr.score.toFixed(1) : sr.wins + "-" + sr.draws + "-" + sr.losses) : ""));
      });
      var vd = Object.keys(st.verdicts).sort().map(function (k) { return k + " " + st.verdicts[k]; }).join(", ");
      tr.appendChild(h("td", { "class": "verdicts" }, vd || "none"));
      t.appendChild(tr);
    });
    run.appendChild(t);

    run.appendChild(h("h2", {}, "Games"));
    var fl = h("div", { "class": "filters" });
    function sel(id, label, opts) {
      var l = h("label", {}, label + " ");
      var e = h("select", { id: id });
      e.appendChild(h("option", { value: "" }, "any"));
      opts.forEach(function (o) { e.appendChild(h("option", { value: o[0] }, o[1])); });
      e.addEventListener("change", filter);
      l.appendChild(e);
      fl.appendChild(l);
      return e;
    }
    var progs = D.standings.map(function (st) { return [st.entry, st.entry + ": " + shortName(st.command)]; });
    var fp = sel("filter-player", "player", progs), fo = sel("filter-opponent", "opponent", progs);
    var fc = sel("filter-colour", "player's colour", seatNames.map(function (n) { return [n, n]; }));
    var shown = h("span", { id: "filter-count", "class": "meta" });
    fl.appendChild(shown);
    run.appendChild(fl);
    var gt = h("table", { id: "games" }), gh = h("tr");
    ["game", "seats", "moves", "result", ""].forEach(function (c) { gh.appendChild(h("th", {}, c)); });
    gt.appendChild(gh);
    D.games.forEach(function (g, i) {
      var tr = h("tr", { "class": "game-row", "data-game": i });
      tr.appendChild(h("td", { "class": "num" }, String(g.index)));
      tr.appendChild(h("td", {}, g.seats.map(function (x) { return x.name + ": " + x.entry + " " + shortName(x.command); }).join(" · ")));
      tr.appendChild(h("td", { "class": "num" }, String(g.moves.length)));
      tr.appendChild(h("td", {}, g.result));
      var a = h("a", { href: "#g" + i, "class": "watch" }, "watch ▶");
      var td = h("td");
      td.appendChild(a);
      tr.appendChild(td);
      gt.appendChild(tr);
    });
    run.appendChild(gt);
    function filter() {
      var p = fp.value, o = fo.value, c = fc.value, n = 0;
      document.querySelectorAll("#games tr.game-row").forEach(function (tr) {
        var g = D.games[Number(tr.getAttribute("data-game"))];
        var seatOf = function (e) { for (var k = 0; k < g.seats.length; k++) if (g.seats[k].entry === e) return k; return -1; };
        var ok = true;
        if (p && seatOf(p) < 0) ok = false;
        if (o && (seatOf(o) < 0 || p === o)) ok = false;
        if (c) {
          var who = p ? seatOf(p) : g.seats.findIndex(function (x) { return x.entry === "A"; });
          if (who < 0 || g.seats[who].name !== c) ok = false;
        }
        tr.hidden = !ok;
        if (ok) n++;
      });
      shown.textContent = n + " of " + D.games.length + " games";
    }
    filter();
  }

  function route() {
    var m = /^#g(\d+)$/.exec(location.hash), i = m ? Number(m[1]) : 0;
    if (i >= 0 && i < D.games.length && (game === null || i !== gameIndex)) showGame(i);
  }

  document.addEventListener("keydown", function (ev) {
    var t = ev.target && ev.target.tagName;
    if (t === "SELECT" || t === "INPUT" || t === "TEXTAREA" || !game) return;
    switch (ev.key) {
      case "Home": go(0); break;
      case "End": go(game.moves.length); break;
      case "ArrowLeft": autoplay(false); go(ply - 1); break;
      case "ArrowRight": autoplay(false); go(ply + 1); break;
      case " ": case "Spacebar": autoplay(!timer); break;
      default: return;
    }
    ev.preventDefault();
  });
  if (D.format !== "colony-replay" || D.version !== 1) {
    document.getElementById("viewer").textContent = "This page's data is " + D.format + " version " + D.version + ", which this viewer does not read.";
    return;
  }
  if (D.standings) showRun();
  window.addEventListener("hashchange", route);
  route();
})();
