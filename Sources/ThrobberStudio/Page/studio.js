// Throbber Studio: one page that tunes a scene live against `throbber studio` (docs/studio.md).
// No framework and nothing fetched from elsewhere: the server sends a strict CSP.
//
// Flow: every control change builds the whole state and POSTs it to /api/state (one POST in
// flight at most; when it returns, the latest state goes if it changed). Frames come back down
// the frame stream (/api/frames): their raw RGBA is put on a canvas at one frame pixel per CSS
// pixel. Other events (scenes read again, exports, failures) arrive on /api/events.
// window.studio holds what the browser test reads.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const el = (tag, props = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key === "class") node.className = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (key in node) node[key] = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) if (child != null) node.append(child);
    return node;
  };

  const clientID = (() => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
  })();

  // What the browser test reads (docs/studio.md, "The test").
  const studio = {
    client: clientID,
    ready: false,
    shown: null,          // {seq, scene, t, scale, width, height, rgba, command, revision, backend}
    latencies: [],        // ms from a control's input event to the paint of its frame
    frames: [],           // every frame shown while `record` is true (the test drains it)
    record: false,
    errors: {},           // parameter → message from the last 422
    sceneError: null,
    exports: {},          // id → the last export event
    failed: null,         // the last `failed` event
    streamErrors: 0,      // the event stream's error events (drops, refusals)
    posted: 0,            // states POSTed
    sentSeq: 0,           // the seq of the last state POSTed
    rejectedSeq: 0,       // the last seq answered by a 422, an error or a `failed` event
    info: null,
  };
  window.studio = studio;

  // ---- State ---------------------------------------------------------------------------------

  let info = null;
  const scenes = new Map();      // id → SceneInfo
  const values = new Map();      // scene id → Map(name → {value: string|null}) (only touched ones)
  let sceneID = null;
  let frameIndex = 0;            // t = frameIndex / fps
  let scale = 2;
  let background = "scene";      // scene | none | solid
  let compare = false;
  let connected = false;

  const scene = () => scenes.get(sceneID);
  const fpsOf = (s) => (s && s.fps > 0 ? s.fps : 60);
  const lastFrameOf = (s) => Math.max(1, Math.round((s ? s.duration : 1) * fpsOf(s)));
  const timeOf = () => frameIndex / fpsOf(scene());
  const touched = () => {
    if (!values.has(sceneID)) values.set(sceneID, new Map());
    return values.get(sceneID);
  };

  // ---- Parameter values as --set takes them ---------------------------------------------------

  const hex2 = (x) => Math.round(Math.min(1, Math.max(0, x)) * 255).toString(16).padStart(2, "0");
  const colorText = (rgba) => "#" + rgba.map(hex2).join("");
  function defaultText(p) {
    const d = p.default;
    if (d === null || d === undefined) return null;
    if (p.type === "color" && Array.isArray(d)) return colorText(d);
    return String(d);
  }
  function currentText(p) {
    const own = touched().get(p.name);
    return own ? own.value : defaultText(p);
  }
  function decimalsOf(step) {
    const s = String(step);
    if (s.includes("e-")) return Number(s.split("e-")[1]);
    return s.includes(".") ? s.split(".")[1].length : 0;
  }
  function numberText(p, x) {
    if (!Number.isFinite(x)) return "";
    if (p.type === "integer") return String(Math.round(x));
    const slider = p.slider;
    if (slider && slider.log) return String(Number(x.toPrecision(4)));
    const step = slider && slider.step > 0 ? slider.step : 0.001;
    const rounded = Math.round(x / step) * step;
    return String(Number(rounded.toFixed(Math.min(12, decimalsOf(step)))));
  }

  // Log sliders move over 0…LOG_STEPS positions; value = min·(max/min)^(pos/LOG_STEPS).
  const LOG_STEPS = 1000;
  const sliderToValue = (slider, pos) => slider.log
    ? slider.min * Math.pow(slider.max / slider.min, pos / LOG_STEPS)
    : pos;
  function valueToSlider(slider, x) {
    if (!Number.isFinite(x)) return slider.log ? 0 : slider.min;
    if (!slider.log) return Math.min(slider.max, Math.max(slider.min, x));
    if (x <= slider.min) return 0;
    const pos = Math.round(LOG_STEPS * Math.log(x / slider.min) / Math.log(slider.max / slider.min));
    return Math.min(LOG_STEPS, Math.max(0, pos));
  }

  // Whether a kept value still fits a parameter after its scene was re-read.
  function stillValid(p, text) {
    if (text === null || text === "") return p.optional;
    switch (p.type) {
      case "number": case "integer": {
        const x = Number(text);
        if (!Number.isFinite(x) || (p.type === "integer" && !Number.isInteger(x))) return false;
        const r = p.range || {};
        if (r.min !== undefined && (r.minInclusive ? x < r.min : x <= r.min)) return false;
        if (r.max !== undefined && (r.maxInclusive ? x > r.max : x >= r.max)) return false;
        return true;
      }
      case "choice": return (p.choices || []).includes(text);
      case "color": return /^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/.test(text);
      case "size": return /^-?[0-9.e+-]+x-?[0-9.e+-]+$/.test(text);
      case "offset": return /^-?[0-9.e+-]+,-?[0-9.e+-]+$/.test(text);
      default: return true;
    }
  }

  // ---- Controls --------------------------------------------------------------------------------

  const rows = new Map();        // name → {param, row, set(text), error}

  function buildControls() {
    const box = $("controls");
    box.replaceChildren();
    rows.clear();
    const s = scene();
    $("relations").replaceChildren(...(s && s.relations ? s.relations : []).map((r) => el("li", {}, r)));
    if (!s) return;
    for (const p of s.parameters) {
      const row = buildRow(p);
      rows.set(p.name, row);
      box.append(row.row);
    }
    showErrors(studio.errors);
  }

  function buildRow(p) {
    const head = el("div", { class: "p-head" },
      el("span", { class: "p-name", title: p.summary }, p.name),
      p.unit ? el("span", { class: "p-unit" }, p.unit) : null);
    const body = el("div", { class: "p-body" });
    const hint = el("p", { class: "p-hint" }, p.summary + (p.allowed ? ` — ${p.allowed}` : ""));
    const error = el("p", { class: "p-error", hidden: true });
    const reset = el("button", { type: "button", class: "reset", title: "reset to the default", "aria-label": `reset ${p.name}` }, "↺");
    const row = el("div", { class: "param", dataset: { param: p.name, type: p.type } }, head, body, reset, hint, error);
    const entry = { param: p, row, error, set: () => {} };

    let unset = null;
    // Text needs no switch: empty is its unset (no status, the role's default font).
    if (p.optional && p.type !== "text") {
      unset = el("input", { type: "checkbox", class: "unset" });
      head.append(el("label", { class: "unset-label", title: `unset: follows ${p.unset || "its default"}` },
        unset, ` auto${p.unset ? " (" + p.unset + ")" : ""}`));
    }
    const commit = (text, event) => {
      touched().set(p.name, { value: text });
      reset.disabled = false;
      changed(event);
    };

    let setValue;      // show a text value in the control (null: unset)
    let readValue;     // the text the control holds now
    switch (p.type) {
      case "number": case "integer": {
        const slider = p.slider || { min: p.range?.min ?? 0, max: p.range?.max ?? 1, log: false, step: p.type === "integer" ? 1 : 0.001 };
        const range = el("input", { type: "range", class: "slider", "aria-label": p.name });
        if (slider.log) {
          range.min = "0"; range.max = String(LOG_STEPS); range.step = "1";
          range.dataset.log = "true";
        } else {
          range.min = String(slider.min); range.max = String(slider.max);
          range.step = p.type === "integer" ? "1" : String(slider.step || 0.001);
        }
        range.dataset.min = String(slider.min);
        range.dataset.max = String(slider.max);
        // A number that also takes keywords (dismissAt=auto) is typed as text, keywords offered.
        const keywords = p.choices || [];
        const num = el("input", { type: keywords.length ? "text" : "number", class: "num", "aria-label": `${p.name} value`, step: "any" });
        if (keywords.length) {
          const list = el("datalist", { id: `kw-${p.name}` }, ...keywords.map((k) => el("option", { value: k })));
          num.setAttribute("list", list.id);
          num.inputMode = "decimal";
          body.append(list);
        }
        body.append(range, num);
        setValue = (text) => {
          const x = text === null ? NaN : Number(text);
          range.value = String(valueToSlider(slider, x));
          if (document.activeElement !== num) num.value = text === null ? "" : text;
        };
        readValue = () => num.value.trim();
        range.addEventListener("input", (event) => {
          const text = numberText(p, sliderToValue(slider, Number(range.value)));
          num.value = text;
          commit(text, event);
        });
        num.addEventListener("input", (event) => {
          const text = num.value.trim();
          if (keywords.includes(text)) { commit(text, event); return; }
          if (text === "" || !Number.isFinite(Number(text))) return;
          range.value = String(valueToSlider(slider, Number(text)));
          commit(text, event);
        });
        entry.controls = [range, num];
        break;
      }
      case "color": {
        const picker = el("input", { type: "color", class: "color", "aria-label": p.name });
        const alpha = el("input", { type: "range", class: "alpha", min: "0", max: "255", step: "1", "aria-label": `${p.name} alpha`, title: "alpha" });
        const text = el("input", { type: "text", class: "color-text", "aria-label": `${p.name} hex`, spellcheck: false, maxLength: 9 });
        body.append(picker, alpha, text);
        setValue = (value) => {
          const v = value || "#000000ff";
          picker.value = v.slice(0, 7).toLowerCase();
          alpha.value = String(v.length >= 9 ? parseInt(v.slice(7, 9), 16) : 255);
          if (document.activeElement !== text) text.value = value || "";
        };
        const fromParts = () => picker.value + Number(alpha.value).toString(16).padStart(2, "0");
        readValue = () => text.value.trim();
        const onPart = (event) => { text.value = fromParts(); commit(text.value, event); };
        picker.addEventListener("input", onPart);
        alpha.addEventListener("input", onPart);
        text.addEventListener("input", (event) => {
          const v = text.value.trim();
          if (!/^#?[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/.test(v)) return;
          const full = (v.startsWith("#") ? v : "#" + v).toLowerCase();
          picker.value = full.slice(0, 7);
          alpha.value = String(full.length === 9 ? parseInt(full.slice(7), 16) : 255);
          commit(full, event);
        });
        entry.controls = [picker, alpha, text];
        break;
      }
      case "choice": {
        const select = el("select", { class: "choice", "aria-label": p.name },
          ...(p.choices || []).map((c) => el("option", { value: c }, c)));
        body.append(select);
        setValue = (text) => { select.value = text ?? (p.choices || [""])[0]; };
        readValue = () => select.value;
        select.addEventListener("input", (event) => commit(select.value, event));
        entry.controls = [select];
        break;
      }
      case "size": case "offset": {
        const sep = p.type === "size" ? "x" : ",";
        const a = el("input", { type: "number", class: "pair-a", step: "any", "aria-label": `${p.name} ${p.type === "size" ? "width" : "x"}` });
        const b = el("input", { type: "number", class: "pair-b", step: "any", "aria-label": `${p.name} ${p.type === "size" ? "height" : "y"}` });
        body.append(a, el("span", { class: "pair-sep" }, p.type === "size" ? "×" : ","), b);
        setValue = (text) => {
          const parts = text === null ? ["", ""] : text.split(sep);
          if (document.activeElement !== a) a.value = parts[0] ?? "";
          if (document.activeElement !== b) b.value = parts[1] ?? "";
        };
        readValue = () => `${a.value.trim()}${sep}${b.value.trim()}`;
        const onPair = (event) => {
          if (a.value.trim() === "" || b.value.trim() === "") return;
          commit(readValue(), event);
        };
        a.addEventListener("input", onPair);
        b.addEventListener("input", onPair);
        entry.controls = [a, b];
        break;
      }
      default: {   // text: a caption, a status, a font file
        const input = el("input", { type: "text", class: "text", "aria-label": p.name, spellcheck: false });
        body.append(input);
        setValue = (text) => { if (document.activeElement !== input) input.value = text ?? ""; };
        readValue = () => input.value;
        input.addEventListener("input", (event) => commit(input.value, event));
        entry.controls = [input];
      }
    }

    const enable = (on) => { for (const c of entry.controls) c.disabled = !on; };
    entry.set = (text) => {
      const isUnset = text === null || (unset !== null && text === "none");
      if (unset) {
        unset.checked = isUnset;
        enable(!isUnset);
      }
      setValue(isUnset ? null : text);
      reset.disabled = !touched().has(p.name);
    };
    if (unset) {
      unset.addEventListener("input", (event) => {
        if (unset.checked) {
          enable(false);
          if (defaultText(p) === null) {
            // Unset is its default: nothing to send.
            touched().delete(p.name);
            reset.disabled = true;
            changed(event);
          } else {
            // A pair unsets with "none"; anything else by not being set.
            commit((p.type === "size" || p.type === "offset") && p.unset === "none" ? "none" : null, event);
          }
        } else {
          enable(true);
          let text = readValue();
          if (!stillValid(p, text) || text === "" || text === "x" || text === ",") {
            text = defaultText(p) ?? fallbackFor(p);
            setValue(text);
          }
          commit(text, event);
        }
      });
    }
    reset.addEventListener("click", (event) => {
      touched().delete(p.name);
      entry.set(defaultText(p));
      changed(event);
    });
    entry.set(currentText(p));
    return entry;
  }

  // A value to start from when an optional parameter without a default is switched on.
  function fallbackFor(p) {
    switch (p.type) {
      case "color": return "#000000ff";
      case "size": return "100x100";
      case "offset": return "0,0";
      case "number": case "integer": {
        // The middle of the slider's travel: a value that shows, inside what is allowed.
        const sl = p.slider;
        if (!sl) return String(p.range?.min ?? 0);
        return numberText(p, sl.log ? Math.sqrt(sl.min * sl.max) : (sl.min + sl.max) / 2);
      }
      case "choice": return (p.choices || [""])[0];
      default: return "";
    }
  }

  function showErrors(errors) {
    for (const [name, entry] of rows) {
      const message = errors[name];
      entry.error.hidden = !message;
      entry.error.textContent = message || "";
      entry.row.classList.toggle("invalid", Boolean(message));
    }
    const general = Object.entries(errors).filter(([name]) => !rows.has(name)).map(([, m]) => m);
    $("general-error").hidden = general.length === 0;
    $("general-error").textContent = general.join("\n");
  }

  // ---- Sending states ----------------------------------------------------------------------------

  let seq = 0;
  let inFlight = false;
  let lastSentBody = null;       // the last state sent, without its seq
  let pendingInputs = [];        // input times not yet in a POSTed state
  let awaiting = [];             // {seq, t0}: inputs waiting for a frame with seq ≥ theirs

  function stateBody() {
    const s = scene();
    const parameters = {};
    if (s) {
      const own = touched();
      for (const p of s.parameters) {
        if (!own.has(p.name)) continue;
        const text = own.get(p.name).value;
        if (text === defaultText(p)) continue;
        parameters[p.name] = text === null ? null : text;
      }
    }
    let bg = null;
    if (background === "none") bg = "none";
    else if (background === "solid") bg = $("solid").value;
    return { scene: sceneID, parameters, t: timeOf(), scale, background: bg, compare: compare && Boolean(info && info.compare) };
  }

  function changed(event) {
    // Latency runs from the input event (now) to the paint of the first frame that answers it.
    if (event) pendingInputs.push(performance.now());
    send();
  }

  async function send() {
    if (!connected || !sceneID) return;
    const s = scene();
    if (s && s.error) { pendingInputs = []; return; }
    const body = stateBody();
    const text = JSON.stringify(body);
    if (inFlight) return;           // the answer sends the latest state
    if (text === lastSentBody) {
      // Nothing new to draw: an input that changed nothing has no frame to wait for.
      pendingInputs = [];
      return;
    }
    inFlight = true;
    lastSentBody = text;
    const mySeq = ++seq;
    mark(mySeq, "posted");
    for (const t0 of pendingInputs) awaiting.push({ seq: mySeq, t0 });
    pendingInputs = [];
    studio.posted += 1;
    studio.sentSeq = mySeq;
    try {
      const response = await fetch("/api/state", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ client: clientID, seq: mySeq, ...body }),
      });
      const answer = await response.json().catch(() => ({}));
      if (response.status === 202) {
        mark(mySeq, "accepted");
        studio.errors = {};
        showErrors({});
      } else if (response.status === 422) {
        const errors = {};
        for (const e of answer.errors || []) {
          const key = e.parameter || "";
          errors[key] = errors[key] ? errors[key] + "\n" + e.message : e.message;
        }
        studio.errors = errors;
        studio.rejectedSeq = mySeq;
        showErrors(errors);
        awaiting = awaiting.filter((a) => a.seq !== mySeq);
      } else {
        studio.rejectedSeq = mySeq;
        awaiting = awaiting.filter((a) => a.seq !== mySeq);
        // (An unknown client: the event stream's next hello sends the state again.)
        banner(`state ${mySeq}: ${response.status} ${answer.error || ""}`);
      }
    } catch (e) {
      // The studio is gone or restarting: try again in a second, not in a loop.
      studio.rejectedSeq = mySeq;
      awaiting = awaiting.filter((a) => a.seq !== mySeq);
      lastSentBody = null;
      inFlight = false;
      banner(`state ${mySeq}: ${e.message}; trying again`);
      clearTimeout(retryTimer);
      retryTimer = setTimeout(send, 1000);
      return;
    } finally {
      inFlight = false;
    }
    if (JSON.stringify(stateBody()) !== lastSentBody || pendingInputs.length) send();
  }
  let retryTimer = 0;

  // ---- Frames ------------------------------------------------------------------------------------

  // Where a state's time goes (studio.trace, for the test's report): POSTed, accepted (202),
  // arrived (down the frame stream, with the studio's render milliseconds), painted.
  const traced = new Map();
  function mark(seqNumber, what, rendered) {
    let entry = traced.get(seqNumber);
    if (!entry) {
      if (what !== "posted") return;
      entry = { seq: seqNumber };
      traced.set(seqNumber, entry);
      if (traced.size > 200) traced.delete(traced.keys().next().value);
    }
    if (entry[what] === undefined) entry[what] = performance.now();
    if (rendered !== undefined) entry.rendered = rendered;
  }
  studio.trace = () => Array.from(traced.values());

  // Frames are ordered by seq, then by revision: a re-read scene file redraws the latest state
  // under its own seq.
  let newestEvent = null;        // the newest frame that arrived
  const newer = (a, b) => !b || a.seq > b.seq || (a.seq === b.seq && a.scene === b.scene && a.revision > b.revision);
  function paint(canvas, rgba, width, height) {
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    canvas.getContext("2d").putImageData(new ImageData(rgba, width, height), 0, 0);
  }

  // Frames arrive on a stream of their own, /api/frames (docs/studio.md, "The frame stream"):
  // each message a 4-byte big-endian length, the frame's JSON, then the RGBA of each image its
  // "parts" name (the frame; with CPU | GL also the CPU, GL and heat-map images). No request a
  // frame: the pixels come down a connection that is already open.
  function onFrame(frame, images) {
    mark(frame.seq, "arrived", frame.milliseconds);
    if (!newer(frame, newestEvent)) return;
    newestEvent = frame;
    if (!newer(frame, studio.shown)) return;
    const byPart = {};
    frame.parts.forEach((name, i) => { byPart[name] = images[i]; });
    const parts = frame.compare && compare && byPart.cpu ? [byPart.cpu, byPart.gl, byPart.heat] : null;
    show(frame, byPart.frame, parts);
  }

  async function listenFrames() {
    let reader;
    try {
      const response = await fetch(`/api/frames?client=${clientID}`, { cache: "no-store" });
      if (!response.ok || !response.body) throw new Error(`status ${response.status}`);
      reader = response.body.getReader();
    } catch (e) {
      setTimeout(listenFrames, 1000);
      return;
    }
    const chunks = [];
    let buffered = 0;
    // The first n bytes received, as one array.
    const take = (n) => {
      const out = new Uint8Array(n);
      let filled = 0;
      while (filled < n) {
        const chunk = chunks[0];
        const k = Math.min(chunk.length, n - filled);
        out.set(chunk.subarray(0, k), filled);
        filled += k;
        if (k === chunk.length) chunks.shift(); else chunks[0] = chunk.subarray(k);
      }
      buffered -= n;
      return out;
    };
    let frame = null, need = 4, stage = "length";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        chunks.push(value);
        buffered += value.length;
        while (buffered >= need) {
          if (stage === "length") {
            const b = take(4);
            need = ((b[0] << 24) >>> 0) + (b[1] << 16) + (b[2] << 8) + b[3];
            stage = "json";
          } else if (stage === "json") {
            frame = JSON.parse(new TextDecoder().decode(take(need)));
            need = frame.ping ? 0 : frame.parts.length * frame.width * frame.height * 4;
            stage = "pixels";
          } else {
            const bytes = take(need);
            if (!frame.ping) {
              const size = frame.width * frame.height * 4;
              const images = frame.parts.map((_, i) => new Uint8ClampedArray(bytes.buffer, i * size, size));
              onFrame(frame, images);
            }
            need = 4;
            stage = "length";
          }
        }
      }
    } catch (e) {
      banner(`the frame stream broke: ${e.message}; connecting again…`);
    }
    setTimeout(listenFrames, 1000);
  }

  function show(frame, rgba, parts) {
    paint($("frame"), rgba, frame.width, frame.height);
    const cmp = frame.compare && parts;
    $("compare-view").hidden = !cmp;
    $("frame-box").hidden = Boolean(cmp);
    if (cmp) {
      paint($("cmp-cpu"), parts[0], frame.width, frame.height);
      paint($("cmp-gl"), parts[1], frame.width, frame.height);
      paint($("cmp-heat"), parts[2], frame.width, frame.height);
      const c = frame.compare;
      $("cmp-figures").textContent =
        `max difference ${c.maxDifference} · ${c.differing} pixel${c.differing === 1 ? "" : "s"} over the tolerance ${c.tolerance}`;
      $("cmp-figures").classList.toggle("bad", c.differing > 0);
    }
    studio.shown = {
      seq: frame.seq, scene: frame.scene, revision: frame.revision, t: frame.t, scale: frame.scale,
      width: frame.width, height: frame.height, rgba, command: frame.command, job: frame.job,
      backend: frame.backend, milliseconds: frame.milliseconds, compare: frame.compare || null,
    };
    if (studio.record) {
      studio.frames.push({ seq: frame.seq, revision: frame.revision, scene: frame.scene, command: frame.command, width: frame.width, height: frame.height, rgba });
    }
    $("command").value = frame.command || "";
    status();
    hideBanner();
    const done = awaiting.filter((a) => a.seq <= frame.seq);
    awaiting = awaiting.filter((a) => a.seq > frame.seq);
    requestAnimationFrame(() => {
      const now = performance.now();
      for (const a of done) studio.latencies.push(now - a.t0);
      if (!studio.ready) studio.ready = true;
      studio.paintedSeq = frame.seq;
      mark(frame.seq, "painted");
    });
  }

  function status() {
    const f = studio.shown;
    const parts = [];
    const backend = f && f.backend ? f.backend : (info ? info.backend : "");
    // The renderer's name; why auto chose it is in the tooltip.
    parts.push(backend.split(" [")[0]);
    $("status").title = backend;
    if (f) {
      parts.push(`${Number(f.milliseconds).toFixed(1)} ms`);
      parts.push(`${f.width}×${f.height} px`);
      parts.push(`#${f.seq}`);
    }
    if (!connected) parts.push("disconnected");
    $("status").textContent = parts.filter(Boolean).join(" · ");
  }

  let bannerTimer = 0;
  function banner(text) {
    $("banner").textContent = text;
    $("banner").hidden = false;
    clearTimeout(bannerTimer);
    bannerTimer = setTimeout(hideBanner, 8000);
  }
  function hideBanner() { $("banner").hidden = true; }

  function showSceneError() {
    const s = scene();
    const error = s && s.error ? s.error : null;
    studio.sceneError = error;
    $("scene-error").hidden = !error;
    $("scene-error").textContent = error || "";
    $("stage").classList.toggle("has-error", Boolean(error));
  }

  // ---- Scenes, time, scale, background -------------------------------------------------------

  function selectScene(id) {
    sceneID = id;
    $("scene").value = id;
    const s = scene();
    $("summary").textContent = s ? s.summary : "";
    $("summary").title = s ? s.reference : "";
    frameIndex = Math.min(frameIndex, lastFrameOf(s));
    studio.errors = {};
    buildControls();
    showSceneError();
    timeline();
  }

  function timeline() {
    const s = scene();
    const last = lastFrameOf(s);
    const range = $("time");
    range.max = String(last);
    range.value = String(frameIndex);
    $("readout").textContent = `${frameIndex} / ${last} · ${timeOf().toFixed(3)} s`;
  }

  function setScale(value) {
    scale = value;
    for (const b of document.querySelectorAll("[data-scale]")) b.classList.toggle("on", Number(b.dataset.scale) === scale);
  }

  function replaceScene(info2) {
    const old = scenes.get(info2.id);
    scenes.set(info2.id, info2);
    const listed = info.scenes.findIndex((s) => s.id === info2.id);
    if (listed >= 0) info.scenes[listed] = info2;
    if (old && !info2.error) {
      // Keep the values that still fit; drop the others.
      const own = values.get(info2.id);
      if (own) {
        for (const [name, v] of own) {
          const p = info2.parameters.find((q) => q.name === name);
          if (!p || (p.type !== (old.parameters.find((q) => q.name === name) || {}).type) || !stillValid(p, v.value)) own.delete(name);
        }
      }
    }
    if (info2.id === sceneID) {
      const keepFocus = document.activeElement;
      if (!info2.error) buildControls();
      showSceneError();
      timeline();
      if (keepFocus && keepFocus.isConnected) keepFocus.focus();
      // The studio draws the latest state again with the file as it reads now (same seq, next
      // revision; a value the new file refuses comes back as a `failed` event). Values the new
      // file dropped change the state: that goes as a new one.
      if (!info2.error) send();
    }
  }

  // ---- Play ------------------------------------------------------------------------------------

  let playing = false;
  let playStart = 0;             // performance.now() at frame playFrom
  let playFrom = 0;

  function setPlaying(on) {
    playing = on;
    $("play").textContent = on ? "❚❚" : "▶";
    $("play").setAttribute("aria-label", on ? "pause" : "play");
    if (on) {
      if (frameIndex >= lastFrameOf(scene())) frameIndex = 0;
      playFrom = frameIndex;
      playStart = performance.now();
      requestAnimationFrame(tick);
    }
  }

  function tick(now) {
    if (!playing) return;
    const s = scene();
    const last = lastFrameOf(s);
    let k = playFrom + Math.floor((now - playStart) * fpsOf(s) / 1000);
    if ($("loop").checked) k %= last;
    else if (k >= last) { k = last; setPlaying(false); }
    if (k !== frameIndex) {
      frameIndex = k;
      timeline();
      send();
    }
    if (playing) requestAnimationFrame(tick);
  }

  // ---- Copy and export -------------------------------------------------------------------------

  async function copy(text, what) {
    if (!text) return;
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch {
      const area = $("clipboard-fallback");
      area.value = text;
      area.select();
      try { ok = document.execCommand("copy"); } catch { ok = false; }
    }
    $("copied").textContent = ok ? `${what} copied` : `select and copy the ${what} by hand`;
    setTimeout(() => { $("copied").textContent = ""; }, 3000);
  }

  function buildExports() {
    const box = $("export-buttons");
    const ex = info.exports || { kinds: [], directory: null };
    for (const kind of ex.kinds || []) {
      const button = el("button", { type: "button", class: "export", dataset: { kind } }, kind);
      if (!ex.directory) {
        button.disabled = true;
        button.title = ex.why || "exports are off";
      } else {
        button.title = `export one loop as ${kind} under ${ex.directory}`;
      }
      button.addEventListener("click", () => startExport(kind));
      box.insertBefore(button, $("seamless").parentElement);
    }
    $("seamless").disabled = !ex.directory;
    $("export-why").textContent = ex.directory ? `into ${ex.directory}` : (ex.why || "");
  }

  const exportRows = new Map();
  function exportRow(id, kind) {
    if (exportRows.has(id)) return exportRows.get(id);
    const bar = el("progress", { max: 1 });
    const text = el("span", { class: "x-text" }, "starting…");
    const files = el("details", { class: "x-files", hidden: true });
    const row = el("li", { dataset: { export: String(id) } }, el("span", { class: "x-kind" }, `#${id} ${kind}`), bar, text, files);
    $("export-list").prepend(row);
    const entry = { row, bar, text, files };
    exportRows.set(id, entry);
    return entry;
  }

  async function startExport(kind) {
    const state = stateBody();
    state.compare = false;
    state.loop = $("seamless").checked;
    try {
      const response = await fetch("/api/export", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ client: clientID, kind, state }),
      });
      const answer = await response.json().catch(() => ({}));
      if (response.status === 202) {
        const entry = exportRow(answer.id, kind);
        entry.text.textContent = `into ${answer.directory}`;
      } else {
        const why = answer.error || (answer.errors || []).map((e) => (e.parameter ? e.parameter + ": " : "") + e.message).join("; ");
        banner(`export ${kind}: ${response.status === 409 ? "an export is already running" : why || response.status}`);
      }
    } catch (e) {
      banner(`export ${kind}: ${e.message}`);
    }
  }

  function onExportEvent(x) {
    studio.exports[x.id] = x;
    const entry = exportRow(x.id, x.kind);
    entry.row.className = x.state;
    if (x.total > 0) { entry.bar.max = x.total; entry.bar.value = x.done; }
    if (x.state === "running") {
      entry.text.textContent = x.total > 0 ? `${x.done} / ${x.total} frames → ${x.directory}` : `${x.done} frames → ${x.directory}`;
    } else if (x.state === "done") {
      entry.bar.max = 1;
      entry.bar.value = 1;
      const listed = x.files || [];
      const count = x.fileCount ?? listed.length;
      entry.text.textContent = `done → ${x.directory}`;
      // A PNG sequence is many files: the first ones, folded; one or two files show as they are.
      const more = count > listed.length ? [el("li", { class: "x-more" }, `… ${count - listed.length} more in ${x.directory}`)] : [];
      entry.files.replaceChildren(
        el("summary", {}, `${count} file${count === 1 ? "" : "s"}${count > 0 ? ": " + listed[0] + (count > 1 ? " …" : "") : ""}`),
        el("ul", {}, ...listed.map((f) => el("li", {}, f)), ...more));
      entry.files.hidden = false;
      entry.files.open = count <= 3;
    } else {
      entry.text.textContent = `failed: ${x.message || "?"}`;
    }
  }

  // ---- Events ----------------------------------------------------------------------------------

  function listen() {
    const source = new EventSource(`/api/events?client=${clientID}`);
    const data = (handler) => (event) => {
      let value;
      try { value = JSON.parse(event.data); } catch { return; }
      handler(value);
    };
    source.addEventListener("hello", data(() => {
      connected = true;
      lastSentBody = null;   // a new stream: the server may hold no state for us
      status();
      send();
    }));
    source.addEventListener("failed", data((f) => {
      studio.failed = f;
      studio.rejectedSeq = Math.max(studio.rejectedSeq, f.seq);
      awaiting = awaiting.filter((a) => a.seq !== f.seq);
      banner(`frame ${f.seq} failed: ${f.message}`);
    }));
    source.addEventListener("scene", data(replaceScene));
    source.addEventListener("export", data(onExportEvent));
    source.addEventListener("error", () => {
      studio.streamErrors += 1;
      connected = source.readyState === EventSource.OPEN;
      status();
      // EventSource retries by itself after a dropped connection, but not after a refused one
      // (a 503 while the studio is busy, or a restarted studio): then start again.
      if (source.readyState === EventSource.CLOSED) {
        banner("the studio's event stream closed; connecting again…");
        setTimeout(listen, 1000);
      }
    });
  }

  // ---- Start -----------------------------------------------------------------------------------

  function wire() {
    $("scene").addEventListener("input", (event) => { selectScene($("scene").value); changed(event); });
    for (const b of document.querySelectorAll("[data-scale]")) {
      b.addEventListener("click", (event) => { setScale(Number(b.dataset.scale)); changed(event); });
    }
    $("background").addEventListener("input", (event) => {
      background = $("background").value;
      $("solid").hidden = background !== "solid";
      $("stage").classList.toggle("solid", background === "solid");
      changed(event);
    });
    $("solid").addEventListener("input", (event) => { if (background === "solid") changed(event); });
    $("compare").addEventListener("input", (event) => {
      compare = $("compare").checked;
      if (!compare) { $("compare-view").hidden = true; $("frame-box").hidden = false; }
      changed(event);
    });
    $("time").addEventListener("input", (event) => {
      if (playing) setPlaying(false);
      frameIndex = Number($("time").value);
      timeline();
      changed(event);
    });
    $("play").addEventListener("click", () => setPlaying(!playing));
    $("copy-command").addEventListener("click", () => copy(studio.shown && studio.shown.command, "command"));
    $("copy-job").addEventListener("click", () => copy(studio.shown && studio.shown.job, "job JSON"));
    $("reset-all").addEventListener("click", (event) => {
      touched().clear();
      buildControls();
      changed(event);
    });
    document.addEventListener("keydown", (event) => {
      if (event.target.closest && event.target.closest("input, select, textarea")) return;
      if (event.key === " ") { event.preventDefault(); setPlaying(!playing); }
    });
  }

  async function start() {
    wire();
    setScale(2);
    try {
      const response = await fetch("/api/studio");
      info = await response.json();
    } catch (e) {
      $("status").textContent = `cannot read /api/studio: ${e.message}`;
      return;
    }
    studio.info = info;
    for (const s of info.scenes || []) scenes.set(s.id, s);
    $("scene").replaceChildren(...(info.scenes || []).map((s) =>
      el("option", { value: s.id, title: s.reference }, s.kind === "built-in" ? s.id : `${s.id} (${s.reference})`)));
    $("compare-group").hidden = !info.compare;
    if (!info.compare && info.compareWhy) $("compare-group").title = info.compareWhy;
    buildExports();
    const wanted = new URLSearchParams(location.search).get("scene");
    selectScene(scenes.has(wanted) ? wanted : (info.scenes[0] || {}).id);
    status();
    listenFrames();
    listen();
  }

  // Hooks for the browser test; the test drives the real controls wherever it can.
  Object.assign(studio, {
    setScale: (value) => { setScale(value); changed({ type: "click" }); },
    setTime: (t) => { frameIndex = Math.round(t * fpsOf(scene())); timeline(); changed({ type: "click" }); },
    selectScene: (id) => { selectScene(id); changed({ type: "click" }); },
    state: () => stateBody(),
    drain: () => studio.frames.splice(0, studio.frames.length),
    debug: () => ({ inFlight, pendingInputs: pendingInputs.length, awaiting: awaiting.length,
      unsent: JSON.stringify(stateBody()) !== lastSentBody, state: stateBody(), sentSeq: studio.sentSeq,
      shownSeq: studio.shown && studio.shown.seq, paintedSeq: studio.paintedSeq, rejectedSeq: studio.rejectedSeq,
      connected, streamErrors: studio.streamErrors }),
    // True when the latest state has been answered: its frame painted, or rejected.
    settled: () => !inFlight && pendingInputs.length === 0 &&
      JSON.stringify(stateBody()) === lastSentBody &&
      ((studio.shown && studio.shown.seq >= studio.sentSeq && studio.paintedSeq === studio.shown.seq) || studio.rejectedSeq === studio.sentSeq),
  });

  start();
})();
