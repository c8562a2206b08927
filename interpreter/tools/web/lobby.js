// The lobby: pick a ruleset, its options and the seats, then open the links of the new table.
const agents = ["human", "random", "first"];
let rulesets = [];

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function showRuleset() {
  const r = rulesets.find((x) => x.name === document.getElementById("ruleset").value);
  const opts = document.getElementById("options");
  opts.replaceChildren();
  for (const [name, spec] of Object.entries(r.options)) {
    let input;
    if (spec.values) {
      input = el("select", { name: "opt-" + name });
      for (const v of spec.values) input.append(el("option", { value: String(v) }, String(v)));
      if (spec.default !== null && !Array.isArray(spec.default)) input.value = String(spec.default);
    } else {
      input = el("input", { name: "opt-" + name, placeholder: spec.default === null ? "" : String(spec.default) });
    }
    opts.append(el("label", {}, name + " ", input));
  }
  const count = document.getElementById("players");
  count.replaceChildren();
  if (r.min_players < r.max_players) {
    // a ruleset for 2-4 players: its player count first; the seats follow it
    const sel = el("select", { name: "opt-players", id: "player-count" });
    for (let n = r.min_players; n <= r.max_players; n++) sel.append(el("option", { value: String(n) }, String(n)));
    sel.addEventListener("change", () => showSeats(Number(sel.value)));
    count.append(el("label", {}, "players ", sel));
  }
  showSeats(r.min_players || r.players);
}

function showSeats(n) {
  const seats = document.getElementById("seats");
  const before = [...seats.querySelectorAll("select")].map((s) => s.value);
  seats.replaceChildren();
  for (let p = 0; p < n; p++) {
    const sel = el("select", { name: "seat", id: "seat-" + p });
    for (const a of agents) sel.append(el("option", { value: a }, a));
    sel.value = before[p] || (p === 0 ? "human" : "random");
    seats.append(el("label", {}, `P${p + 1} `, sel));
  }
}

async function start(ev) {
  ev.preventDefault();
  const form = ev.target;
  const options = {};
  for (const e of form.elements) if (e.name && e.name.startsWith("opt-") && e.value !== "") options[e.name.slice(4)] = e.value;
  const seats = [...form.querySelectorAll("select[name=seat]")].map((s) => s.value);
  const body = { ruleset: form.ruleset.value, options, seats };
  if (form.seed.value !== "") body.seed = Number(form.seed.value); // none: a secret seed
  const res = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  showLinks(await res.json());
}

function showLinks(data) {
  document.getElementById("error").textContent = data.error || "";
  if (data.error) return;
  const list = document.getElementById("link-list");
  list.replaceChildren();
  for (const [who, link] of Object.entries(data.links)) {
    list.append(el("li", {}, el("a", { href: link, target: "_blank", id: "link-" + who }, who === "watch" ? "watch" : `play as ${who}`)));
  }
  document.getElementById("links").hidden = false;
}

async function replay(ev) {
  ev.preventDefault();
  const file = document.getElementById("log-file").files[0];
  if (!file) return;
  const res = await fetch("/api/replays", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ log: await file.text() }) });
  showLinks(await res.json());
}

(async () => {
  rulesets = await (await fetch("/api/rulesets")).json();
  const sel = document.getElementById("ruleset");
  for (const r of rulesets) sel.append(el("option", { value: r.name }, r.title));
  sel.addEventListener("change", showRuleset);
  showRuleset();
  document.getElementById("new-game").addEventListener("submit", start);
  document.getElementById("replay").addEventListener("submit", replay);
})();
