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


  // A scene: its options as inputs within their domains (impulse scenes --json), run in the page by
  // impulse.run with the ceilings of `impulse run`, then played back: a plot that grows with the
  // playback (Chart.js) and, where the table holds a pose, a 3D view (three.js) with orbit, pause,
  // step and a slider to scrub back through the recorded steps.
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
      row.appendChild(el("span", {"class": "impulse-calc-allowed"}, "allowed: " + o.domain.allowed));
      opts.appendChild(row);
      fields[o.name] = input;
    });
    box.appendChild(opts);
    const controls = el("div", {"class": "impulse-scene-controls"});
    const runB = el("button", {type: "button"}, "Run");
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

    let rows = [], cols = [], shown = 0, playing = true, chart = null, draw = null, tables = {};
    const chartLib = window.Chart;
    chart = new chartLib(canvas.getContext("2d"), {
      type: "line",
      data: {datasets: ycols.map(function (c, i) {
        return {label: c, data: [], borderWidth: 1.5, pointRadius: 0, borderColor: COLORS[i % COLORS.length]};
      })},
      options: {animation: false, parsing: false, responsive: true, maintainAspectRatio: false,
                scales: {x: {type: "linear", title: {display: true, text: xcol}}}}
    });
    if (box.dataset.view && window.THREE) draw = makeView(view, box.dataset.view);

    function col(n) { return cols.indexOf(n); }
    function show(k) {
      shown = Math.max(0, Math.min(rows.length - 1, k));
      scrub.value = String(shown);
      where.textContent = "step " + shown + " of " + (rows.length - 1);
      const xi = col(xcol);
      ycols.forEach(function (c, i) {
        const yi = col(c);
        // a scene of two runs (weighting on and off, static and kinematic) starts its clock again: a gap
        const pts = [];
        rows.slice(0, shown + 1).forEach(function (r, j, all) {
          if (j > 0 && r[xi] < all[j - 1][xi]) pts.push({x: r[xi], y: null});
          pts.push({x: r[xi], y: r[yi]});
        });
        chart.data.datasets[i].data = pts;
      });
      chart.update();
      if (draw) draw(rows[shown], col, tables);
      box.dataset.shown = String(shown);
    }
    function run() {
      const o = {};
      Object.keys(fields).forEach(function (k) { o[k] = fields[k].value.trim(); });
      return window.impulse.run(name, o).then(function (r) {
        msg.textContent = "";
        box.dataset.error = "";
        tables = r.tables;
        box.impulseTables = r.tables;
        const t = window.impulse.csv(r.tables[table]);
        cols = t.columns;
        rows = t.rows;
        scrub.max = String(rows.length - 1);
        playing = true;
        playB.textContent = "Pause";
        show(0);
      }, function (e) {
        box.dataset.error = e.message;
        msg.textContent = "";
        msg.appendChild(el("div", {"class": "impulse-live-error"}, e.message));
      });
    }
    let last = 0;
    function tick(now) {
      if (playing && rows.length && now - last > 30) {
        last = now;
        const per = Math.max(1, Math.round(rows.length / 150));
        if (shown < rows.length - 1) show(shown + per);
        else playing = false;
      }
      window.requestAnimationFrame(tick);
    }
    runB.addEventListener("click", run);
    playB.addEventListener("click", function () {
      playing = !playing;
      if (playing && shown >= rows.length - 1) show(0);
      playB.textContent = playing ? "Pause" : "Play";
    });
    stepB.addEventListener("click", function () { playing = false; playB.textContent = "Play"; show(shown + 1); });
    scrub.addEventListener("input", function () { playing = false; playB.textContent = "Play"; show(Number(scrub.value)); });
    box.impulseRun = run;
    window.requestAnimationFrame(tick);
    // the first run after the page is usable: calculators and checkers do not wait for a scene
    window.setTimeout(run, 0);
  }

  const COLORS = ["#3465a4", "#cc0000", "#4e9a06", "#f57900", "#75507b", "#555753"];

  // The 3D view of a recorded row: "box:z_m" (the E3 box, 0.2 x 0.1 x 0.05 m, at its COM height),
  // "point:q_m" (the ST point mass), "rod" (the ST rod from x_m, y_m, theta_rad; its length from
  // the first row of the scene's poses), "slide:COL,COL,..." (one box per column, side by side, at
  // x = that column: the E3 §6 box under each solver).
  function makeView(host, spec) {
    const T = window.THREE;
    const w = 360, h = 260;
    const renderer = new T.WebGLRenderer({antialias: true, preserveDrawingBuffer: true});
    renderer.setSize(w, h);
    host.appendChild(renderer.domElement);
    const scene = new T.Scene();
    scene.background = new T.Color(0xf4f5f7);
    const camera = new T.PerspectiveCamera(40, w / h, 0.01, 100);
    camera.up.set(0, 0, 1);
    camera.position.set(0.9, -1.2, 0.6);
    scene.add(new T.AmbientLight(0xffffff, 0.6));
    const light = new T.DirectionalLight(0xffffff, 0.6);
    light.position.set(1, -2, 3);
    scene.add(light);
    const ground = new T.Mesh(new T.PlaneGeometry(2, 2), new T.MeshLambertMaterial({color: 0xd8d8d0}));
    scene.add(ground);
    const controls = T.OrbitControls ? new T.OrbitControls(camera, renderer.domElement) : null;
    const kind = spec.split(":")[0], column = spec.split(":")[1];
    let body;
    const lanes = [];
    if (kind === "slide") {
      column.split(",").forEach(function (c, i) {
        const m = new T.Mesh(new T.BoxGeometry(0.05, 0.05, 0.05), new T.MeshLambertMaterial({color: COLORS[i % COLORS.length]}));
        m.position.set(0, (i - 2) * 0.12, 0.025);
        scene.add(m);
        lanes.push({column: c, mesh: m});
      });
      camera.position.set(0.05, -0.9, 0.5);
    }
    if (kind === "slide") body = new T.Object3D();
    else if (kind === "box") body = new T.Mesh(new T.BoxGeometry(0.2, 0.1, 0.05), new T.MeshLambertMaterial({color: 0x3465a4}));
    else if (kind === "point") body = new T.Mesh(new T.SphereGeometry(0.01, 16, 12), new T.MeshLambertMaterial({color: 0xcc0000}));
    else body = new T.Mesh(new T.BoxGeometry(1, 0.01, 0.01), new T.MeshLambertMaterial({color: 0x4e9a06}));
    scene.add(body);
    if (kind === "point") camera.position.set(0.05, -0.12, 0.04);
    if (kind === "rod") camera.position.set(0.4, -1.8, 0.8);
    const target = kind === "slide" ? new T.Vector3(0.05, 0, 0.02) : new T.Vector3(0, 0, kind === "point" ? 0 : 0.1);
    camera.lookAt(target);
    if (controls) { controls.target.copy(target); controls.update(); }
    function render() { renderer.render(scene, camera); }
    if (controls) controls.addEventListener("change", render);
    return function (row, col, tables) {
      if (kind === "slide") lanes.forEach(function (l) { l.mesh.position.x = row[col(l.column)]; });
      else if (kind === "box" || kind === "point") body.position.set(0, 0, row[col(column)]);
      else {
        const poses = window.impulse.csv(tables["st-rod-poses.csv"]);
        const p0 = poses.rows[0], c = function (n) { return p0[poses.columns.indexOf(n)]; };
        body.scale.x = Math.hypot(c("x1_m") - c("x0_m"), c("y1_m") - c("y0_m"));
        // the paper's plane (x along the ground, y up) drawn as x-z
        body.position.set(row[col("x_m")], 0, row[col("y_m")]);
        body.rotation.set(0, -row[col("theta_rad")], 0);
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
