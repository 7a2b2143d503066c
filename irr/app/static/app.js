// irr app: the page's behaviour. Plain JavaScript, no library, no inline script (the
// Content-Security-Policy forbids it). Every text from the data or the server is set with
// textContent or as an attribute value, never parsed as HTML.
"use strict";

(function () {
  const token = new URLSearchParams(window.location.search).get("token") || "";
  const state = { session: null, meta: null, preview: null, detected: null, figures: [] };
  const $ = (id) => document.getElementById(id);

  function el(tag, props, children) {
    const node = document.createElement(tag);
    Object.entries(props || {}).forEach(([key, value]) => {
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else node.setAttribute(key, value);
    });
    (children || []).forEach((child) => node.appendChild(child));
    return node;
  }

  function withToken(url) {
    return url + (url.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token);
  }

  async function api(path, options) {
    const opts = Object.assign({ method: "GET", headers: {} }, options || {});
    opts.headers["X-IRR-Token"] = token;
    let response;
    try {
      response = await fetch(path, opts);
    } catch (err) {
      throw new Error("irr app is not running: start it again with irr app");
    }
    const text = await response.text();
    let body = null;
    try { body = JSON.parse(text); } catch (err) { body = { error: text.split("\n")[0] }; }
    if (!response.ok || body.error) throw new Error(body.error || ("error " + response.status));
    return body;
  }

  function post(path, data) {
    return api(path, { method: "POST", headers: { "Content-Type": "application/json" },
                       body: JSON.stringify(data || {}) });
  }

  function status(text, near) {
    if (near) near.appendChild($("status"));
    $("status").textContent = text;
  }

  function showError(text, box, near) {
    // the message goes under the step the user acted on, and into view
    const target = box || $("error");
    if (near) near.appendChild(target);
    target.textContent = text;
    target.hidden = !text;
    if (text) target.scrollIntoView({ block: "nearest" });
  }

  function hideSteps() {
    ["step-detect", "step-stats", "step-report"].forEach((id) => { $(id).hidden = true; });
  }

  function shown(name) {
    // a column name as the user wrote it: quoted when blanks at its ends would hide
    return name.trim() === name && name !== "" ? name : JSON.stringify(name);
  }

  async function busy(button, work) {
    const label = button.textContent;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    try { await work(); } finally {
      button.disabled = false;
      button.removeAttribute("aria-busy");
      button.textContent = label;
    }
  }

  // -- tabs -----------------------------------------------------------------------------
  function selectTab(tab) {
    document.querySelectorAll("[role=tab]").forEach((other) => {
      const on = other === tab;
      other.setAttribute("aria-selected", on ? "true" : "false");
      other.tabIndex = on ? 0 : -1;
      $(other.getAttribute("aria-controls")).hidden = !on;
    });
    tab.focus();
  }

  function setupTabs() {
    const tabs = Array.from(document.querySelectorAll("[role=tab]"));
    tabs.forEach((tab, i) => {
      tab.addEventListener("click", () => selectTab(tab));
      tab.addEventListener("keydown", (event) => {
        let next = null;
        if (event.key === "ArrowRight") next = tabs[(i + 1) % tabs.length];
        if (event.key === "ArrowLeft") next = tabs[(i - 1 + tabs.length) % tabs.length];
        if (event.key === "Home") next = tabs[0];
        if (event.key === "End") next = tabs[tabs.length - 1];
        if (next) { event.preventDefault(); selectTab(next); }
      });
    });
  }

  // -- step 1: data ---------------------------------------------------------------------
  async function upload(file) {
    showError("");
    status("Reading " + file.name + " …", $("step-data"));
    try {
      const body = await api(withToken("/api/s/" + state.session + "/upload?name=" +
                                       encodeURIComponent(file.name)),
                             { method: "POST", body: file });
      showPreview(body);
    } catch (err) {
      status("");
      hideSteps();
      showError(err.message, null, $("step-data"));
    }
  }

  async function useDataset() {
    showError("");
    const name = $("dataset").value;
    status("Loading the data set " + name + " …", $("step-data"));
    await busy($("use-dataset"), async () => {
      try {
        showPreview(await post("/api/s/" + state.session + "/dataset", { name: name }));
      } catch (err) { status(""); hideSteps(); showError(err.message, null, $("step-data")); }
    });
  }

  // -- step 2: preview and detection ----------------------------------------------------
  function fact(list, term, value) {
    list.appendChild(el("dt", { text: term }));
    list.appendChild(el("dd", { text: value }));
  }

  function fillSelect(select, values, chosen, labels) {
    select.replaceChildren();
    values.forEach((value, i) => {
      const option = el("option", { value: value, text: labels ? labels[i] : shown(value) });
      if (value === chosen) option.selected = true;
      select.appendChild(option);
    });
  }

  function showPreview(body) {
    state.preview = body;
    const d = body.detected;
    state.detected = d;
    $("data-name").textContent = body.kind === "dataset" ? "the data set " + body.name : body.name;
    const facts = $("facts");
    facts.replaceChildren();
    fact(facts, "Rows", String(body.n_rows));
    fact(facts, "Layout", d.layout === "long" ? "long: one row per rating" : "wide: one row per subject");
    if (d.layout === "long") {
      fact(facts, "Subject, rater, rating", [d.subject, d.rater, d.rating].map((c) => shown(c || "?")).join(", "));
    } else {
      fact(facts, "Identifier columns", d.ids.length ? d.ids.map(shown).join(", ") : "none");
    }
    fact(facts, "Raters", d.raters.length + ": " + d.raters.map(shown).join(", "));
    fact(facts, "Scale", d.scale ? d.scale + (d.categories.length ?
      ", " + d.categories.length + " categories: " + d.categories.join(", ") : "") : "unknown");
    fact(facts, "Missing-value codes", body.na_values.length ? body.na_values.join(" ") +
      " (and empty cells)" : "empty cells and NA only");
    fact(facts, "Replicates", d.replicates || "none found");
    $("problem").textContent = d.problem;
    $("problem").hidden = !d.problem;

    $("layout-wide").checked = d.layout !== "long";
    $("layout-long").checked = d.layout === "long";
    $("wide-columns").hidden = d.layout === "long";
    $("long-columns").hidden = d.layout !== "long";
    const roles = $("roles");
    roles.replaceChildren();
    body.columns.forEach((column, i) => {
      const select = el("select", { id: "role-" + i, "data-column": column });
      const role = d.ids.includes(column) ? "id" : d.raters.includes(column) ? "rater" : "unused";
      fillSelect(select, ["rater", "id", "unused"], role, ["a rater's ratings", "an identifier", "not used"]);
      const label = el("label", { for: "role-" + i, text: shown(column) });
      roles.appendChild(el("tr", {}, [el("th", { scope: "row" }, [label]), el("td", {}, [select])]));
    });
    ["subject", "rater", "rating"].forEach((role) => {
      fillSelect($("long-" + role), body.columns, d[role]);
    });
    $("na-values").value = body.na_values.join(" ");

    const table = $("preview");
    const head = el("tr", {}, body.columns.map((c) => el("th", { scope: "col", text: shown(c) })));
    table.tHead.replaceChildren(head);
    table.tBodies[0].replaceChildren(...body.rows.map((row) => el("tr", {}, row.map((cell) =>
      cell === null ? el("td", { class: "na", text: "missing" }) : el("td", { text: cell })))));
    $("preview-caption").textContent = "The first " + body.rows.length + " of " + body.n_rows + " rows";

    fillStatistics(d.recommended);
    $("step-detect").hidden = false;
    $("step-stats").hidden = false;
    $("step-report").hidden = true;
    status("Read " + body.name + ": " + body.n_rows + " rows. Check what was found, then make the report.");
  }

  function corrections() {
    const layout = $("layout-long").checked ? "long" : "wide";
    const out = { layout: layout, na_values: $("na-values").value.split(/\s+/).filter((v) => v) };
    if (layout === "long") {
      out.subject = $("long-subject").value;
      out.rater = $("long-rater").value;
      out.rating = $("long-rating").value;
    } else {
      out.ids = []; out.raters = [];
      document.querySelectorAll("#roles select").forEach((select) => {
        const column = select.getAttribute("data-column");
        if (select.value === "id") out.ids.push(column);
        if (select.value === "rater") out.raters.push(column);
      });
    }
    const categories = $("categories").value.split(",").map((v) => v.trim()).filter((v) => v);
    if (categories.length) out.categories = categories;
    return out;
  }

  async function applyCorrections() {
    showError("");
    await busy($("apply"), async () => {
      try {
        const data = corrections();
        delete data.categories;
        showPreview(await post("/api/s/" + state.session + "/preview", data));
      } catch (err) { showError(err.message, null, $("step-detect")); }
    });
  }

  // -- step 3: statistics ---------------------------------------------------------------
  function fillStatistics(recommended) {
    // the recommended ones first and ticked; the others folded away until asked for
    const box = $("statistics");
    const others = state.meta.statistics.filter((n) => !recommended.includes(n));
    const check = (name, on) => {
      const input = el("input", { type: "checkbox", id: "stat-" + name, value: name });
      input.checked = on;
      return el("label", { for: "stat-" + name, class: on ? "rec" : "" },
        [input, document.createTextNode(" " + name + (on ? " (recommended)" : ""))]);
    };
    const open = $("more-statistics") ? $("more-statistics").open : false;
    const more = el("details", { id: "more-statistics" }, [
      el("summary", { text: "The other " + others.length + " statistics" }),
      el("div", { class: "checks" }, others.map((name) => check(name, false)))]);
    more.open = open;
    box.replaceChildren(el("div", { class: "checks recommended" }, recommended.map((name) => check(name, true))), more);
    state.recommended = recommended;
  }

  function chosenStatistics() {
    const ticked = Array.from(document.querySelectorAll("#statistics input:checked")).map((i) => i.value);
    const rec = state.recommended || [];
    const same = ticked.length === rec.length && ticked.every((n) => rec.includes(n));
    // [] asks irr for its recommended set, as the command line does without --statistics
    // (a declared scale may change that set: then the ticked names are sent)
    return same && !$("categories").value.trim() ? [] : ticked;
  }

  async function compute() {
    showError("");
    const choices = corrections();
    choices.statistics = chosenStatistics();
    if (!document.querySelector("#statistics input:checked")) {
      showError("choose at least one statistic", null, $("step-stats"));
      return;
    }
    choices.ci = $("ci").value;
    choices.confidence_level = $("confidence").value;
    choices.n_resamples = $("resamples").value;
    choices.seed = $("seed").value;
    choices.scale = $("scale").value;
    choices.style = $("style").value;
    status("Computing the report …", $("step-stats"));
    await busy($("compute"), async () => {
      try {
        const body = await post("/api/s/" + state.session + "/report", choices);
        showReport(body);
      } catch (err) {
        status("");
        $("step-report").hidden = true;
        showError(err.message, null, $("step-stats"));
      }
    });
  }

  function download(href, label) {
    return el("a", { href: withToken(href), download: "", class: "button", text: label });
  }

  function showReport(body) {
    const base = "/api/s/" + state.session;
    $("command").textContent = body.command;
    const links = $("downloads");
    links.replaceChildren(
      download(base + "/download/report.html", "Report (HTML)"),
      download(base + "/download/results.csv", "Results (CSV)"),
      download(base + "/download/results.json", "Results (JSON)"));
    body.figures.forEach((caption, i) => {
      const n = i + 1;
      const svg = download(base + "/download/figure-" + n + ".svg", "Figure " + n + " (SVG)");
      svg.title = caption;
      const png = el("button", { type: "button", class: "button", text: "Figure " + n + " (PNG)", title: caption });
      png.addEventListener("click", () => savePng(base + "/download/figure-" + n + ".svg", n));
      links.append(svg, png);
    });
    const frame = $("report-frame");
    frame.addEventListener("load", () => fitFrame(frame), { once: true });
    frame.src = withToken(base + "/report.html?v=" + Date.now());
    $("step-report").hidden = false;
    const notes = body.notes.length ? " " + body.notes.join(" ") : "";
    status("The report is ready below." + notes);
  }

  function fitFrame(frame) {
    try {
      const doc = frame.contentDocument;
      frame.style.height = (doc.documentElement.scrollHeight + 24) + "px";
    } catch (err) { frame.style.height = "80vh"; }
  }

  async function savePng(url, n) {
    // the PNG is drawn here from the figure's SVG, at twice its size
    try {
      const response = await fetch(withToken(url));
      const svg = await response.blob();
      const image = new Image();
      const source = URL.createObjectURL(svg);
      await new Promise((resolve, reject) => {
        image.onload = resolve; image.onerror = () => reject(new Error("cannot draw the figure"));
        image.src = source;
      });
      const canvas = el("canvas");
      canvas.width = image.naturalWidth * 2;
      canvas.height = image.naturalHeight * 2;
      const ctx = canvas.getContext("2d");
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
      URL.revokeObjectURL(source);
      canvas.toBlob((png) => {
        const link = el("a", { href: URL.createObjectURL(png), download: "reliability-report-figure-" + n + ".png" });
        document.body.appendChild(link);
        link.click();
        link.remove();
      }, "image/png");
    } catch (err) { showError(err.message); }
  }

  // -- plan tab -------------------------------------------------------------------------
  async function plan() {
    showError("", $("plan-error"));
    const target = $("plan-target").value;
    const data = { target: target, power: $("power").value, n: $("plan-n").value,
                   alpha: $("plan-alpha").value, alternative: $("alternative").value };
    if (data.n.trim()) data.power = "";
    if (target === "kappa") {
      Object.assign(data, { kappa0: $("kappa0").value, kappa1: $("kappa1").value,
                            raters: $("k-raters").value, categories: $("k-categories").value });
    } else {
      Object.assign(data, { rho0: $("rho0").value, rho1: $("rho1").value, raters: $("i-raters").value });
    }
    await busy($("plan-run"), async () => {
      try {
        const body = await post("/api/plan", data);
        $("plan-command").textContent = body.command;
        const table = $("plan-table");
        const columns = body.rows.length ? Object.keys(body.rows[0]) : [];
        table.tHead.replaceChildren(el("tr", {}, columns.map((c) => el("th", { scope: "col", text: c }))));
        const cell = (value) => value === null ? "" : Array.isArray(value) ? value.map(cell).join(", ")
          : typeof value === "number" ? String(Math.round(value * 1e4) / 1e4) : String(value);
        table.tBodies[0].replaceChildren(...body.rows.map((row) => el("tr", {}, columns.map((c) =>
          el("td", { text: cell(row[c]) })))));
        $("plan-sentences").replaceChildren(...body.sentences.map((s) => el("li", { text: s })));
        $("plan-out").hidden = false;
      } catch (err) {
        $("plan-out").hidden = true;
        showError(err.message, $("plan-error"));
      }
    });
  }

  // -- start ----------------------------------------------------------------------------
  async function start() {
    setupTabs();
    try {
      state.meta = await api("/api/meta");
      state.session = (await post("/api/session")).session;
    } catch (err) { showError(err.message); return; }
    const meta = state.meta;
    fillSelect($("dataset"), meta.datasets, meta.dataset || "anxiety");
    fillSelect($("ci"), meta.ci_methods, "", meta.ci_methods.map((m) => m || "each statistic's own"));
    fillSelect($("scale"), [""].concat(meta.scales), "", ["each statistic's own"].concat(meta.scales));
    fillSelect($("style"), meta.styles, "apa", ["APA", "plain"]);
    $("excel-note").textContent = meta.excel ? "" :
      "Excel files need the openpyxl package (pip install openpyxl); without it, save the sheet as CSV.";
    $("file").addEventListener("change", (event) => {
      if (event.target.files.length) upload(event.target.files[0]);
    });
    const drop = $("drop");
    drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", (event) => {
      event.preventDefault();
      drop.classList.remove("over");
      if (event.dataTransfer.files.length) upload(event.dataTransfer.files[0]);
    });
    $("use-dataset").addEventListener("click", useDataset);
    $("apply").addEventListener("click", applyCorrections);
    document.querySelectorAll("input[name=layout]").forEach((radio) => radio.addEventListener("change", () => {
      $("wide-columns").hidden = $("layout-long").checked;
      $("long-columns").hidden = !$("layout-long").checked;
    }));
    $("stats-recommended").addEventListener("click", () => fillStatistics(state.recommended || []));
    $("stats-clear").addEventListener("click", () => {
      document.querySelectorAll("#statistics input").forEach((i) => { i.checked = false; });
    });
    $("compute").addEventListener("click", compute);
    $("plan-target").addEventListener("change", () => {
      $("plan-kappa").hidden = $("plan-target").value !== "kappa";
      $("plan-icc").hidden = $("plan-target").value !== "icc";
    });
    $("plan-run").addEventListener("click", plan);
    if (meta.dataset) await useDataset();
    document.body.setAttribute("data-ready", "true");
  }

  document.addEventListener("DOMContentLoaded", start);
})();
