// The play page's engine worker (after wasm_exec.js in the same script): the Go engine
// compiled to WebAssembly, searching without blocking the page. Messages: init (the compiled
// module and the nets), search (a colony/web Request); answers: ready, info (each
// iteration), done (the move and its account), error.
"use strict";

onmessage = async (e) => {
  const m = e.data;
  if (m.type === "init") {
    try {
      const go = new Go();
      const inst = await WebAssembly.instantiate(m.module, go.importObject);
      go.run(inst);
      for (const [game, net] of Object.entries(m.nets)) {
        const r = JSON.parse(colony.setNet(game, net.name, net.data));
        if (r.error !== undefined) throw new Error(r.error);
      }
      postMessage({ type: "ready" });
    } catch (err) {
      postMessage({ type: "error", error: String(err.message || err) });
    }
    return;
  }
  if (m.type === "search") {
    const r = JSON.parse(colony.search(JSON.stringify(m.req), (info) => postMessage({ type: "info", id: m.id, info: JSON.parse(info) })));
    if (r.error !== undefined) postMessage({ type: "error", id: m.id, error: r.error });
    else postMessage({ type: "done", id: m.id, result: r.ok });
  }
};
