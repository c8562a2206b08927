// One seat's page: the board as this seat sees it (the server never sends more), the seat's
// decision as buttons and as cards and places to click, the seat's narration in a scrolling
// log (Korean or English, remembered), the result at the end, card texts on hover, a slider
// for replays. Keys: p pass/done, Enter confirm, 1-9 an option.
const table = location.pathname.split("/").pop();
const token = new URLSearchParams(location.search).get("token");
const proto = location.protocol === "https:" ? "wss" : "ws";
const saved = localStorage.getItem("madang.lang");
const langQuery = saved ? `&lang=${encodeURIComponent(saved)}` : "";
const ws = new WebSocket(`${proto}://${location.host}/ws/${table}?token=${encodeURIComponent(token)}${langQuery}`);
window.__messages = []; // every message received, for tests and for curious players
let current = null; // the last view
let picked = null; // options still possible after clicks on the table (indices), or null

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function choose(k) {
  picked = null;
  ws.send(JSON.stringify({ choose: k }));
}

function card(c, copies = 1) {
  const e = el("div", "card");
  e.dataset.card = c.name;
  e.dataset.id = c.id;
  e.append(el("div", "cname", c.title || c.name));
  if (copies > 1) e.append(el("span", "copies", `×${copies}`));
  const base = c.base || {};
  const stats = Object.entries(c.stats || {})
    .map(([k, v]) => `${k} ${v}` + (k in base ? ` (${base[k]})` : ""))
    .join(" · ");
  if (stats) e.append(el("div", "stats", stats));
  if (c.badges) {
    const b = el("div", "badges");
    c.badges.forEach((x) => b.append(el("span", "badge", x)));
    e.append(b);
  }
  e.dataset.tip = [(c.title || c.name) + (c.kind ? ` (${c.kind})` : ""), stats, (c.badges || []).join(", "), c.text || ""]
    .filter(Boolean).join("\n");
  return e;
}

function zone(z) {
  const e = el("div", "zone");
  e.dataset.zone = z.id;
  const empty = z.cards ? z.cards.length === 0 : z.hidden === 0;
  e.append(el("div", "zone-name", z.label + (empty ? " — empty" : "")));
  if (empty) return e;
  const cards = el("div", "cards");
  if (z.cards) {
    // identical cards side by side are shown once, with how many, unless one may be picked
    const groups = [];
    for (const c of z.cards) {
      const key = (c.title || c.name) + JSON.stringify(c.stats) + JSON.stringify(c.badges || []);
      const last = groups[groups.length - 1];
      if (last && last.key === key && !targeted("objects", c.id) && !targeted("objects", last.c.id)) last.n += 1;
      else groups.push({ key, c, n: 1 });
    }
    groups.forEach((g) => cards.append(card(g.c, g.n)));
  } else {
    // cards revealed to this seat (`reveal`): their position and name
    const known = (z.known || []).map(([i, name]) => `, #${i} ${name}`).join("");
    cards.append(el("span", "hidden-cards", `${z.hidden} hidden${known}`));
  }
  e.append(cards);
  return e;
}

function counters(obj) {
  const e = el("div", "counters");
  for (const [k, v] of Object.entries(obj || {})) e.append(el("span", "", `${k}: ${v}`));
  return e;
}

// The options that name a card (by id), a zone (by label) or an area (by name).
function optionsNaming(kind, value) {
  const d = current && current.decision;
  if (!d || !d.targets) return [];
  return d.targets.map((t, k) => ((t[kind] || []).map(String).includes(String(value)) ? k : -1)).filter((k) => k >= 0);
}
function targeted(kind, value) {
  return optionsNaming(kind, value).length > 0;
}

