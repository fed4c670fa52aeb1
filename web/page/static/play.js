// Colony's play page: the user interface only. Every rule (the position, the legal moves,
// the result), the engine's search and the game record come from the Go engine compiled to
// WebAssembly (colony/web): one instance on this thread for the rules, one in a Web Worker
// for the search, so that the page stays responsive while the engine thinks.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const assets = window.colonyAssets;

  function b64(s) {
    const bin = atob(s);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  // call runs a function of the rules instance and returns its answer, or throws its error.
  function call(fn, ...args) {
    const r = JSON.parse(colony[fn](...args));
    if (r.error !== undefined) throw new Error(r.error);
    return r.ok;
  }

  const st = {
    games: {},       // by name: GameInfo
    game: "bacteria-war",
    start: "",
    moves: [],       // judge coordinates of the moves played
    ms: [],          // thinking time of each move
    infos: [],       // the engine's account of each of its moves (null for the human's)
    at: 0,           // the position shown: after this many moves
    human: 0,
    view: null,      // the position shown
    full: null,      // the position after all the moves
    selected: -1,
    shownAt: 0,      // when the human's turn began
    startedAt: new Date(),
    newGame: true,   // the engine forgets its tables before its next search
    worker: null, ready: false, module: null,
    job: 0, busy: null, // the search running: "move" or "analysis"
  };
  window.colonyPage = st;

  // ---- the engine's worker ----

  function startWorker() {
    if (st.worker) st.worker.terminate();
    st.ready = false;
    const url = URL.createObjectURL(new Blob([assets.worker], { type: "text/javascript" }));
    const w = new Worker(url);
    st.worker = w;
    const nets = {};
    for (const [g, n] of Object.entries(assets.nets)) nets[g] = { name: n.name, data: b64(n.data) };
    w.onmessage = (e) => onWorker(w, e.data);
    w.onerror = (e) => showError("engine worker: " + e.message);
    w.postMessage({ type: "init", module: st.module, nets: nets });
  }

  function onWorker(w, m) {
    if (w !== st.worker) return;
    switch (m.type) {
      case "ready":
        st.ready = true;
        step();
        break;
      case "info":
        if (m.id === st.job) { st.jobInfos++; showInfo(m.info); }
        break;
      case "done":
        if (m.id !== st.job) return;
        finished(m.result);
        break;
      case "error":
        st.busy = null;
        showError("engine: " + m.error);
        render();
        break;
    }
  }

  function search(kind, req) {
    st.job++;
    st.jobInfos = 0;
    st.busy = kind;
    req.game = st.game;
    req.start = st.start;
    if (!req.moves) req.moves = st.moves.slice();
    req.newGame = st.newGame;
    st.newGame = false;
    st.worker.postMessage({ type: "search", id: st.job, req: req });
    render();
  }

  // stop ends a search by ending its worker (the engine cannot be interrupted otherwise).
  function stop() {
    if (!st.busy) return;
    st.job++;
    st.busy = null;
    st.newGame = true;
    startWorker();
  }

  function limits() {
    const v = Math.max(1, parseInt($("limit-value").value, 10) || 1);
    return $("limit-kind").value === "time" ? { moveMs: v } : { nodes: v };
  }

  function engineLabel() {
    const g = st.games[st.game];
    const v = Math.max(1, parseInt($("limit-value").value, 10) || 1);
    const lim = $("limit-kind").value === "time" ? v + " ms a move" : v + " nodes a move";
    return g.engine + " (" + (assets.nets[st.game] ? assets.nets[st.game].name : "") + ", " + lim + ")";
  }

  function finished(res) {
    const kind = st.busy;
    st.busy = null;
    if (kind === "analysis") {
      // the last finished iteration stays shown (the move of an unfinished one has no line)
      if (!st.jobInfos || res.info.pv.length > 1) showInfo(res.info);
      render();
      return;
    }
    // the engine's move: it must be legal where it was asked (the rules instance checks).
    try {
      call("view", JSON.stringify({ game: st.game, start: st.start, moves: st.moves.concat([res.move.coords]) }));
    } catch (e) {
      showError("the engine's move " + res.move.text + " is illegal: " + e.message);
      return;
    }
    st.moves.push(res.move.coords);
    st.ms.push(res.info.ms);
    st.infos.push(res.judge || null);
    st.at = st.moves.length;
    showInfo(res.info);
    step();
  }

  // ---- the game ----

  function engineToMove() {
    return $("engine-plays").checked && st.view && !st.view.terminal && st.at === st.moves.length && st.view.toMove !== st.human;
  }

  function humanCanMove() {
    if (!st.view || st.view.terminal || st.busy === "move") return false;
    return !$("engine-plays").checked || st.view.toMove === st.human;
  }

  // step shows the position and lets the engine move when it is its turn.
  function step() {
    try {
      st.full = call("view", JSON.stringify({ game: st.game, start: st.start, moves: st.moves }));
      st.view = st.at === st.moves.length ? st.full :
        call("view", JSON.stringify({ game: st.game, start: st.start, moves: st.moves.slice(0, st.at) }));
    } catch (e) {
      showError(e.message);
      return;
    }
    st.selected = -1;
    st.shownAt = performance.now();
    if (engineToMove() && st.ready && !st.busy) {
      search("move", limits());
      return;
    }
    render();
  }

  function play(coords) {
    if (st.busy) stop();
    const ms = performance.now() - st.shownAt;
    st.moves = st.moves.slice(0, st.at);
    st.ms = st.ms.slice(0, st.at);
    st.infos = st.infos.slice(0, st.at);
    st.moves.push(coords);
    st.ms.push(Math.round(ms * 1000) / 1000);
    st.infos.push(null);
    st.at = st.moves.length;
    step();
  }

  function newGame() {
    if (st.busy) stop();
    if ($("game").value !== st.game) {
      const seat = $("seat").value;
      st.game = $("game").value;
      fillSeats();
      $("seat").value = seat;
    }
    st.human = parseInt($("seat").value, 10) || 0;
    st.start = "";
    st.moves = []; st.ms = []; st.infos = []; st.at = 0;
    st.startedAt = new Date();
    st.newGame = true;
    $("engine-plays").checked = true;
    clearInfo();
    showError("");
    step();
  }

  function takeBack() {
    if (st.busy) stop();
    const moves = st.full.moves;
    let i = Math.min(st.at, moves.length) - 1;
    while (i >= 0 && moves[i].seat !== st.human) i--;
    if (i < 0) return;
    st.moves = st.moves.slice(0, i); st.ms = st.ms.slice(0, i); st.infos = st.infos.slice(0, i);
    st.at = i;
    step();
  }

  function recordText() {
    return call("record", JSON.stringify({
      game: st.game, start: st.start, moves: st.moves, human: st.human, engine: engineLabel(),
      ms: st.ms, infos: st.infos, startedAt: st.startedAt.toISOString(),
    }));
  }

  function save() {
    let text;
    try { text = recordText(); } catch (e) { showError(e.message); return; }
    st.lastRecord = text;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const d = st.startedAt.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
    a.download = "game-" + st.game + "-" + d + ".json";
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  function loadText(text) {
    if (st.busy) stop();
    let l;
    try { l = call("readRecord", text); } catch (e) { showError("record: " + e.message); return; }
    st.game = l.game; $("game").value = l.game; fillSeats();
    $("seat").value = String(st.human = 0);
    st.start = l.start;
    st.moves = l.moves; st.infos = l.infos.map((x) => x || null); st.ms = l.moves.map(() => 0);
    st.at = 0;
    st.newGame = true;
    $("engine-plays").checked = false;
    clearInfo();
    showError("");
    $("status").dataset.title = l.title;
    step();
  }
  st.loadText = loadText;
  st.recordText = recordText;

  // ---- drawing ----

  function fillSeats() {
    const g = st.games[$("game").value];
    const sel = $("seat");
    sel.innerHTML = "";
    g.players.forEach((name, i) => {
      const o = document.createElement("option");
      o.value = String(i);
      o.textContent = name + ": " + g.roles[i];
      sel.appendChild(o);
    });
  }

  function seatName(i) {
    const g = st.games[st.game];
    return g.players[i] + " (" + g.roles[i] + ")";
  }

  function render() {
    const v = st.view;
    if (!v) return;
    const board = $("board");
    board.dataset.ply = String(st.at);
    $("evalbar").dataset.game = st.game;
    board.dataset.game = st.game;
    board.dataset.board = v.board;
    board.dataset.terminal = String(v.terminal);
    board.dataset.toMove = String(v.toMove);
    board.style.gridTemplateColumns = "1.4em repeat(" + v.cols + ", 56px)";
    board.innerHTML = "";
    const can = humanCanMove();
    const froms = new Set(), targets = new Map();
    if (can) {
      for (const p of v.legal) {
        froms.add(p.from);
        if (p.from === st.selected) targets.set(p.to, p.coords);
      }
    }
    const last = st.at > 0 ? v.moves[st.at - 1] : null;
    const flipped = new Set(v.flipped);
    for (let r = 0; r <= v.rows; r++) {
      for (let c = -1; c < v.cols; c++) {
        const d = document.createElement("div");
        if (r === v.rows || c < 0) {
          d.className = "cell label";
          d.textContent = r === v.rows ? (c < 0 ? "" : String(c + 1)) : String(r + 1);
          board.appendChild(d);
          continue;
        }
        const i = r * v.cols + c;
        d.className = "cell";
        if (st.game === "catch-the-mouse") {
          if (r >= 1 && r <= 5) d.classList.add("zone");
          if (r === v.rows - 1) d.classList.add("goal");
        }
        d.dataset.cell = String(i);
        const ch = v.cells[i];
        if (ch !== ".") {
          const pc = document.createElement("div");
          pc.className = "piece piece-" + ch;
          d.dataset.piece = ch;
          d.dataset.owner = String(v.owner[i]);
          d.appendChild(pc);
        }
        if (froms.has(i)) d.classList.add("movable");
        if (i === st.selected) d.classList.add("selected");
        if (targets.has(i)) {
          d.classList.add("target");
          const co = targets.get(i);
          if (Math.max(Math.abs(co[0] - co[2]), Math.abs(co[1] - co[3])) > 1) d.classList.add("far");
        }
        if (last && (i === last.from || i === last.to)) d.classList.add("last");
        if (flipped.has(i) && st.at === st.moves.length) d.classList.add("flipped");
        d.addEventListener("click", () => clickCell(i));
        board.appendChild(d);
      }
    }
    $("pass").disabled = !(can && v.pass);
    $("takeback").disabled = !st.full || !st.full.moves.some((m, k) => k < st.at && m.seat === st.human);
    $("analyse").disabled = !st.ready || v.terminal || st.busy !== null;
    $("stop").disabled = !st.busy;
    renderStatus();
    renderMoves();
  }

  function renderStatus() {
    const v = st.view;
    const g = st.games[st.game];
    const players = $("players");
    players.innerHTML = "";
    g.players.forEach((name, i) => {
      const d = document.createElement("div");
      d.id = "count-" + i;
      d.dataset.count = String(v.counts[i]);
      const who = $("engine-plays").checked ? (i === st.human ? "you" : "engine") : "";
      d.textContent = seatName(i) + (who ? " — " + who : "") + ": " + v.counts[i] + " pieces";
      if (i === v.toMove) d.classList.add("tomove");
      players.appendChild(d);
    });
    let s;
    if (!st.ready && !st.busy) s = "Loading the engine…";
    else if (st.busy === "move") s = "The engine is thinking…";
    else if (st.busy === "analysis") s = "Analysing…";
    else if (v.terminal) s = "Game over";
    else if (st.at < st.moves.length) s = "Move " + st.at + " of " + st.moves.length + ": " + seatName(v.toMove) + " to move";
    else s = seatName(v.toMove) + " to move" + (humanCanMove() ? (v.pass ? ": you must pass" : ": your move") : "");
    $("status").textContent = s;
    const res = $("result");
    if (v.terminal) {
      let who = v.winner < 0 ? "Draw" : st.games[st.game].players[v.winner] + " wins";
      if ($("engine-plays").checked && v.winner >= 0) who += v.winner === st.human ? " (you)" : " (the engine)";
      res.textContent = who + ": " + v.outcome;
      res.dataset.winner = String(v.winner);
    } else {
      res.textContent = "";
      delete res.dataset.winner;
    }
    $("about").textContent = "Engine: " + engineLabel() + ". Everything runs in this page (Go compiled to WebAssembly): no network.";
  }

  function fmtInfo(info) {
    if (!info) return "";
    const sign = info.mover === 0 ? 1 : -1;
    if (info.proven) return (info.proven * sign > 0 ? "first player wins" : "second player wins");
    if (info.hasAB) return ((sign * info.score) / 100).toFixed(2).replace(/^(?=\d)/, "+");
    return (sign * info.value).toFixed(2).replace(/^(?=\d)/, "+");
  }

  function renderMoves() {
    const ol = $("moves");
    ol.innerHTML = "";
    const moves = st.full.moves;
    moves.forEach((m, k) => {
      const li = document.createElement("li");
      li.dataset.ply = String(k + 1);
      li.dataset.coords = m.coords.join(" ");
      li.dataset.seat = String(m.seat);
      li.textContent = (k + 1) + ". " + st.games[st.game].players[m.seat] + " " + m.text;
      const inf = st.infos[k];
      if (inf) {
        const sp = document.createElement("span");
        sp.className = "ev";
        const info = { mover: m.seat, hasAB: inf.score !== undefined, score: inf.score || 0, value: inf.value || 0, proven: inf.proven || 0 };
        sp.textContent = fmtInfo(info) + (inf.depth ? " d" + inf.depth : "");
        li.appendChild(sp);
      }
      if (k + 1 === st.at) li.classList.add("current");
      li.addEventListener("click", () => goTo(k + 1));
      ol.appendChild(li);
    });
  }

  function clearInfo() {
    $("score").textContent = "–";
    $("depth").textContent = $("nodes").textContent = $("pv").textContent = "";
    $("evalfill").style.width = "50%";
  }

  // showInfo draws an account of the engine: the bar and the number from the first player's
  // side, the depth, the nodes, the best line.
  function showInfo(info) {
    const sign = info.mover === 0 ? 1 : -1;
    $("evalfill").style.width = (50 + 50 * sign * info.bar).toFixed(1) + "%";
    $("score").textContent = fmtInfo(info);
    $("score").dataset.bar = String(sign * info.bar);
    $("depth").textContent = "depth " + info.depth;
    $("depth").dataset.depth = String(info.depth);
    $("nodes").textContent = info.nodes.toLocaleString("en") + (info.hasAB ? " nodes" : " playouts") + ", " + info.ms + " ms";
    $("nodes").dataset.nodes = String(info.nodes);
    $("pv").textContent = info.pv.join(" ");
    $("analysis").dataset.updates = String((parseInt($("analysis").dataset.updates, 10) || 0) + 1);
  }

  function showError(s) { $("error").textContent = s; }

  function clickCell(i) {
    if (!humanCanMove()) return;
    const v = st.view;
    if (st.selected >= 0) {
      const p = v.legal.find((q) => q.from === st.selected && q.to === i);
      if (p) { play(p.coords); return; }
    }
    st.selected = v.legal.some((q) => q.from === i) && st.selected !== i ? i : -1;
    render();
  }

  function goTo(k) {
    if (st.busy === "move") return;
    if (st.busy === "analysis") stop(); // its position is no longer shown
    st.at = Math.max(0, Math.min(k, st.moves.length));
    step();
  }

  function analyse() {
    if (st.busy || !st.ready || st.view.terminal) return;
    const ms = Math.max(100, parseInt($("analyse-ms").value, 10) || 5000);
    search("analysis", { moves: st.moves.slice(0, st.at), moveMs: ms, analysis: true });
  }

  // ---- start ----

  async function main() {
    try {
      const bytes = b64(assets.wasm);
      st.module = await WebAssembly.compile(bytes);
      const go = new Go();
      const inst = await WebAssembly.instantiate(st.module, go.importObject);
      go.run(inst);
      for (const g of call("games")) st.games[g.name] = g;
    } catch (e) {
      showError("the engine does not load: " + e.message);
      return;
    }
    const sel = $("game");
    for (const g of Object.values(st.games)) {
      const o = document.createElement("option");
      o.value = g.name;
      o.textContent = g.title;
      sel.appendChild(o);
    }
    sel.value = st.game;
    fillSeats();
    sel.addEventListener("change", newGame);
    $("seat").addEventListener("change", newGame);
    $("new").addEventListener("click", newGame);
    $("pass").addEventListener("click", () => { const p = st.view.pass; if (p && humanCanMove()) play([-1, -1, -1, -1]); });
    $("takeback").addEventListener("click", takeBack);
    $("save").addEventListener("click", save);
    $("first").addEventListener("click", () => goTo(0));
    $("back").addEventListener("click", () => goTo(st.at - 1));
    $("forward").addEventListener("click", () => goTo(st.at + 1));
    $("last").addEventListener("click", () => goTo(st.moves.length));
    $("analyse").addEventListener("click", analyse);
    $("stop").addEventListener("click", () => { const wasMove = st.busy === "move"; stop(); if (wasMove) $("engine-plays").checked = false; step(); });
    $("engine-plays").addEventListener("change", step);
    $("limit-kind").addEventListener("change", () => { $("limit-value").value = $("limit-kind").value === "time" ? "1000" : "20000"; });
    $("load").addEventListener("change", (e) => {
      const f = e.target.files[0];
      if (!f) return;
      const r = new FileReader();
      r.onload = () => loadText(String(r.result));
      r.readAsText(f);
      e.target.value = "";
    });
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
      const k = { Home: 0, ArrowLeft: st.at - 1, ArrowRight: st.at + 1, End: st.moves.length }[e.key];
      if (k !== undefined) { e.preventDefault(); goTo(k); }
    });
    startWorker();
    newGame();
  }
  main();
})();
