// The Dice Duel page of `kniffel serve` (2-4 players): it holds the game (its record and the dice
// in hand, kept in localStorage) and asks the server for everything else: every move is checked
// by the server's game code, every chance shown is computed there.
const $ = (id) => document.getElementById(id);
const STORE = "kniffel-duel";
const token = new URLSearchParams(location.search).get("token");
const S = { state: null, held: [], busy: false, stopping: false };

async function api(path, body) {
  const headers = { "content-type": "application/json" };
  if (token) headers["x-kniffel-token"] = token;
  const response = await fetch("api/duel/" + path, { method: "POST", headers, body: JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function say(text) { $("message").textContent = text || ""; }

async function run(task) {
  if (S.busy) return;
  S.busy = true;
  document.body.classList.add("busy");
  try { say(""); await task(); } catch (error) { say(error.message); }
  finally { S.busy = false; document.body.classList.remove("busy"); }
}

async function move(m) {
  const st = S.state;
  show(await api("game", { record: st.record, hand: st.hand, move: m, coach: $("coach").checked }));
}

function cell(row, tag, text) {
  const c = document.createElement(tag);
  c.textContent = text;
  row.append(c);
  return c;
}

function renderChips(st) {
  const t = $("chips");
  t.replaceChildren();
  const head = t.insertRow();
  cell(head, "th", "");
  for (const type of st.types) cell(head, "th", `${type.key.replace("_", " ")} (${type.value})`);
  cell(head, "th", "points");
  const rows = [["plate", st.plate, ""], ["set aside", st.aside, ""]];
  st.seats.forEach((seat, i) => rows.push([seat.name + (i === st.to_move && !st.over ? " ◀" : ""),
    seat.chips, seat.points]));
  for (const [label, counts, points] of rows) {
    const row = t.insertRow();
    cell(row, "th", label);
    for (const n of counts) cell(row, "td", "●".repeat(n) || "·");
    cell(row, "td", points);
  }
}

function renderTurn(st) {
  const turn = st.turn;
  if (st.over) {
    const winners = st.seats.filter((s, i) => st.wins[i] > 0).map((s) => s.name);
    $("turn").textContent = winners.length ? `Game over: ${winners.join(" and ")} win${winners.length === 1 ? "s" : ""}.`
      : "Game over: a tie, nobody wins.";
    for (const id of ["roll", "stop", "dice", "moves", "entry"]) $(id).hidden = true;
    $("analyze").hidden = false;
    return;
  }
  $("analyze").hidden = true;
  const name = st.seats[st.to_move].name;
  $("turn").textContent = `${name}'s turn` + (turn.dice ? `, ${turn.rolls_left} roll${turn.rolls_left === 1 ? "" : "s"} left` : "")
    + (st.round_chip_taken ? " (a chip was taken this round)" : "");
  const dice = $("dice");
  dice.replaceChildren();
  dice.hidden = false;
  S.held = [];
  for (const [i, face] of (turn.dice || []).entries()) {
    const b = document.createElement("button");
    b.className = "die";
    b.textContent = face;
    b.addEventListener("click", () => { b.classList.toggle("held"); S.held[i] = !S.held[i]; });
    dice.append(b);
  }
  const rolling = !turn.dice;
  const real = st.record.real_dice;
  $("entry").hidden = !(rolling && real);
  $("roll").hidden = (rolling && real) || (!rolling && turn.rolls_left === 0);
  $("roll").textContent = rolling ? "Roll" : "Keep marked, roll the rest";
  $("stop").hidden = rolling || turn.rolls_left === 0 || S.stopping;
  const moves = $("moves");
  moves.replaceChildren();
  moves.hidden = rolling || (turn.rolls_left > 0 && !S.stopping);
  for (const m of turn.moves) {
    const b = document.createElement("button");
    b.textContent = m.action === "no_chip" ? "no chip" : `take ${m.chip}${m.from === "aside" ? " (set aside)" : ""}`;
    b.addEventListener("click", () => run(() => { S.stopping = false;
      return move(m.action === "no_chip" ? { no_chip: true } : { take: m.chip, from: m.from }); }));
    moves.append(b);
  }
}

function describe(o) {
  if (o.action === "keep") return `keep ${o.keep.join(" ") || "nothing"}`;
  if (o.action === "stop") return `stop: ${describe(o.then)}`;
  if (o.action === "no_chip") return "no chip";
  return `take ${o.chip}${o.from === "aside" ? " (set aside)" : ""}`;
}

function renderAdvice(st) {
  const box = $("advice");
  box.replaceChildren();
  const a = st.advice;
  if (!a) return;
  const how = a.exact ? "exact" : `estimate, 95% interval ${a.interval[0].toFixed(3)}–${a.interval[1].toFixed(3)}`;
  const p = document.createElement("p");
  p.textContent = `Chance to win: ${(100 * a.probability).toFixed(1)}% (${how})`;
  box.append(p);
  const list = document.createElement("ol");
  for (const o of a.options.slice(0, 6)) {
    const li = document.createElement("li");
    li.textContent = `${describe(o)}: ${(100 * o.probability).toFixed(1)}%` +
      (o.interval ? ` (${(100 * o.interval[0]).toFixed(1)}–${(100 * o.interval[1]).toFixed(1)})` : "");
    list.append(li);
  }
  box.append(list);
}

function show(st) {
  S.state = st;
  localStorage.setItem(STORE, JSON.stringify({ record: st.record, hand: st.hand }));
  $("setup").hidden = true;
  $("play").hidden = false;
  $("analysis").textContent = "";
  $("analysis").hidden = true;
  renderChips(st);
  renderTurn(st);
  renderAdvice(st);
}

function rollClicked() {
  const turn = S.state.turn;
  if (!turn.dice) return run(() => move({ roll: true }));
  const keep = turn.dice.filter((f, i) => S.held[i]);
  run(() => move({ keep }));
}

async function start() {
  const players = $("names").value.split(",").map((s) => s.trim()).filter(Boolean);
  const body = { players, real_dice: $("real-dice").checked, coach: $("coach").checked };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  show(await api("new", body));
}

async function loadFile(file) {
  const record = JSON.parse(await file.text());
  show(await api("game", { record, hand: null, coach: $("coach").checked }));
}

function saveRecord() {
  const blob = new Blob([JSON.stringify(S.state.record, null, 1) + "\n"], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `kniffel-duel-${new Date().toISOString().slice(0, 19).replaceAll(":", "")}.json`;
  a.click();
  URL.revokeObjectURL(a.href);
}

async function analyze() {
  const result = await api("analyze", { record: S.state.record });
  $("analysis").hidden = false;
  $("analysis").textContent = result.decisions.filter((r) => r.lost > 1e-9).map((r) =>
    `${r.player}: dice ${r.dice.join(" ")}, ${r.rolls_left} left, ${JSON.stringify(r.choice)}: ` +
    `${r.probability.toFixed(3)} (best ${r.best.toFixed(3)})`).join("\n") + "\n" +
    result.players.map((n, i) => `${n}: chance given away ${result.lost[i].toFixed(3)}`).join("\n");
}

function init() {
  $("start").addEventListener("click", () => run(start));
  $("new-game").addEventListener("click", () => { localStorage.removeItem(STORE); $("setup").hidden = false; $("play").hidden = true; });
  $("roll").addEventListener("click", rollClicked);
  $("stop").addEventListener("click", () => { S.stopping = true; renderTurn(S.state); });
  $("undo").addEventListener("click", () => run(() => { S.stopping = false; return move({ undo: true }); }));
  $("save").addEventListener("click", saveRecord);
  $("analyze").addEventListener("click", () => run(analyze));
  $("entry-ok").addEventListener("click", () => run(() =>
    move({ roll: [...$("entry-faces").value].filter((c) => c >= "1" && c <= "6").map(Number) })));
  $("load-file").addEventListener("change", (e) => e.target.files[0] && run(() => loadFile(e.target.files[0])));
  $("coach").addEventListener("change", () => S.state && run(() => move(null)));
  const saved = localStorage.getItem(STORE);
  const query = new URLSearchParams(location.search);
  if (query.get("players")) {  // duel?players=Anna,Ben&seed=3: a new game at once
    $("names").value = query.get("players");
    if (query.get("seed")) $("seed").value = query.get("seed");
    run(async () => { await start(); if (query.get("roll")) await move({ roll: true }); });
  } else if (saved) {
    const { record, hand } = JSON.parse(saved);
    run(async () => show(await api("game", { record, hand, coach: $("coach").checked })))
      .then(() => { if ($("play").hidden) $("setup").hidden = false; });
  } else $("setup").hidden = false;
  document.body.dataset.ready = "1";
}

init();