function markPickable() {
  document.querySelectorAll(".card[data-id]").forEach((e) => e.classList.toggle("pickable", targeted("objects", e.dataset.id)));
  document.querySelectorAll(".zone[data-zone]").forEach((e) => e.classList.toggle("pickable", targeted("zones", e.dataset.zone)));
  document.querySelectorAll(".area[data-area]").forEach((e) => e.classList.toggle("pickable", targeted("areas", e.dataset.area)));
  document.querySelectorAll(".options button").forEach((b) => {
    b.classList.toggle("candidate", picked !== null && picked.includes(Number(b.dataset.option)));
  });
  const hint = document.getElementById("pick-hint");
  if (hint) hint.textContent = picked && picked.length > 1 ? `${picked.length} options name it: click a place or an option` : "";
}

// A click on the table: the options naming what was clicked (and what was clicked before).
function pick(kind, value) {
  const naming = optionsNaming(kind, value);
  if (!naming.length) return false;
  const narrowed = picked ? naming.filter((k) => picked.includes(k)) : naming;
  picked = narrowed.length ? narrowed : naming;
  if (picked.length === 1) choose(picked[0]);
  else markPickable();
  return true;
}

document.addEventListener("click", (ev) => {
  if (!current || !current.decision || ev.target.closest(".options")) return;
  const c = ev.target.closest(".card[data-id]");
  if (c && pick("objects", c.dataset.id)) return;
  const z = ev.target.closest(".zone[data-zone]");
  if (z && pick("zones", z.dataset.zone)) return;
  const a = ev.target.closest(".area[data-area]");
  if (a && pick("areas", a.dataset.area)) return;
});

document.addEventListener("keydown", (ev) => {
  if (!current || !current.decision || ev.target.tagName === "INPUT") return;
  const labels = current.decision.options;
  if (ev.key === "p" || ev.key === "Escape") {
    const k = labels.findIndex((l) => l === "pass" || l === "done");
    if (k >= 0) { ev.preventDefault(); choose(k); }
  } else if (ev.key === "Enter") {
    if (picked && picked.length === 1) { ev.preventDefault(); choose(picked[0]); }
    else if (!picked && labels.length === 1) { ev.preventDefault(); choose(0); }
    else if (!picked && labels.includes("done")) { ev.preventDefault(); choose(labels.indexOf("done")); }
  } else if (/^[1-9]$/.test(ev.key) && Number(ev.key) <= labels.length) {
    ev.preventDefault();
    choose(Number(ev.key) - 1);
  }
});

function showResult(v) {
  const box = document.getElementById("result");
  box.hidden = !v.over;
  box.replaceChildren();
  if (!v.over || !v.result) return;
  const r = v.result;
  box.append(el("h2", "over", "The game is over"));
  box.append(el("p", "winners", r.winners.length ? `Won: ${r.winners.join(", ")}` : "A draw: nobody won"));
  const t = el("table", "scores");
  const head = el("tr");
  ["", "payoff", ...Object.keys((v.players[0] || {}).counters || {})].forEach((h) => head.append(el("th", "", h)));
  t.append(head);
  for (const p of r.players) {
    const row = el("tr", p.won ? "won" : "");
    row.append(el("td", "", p.name + (p.seat === v.seat ? " (you)" : "")));
    row.append(el("td", "", String(p.payoff)));
    for (const x of Object.values(v.players[p.seat].counters || {})) row.append(el("td", "", String(x)));
    t.append(row);
  }
  box.append(t);
}

function showLog(log) {
  if (!log) return;
  const list = document.getElementById("log");
  if (log.from === 0) list.replaceChildren();
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  for (const line of log.lines) {
    const li = el("li", /^\S/.test(line) ? "head" : "", line.trim());
    list.append(li);
  }
  if (atEnd || log.from === 0) list.scrollTop = list.scrollHeight;
}

