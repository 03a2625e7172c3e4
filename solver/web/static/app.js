// The page of `kniffel serve`: it holds the game (its record and the dice in hand, kept in
// localStorage) and asks the server for everything else: every move is checked by the server's
// game code, every figure shown is computed there.
const $ = (id) => document.getElementById(id);
const STORE = "kniffel-game";
const token = new URLSearchParams(location.search).get("token");
const S = { info: null, state: null, held: new Set(), entry: [], wasHeld: [], busy: false, all: false };
const SHOWN = 6; // choices shown before "all choices": the page stays short on a phone

async function api(path, body) {
  const headers = { "content-type": "application/json" };
  if (token) headers["x-kniffel-token"] = token;
  const response = await fetch("api/" + path, body === undefined ? { headers } :
    { method: "POST", headers, body: JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function say(text) { $("message").textContent = text || ""; }

const WORKING_AFTER_MS = 300; // a request slower than this shows that the server is working

async function run(task) {
  if (S.busy) return;
  S.busy = true;
  document.body.classList.add("busy");
  const working = setTimeout(() => { document.body.classList.add("working"); say("Working…"); },
    WORKING_AFTER_MS);
  try { say(""); await task(); if ($("message").textContent === "Working…") say(""); }
  catch (error) { say(error.message); }
  finally {
    clearTimeout(working);
    S.busy = false;
    document.body.classList.remove("busy", "working");
  }
}

function settings() {
  return { language: $("language").value, objective: $("objective").value };
}

async function move(m) {
  const st = S.state;
  const next = await api("game", { record: st.record, hand: st.hand, move: m, ...settings() });
  show(next);
  return next;
}

// ---- set-up -------------------------------------------------------------------------------
const CHOICES = { joker: ["none", "max-any", "must-match", "free", "forced", "free-after-upper"],
  joker_requires: ["fifty", "filled"], extra_bonus_requires: ["fifty", "filled"] };

function showOptions() {
  const preset = S.info.presets.find((p) => p.name === $("preset").value);
  $("preset-description").textContent = preset.description;
  $("language").value = preset.language;
  const box = $("options");
  box.replaceChildren();
  for (const [name, value] of Object.entries(preset.options)) {
    const label = document.createElement("label");
    label.textContent = name.replaceAll("_", " ");
    let input;
    if (typeof value === "boolean") {
      input = document.createElement("input"); input.type = "checkbox"; input.checked = value;
    } else if (CHOICES[name]) {
      input = document.createElement("select");
      for (const c of CHOICES[name]) input.add(new Option(c, c, false, c === value));
    } else {
      input = document.createElement("input"); input.type = "number"; input.min = 0;
      input.value = value === null ? "" : value; input.placeholder = "none";
    }
    input.dataset.option = name; input.dataset.default = JSON.stringify(value);
    label.append(input); box.append(label);
  }
}

function houseRules() {
  const options = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    let value = input.type === "checkbox" ? input.checked : input.type === "number"
      ? (input.value === "" ? null : Number(input.value)) : input.value;
    if (JSON.stringify(value) !== input.dataset.default) options[input.dataset.option] = value;
  }
  return options;
}

function addPlayer(name) {
  const list = $("player-list");
  if (list.children.length >= S.info.max_players) return;
  const input = document.createElement("input");
  input.value = name || `Player ${list.children.length + 1}`;
  input.setAttribute("aria-label", "player name");
  list.append(input);
}

function showSetup() {
  $("setup").hidden = false; $("play").hidden = true;
}

async function start() {
  const players = [...$("player-list").querySelectorAll("input")].map((i) => i.value.trim()).filter(Boolean);
  const real = document.querySelector("input[name=dice-mode]:checked").value === "real";
  const seed = $("seed").value === "" ? null : Number($("seed").value);
  S.wasHeld = [];
  show(await api("new", { rules: $("preset").value, options: houseRules(), players,
    real_dice: real, seed: real ? null : seed, ...settings() }));
}

async function loadFile(file) {
  const record = JSON.parse(await file.text());
  S.wasHeld = [];
  show(await api("game", { record, hand: null, ...settings() }));
}

// ---- the game -----------------------------------------------------------------------------
function show(state) {
  const turnChanged = !S.state || !state.turn || !S.state.turn ||
    S.state.turn.player !== state.turn.player || S.state.turn.round !== state.turn.round;
  if (turnChanged) S.wasHeld = [];
  S.state = state; S.held = new Set(); S.entry = []; S.all = false;
  document.body.dataset.step = (Number(document.body.dataset.step) || 0) + 1;
  localStorage.setItem(STORE, JSON.stringify({ record: state.record, hand: state.hand, ...settings() }));
  $("setup").hidden = true; $("play").hidden = false;
  document.documentElement.lang = state.language;
  $("language").value = state.language;
  renderTurn(); renderDice(); renderAdvice(); renderCard();
  renderAnalysis().catch((error) => say(error.message));
  $("line").textContent = state.advice_line ? JSON.stringify(state.advice_line) : "";
}

function renderTurn() {
  const { turn, over, rules } = S.state, line = $("turn-line");
  if (over) { line.textContent = "Game over"; delete line.dataset.rollsLeft; return; }
  const roll = `roll ${turn.roll_number}/${rules.rolls_per_turn}`;
  const jokers = rules.jokers ? ` · ${turn.jokers_left} joker${turn.jokers_left === 1 ? "" : "s"}` : "";
  line.textContent = `Round ${turn.round} · ${turn.name} · ${roll}${jokers}`;
  line.dataset.player = turn.player;
  line.dataset.rollsLeft = turn.rolls_left;
  line.dataset.hand = S.state.hand ? S.state.hand.join("") : "";
}

function die(face, cls) {
  const button = document.createElement("button");
  button.type = "button"; button.className = "die " + (cls || "");
  button.textContent = face || "·"; if (face) button.dataset.face = face;
  return button;
}

function renderDice() {
  const { turn, hand } = S.state, box = $("dice");
  box.replaceChildren();
  const real = S.state.record.real_dice;
  $("entry").hidden = true;
  $("roll").hidden = !turn;
  if (!turn) return;
  if (hand) {
    const marks = [...S.wasHeld];
    hand.forEach((face, i) => {
      const k = marks.indexOf(face);
      const b = die(face, k >= 0 ? "was-held" : "");
      if (k >= 0) marks.splice(k, 1);
      if (S.held.has(i)) b.classList.add("held");
      b.setAttribute("aria-pressed", S.held.has(i));
      b.addEventListener("click", () => toggleHold(i, b));
      box.append(b);
    });
  } else {
    for (const face of turn.kept) box.append(die(face, "held"));
    for (let i = 0; i < turn.n_to_roll; i++) box.append(die(0, "empty"));
    if (real) showEntry();
  }
  const canRoll = !hand || turn.rolls_left > 0;
  $("roll").disabled = !canRoll || (real && !hand);
  $("roll").textContent = hand ? (real ? "Hold and throw again" : "Roll again") : (real ? "Enter the dice" : "Roll");
  $("undo").textContent = hand && real ? "Correct roll / undo" : "Undo";
}

function toggleHold(i, button) {
  if (!S.state.turn || S.state.turn.rolls_left === 0) return;
  S.held.has(i) ? S.held.delete(i) : S.held.add(i);
  button.classList.toggle("held", S.held.has(i));
  button.setAttribute("aria-pressed", S.held.has(i));
}

function showEntry() {
  $("entry").hidden = false;
  const n = S.state.turn.n_to_roll, shown = $("entry-dice");
  shown.replaceChildren(...Array.from({ length: n }, (_, i) => die(S.entry[i] || 0, S.entry[i] ? "" : "empty")));
  const pad = $("pad");
  if (!pad.children.length) {
    for (let f = 1; f <= 6; f++) {
      const b = document.createElement("button"); b.type = "button"; b.textContent = f; b.dataset.pad = f;
      b.addEventListener("click", () => enterFace(f)); pad.append(b);
    }
    const back = document.createElement("button"); back.type = "button"; back.textContent = "⌫";
    back.addEventListener("click", () => { S.entry.pop(); showEntry(); });
    pad.append(back);
  }
}

function enterFace(face) {
  S.entry.push(face);
  if (S.entry.length < S.state.turn.n_to_roll) { showEntry(); return; }
  const faces = S.entry;
  run(() => move({ roll: faces }));
}

async function keepAndRoll(keep) {
  S.wasHeld = keep;
  const after = await move({ keep });
  if (!after.record.real_dice) await move({ roll: true });
}

function rollClicked() {
  const { hand, turn } = S.state;
  if (!hand) return run(() => move({ roll: true }));
  if (turn.rolls_left === 0) return;
  const keep = [...S.held].map((i) => hand[i]).sort();
  if (keep.length === 5) { say("All five held: choose a box."); return; }
  run(() => keepAndRoll(keep));
}

function describe(option) {
  if (option.action === "keep")
    return option.keep.length ? `keep ${option.keep.join(" ")}` : "reroll all";
  const label = S.state.boxes.find((b) => b.key === option.box).label;
  const bonus = option.bonus ? ` +${option.bonus * S.state.rules.extra_bonus} bonus` : "";
  return `${label}: ${option.points}${bonus}`;
}

// A five of a kind entered by the joker rule (the Kniffel box already filled), not as itself.
function kniffelJoker(option) {
  const { hand, rules, columns, turn } = S.state;
  if (option.action !== "score" || !hand || rules.joker === "none" || new Set(hand).size !== 1) return false;
  const kniffel = S.state.boxes[S.state.boxes.length - 1].key === "yatzy" ? "yatzy" : "kniffel";
  const upper = ["ones", "twos", "threes", "fours", "fives", "sixes"][hand[0] - 1];
  return columns[turn.player].card[kniffel] !== undefined && option.box !== kniffel && option.box !== upper;
}

// "≈" before a chance the server estimated (its "method" is "approximate"), and its interval.
function approx(advice) { return advice.method === "approximate" ? "≈" : ""; }
function span(item) {
  return item.interval ? ` (${(100 * item.interval[0]).toFixed(1)}–${(100 * item.interval[1]).toFixed(1)}%)` : "";
}

function renderAdvice() {
  const list = $("advice"), head = $("advice-head"), advice = S.state.advice;
  list.replaceChildren();
  if (!advice || advice.error) {
    head.textContent = advice && advice.error ? advice.error : "";
    return;
  }
  const best = advice.expected_final_score, win = Boolean(advice.objective && advice.objective.win);
  head.textContent = S.state.hand
    ? `Choices, best first: ${win ? "chance to win, " : ""}expected final score, cost against the best`
    : win ? `Chance to win from here: ${approx(advice)}${(100 * advice.probability).toFixed(1)}%${span(advice)}, expected final score ${best.toFixed(2)}`
      : `Expected final score from here: ${best.toFixed(2)}`;
  const shown = S.all ? advice.options : advice.options.slice(0, SHOWN);
  shown.forEach((option, rank) => {
    const li = document.createElement("li");
    if (rank === 0) li.classList.add("best");
    li.dataset.action = option.action;
    li.dataset.efs = option.expected_final_score;
    if (option.action === "keep") li.dataset.keep = option.keep.join("");
    else li.dataset.box = option.box;
    const text = document.createElement("span");
    text.className = "what"; text.textContent = describe(option);
    if (option.joker) {
      const [from, to] = [[].concat(option.joker.from), [].concat(option.joker.to)];
      const tag = document.createElement("span"); tag.className = "tag";
      tag.textContent = "Joker " + from.map((f, i) => `${f}→${to[i]}`).join(", ");
      text.append(tag); li.dataset.joker = JSON.stringify(from.map((f, i) => [f, to[i]]));
    }
    if (option.kniffel_joker || (option.kniffel_joker === undefined && kniffelJoker(option))) {
      const tag = document.createElement("span"); tag.className = "tag"; tag.textContent = "Kniffel joker";
      text.append(tag);
    }
    const value = document.createElement("span"); value.className = "efs";
    value.textContent = option.expected_final_score.toFixed(2);
    if (win) value.textContent = `${approx(advice)}${(100 * option.probability).toFixed(1)}%${span(option)} win · ` + value.textContent;
    const cost = document.createElement("span"); cost.className = "cost";
    // One word for what a choice costs, as `kniffel advise` prints it ("cost 0.71", "best").
    cost.textContent = rank === 0 ? "best" : win
      ? `cost ${(100 * (advice.probability - option.probability)).toFixed(1)}% win`
      : `cost ${(best - option.expected_final_score).toFixed(2)}`;
    li.append(text, value, cost);
    li.addEventListener("click", () => run(() => option.action === "keep" ? keepAndRoll(option.keep)
      : move({ box: option.box, jokers: li.dataset.joker ? JSON.parse(li.dataset.joker) : [] })));
    list.append(li);
  });
  if (shown.length < advice.options.length) {
    const more = document.createElement("li");
    more.className = "more"; more.textContent = `all ${advice.options.length} choices ▾`;
    more.addEventListener("click", () => { S.all = true; renderAdvice(); });
    list.append(more);
  }
}

function cell(tag, text, cls) {
  const c = document.createElement(tag); c.textContent = text; if (cls) c.className = cls; return c;
}

function renderCard() {
  const { boxes, columns, turn, rules } = S.state, table = $("card");
  const open = new Map((turn && S.state.hand ? turn.boxes : []).map((b) => [b.box, b]));
  const head = document.createElement("tr");
  head.append(cell("th", ""));
  columns.forEach((c, p) => head.append(cell("th", c.name, turn && turn.player === p ? "current" : "")));
  const thead = document.createElement("thead"); thead.append(head);
  const body = document.createElement("tbody");
  const sumRow = (label, values, cls) => {
    const tr = document.createElement("tr"); tr.className = cls || "sum";
    tr.append(cell("td", label)); values.forEach((v) => tr.append(cell("td", v))); body.append(tr);
  };
  boxes.forEach((box, b) => {
    const tr = document.createElement("tr");
    tr.append(cell("td", box.label));
    columns.forEach((column, p) => {
      const points = column.card[box.key];
      const td = cell("td", points === undefined ? "" : points);
      td.dataset.player = p; td.dataset.box = box.key;
      if (points !== undefined) td.dataset.points = points;
      else if (turn && turn.player === p && open.has(box.key)) {
        const o = open.get(box.key);
        td.textContent = o.points + (o.bonus ? `+${o.bonus}` : "");
        td.className = "open" + (o.points ? "" : " zero");
        td.addEventListener("click", () => run(() => move({ box: box.key, jokers: [] })));
      }
      tr.append(td);
    });
    body.append(tr);
    if (b === 5) {
      sumRow("upper", columns.map((c) => c.upper));
      sumRow(`bonus (${rules.upper_bonus_threshold}+)`, columns.map((c) => c.upper_bonus ? c.upper_bonus
        : (c.bonus_possible ? `needs ${c.bonus_needs}` : "–")));
    }
  });
  if (rules.extra_bonus) sumRow("extra Kniffel", columns.map((c) => c.extra_bonus));
  if (rules.jokers) sumRow("jokers left", columns.map((c) => c.jokers_left));
  sumRow("total", columns.map((c) => c.total), "total");
  table.replaceChildren(thead, body);
}

async function renderAnalysis() {
  const box = $("analysis");
  box.hidden = !S.state.over;
  if (!S.state.over) return;
  box.textContent = "analysing…";
  const result = await api("analyze", { record: S.state.record });
  const best = Math.max(...S.state.columns.map((c) => c.total));
  box.replaceChildren(cell("h2", "Analysis"),
    cell("p", `Expected final score at the start, playing best: ${result.expected_start.toFixed(2)}`));
  for (const p of result.players) {
    box.append(cell("p", `${p.name}: ${p.score}${p.score === best && result.players.length > 1 ? " (wins)" : ""}` +
      ` — gave away ${p.loss.toFixed(1)} points; ${p.optimal} of ${p.decisions} decisions optimal`));
  }
  const list = document.createElement("ol");
  for (const d of result.decisions.filter((d) => !d.optimal)) {
    const what = d.choice.keep ? `keep ${d.choice.keep.join(" ") || "nothing"}` : d.choice.box;
    const bestText = d.best.keep ? `keep ${d.best.keep.join(" ") || "nothing"}` : d.best.box;
    list.append(cell("li", `round ${d.round} ${d.name}: ${d.dice.join(" ")} → ${what}: cost ${d.loss.toFixed(2)} (best ${bestText})`, "loss"));
  }
  box.append(list);
}

function saveRecord() {
  const blob = new Blob([JSON.stringify(S.state.record, null, 1) + "\n"], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `kniffel-game-${new Date().toISOString().slice(0, 19).replaceAll(":", "")}.json`;
  a.click();
  URL.revokeObjectURL(a.href);
}

async function init() {
  S.info = await api("info");
  for (const p of S.info.presets) $("preset").add(new Option(p.name, p.name));
  $("objective").hidden = !S.info.objectives.includes("win");
  showOptions(); addPlayer("Player 1");
  $("preset").addEventListener("change", showOptions);
  $("add-player").addEventListener("click", () => addPlayer());
  $("start").addEventListener("click", () => run(start));
  $("new-game").addEventListener("click", () => { localStorage.removeItem(STORE); showSetup(); });
  $("roll").addEventListener("click", rollClicked);
  $("undo").addEventListener("click", () => run(() => move({ undo: true })));
  $("save").addEventListener("click", saveRecord);
  for (const id of ["load-file", "load-file-2"])
    $(id).addEventListener("change", (e) => e.target.files[0] && run(() => loadFile(e.target.files[0])));
  for (const id of ["language", "objective"])
    $(id).addEventListener("change", () => S.state && !$("play").hidden &&
      run(async () => show(await api("game", { record: S.state.record, hand: S.state.hand, ...settings() }))));
  const saved = localStorage.getItem(STORE);
  if (saved) {
    const { record, hand, language, objective } = JSON.parse(saved);
    if (language) $("language").value = language;
    if (objective) $("objective").value = objective;
    await run(async () => show(await api("game", { record, hand, ...settings() })));
    if ($("play").hidden) showSetup();
  } else showSetup();
  document.body.dataset.ready = "1";
}

document.addEventListener("keydown", (event) => {
  if ($("entry").hidden || S.busy || event.target.tagName === "INPUT") return;
  if (event.key >= "1" && event.key <= "6") enterFace(Number(event.key));
  else if (event.key === "Backspace") { S.entry.pop(); showEntry(); }
});

init().catch((error) => { say(error.message); showSetup(); });
