// impulse.js: the book's JavaScript API over the browser module (_static/impulse-wasm.js, the
// engine and the course compiled by emscripten from the same sources as the impulse command).
//
//   await impulse.calc("E3.4-xpbd-pn", {d: -0.002, h: 0.001, w: 2, relaxation: 0.8})
//       -> what `impulse calc E3.4-xpbd-pn --d -0.002 ... --json` prints
//   await impulse.check("E1.11-ex3", ["0", "-0.2", "0"])
//       -> what `impulse exercises check E1.11-ex3 0 -0.2 0 --json` prints; wrong tries are kept in
//          this browser's localStorage (never sent anywhere)
//   await impulse.run("st-bounce", {h: 0.01})
//       -> {scene, rc, log, tables: {"st-bounce.csv": CSV text, ...}}, as `impulse run` writes them
//   const s = await impulse.open("e3-pyramid", {iterations: 4})   // a scene stepped live
//   s.step(10) -> {taken, step, steps, done, tables: {file: {columns (first time), rows: [new rows]}},
//                  shapes, poses (one per step taken), rc and log once done}   (synchronous)
//   s.close()  -> frees it; to start again, open another. The rows are the ones `impulse run` writes:
//                 the command line runs the same session to its end.
//   await impulse.lcp("2\n2 1\n1 2\n-5 -6\n", {trace: true})
//       -> what `impulse lcp FILE --json --trace` prints
//   await impulse.bench("e3-spheres", {n: 1000, steps: 20})
//       -> what `impulse bench e3-spheres --n 1000 --steps 20 --json` prints (measured in this page)
//   impulse.csv(text) -> {columns: [names], rows: [[numbers or strings]]}
//
// Every call returns a Promise. Bad input rejects with an Error whose message is the command line's
// one line (the same text `impulse` prints after "impulse: error: "). The module is loaded once per
// page, on the first call; impulse.ready is that Promise.
(function () {
  "use strict";
  const script = document.currentScript;
  const base = script ? script.src.slice(0, script.src.lastIndexOf("/") + 1) : "_static/";
  let loading = null;

  function load() {
    if (loading) return loading;
    loading = new Promise(function (resolve, reject) {
      function start() {
        window.createImpulseModule().then(resolve, function (e) {
          reject(new Error("the impulse module did not start: " + (e && e.message ? e.message : e)));
        });
      }
      if (typeof window.createImpulseModule === "function") return start();
      const s = document.createElement("script");
      s.src = base + "impulse-wasm.js";
      s.onload = start;
      s.onerror = function () {
        reject(new Error("the impulse module (_static/impulse-wasm.js) could not be loaded"));
      };
      document.head.appendChild(s);
    });
    return loading;
  }

  function call(m, fn, args) {
    const text = m.ccall("impulse_request", "string", ["string", "string"], [fn, JSON.stringify(args)]);
    const j = JSON.parse(text);
    if (j && typeof j === "object" && !Array.isArray(j) && Object.keys(j).length === 1 && "error" in j)
      throw new Error(j.error);
    return j;
  }

  function request(fn, args) {
    return load().then(function (m) { return call(m, fn, args); });
  }

  // A live scene: the module holds its session; step(n) advances it synchronously (the page calls it
  // with a few steps per animation frame) and returns only what is new.
  function open(scene, opts) {
    return load().then(function (m) {
      const o = call(m, "open", {scene: scene, options: options(opts)});
      let closed = false;
      return {
        scene: scene,
        steps: o.steps,
        step: function (n) {
          if (closed) throw new Error("impulse: the session of " + scene + " is closed");
          return call(m, "step", {session: o.session, n: n === undefined ? 1 : n});
        },
        close: function () {
          if (!closed) call(m, "close", {session: o.session});
          closed = true;
        }
      };
    });
  }

  // A value as the command line would be given it: numbers in their shortest round-trip form
  // (String(x) reads back as exactly x), vectors joined by commas, text as typed.
  function asText(v) {
    if (Array.isArray(v)) return v.map(asText).join(",");
    return String(v);
  }

  function options(o) {
    const out = [];
    Object.keys(o || {}).forEach(function (k) {
      out.push("--" + k, asText(o[k]));
    });
    return out;
  }

  const TRIES = "impulse.tries";
  function readTries() {
    try {
      const j = JSON.parse(window.localStorage.getItem(TRIES) || "{}");
      return j && typeof j === "object" ? j : {};
    } catch (e) {
      return {};
    }
  }
  function writeTries(t) {
    try {
      window.localStorage.setItem(TRIES, JSON.stringify(t));
    } catch (e) {
      // storage off (a private window): grading still works, the count is not kept
    }
  }

  function answerTokens(answers) {
    if (Array.isArray(answers)) return answers.map(asText);
    return String(answers).trim().split(/\s+/).filter(function (t) { return t.length > 0; });
  }

  function csv(text) {
    const lines = text.split("\n").filter(function (l) { return l.length > 0 && l[0] !== "#"; });
    const columns = lines.length ? lines[0].split(",") : [];
    const rows = lines.slice(1).map(function (l) {
      return l.split(",").map(function (c) {
        if (c === "") return NaN;
        const x = Number(c);
        return isNaN(x) && c !== "nan" ? c : x;
      });
    });
    return {columns: columns, rows: rows};
  }

  window.impulse = {
    get ready() { return load(); },
    calc: function (id, inputs) {
      const t = {};
      Object.keys(inputs || {}).forEach(function (k) { t[k] = asText(inputs[k]); });
      return request("calc", {id: id, inputs: t});
    },
    form: function (id) { return request("form", {id: id}); },
    exercise: function (id) { return request("exercise", {id: id}); },
    check: function (id, answers, opts) {
      const tries = readTries();
      const reveal = !!(opts && opts.reveal);
      return request("check", {id: id, answers: answerTokens(answers), tries: tries[id] || 0, reveal: reveal})
        .then(function (v) {
          if (!v.correct) {
            tries[id] = v.tries;
            writeTries(tries);
          }
          return v;
        });
    },
    tries: function (id) { return readTries()[id] || 0; },
    scenes: function () { return request("scenes", {}); },
    run: function (scene, opts, maxOutput) {
      const args = {scene: scene, options: options(opts)};
      if (maxOutput !== undefined) args.max_output = maxOutput;
      return request("run", args);
    },
    open: open,
    bench: function (scene, opts) { return request("bench", {scene: scene, options: options(opts)}); },
    lcp: function (text, opts) {
      return request("lcp", {text: String(text), src: (opts && opts.src) || "lcp", trace: !!(opts && opts.trace)});
    },
    csv: csv
  };
})();