function render(v) {
  current = v;
  picked = null;
  const board = document.getElementById("board");
  board.replaceChildren();
  if (Object.keys(v.counters).length) board.append(counters(v.counters));
  for (const p of v.players) {
    const box = el("section", "player" + (p.seat === v.seat ? " me" : "") + (p.seat === v.to_move && !v.over ? " to-move" : ""));
    box.append(el("h2", "", p.name + (p.seat === v.seat ? " (you)" : "")));
    box.append(counters(p.counters));
    p.zones.forEach((z) => box.append(zone(z)));
    board.append(box);
  }
  if (v.shared.length) {
    const box = el("section", "shared");
    v.shared.forEach((z) => box.append(zone(z)));
    board.append(box);
  }
  if (v.areas.length) {
    const grid = el("section", "areas");
    for (const a of v.areas) {
      const box = el("div", "area");
      box.dataset.area = a.name;
      box.append(el("h3", "", a.label || a.name));
      box.append(counters(a.counters));
      a.zones.forEach((z) => box.append(zone(z)));
      grid.append(box);
    }
    board.append(grid);
  }
  const who = v.seat >= 0 ? `P${v.seat + 1}` : "spectator";
  let status = `${v.ruleset} · ${who} · round ${v.round}` + (v.phase ? ` · ${v.phase}` : "");
  if (v.over) status += v.winners.length ? ` · over: ${v.winners.map((w) => "P" + (w + 1)).join(", ")} won` : " · over: a draw";
  if (v.over && v.seed !== null && v.seed !== undefined) status += ` · seed ${v.seed}`;
  if (v.watching) status += ` · replaying from the start: step ${v.watching.step} of ${v.watching.steps}`;
  document.getElementById("status").textContent = status;
  showResult(v);
  const dec = document.getElementById("decision");
  dec.replaceChildren();
  if (v.decision) {
    dec.append(el("h3", "", v.decision.question || v.decision.prompt));
    const opts = el("div", "options");
    (v.decision.shown || v.decision.options).forEach((label, k) => {
      const b = el("button", "", label);
      b.dataset.option = k;
      if (k < 9) b.title = `key ${k + 1}`;
      b.addEventListener("click", () => choose(k));
      opts.append(b);
    });
    dec.append(opts);
    dec.append(el("p", "hint", "Click a highlighted card or place, or an option. Keys: p pass/done · Enter confirm · 1–9 an option."));
    const pickHint = el("p", "hint");
    pickHint.id = "pick-hint";
    dec.append(pickHint);
  } else if (!v.replay && !v.over) dec.append(el("p", "", v.watching ? "" : `Waiting for P${v.to_move + 1}…`));
  const bar = document.getElementById("replay-bar");
  if (v.replay) {
    bar.hidden = false;
    const s = document.getElementById("slider");
    s.max = v.replay.steps - 1;
    s.value = v.replay.step;
    document.getElementById("step").textContent = `decision ${v.replay.step} of ${v.replay.steps - 1}`;
  }
  showLog(v.log);
  markPickable();
}

function showLang() {
  const lang = localStorage.getItem("madang.lang");
  document.querySelectorAll("#langs button").forEach((b) => b.classList.toggle("active", b.dataset.lang === lang));
}
document.querySelectorAll("#langs button").forEach((b) =>
  b.addEventListener("click", () => {
    localStorage.setItem("madang.lang", b.dataset.lang);
    showLang();
    ws.send(JSON.stringify({ lang: b.dataset.lang }));
  }),
);
showLang();

ws.addEventListener("message", (ev) => {
  const msg = JSON.parse(ev.data);
  window.__messages.push(ev.data);
  document.getElementById("error").textContent = msg.error || "";
  if (msg.view) render(msg.view);
});
document.getElementById("slider").addEventListener("input", (ev) => ws.send(JSON.stringify({ step: Number(ev.target.value) })));

const tip = document.getElementById("tip");
document.addEventListener("mouseover", (ev) => {
  const c = ev.target.closest(".card");
  if (!c) { tip.hidden = true; return; }
  tip.textContent = c.dataset.tip;
  tip.hidden = false;
});
document.addEventListener("mousemove", (ev) => { tip.style.left = ev.clientX + 14 + "px"; tip.style.top = ev.clientY + 14 + "px"; });
