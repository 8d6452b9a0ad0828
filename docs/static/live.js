// live.js: fills the book's live widgets (placed by docs/tools/live_widgets.py) through the one
// JavaScript API of impulse.js. A calculator form computes with the registry entry of
// `impulse calc`; a checker grades with the tutor of `impulse exercises check`. If the module
// cannot start, every widget says so in one line instead of staying dead.
(function () {
  "use strict";

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // Up to 9 significant digits, as `impulse calc` prints (format_value).
  function num(x) {
    if (!isFinite(x)) return String(x);
    const s = Number(x.toPrecision(9)).toString();
    return s;
  }
  function value(v) {
    return v.length === 1 ? num(v[0]) : "(" + v.map(num).join(", ") + ")";
  }
  function unit(u) { return u === "-" || u === "" ? "" : " " + u; }

  function calculator(box, form) {
    box.textContent = "";
    box.appendChild(el("p", {"class": "impulse-live-title"}, "Live: " + form.id + " (" + form.section + ") " + form.title));
    const table = el("div", {"class": "impulse-calc-inputs"});
    const fields = {};
    form.inputs.forEach(function (q) {
      const row = el("label", {"class": "impulse-calc-row", title: q.doc});
      row.appendChild(el("span", {"class": "impulse-calc-name"}, q.name));
      const input = el("input", {type: "text", name: q.name, "data-input": q.name, spellcheck: "false"});
      input.value = q.example ? q.example.map(String).join(",") : "";
      row.appendChild(input);
      row.appendChild(el("span", {"class": "impulse-calc-unit"}, q.unit === "-" ? "" : q.unit));
      row.appendChild(el("span", {"class": "impulse-calc-allowed"}, "allowed: " + q.allowed));
      table.appendChild(row);
      fields[q.name] = input;
    });
    box.appendChild(table);
    if (form.example_source) box.appendChild(el("p", {"class": "impulse-calc-from"}, "defaults: " + form.example_source));
    const out = el("div", {"class": "impulse-calc-outputs", "aria-live": "polite"});
    box.appendChild(out);
    function compute() {
      const inputs = {};
      Object.keys(fields).forEach(function (k) { inputs[k] = fields[k].value.trim(); });
      return window.impulse.calc(form.id, inputs).then(function (r) {
        out.textContent = "";
        box.dataset.result = JSON.stringify(r);
        box.dataset.error = "";
        form.outputs.forEach(function (q) {
          const o = r.outputs[q.name];
          out.appendChild(el("div", {"class": "impulse-calc-out", "data-output": q.name},
                             q.name + " = " + value(o.value) + unit(o.unit)));
        });
      }, function (e) {
        out.textContent = "";
        box.dataset.result = "";
        box.dataset.error = e.message;
        out.appendChild(el("div", {"class": "impulse-live-error"}, e.message));
      });
    }
    Object.keys(fields).forEach(function (k) { fields[k].addEventListener("input", compute); });
    box.impulseCompute = compute;
    return compute();
  }

  function checker(box, ex) {
    const reveal = box.dataset.edition === "instructor";
    box.textContent = "";
    box.appendChild(el("p", {"class": "impulse-live-title"}, "Check your answer: " + ex.id + " " + ex.title));
    const shape = ex.answer.map(function (p) {
      if (p.kind === "choice") return p.name + ": one option label (" + p.options.map(function (o) { return o.split(")")[0]; }).join(", ") + ")";
      return p.name + ": " + p.size + (p.size === 1 ? " number" : " numbers") + unit(p.unit);
    }).join(", then ");
    box.appendChild(el("p", {"class": "impulse-check-shape"}, "Answer: " + shape + " (separated by spaces or commas)"));
    const row = el("div", {"class": "impulse-check-row"});
    const input = el("input", {type: "text", "data-answer": ex.id, spellcheck: "false"});
    const button = el("button", {type: "button"}, "Check");
    row.appendChild(input);
    row.appendChild(button);
    box.appendChild(row);
    const out = el("div", {"class": "impulse-check-verdict", "aria-live": "polite"});
    box.appendChild(out);
    function check() {
      const text = input.value;
      return window.impulse.check(ex.id, text, {reveal: reveal}).then(function (v) {
        box.dataset.verdict = JSON.stringify(v);
        box.dataset.error = "";
        out.textContent = "";
        out.appendChild(el("p", {"class": v.correct ? "impulse-ok" : "impulse-wrong"},
                           v.correct ? "Correct." : "Not yet (wrong tries: " + v.tries + ")."));
        v.parts.forEach(function (p) {
          let line = p.name + ": " + (p.correct ? "correct" : "incorrect") + " (yours " + p.given + unit(p.unit || "") + ")";
          if (!p.correct && p.component) line += "; component " + p.component + " is off";
          if (p.tolerance) line += "; " + p.tolerance;
          out.appendChild(el("div", {"class": "impulse-check-part"}, line));
          if (p.hint) out.appendChild(el("div", {"class": "impulse-check-hint"}, "hint: " + p.hint));
          if (p.answer !== undefined) out.appendChild(el("div", {"class": "impulse-check-answer"}, "answer: " + p.answer));
        });
        if (v.explanation) out.appendChild(el("p", {"class": "impulse-check-why"}, "why: " + v.explanation));
        else out.appendChild(el("p", {"class": "impulse-check-later"},
                                "The worked solution is shown after 3 wrong tries (counted in this browser only)."));
      }, function (e) {
        box.dataset.verdict = "";
        box.dataset.error = e.message;
        out.textContent = "";
        out.appendChild(el("div", {"class": "impulse-live-error"}, e.message));
      });
    }
    button.addEventListener("click", check);
    input.addEventListener("keydown", function (e) { if (e.key === "Enter") check(); });
    box.impulseCheck = check;
  }


  // A slider over an option's domain (impulse scenes --json): linear, or logarithmic when the
  // domain spans more than three decades (a step h in [1e-5, 0.1]); open ends are kept out.
  function slider(domain, field, onChange) {
    if (domain.kind === "choice" || !isFinite(domain.lo) || !isFinite(domain.hi)) return null;
    const integer = domain.kind === "integer";
    const lo = domain.lo_open ? domain.lo + (domain.hi - domain.lo) * 1e-3 : domain.lo;
    const hi = domain.hi_open ? domain.hi - (domain.hi - domain.lo) * 1e-3 : domain.hi;
    if (integer && hi - lo > 1000) return null;  // sizes such as steps: typed, not slid
    const log = !integer && lo > 0 && hi / lo > 1000;
    const r = el("input", {type: "range", min: "0", max: integer ? String(hi - lo) : "1000", step: "1",
                           "class": "impulse-scene-slider", "aria-label": field.dataset.option});
    function toValue(k) {
      if (integer) return lo + k;
      const f = k / 1000;
      const x = log ? lo * Math.pow(hi / lo, f) : lo + (hi - lo) * f;
      return Number(x.toPrecision(3));
    }
    function fromValue(x) {
      if (integer) return Math.round(x - lo);
      const f = log ? Math.log(x / lo) / Math.log(hi / lo) : (x - lo) / (hi - lo);
      return Math.round(1000 * Math.min(1, Math.max(0, f)));
    }
    const x = Number(field.value);
    if (isFinite(x)) r.value = String(fromValue(x));
    r.addEventListener("input", function () { field.value = String(toValue(Number(r.value))); });
    r.addEventListener("change", onChange);
    return r;
  }

  // A scene: its options as inputs and sliders within their domains (impulse scenes --json). A
  // stepped scene is opened as a session (impulse.open) and stepped live, a few steps per animation
  // frame within a time budget, so drawing never waits for physics: the plot (Chart.js) grows as it
  // runs and the 3D view (three.js) draws the bodies as they are; pause, step and a slider scrub back
  // through the recorded steps. A scene computed whole (impulse.run) is played back the same way.
  function sceneWidget(box, all) {
    const name = box.dataset.scene;
    const sc = all.filter(function (s) { return s.name === name; })[0];
    if (!sc) throw new Error("unknown scene '" + name + "' (see 'impulse scenes')");
    const table = box.dataset.table || name + ".csv";
    const xcol = box.dataset.x, ycols = box.dataset.y.split(",");
    box.textContent = "";
    box.appendChild(el("p", {"class": "impulse-live-title"}, "Live scene: " + sc.name + " (" + sc.chapter + ") " + sc.title));
    const opts = el("div", {"class": "impulse-scene-options"});
    const fields = {};
    sc.options.forEach(function (o) {
      if (o.name === "device") return;
      const row = el("label", {"class": "impulse-calc-row", title: o.doc});
      row.appendChild(el("span", {"class": "impulse-calc-name"}, "--" + o.name));
      let input;
      if (o.domain.kind === "choice") {
        input = el("select", {"data-option": o.name});
        o.domain.choices.forEach(function (c) { const op = el("option", {value: c}, c); input.appendChild(op); });
      } else {
        input = el("input", {type: "text", "data-option": o.name, spellcheck: "false"});
      }
      input.value = o.default;
      row.appendChild(input);
      row.appendChild(el("span", {"class": "impulse-calc-unit"}, o.unit === "-" ? "" : o.unit));
      const r = slider(o.domain, input, function () { run(); });
      row.appendChild(r || el("span"));
      row.appendChild(el("span", {"class": "impulse-calc-allowed"}, "allowed: " + o.domain.allowed));
      input.addEventListener("change", function () { run(); });
      opts.appendChild(row);
      fields[o.name] = input;
    });
    box.appendChild(opts);
    const controls = el("div", {"class": "impulse-scene-controls"});
    const runB = el("button", {type: "button"}, "Restart");
    const playB = el("button", {type: "button"}, "Pause");
    const stepB = el("button", {type: "button"}, "Step");
    const scrub = el("input", {type: "range", min: "0", max: "0", value: "0", "aria-label": "recorded step"});
    const where = el("span", {"class": "impulse-calc-allowed"});
    [runB, playB, stepB, scrub, where].forEach(function (c) { controls.appendChild(c); });
    box.appendChild(controls);
    const msg = el("div", {"class": "impulse-scene-message"});
    box.appendChild(msg);
    const stage = el("div", {"class": "impulse-scene-stage"});
    const view = el("div", {"class": "impulse-scene-view"});
    const plotBox = el("div", {"class": "impulse-scene-plot"});
    const canvas = el("canvas");
    plotBox.appendChild(canvas);
    if (box.dataset.view) stage.appendChild(view);
    stage.appendChild(plotBox);
    box.appendChild(stage);

    // The run so far: the tables as received ({file: {columns, rows}}), the main table's rows, the
    // poses after each step (stepped scenes with bodies), what is shown.
    let got = {}, rows = [], cols = [], poses = [], shapes = null, shown = -1, plotted = 0;
    let playing = true, session = null, finished = null, over = false, generation = 0, started = 0;
    const chart = new window.Chart(canvas.getContext("2d"), {
      type: "line",
      data: {datasets: ycols.map(function (c, i) {
        return {label: c, data: [], borderWidth: 1.5, pointRadius: 0, borderColor: COLORS[i % COLORS.length]};
      })},
      options: {animation: false, parsing: false, responsive: true, maintainAspectRatio: false,
                scales: {x: {type: "linear", title: {display: true, text: xcol}}}}
    });
    const draw = box.dataset.view && window.THREE ? makeView(view, box.dataset.view) : null;

    function col(n) { return cols.indexOf(n); }
    // Points 0..k of the plot: appended while the run grows, rebuilt when scrubbing back.
    function plotTo(k) {
      const xi = col(xcol);
      if (k + 1 < plotted) {
        chart.data.datasets.forEach(function (d) { d.data = []; });
        plotted = 0;
      }
      ycols.forEach(function (c, i) {
        const yi = col(c), pts = chart.data.datasets[i].data;
        for (let j = plotted; j <= k; ++j) {
          // a scene of two runs (weighting on and off, static and kinematic) starts its clock again: a gap
          if (j > 0 && rows[j][xi] < rows[j - 1][xi]) pts.push({x: rows[j][xi], y: null});
          pts.push({x: rows[j][xi], y: rows[j][yi]});
        }
      });
      plotted = k + 1;
      chart.update();
    }
    // While a run grows the plot is redrawn at most every 100 ms (Chart.js redraws every point); the
    // 3D view every frame.
    let plottedAt = 0;
    function show(k, growing) {
      if (!rows.length) return;
      shown = Math.max(0, Math.min(rows.length - 1, k));
      scrub.max = String(rows.length - 1);
      scrub.value = String(shown);
      const total = session ? session.steps : rows.length - 1;
      where.textContent = "step " + shown + " of " + total + (session && !over ? " (running)" : "");
      const now = performance.now();
      if (!growing || now - plottedAt > 100) { plotTo(shown); plottedAt = now; }
      if (draw) draw(rows[shown], col, {shapes: shapes, pose: poseFor(shown)});
      box.dataset.shown = String(shown);
    }
    // The pose after main-table row k: the table may start with the initial state (a row before the
    // first step), so rows and steps are matched from the end.
    function poseFor(k) {
      if (!poses.length) return null;
      const offset = rows.length - poses.length;
      return poses[Math.max(0, Math.min(poses.length - 1, k - offset))];
    }
    function csvText(t) {
      const lines = [t.columns.join(",")];
      t.rows.forEach(function (r) {
        lines.push(r.map(function (c) { return c === null ? "" : String(c); }).join(","));
      });
      return lines.join("\n") + "\n";
    }
    function take(r) {
      Object.keys(r.tables).forEach(function (f) {
        const t = r.tables[f];
        if (!got[f]) got[f] = {columns: t.columns, rows: []};
        Array.prototype.push.apply(got[f].rows, t.rows);
      });
      if (got[table]) { cols = got[table].columns; rows = got[table].rows; }
      if (r.shapes) shapes = r.shapes;
      if (r.poses) Array.prototype.push.apply(poses, r.poses);
      if (r.done) {
        const tables = {};
        Object.keys(got).forEach(function (f) { tables[f] = csvText(got[f]); });
        box.impulseTables = tables;
        box.dataset.rc = String(r.rc);
        if (session) box.dataset.stepsPerSecond = String(Math.round(session.steps / ((performance.now() - started) / 1000)));
        over = true;
        finished();
      }
    }
    function fail(e) {
      box.dataset.error = e.message;
      msg.textContent = "";
      msg.appendChild(el("div", {"class": "impulse-live-error"}, e.message));
      if (session) { session.close(); session = null; }
      over = true;
      if (finished) finished();
    }
    function reset() {
      generation += 1;
      if (session) session.close();
      session = null;
      got = {}; rows = []; cols = []; poses = []; shapes = null; shown = -1; plotted = 0; over = false;
      chart.data.datasets.forEach(function (d) { d.data = []; });
      box.impulseTables = null;
      box.dataset.error = "";
      msg.textContent = "";
      playing = true;
      playB.textContent = "Pause";
    }
    function run() {
      reset();
      const mine = generation;
      const o = {};
      Object.keys(fields).forEach(function (k) { o[k] = fields[k].value.trim(); });
      const done = new Promise(function (resolve) { finished = resolve; });
      if (sc.stepped) {
        window.impulse.open(name, o).then(function (s) {
          if (mine !== generation) { s.close(); return; }
          session = s;
          started = performance.now();
          take(s.step(0));
          show(0);
        }, fail);
      } else {
        // computed whole, then played back
        window.impulse.run(name, o).then(function (r) {
          if (mine !== generation) return;
          const t = window.impulse.csv(r.tables[table]);
          cols = t.columns;
          rows = t.rows;
          box.impulseTables = r.tables;
          show(0);
          over = true;
          finished();
        }, fail);
      }
      return done;
    }
    // Steps per animation frame: as many as fit in BUDGET ms, measured on the previous slices.
    const BUDGET = 12;
    let perCall = 1;
    function stepSlice() {
      const t0 = performance.now();
      try {
        while (session && !over && performance.now() - t0 < BUDGET) {
          const c0 = performance.now();
          const r = session.step(perCall);
          const ms = performance.now() - c0;
          perCall = Math.max(1, Math.min(4096, Math.round(perCall * (ms < BUDGET / 4 ? 2 : ms > BUDGET ? 0.5 : 1))));
          take(r);
          if (r.done) { session.close(); session = null; }
        }
      } catch (e) {
        fail(e);
      }
    }
    let last = 0;
    function tick(now) {
      if (playing && session) {
        stepSlice();
        show(rows.length - 1, !!session);
      } else if (playing && !session && rows.length && shown < rows.length - 1 && now - last > 30) {
        last = now;  // playback of a run computed whole, or catching up after a scrub
        show(shown + Math.max(1, Math.round(rows.length / 150)));
      }
      window.requestAnimationFrame(tick);
    }
    runB.addEventListener("click", run);
    playB.addEventListener("click", function () {
      playing = !playing;
      if (playing && !session && shown >= rows.length - 1) show(0);
      playB.textContent = playing ? "Pause" : "Play";
    });
    stepB.addEventListener("click", function () {
      playing = false;
      playB.textContent = "Play";
      if (shown >= rows.length - 1 && session) {
        try {
          const r = session.step(1);
          take(r);
          if (r.done) { session.close(); session = null; }
        } catch (e) { fail(e); }
      }
      show(shown + 1);
    });
    scrub.addEventListener("input", function () { playing = false; playB.textContent = "Play"; show(Number(scrub.value)); });
    box.impulseRun = run;
    window.requestAnimationFrame(tick);
    // the first run after the page is usable: calculators and checkers do not wait for a scene
    window.setTimeout(run, 0);
  }

  const COLORS = ["#3465a4", "#cc0000", "#4e9a06", "#f57900", "#75507b", "#555753"];

  // The 3D view. "bodies": the shapes the session reports (boxes, spheres, the ground plane) at the
  // poses recorded after each step, the camera fitted to the bodies of the first pose.
  // "slide:COL,COL,...": one box per column, side by side, at x = that column (the E3 §6 box under
  // each solver, a scene computed whole).
  function makeView(host, spec) {
    const T = window.THREE;
    const w = 360, h = 260;
    const renderer = new T.WebGLRenderer({antialias: true, preserveDrawingBuffer: true});
    renderer.setSize(w, h);
    host.appendChild(renderer.domElement);
    const scene = new T.Scene();
    scene.background = new T.Color(0xf4f5f7);
    const camera = new T.PerspectiveCamera(40, w / h, 0.001, 1000);
    camera.up.set(0, 0, 1);
    camera.position.set(0.9, -1.2, 0.6);
    scene.add(new T.AmbientLight(0xffffff, 0.6));
    const light = new T.DirectionalLight(0xffffff, 0.6);
    light.position.set(1, -2, 3);
    scene.add(light);
    const controls = T.OrbitControls ? new T.OrbitControls(camera, renderer.domElement) : null;
    function render() { renderer.render(scene, camera); }
    if (controls) controls.addEventListener("change", render);
    function aim(target, distance) {
      camera.position.set(target.x + 0.75 * distance, target.y - distance, target.z + 0.5 * distance);
      camera.lookAt(target);
      if (controls) { controls.target.copy(target); controls.update(); }
    }
    const kind = spec.split(":")[0], column = spec.split(":")[1];
    if (kind === "slide") {
      scene.add(new T.Mesh(new T.PlaneGeometry(2, 2), new T.MeshLambertMaterial({color: 0xd8d8d0})));
      const lanes = column.split(",").map(function (c, i) {
        const m = new T.Mesh(new T.BoxGeometry(0.05, 0.05, 0.05), new T.MeshLambertMaterial({color: COLORS[i % COLORS.length]}));
        m.position.set(0, (i - 2) * 0.12, 0.025);
        scene.add(m);
        return {column: c, mesh: m};
      });
      aim(new T.Vector3(0.05, 0, 0.02), 0.8);
      return function (row, col) {
        lanes.forEach(function (l) { l.mesh.position.x = row[col(l.column)]; });
        render();
      };
    }
    let meshes = [], signature = "", aimed = false;
    function build(shapes) {
      meshes.forEach(function (m) { scene.remove(m); });
      meshes = shapes.map(function (s, i) {
        let g;
        if (s.kind === "box") g = new T.BoxGeometry(2 * s.size[0], 2 * s.size[1], 2 * s.size[2]);
        else if (s.kind === "sphere") g = new T.SphereGeometry(s.size[0], 24, 16);
        else g = new T.PlaneGeometry(1, 1);
        const color = s.kind === "plane" ? 0xd8d8d0 : COLORS[i % COLORS.length];
        const m = new T.Mesh(g, new T.MeshLambertMaterial({color: color, side: T.DoubleSide}));
        scene.add(m);
        return m;
      });
      signature = JSON.stringify(shapes);
    }
    return function (row, col, state) {
      if (!state.shapes || !state.pose) return;
      if (JSON.stringify(state.shapes) !== signature) build(state.shapes);
      const p = state.pose;
      const box = new T.Box3();
      state.shapes.forEach(function (s, i) {
        const m = meshes[i], o = 7 * i;
        m.position.set(p[o], p[o + 1], p[o + 2]);
        m.quaternion.set(p[o + 3], p[o + 4], p[o + 5], p[o + 6]);
        if (s.kind === "plane") {
          box.expandByPoint(new T.Vector3(p[o], p[o + 1], p[o + 2]));
        } else {
          const r = Math.max(s.size[0], s.size[1], s.size[2]);
          box.expandByPoint(new T.Vector3(p[o] - r, p[o + 1] - r, p[o + 2] - r));
          box.expandByPoint(new T.Vector3(p[o] + r, p[o + 1] + r, p[o + 2] + r));
        }
      });
      const size = box.isEmpty() ? 1 : Math.max(box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z);
      // the ground: as wide as a few times the bodies
      state.shapes.forEach(function (s, i) { if (s.kind === "plane") meshes[i].scale.set(4 * size, 4 * size, 1); });
      if (!aimed && !box.isEmpty()) {
        aimed = true;
        const c = box.getCenter(new T.Vector3());
        aim(c, 2.2 * size);
      }
      render();
    };
  }

  // Lemke's method on an LCP the reader edits: impulse.lcp with the pivot trace, shown one pivot at
  // a time (entering and leaving variable, z0 after the pivot), then z, w and the residuals. A
  // malformed LCP is refused line by line with the message of `impulse lcp`.
  function lcpWidget(box) {
    const text = box.querySelector("textarea");
    const initial = text.value;
    box.textContent = "";
    box.appendChild(el("p", {"class": "impulse-live-title"},
                       "Lemke's method, pivot by pivot (edit the LCP: n, the n rows of M, then q)"));
    box.appendChild(text);
    text.value = initial;
    const controls = el("div", {"class": "impulse-scene-controls"});
    const solveB = el("button", {type: "button"}, "Solve");
    const stepB = el("button", {type: "button"}, "Next pivot");
    controls.appendChild(solveB);
    controls.appendChild(stepB);
    box.appendChild(controls);
    const out = el("div", {"class": "impulse-lcp-out", "aria-live": "polite"});
    box.appendChild(out);
    let result = null, shown = 0;
    function render() {
      out.textContent = "";
      if (!result) return;
      result.trace.slice(0, shown).forEach(function (p, i) {
        out.appendChild(el("div", {"class": "impulse-calc-out"},
                           "pivot " + (i + 1) + ": " + p.entering + " enters, " + p.leaving + " leaves, z0 = " + num(p.z0)));
      });
      if (shown >= result.trace.length) {
        out.appendChild(el("div", {"class": "impulse-calc-out"}, "status: " + result.status + " (" + result.message + ")"));
        out.appendChild(el("div", {"class": "impulse-calc-out"}, "z = " + value(result.z) + ", w = " + value(result.w)));
        out.appendChild(el("div", {"class": "impulse-calc-out"}, "complementarity " + num(result.complementarity) +
                           ", feasibility " + num(result.feasibility) + " (relative residuals)"));
      }
      box.dataset.shown = String(shown);
    }
    function solve() {
      return window.impulse.lcp(text.value, {trace: true, src: "lcp"}).then(function (r) {
        result = r;
        shown = 0;
        box.dataset.result = JSON.stringify(r);
        box.dataset.error = "";
        render();
      }, function (e) {
        result = null;
        box.dataset.result = "";
        box.dataset.error = e.message;
        out.textContent = "";
        out.appendChild(el("div", {"class": "impulse-live-error"}, e.message));
      });
    }
    solveB.addEventListener("click", solve);
    stepB.addEventListener("click", function () {
      if (result && shown < result.trace.length) { shown += 1; render(); }
    });
    box.impulseSolve = function () { return solve().then(function () { if (result) { shown = result.trace.length; render(); } }); };
    return solve();
  }

  function fail(box, e) {
    box.textContent = "";
    box.appendChild(el("p", {"class": "impulse-live-error"}, "The live part of this page could not start: " + e.message));
  }

  function start() {
    const boxes = Array.prototype.slice.call(document.querySelectorAll(".impulse-live"));
    if (!boxes.length) return;
    const jobs = boxes.map(function (box) {
      const id = box.dataset.id;
      let job;
      if (box.classList.contains("impulse-calc")) job = window.impulse.form(id).then(function (f) { return calculator(box, f); });
      else if (box.classList.contains("impulse-check")) job = window.impulse.exercise(id).then(function (x) { checker(box, x); });
      else if (box.classList.contains("impulse-lcp")) job = lcpWidget(box);
      else if (box.classList.contains("impulse-scene")) job = window.impulse.scenes().then(function (all) { return sceneWidget(box, all); });
      else return Promise.resolve();
      return job.catch(function (e) { fail(box, e); });
    });
    Promise.all(jobs).then(function () { document.documentElement.dataset.impulseLive = "ready"; });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
