"use strict";
(function () {
  // Every text from the report reaches the page through textContent or
  // option values, never as markup.
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var tasks = data.tasks;
  // With other runs (HTMLOptions.Runs), runsOf(t) is every run's results
  // for task t, this report's first; a run that lacks the task is null.
  var names = data.runs || [""];
  function runsOf(t) { return [t].concat(t.runs || []); }
  function letter(k) { return String.fromCharCode(65 + k); }
  var PAGE = 200;
  var shown = PAGE;
  var $ = function (id) { return document.getElementById(id); };
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function pct(v) { return v === undefined || v === null ? "–" : (100 * v).toFixed(1) + "%"; }

  // Filter choices, from the data.
  var cats = {}, types = {}, labels = {}, outs = {};
  tasks.forEach(function (t) {
    (t.cats || []).forEach(function (c) { cats[c] = 1; });
    (t.types || []).forEach(function (c) { types[c] = 1; });
    Object.keys(t.labels || {}).forEach(function (k) { labels[k + "=" + t.labels[k]] = 1; });
    runsOf(t).forEach(function (r) { if (r) r.samples.forEach(function (s) { outs[s.o] = 1; }); });
  });
  function fill(id, keys) {
    var sel = $(id);
    keys.forEach(function (k) { var o = el("option", null, k); o.value = k; sel.appendChild(o); });
  }
  fill("f-outcome", data.outcomes.filter(function (o) { return outs[o]; }));
  fill("f-cat", Object.keys(cats).sort());
  fill("f-type", Object.keys(types).sort());
  fill("f-label", Object.keys(labels).sort());

  // The search looks through a task's lowercased texts, built once.
  var hay = tasks.map(function (t) {
    var parts = [t.id, t.req, t.code, t.ref, t.reason];
    if (t.prov) parts.push(t.prov.gen, t.prov.parent, (t.prov.ops || []).join(" "));
    runsOf(t).forEach(function (r) {
      if (!r) return;
      r.samples.forEach(function (s) {
        parts.push(s.comp, s.code, s.detail);
        (s.tests || []).forEach(function (x) { parts.push(x.n, x.m); });
      });
    });
    return parts.filter(Boolean).join("\n").toLowerCase();
  });

  function matches(i) {
    var t = tasks[i];
    var st = $("f-status").value, oc = $("f-outcome").value, c = $("f-cat").value,
      ty = $("f-type").value, lb = $("f-label").value, q = $("q").value.trim().toLowerCase();
    if (st && t.status !== st) return false;
    if (oc && !runsOf(t).some(function (r) { return r && r.samples.some(function (s) { return s.o === oc; }); })) return false;
    if (c && (t.cats || []).indexOf(c) < 0) return false;
    if (ty && (t.types || []).indexOf(ty) < 0) return false;
    if (lb) { var kv = lb.split("="); var k = kv.shift(); if (!t.labels || t.labels[k] !== kv.join("=")) return false; }
    if (q && hay[i].indexOf(q) < 0) return false;
    return true;
  }

  var body = document.querySelector("#tasks tbody");
  function render() {
    body.textContent = "";
    var n = 0, total = 0;
    for (var i = 0; i < tasks.length; i++) {
      if (!matches(i)) continue;
      total++;
      if (n >= shown) continue;
      n++;
      body.appendChild(row(i));
    }
    $("count").textContent = "showing " + n + " of " + total + " matching tasks (" + tasks.length + " in all)";
    $("more").hidden = total <= n;
  }
  function row(i) {
    var t = tasks[i];
    var tr = el("tr", "row");
    tr.dataset.task = i;
    tr.appendChild(el("td", null, t.id));
    tr.appendChild(el("td", "st-" + t.status, t.status));
    var p1 = runsOf(t).map(function (r, k) {
      var v = !r ? "not in this run" : r.p1 === undefined ? "–" : pct(r.p1) + " (" + r.c + "/" + r.n + ")";
      return names.length > 1 ? letter(k) + ": " + v : v;
    });
    tr.appendChild(el("td", null, p1.join(" · ")));
    var td = el("td");
    runsOf(t).forEach(function (r, k) {
      if (names.length > 1) { var l = el("span", "runlbl", letter(k)); l.title = names[k]; td.appendChild(l); }
      if (!r) return;
      r.samples.forEach(function (s, j) {
        var b = el("button", "chip o-" + s.o);
        b.title = (names.length > 1 ? names[k] + ", " : "") + "sample " + s.i + ": " + s.o;
        b.dataset.sample = j;
        b.dataset.run = k;
        td.appendChild(b);
      });
    });
    tr.appendChild(td);
    var tg = el("td");
    (t.cats || []).forEach(function (c) { tg.appendChild(el("span", "tag", c)); });
    Object.keys(t.labels || {}).sort().forEach(function (k) { tg.appendChild(el("span", "tag", k + "=" + t.labels[k])); });
    if (t.prov) tg.appendChild(el("span", "tag", t.prov.gen + (t.prov.ops ? ": " + t.prov.ops.join("+") : "")));
    tr.appendChild(tg);
    return tr;
  }

  function pre(text, cls) {
    var p = el("pre", cls);
    p.textContent = text;
    return p;
  }
  function diff(text) {
    var p = el("pre", "diff");
    text.split("\n").forEach(function (l) {
      var c = l.startsWith("@@") ? "hunk" : l.startsWith("+") && !l.startsWith("+++") ? "add" : l.startsWith("-") && !l.startsWith("---") ? "del" : "";
      var s = el("span", c, l === "" ? " " : l);
      p.appendChild(s);
    });
    return p;
  }
  function block(parent, title, node) {
    var d = el("div");
    d.appendChild(el("h4", null, title));
    d.appendChild(node);
    parent.appendChild(d);
  }

  function sampleView(t, s) {
    var box = el("div", "sample");
    var head = "sample " + s.i + ": " + s.o;
    if (s.rounds) head += " (after " + s.rounds + " repair round" + (s.rounds > 1 ? "s" : "") + ")";
    if (s.tokens) head += " · " + s.tokens + " tokens";
    box.appendChild(el("h4", null, head));
    if (s.detail) block(box, "detail", pre(s.detail));
    var g = el("div", "dgrid");
    if (s.comp) block(g, "completion", pre(s.comp));
    if (s.reasoning) block(g, "reasoning", pre(s.reasoning));
    if (s.code) block(g, "extracted code", pre(s.code));
    else if (s.same) block(g, "extracted code", el("p", "note", "the whole completion"));
    box.appendChild(g);
    var d2 = el("div", "dgrid");
    if (s.dref !== undefined || s.dorig !== undefined || s.code || s.same) {
      block(d2, "diff against the reference", s.dref ? diff(s.dref) : el("p", "note", "same lines as the reference"));
      block(d2, "diff against the original code", s.dorig ? diff(s.dorig) : el("p", "note", "same lines as the original code"));
    }
    box.appendChild(d2);
    if (s.tests && s.tests.length) {
      var tb = el("table", "tests");
      s.tests.forEach(function (x) {
        var r = el("tr");
        var c0 = el("td"); c0.appendChild(el("span", "chip o-" + (x.s === "passed" ? "passed" : "failed"))); r.appendChild(c0);
        r.appendChild(el("td", null, x.n));
        r.appendChild(el("td", null, x.s + (x.e ? " (" + x.e + ")" : "")));
        r.appendChild(el("td", "msg", x.m || ""));
        tb.appendChild(r);
      });
      block(box, "tests", tb);
    }
    return box;
  }

  function detail(i, j, run) {
    var t = tasks[i];
    var td = el("td", "detail");
    td.colSpan = 5;
    if (t.reason) td.appendChild(el("p", "st-" + t.status, t.reason));
    if (t.target) td.appendChild(el("p", "note", (t.lang || "") + " · target " + t.target));
    if (t.req) block(td, "requirement", el("p", null, t.req));
    if (t.steps && t.steps.length) {
      var tb = el("table", "tests");
      t.steps.forEach(function (s) {
        var r = el("tr");
        r.appendChild(el("td", null, s.id));
        r.appendChild(el("td", null, s.type || ""));
        r.appendChild(el("td", null, s.desc || ""));
        r.appendChild(el("td", null, s.run ? "pass@1 " + pct(s.p1) + " · " + s.tests + " tests" : s.tests + " tests"));
        tb.appendChild(r);
      });
      block(td, "adaptation steps", tb);
    }
    if (t.prov) {
      var p = t.prov, lines = ["generator: " + p.gen];
      if (p.parent) lines.push("parent: " + p.parent);
      if (p.ops) lines.push("operators: " + p.ops.join(", "));
      lines.push("seed: " + p.seed);
      if (p.source) lines.push("source: " + p.source);
      if (p.schema) lines.push("detail (" + p.schema + "):\n" + p.detail);
      block(td, "provenance", pre(lines.join("\n")));
    }
    var g = el("div", "dgrid");
    if (t.prompt) block(g, "prompt", pre(t.prompt));
    if (t.code) block(g, "original code", pre(t.code));
    if (t.ref) block(g, "reference", pre(t.ref));
    td.appendChild(g);
    if (t.gold) td.appendChild(sampleView(t, Object.assign({}, t.gold, { i: "reference" })));
    var holder = el("div"), bars = el("div");
    runsOf(t).forEach(function (r, k) {
      if (!r || !r.samples.length) return;
      var bar = el("div");
      bar.appendChild(el("b", null, (names.length > 1 ? names[k] + " (" + letter(k) + ")" : "samples") + ": "));
      if (names.length > 1 && r.reason) bar.appendChild(el("span", "st-" + r.status, r.reason + " "));
      r.samples.forEach(function (s, m) {
        var b = el("button", "chip o-" + s.o + (k === run && m === j ? " sel" : ""));
        b.title = "sample " + s.i + ": " + s.o;
        b.addEventListener("click", function (ev) {
          ev.stopPropagation();
          bars.querySelectorAll("button").forEach(function (x) { x.classList.remove("sel"); });
          b.classList.add("sel");
          holder.textContent = "";
          holder.appendChild(sampleView(t, s));
        });
        bar.appendChild(b);
      });
      bars.appendChild(bar);
    });
    td.appendChild(bars);
    var first = runsOf(t)[run] || t;
    if (first.samples.length) holder.appendChild(sampleView(t, first.samples[Math.min(j, first.samples.length - 1)]));
    td.appendChild(holder);
    var tr = el("tr", "drow");
    tr.appendChild(td);
    return tr;
  }

  body.addEventListener("click", function (ev) {
    var tr = ev.target.closest("tr.row");
    if (!tr) return;
    var i = +tr.dataset.task;
    var j = ev.target.dataset.sample !== undefined ? +ev.target.dataset.sample : 0;
    var run = ev.target.dataset.run !== undefined ? +ev.target.dataset.run : 0;
    var next = tr.nextElementSibling;
    var wasOpen = tr.classList.contains("open");
    if (next && next.classList.contains("drow")) next.remove();
    tr.classList.remove("open");
    if (wasOpen && ev.target.dataset.sample === undefined) return;
    tr.classList.add("open");
    tr.after(detail(i, j, run));
  });
  ["f-status", "f-outcome", "f-cat", "f-type", "f-label"].forEach(function (id) {
    $(id).addEventListener("change", function () { shown = PAGE; render(); });
  });
  var timer;
  $("q").addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(function () { shown = PAGE; render(); }, 150); });
  $("more").addEventListener("click", function () { shown += PAGE; render(); });
  render();
})();
