// One seat's page: the board as this seat sees it (the server never sends more), the seat's
// decision as buttons, card texts on hover, and a slider for replays.
const table = location.pathname.split("/").pop();
const token = new URLSearchParams(location.search).get("token");
const proto = location.protocol === "https:" ? "wss" : "ws";
const ws = new WebSocket(`${proto}://${location.host}/ws/${table}?token=${encodeURIComponent(token)}`);
window.__messages = []; // every message received, for tests and for curious players

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function card(c, copies = 1) {
  const e = el("div", "card");
  e.dataset.card = c.name;
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
  const empty = z.cards ? z.cards.length === 0 : z.hidden === 0;
  e.append(el("div", "zone-name", z.label + (empty ? " — empty" : "")));
  if (empty) return e;
  const cards = el("div", "cards");
  if (z.cards) {
    // identical cards side by side are shown once, with how many
    const groups = [];
    for (const c of z.cards) {
      const key = (c.title || c.name) + JSON.stringify(c.stats) + JSON.stringify(c.badges || []);
      const last = groups[groups.length - 1];
      if (last && last.key === key) last.n += 1;
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

function render(v) {
  const board = document.getElementById("board");
  board.replaceChildren();
  if (Object.keys(v.counters).length) board.append(counters(v.counters));
  for (const p of v.players) {
    const box = el("section", "player" + (p.seat === v.seat ? " me" : "") + (p.seat === v.to_move ? " to-move" : ""));
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
      box.append(el("h3", "", a.name));
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
  document.getElementById("status").textContent = status;
  const dec = document.getElementById("decision");
  dec.replaceChildren();
  if (v.over) dec.append(el("p", "over", "The game is over."));
  else if (v.decision) {
    dec.append(el("h3", "", v.decision.question || v.decision.prompt));
    const opts = el("div", "options");
    (v.decision.shown || v.decision.options).forEach((label, k) => {
      const b = el("button", "", label);
      b.dataset.option = k;
      b.addEventListener("click", () => ws.send(JSON.stringify({ choose: k })));
      opts.append(b);
    });
    dec.append(opts);
  } else if (!v.replay) dec.append(el("p", "", `Waiting for P${v.to_move + 1}…`));
  const bar = document.getElementById("replay-bar");
  if (v.replay) {
    bar.hidden = false;
    const s = document.getElementById("slider");
    s.max = v.replay.steps - 1;
    s.value = v.replay.step;
    document.getElementById("step").textContent = `decision ${v.replay.step} of ${v.replay.steps - 1}`;
  }
}

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
