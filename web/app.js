// The page: reads the form, asks the calculator (occcalc_web.cpp, the CLI's
// own functions compiled to WebAssembly) and shows its answer. Every figure
// shown is one the calculator gave; this script computes none.
"use strict";
(() => {
  /** Text fields, by request key; the target box is `target`. */
  const TEXT_FIELDS = ["target", "threads", "regs", "smem", "dyn_smem", "carveout", "barriers", "vgprs", "agprs",
    "sgprs", "lds", "grid", "sm_count", "cluster"];
  /** Selects whose value is the request switch to turn on (wave32, cu_mode). */
  const SWITCH_SELECTS = ["wave", "mode"];
  /** The first answer when the link holds no inputs: the README's first. */
  const DEFAULTS = {target: "7.0", threads: "128", regs: "37"};
  /** The longest log the page reads, in characters. */
  const MAX_LOG_CHARS = 4 << 20;

  const $ = (id) => document.getElementById(id);
  let calc = null;
  let lastAnswer = null;
  let logKernels = [];
  let logNote = "";
  let shownSvg = null;

  /** What a call reports when the calculator trapped (a stack overflow, memory
   * out of bounds): the instance is then unusable and is replaced. */
  class Stopped extends Error {}

  /** Calls an exported function with a string and its length in bytes,
   * returns its JSON answer. A trap marks the answer stale, says so beside
   * `field`, and starts a fresh calculator, which answers the form again. */
  function call(m, name, text, field = "answer") {
    const size = m.lengthBytesUTF8(text) + 1;
    let at = 0;
    try {
      at = m._malloc(size);
      m.stringToUTF8(text, at, size);
      return JSON.parse(m.UTF8ToString(m["_" + name](at, size - 1)));
    } catch (error) {
      restart(field, error);
      throw new Stopped(String(error));
    } finally {
      if (at && m === calc) m._free(at);
    }
  }

  /** A fresh calculator after a trap: until it answers, the page says the
   * answer shown is from before. */
  function restart(field, error) {
    if (calc === null) return;  // one restart at a time
    calc = null;
    $("answer").classList.add("stale");
    messageFor(field).textContent = `The calculator stopped (${error.message ?? error}) and is restarting; ` +
      "the answer below is from before.";
    const why = error.message ?? String(error);
    instantiate().then((m) => {
      bind(m);
      if (field === "log") {
        // The log did it, not the fields: they are answered again.
        update();
        $("m-log").textContent = `The calculator stopped reading this log (${why}) and was restarted.`;
      } else {
        // These fields did it: asking again would stop it again.
        messageFor(field).textContent = `The calculator stopped on these fields (${why}) and was restarted; ` +
          "the answer below is from before.";
      }
    }, failed);
  }

  function readForm() {
    const request = {};
    for (const key of TEXT_FIELDS) {
      const value = $("f-" + key).value;
      if (key === "target" || value.trim() !== "") request[key] = value;
    }
    for (const select of SWITCH_SELECTS) {
      const key = $("f-" + select).value;
      if (key) request[key] = true;
    }
    if ($("f-model").value) request.model = $("f-model").value;
    return request;
  }

  /** The form as the link's fragment: `#target=H100&threads=256`. */
  function saveState() {
    const params = new URLSearchParams();
    for (const key of TEXT_FIELDS) {
      const value = $("f-" + key).value;
      if (value.trim() !== "") params.set(key, value);
    }
    for (const select of [...SWITCH_SELECTS, "model"]) {
      if ($("f-" + select).value) params.set(select, $("f-" + select).value);
    }
    const fragment = "#" + params.toString();
    if (location.hash !== fragment) history.replaceState(null, "", fragment);
  }

  function loadState() {
    const params = new URLSearchParams(location.hash.slice(1));
    const given = [...params.keys()].length > 0;
    for (const key of TEXT_FIELDS) $("f-" + key).value = given ? params.get(key) ?? "" : DEFAULTS[key] ?? "";
    for (const select of [...SWITCH_SELECTS, "model"]) {
      const value = params.get(select) ?? "";
      const options = [...$("f-" + select).options].map((o) => o.value);
      $("f-" + select).value = options.includes(value) ? value : "";
    }
  }

  /** The message element beside the field a request key belongs to. */
  function messageFor(key) {
    const owner = {wave32: "wave", wave64: "wave", cu_mode: "mode", wgp_mode: "mode", gpu: "target", cc: "target",
      gfx: "target"}[key] ?? key;
    return $("m-" + owner) ?? $("m-answer");
  }

  function clearMessages() {
    for (const m of document.querySelectorAll("#kernel .msg, #answer .msg")) {
      if (m.id !== "m-log") m.textContent = m.dataset.cli = "";
      m.classList.remove("note");
    }
    for (const input of document.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  }

  /** Shows `error` in message element `m`: the page's words, and the CLI's
   * for scripts and tests (data-cli). */
  function say(m, error) {
    m.textContent = error.message;
    m.dataset.cli = error.cli_message ?? error.message;
  }

  function showError(error) {
    const m = messageFor(error.field);
    say(m, error);
    const input = $("f-" + (m.id.slice(2)));
    if (input) input.setAttribute("aria-invalid", "true");
  }

  function cell(row, text, className) {
    const td = document.createElement(row.children.length === 0 ? "th" : "td");
    if (row.children.length === 0) td.scope = "row";
    td.textContent = text;
    if (className) td.className = className;
    row.append(td);
  }

  /** A fraction as a percentage with the CLI's JSON precision (two decimals). */
  const percent = (fraction) => +(fraction * 100).toFixed(2) + "%";

  /** Appends a term and its value to a description list; nothing for null. */
  function item(list, key, term, value) {
    if (value === null || value === undefined) return;
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = String(value);
    dd.dataset.key = key;
    list.append(dt, dd);
  }
  /** A JSON key as the CLI's text names it (`shared_memory`: shared memory). */
  const LABELS = {vgprs: "VGPRs", agprs: "AGPRs", sgprs: "SGPRs", lds: "LDS"};
  const words = (key) => LABELS[key] ?? key.replace(/_/g, " ");

  function showResult(doc) {
    const amd = doc.model !== "nvidia";
    const unit = doc.unit.toUpperCase();
    const blocks = amd ? "work-groups" : "blocks";
    const warps = amd ? "waves" : "warps";
    $("o-occupancy").textContent = doc.occupancy_percent + "%";  // as the CLI's --json gives it
    const limiters = doc.limiters.length ? doc.limiters.map(words).join(", ") : "nothing";
    $("o-summary").textContent = `${doc.blocks_per_sm} ${blocks} per ${unit}, ${doc.active_warps_per_sm} of ` +
      `${doc.max_warps_per_sm} ${warps}; limited by ${limiters}` + (doc.gpu ? ` on ${doc.gpu} (${doc.arch})` : ` on ${doc.arch}`);
    for (const e of document.querySelectorAll(".per-unit")) e.textContent = unit;
    const body = $("o-limits").tBodies[0];
    body.replaceChildren();
    for (const [resource, limit] of Object.entries(doc.limits)) {
      const row = document.createElement("tr");
      row.dataset.resource = resource;
      const limiting = doc.limiters.includes(resource);
      cell(row, words(resource));
      cell(row, limit === null ? "no limit" : String(limit), "num");
      cell(row, [limiting ? "limiter" : "", doc.reasons[resource] ?? ""].filter(Boolean).join(": "));
      if (limiting) row.className = "limiter";
      body.append(row);
    }
    const waves = $("o-waves");
    waves.replaceChildren();
    // A family whose products differ in SMs: each product's waves, as --json gives them.
    const products = (doc.family?.gpus ?? []).filter((g) => g.waves);
    waves.hidden = (doc.waves_per_sm === null || doc.waves_per_sm === undefined) && !products.length;
    products.forEach((g, i) => {
      const w = g.waves;
      item(waves, `grid_blocks:${i}`, `Grid on ${g.name}`, `${doc.input.grid} ${blocks} on ${g.sm_count} ${unit}s`);
      item(waves, `blocks_per_wave:${i}`, `${blocks[0].toUpperCase() + blocks.slice(1)} per wave`, w.blocks_per_wave);
      item(waves, `waves_per_sm:${i}`, `Waves per ${unit}`, w.waves_per_sm.toFixed(2));
      item(waves, `full_waves:${i}`, "Full waves", w.full_waves);
      item(waves, `tail_utilization:${i}`, "Last wave", percent(w.tail_utilization) + " full");
    });
    if (!waves.hidden && !products.length) {
      item(waves, "grid_blocks", "Grid", `${doc.input.grid} ${blocks} on ${doc.input.sm_count} ${unit}s`);
      item(waves, "blocks_per_wave", `${blocks[0].toUpperCase() + blocks.slice(1)} per wave`, doc.blocks_per_wave);
      item(waves, "waves_per_sm", `Waves per ${unit}`, doc.waves_per_sm.toFixed(2));  // as the CLI's text
      item(waves, "full_waves", "Full waves", doc.full_waves);
      item(waves, "tail_utilization", "Last wave", percent(doc.tail_utilization) + " full");
      if (doc.whole_wave_grids?.length) item(waves, "whole_wave_grids", "Whole-wave grids", doc.whole_wave_grids.join(" or "));
    }
    showCluster(doc.cluster ?? null);
  }

  /** A figure known to lie in [fewest, most], as the CLI's text gives it. */
  const range = (r, show = String) => r.fewest === r.most ? show(r.most) : `${show(r.fewest)} to ${show(r.most)}`;

  /** What a device's cluster figures rest on (docs/clusters.md). */
  const BASIS = {measured: "measured", gpc_counts: "a range over its GPC counts", sm_count: "a range: no layout known"};

  /** With a cluster: its blocks per SM and, on each device, the clusters that run at once. */
  function showCluster(cluster) {
    const list = $("o-cluster");
    list.replaceChildren();
    list.hidden = cluster === null;
    if (list.hidden) return;
    item(list, "cluster_blocks", "Cluster", `${cluster.blocks} blocks` + (cluster.portable ? "" : ", non-portable"));
    item(list, "cluster_blocks_per_sm", "Blocks per SM in clusters", range(cluster.blocks_per_sm));
    if (!cluster.devices.length) item(list, "max_active_clusters", "Clusters at once", "name a GPU or its SMs");
    cluster.devices.forEach((d, i) => {
      const key = (name) => cluster.devices.length > 1 ? `${name}:${i}` : name;
      const on = d.gpu ?? `${d.sm_count} SMs`;
      const basis = BASIS[d.basis];
      item(list, key("max_active_clusters"), `Clusters at once on ${on}`, `${range(d.max_active_clusters)} (${basis})`);
      item(list, key("cluster_occupancy"), "Cluster occupancy", range(d.cluster_occupancy, percent));
      item(list, key("largest_cluster_size"), "Largest cluster", range(d.largest_cluster_size));
      // With a grid: its waves, a wave being the clusters that run at once.
      const w = d.waves_per_sm;
      if (w) item(list, key("cluster_waves_per_sm"), "Waves per SM in clusters", w.most === null
        ? `${w.fewest.toFixed(2)} or more` : range({fewest: w.fewest.toFixed(2), most: w.most.toFixed(2)}));
    });
  }

  /** AMD under the compiler's model: the waves now, the level the steps
   * reach, and each resource with the most it may use there (all of them
   * together), as `suggest --model llvm` gives them. */
  function showCompilerSteps(doc, list, steps) {
    item(list, "waves_per_simd", "Waves per SIMD", doc.waves_per_simd);
    item(list, "occupancy", "Occupancy", percent(doc.occupancy));
    item(list, "goal_waves_per_simd", "Next level (waves per SIMD)", doc.goal_waves_per_simd);
    for (const step of doc.steps) {
      const li = document.createElement("li");
      li.dataset.resource = step.resource;
      li.textContent = `${words(step.resource)} ${step.from} → ${step.to}`;
      steps.append(li);
    }
    let note = null;  // as the CLI says
    if (doc.goal_waves_per_simd === null) {
      note = doc.target !== null ? "The target is met: nothing to change" : "Nothing to gain: the most a SIMD holds";
    } else if (!doc.reachable) {
      note = "No change of VGPRs, SGPRs or LDS reaches it: a smaller work-group is the way";
    }
    if (note) {
      const li = document.createElement("li");
      li.textContent = note;
      steps.append(li);
    }
  }

  function showSuggest(doc) {
    const list = $("o-suggest");
    list.replaceChildren();
    if (doc.model === "llvm") {
      $("o-steps").replaceChildren();
      showCompilerSteps(doc, list, $("o-steps"));
      return;
    }
    const amd = doc.model !== undefined && doc.model !== "nvidia";
    item(list, "block_size", amd ? "Best work-group size" : "Best block size", doc.block_size);
    // As many resident threads: CUDA takes the largest; occcalc recommends one (the CLI says why).
    if (doc.tied_block_sizes?.length > 1) {
      item(list, "tied_block_sizes", "Ties", doc.tied_block_sizes.join(", "));
      item(list, "recommended_block_size", "Recommended", doc.recommended_block_size);
    }
    item(list, "blocks_per_sm", (amd ? "Work-groups per " : "Blocks per ") + (doc.unit ?? "sm").toUpperCase(),
      doc.blocks_per_sm);
    // RCP's model has no block size search: its fields are null.
    item(list, "occupancy", "Occupancy", doc.occupancy === null ? null : percent(doc.occupancy));
    // A family: each product's, as the CLI's text gives them.
    item(list, "min_grid_size", "Min grid size", doc.family
      ? doc.family.gpus.map((g) => `${g.min_grid_size} on ${g.name}`).join(", ") : doc.min_grid_size);
    item(list, "max_dynamic_smem_per_block", "Most dynamic shared memory per block", doc.max_dynamic_smem_per_block);
    // With a cluster on one device: its clusters now and at the best size, as `suggest --cluster` gives them.
    const clusters = (c) => `${range(c.max_active_clusters)} clusters at once, ` +
      `${range(c.cluster_occupancy, percent)} of the blocks`;
    if (doc.cluster) {
      item(list, "cluster_now", `Clusters of ${doc.cluster.now.cluster_size}`, clusters(doc.cluster.now));
      item(list, "best_cluster_size", "Best cluster size", doc.cluster.best
        ? `${doc.cluster.best_cluster_size}: ${clusters(doc.cluster.best)}` : "none is sure to run a cluster");
    }
    const steps = $("o-steps");
    steps.replaceChildren();
    const [block, blocks] = amd ? ["work-group", "work-groups"] : ["block", "blocks"];
    const goal = doc.target !== undefined ? `reach ${percent(doc.target)}`
      : amd ? "raise the occupancy" : `gain a ${block}`;
    for (const step of doc.next_steps ?? []) {
      const li = document.createElement("li");
      li.dataset.resource = step.resource;
      // No value of the resource alone gets there: the CLI says so too.
      const name = words(step.knob ?? step.resource);
      let text = `${name}: cannot ${goal} alone`;
      if (step.needed !== null) {
        text = `${name} ${step.current} → ${step.needed}: ${step.blocks_per_sm ?? step.work_groups} ${blocks}, ` +
          percent(step.occupancy);
        if (step.maxrregcount) text += `; -maxrregcount=${step.maxrregcount}`;
        if (step.launch_bounds) text += ` or __launch_bounds__(${step.launch_bounds.join(", ")})`;
      }
      li.textContent = text;
      steps.append(li);
    }
    // Where no step gets there alone: the cheapest changes, one or two together.
    for (const found of doc.together ?? []) {
      const li = document.createElement("li");
      li.dataset.together = found.changes.map((c) => c.knob).join(" ");
      li.textContent = found.changes.map((c) => `${words(c.knob)} ${c.from} → ${c.to}`).join(" and ") +
        `: ${found.blocks_per_sm ?? found.work_groups} ${blocks}, ${percent(found.occupancy)}`;
      steps.append(li);
    }
    if (doc.next_steps?.[0]?.needed === null && doc.together?.length === 0) {
      const li = document.createElement("li");
      const raise = doc.target !== undefined ? goal : "raise the occupancy";
      li.textContent = `No change of two resources together can ${raise}`;  // as the CLI says
      steps.append(li);
    }
    if (doc.next_steps?.length === 0 && doc.target_met === undefined) {
      const li = document.createElement("li");
      // as the CLI says
      li.textContent = amd ? "Nothing to gain: every wave slot is filled (100%)"
        : "Nothing to gain: every warp the SM holds is resident (100%)";
      steps.append(li);
    }
  }

  /** Clusters by size on one device (`sweep --vary cluster`): a row a size, the best marked. */
  function showClusterSweep(doc) {
    const table = $("o-cluster-sweep");
    table.hidden = !doc;
    const body = table.tBodies[0];
    body.replaceChildren();
    if (!doc) return;
    $("o-cluster-sweep-on").textContent = `${doc.gpu ?? doc.arch} (${doc.sm_count} SMs; ${BASIS[doc.basis]})`;
    for (const p of doc.points) {
      const row = document.createElement("tr");
      row.dataset.size = p.cluster_size;
      cell(row, p.cluster_size === doc.best_cluster_size ? `${p.cluster_size} best` : String(p.cluster_size), "num");
      cell(row, range(p.max_active_clusters), "num");
      cell(row, range(p.blocks_in_clusters), "num");
      cell(row, range(p.cluster_occupancy, percent), "num");
      if (p.cluster_size === doc.best_cluster_size) row.className = "limiter";
      body.append(row);
    }
  }

  /** Asks the calculator for the form's answer and shows it. */
  function update() {
    if (!calc) return;
    let answer;
    try {
      answer = call(calc, "occcalc_web_answer", JSON.stringify(readForm()));
    } catch (error) {
      if (error instanceof Stopped) return;
      throw error;
    }
    clearMessages();
    for (const field of document.querySelectorAll("[data-vendor]")) field.hidden = field.dataset.vendor !== answer.vendor;
    // The vendor's words: work-groups and work-items on AMD targets.
    for (const e of document.querySelectorAll("[data-amd-words]")) {
      e.dataset.nvidiaWords ??= e.textContent;
      e.textContent = answer.vendor === "amd" ? e.dataset.amdWords : e.dataset.nvidiaWords;
    }
    $("answer").classList.toggle("stale", Boolean(answer.error));
    // The commands even for an error: the CLI says the same.
    $("o-command").textContent = answer.command ?? "";
    $("o-suggest-command").textContent = answer.suggest_command ?? "";
    $("o-sweep-command").textContent = answer.sweep_command ?? "";
    $("o-cluster-sweep-command").textContent = answer.cluster_sweep_command ?? "";
    $("o-cluster-sweep-command").hidden = !answer.cluster_sweep_command;
    if (answer.error) {
      showError(answer.error);
    } else {
      lastAnswer = answer;
      $("o-text").textContent = answer.text;
      showResult(answer.result);
      $("o-suggest").hidden = $("o-steps").hidden = !answer.suggest;
      if (answer.suggest) showSuggest(answer.suggest);
      // A family's suggestion, per product, as the CLI prints it.
      $("o-suggest-text").hidden = !answer.suggest_text;
      $("o-suggest-text").textContent = answer.suggest_text ?? "";
      if (answer.suggest_error) say($("m-suggest"), answer.suggest_error);
      // The charts are most of a change's work: redrawn only when they differ
      // (not for the grid or the SM count).
      if (answer.svg !== shownSvg) $("o-charts").innerHTML = (answer.svg ?? "").replace(/^<\?xml[^>]*>\s*/, "");
      if (!answer.svg) say($("m-sweep"), answer.sweep_error);
      shownSvg = answer.svg;
      showClusterSweep(answer.cluster_sweep ?? null);
    }
    saveState();
  }

  /** The architecture (`sm_90`) the target box names now, whatever the
   * other fields hold (a family's too); null where it names none. */
  function targetArch() {
    const request = {target: $("f-target").value, threads: "1", regs: "0"};
    try {
      return call(calc, "occcalc_web_answer", JSON.stringify(request)).result?.arch ?? null;
    } catch (error) {
      if (error instanceof Stopped) return null;
      throw error;
    }
  }

  /** The figures of log kernel `index` into the form. */
  function applyKernel(index) {
    const fields = logKernels[index].fields;
    for (const [key, value] of Object.entries(fields)) {
      // A GPU of the log's architecture stays: it adds waves. Asked of the
      // box itself, not the last answer, which a form still being filled in
      // does not have.
      if (key === "target" && value.replace(/[af]$/, "") === targetArch()) continue;
      $("f-" + key).value = value;
    }
    const amd = "vgprs" in fields;
    $("m-log").textContent = [amd && lastAnswer?.vendor !== "amd"
      ? "AMD remarks name no target: choose the AMD GPU or gfx target above" : "", logNote].filter(Boolean).join("; ");
    update();
  }

  function readLog() {
    const text = $("f-log").value;
    const choice = $("kernel-choice");
    $("m-log").textContent = "";
    if (text.trim() === "") {
      choice.hidden = true;
      return;
    }
    if (text.length > MAX_LOG_CHARS) {
      $("m-log").textContent = `the log is ${text.length} characters; the page reads at most ${MAX_LOG_CHARS}`;
      return;
    }
    let read;
    try {
      read = call(calc, "occcalc_web_read_log", text, "log");
    } catch (error) {
      if (error instanceof Stopped) return;
      throw error;
    }
    if (read.error) {
      $("m-log").textContent = read.error.message;
      choice.hidden = true;
      return;
    }
    logKernels = read.kernels;
    logNote = read.note ?? "";  // remark lines not read, as inspect's heading names them
    const select = $("f-kernel");
    select.replaceChildren(...logKernels.map((k, i) => new Option(k.name, String(i))));
    choice.hidden = logKernels.length < 2;
    applyKernel(0);
  }

  /** Makes `m` the calculator, for the form and for scripts. */
  function bind(m) {
    calc = m;
    // The calculator for the console and for scripts: occcalc.answer({target: "H100", threads: "256", regs: "64"}).
    window.occcalc = {
      answer: (request) => call(calc, "occcalc_web_answer", JSON.stringify(request)),
      readLog: (text) => call(calc, "occcalc_web_read_log", text, "log"),
    };
  }

  function start(m) {
    bind(m);
    const names = $("names");
    for (const [value, label] of call(m, "occcalc_web_names", "")) {
      const option = document.createElement("option");
      option.value = value;
      option.label = label;
      names.append(option);
    }
    loadState();
    $("kernel").addEventListener("input", (e) => {
      if (e.target.id === "f-log") readLog();
      else if (e.target.id === "f-kernel") applyKernel(Number(e.target.value));
      else update();
    });
    $("kernel").addEventListener("submit", (e) => e.preventDefault());
    window.addEventListener("hashchange", () => {
      loadState();
      update();
    });
    update();
    document.documentElement.dataset.ready = "true";  // for tests and benchmarks
  }

  /** The WebAssembly the page holds (gzip, then base64: bundle.py), as a
   * response the browser compiles while it unpacks. */
  function wasmResponse() {
    const text = atob($("wasm").textContent);
    const packed = new Uint8Array(text.length);
    for (let i = 0; i < text.length; ++i) packed[i] = text.charCodeAt(i);
    const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream, {headers: {"Content-Type": "application/wasm"}});
  }

  function failed(error) {
    $("m-answer").textContent = "The calculator did not start: " + error;
  }
  /** A calculator: the module compiled from the bytes the page holds. */
  const instantiate = () => occcalcModule({
    instantiateWasm(imports, done) {
      WebAssembly.instantiateStreaming(wasmResponse(), imports).then((r) => done(r.instance, r.module), failed);
      return {};
    },
  });
  instantiate().then((m) => {
    start(m);
    performance.mark("occcalc:answered");  // bench/web_bench.py: the first answer
  }, failed);
})();
