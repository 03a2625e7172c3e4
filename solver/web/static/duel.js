// The Dice Duel page of `kniffel serve` (2-4 players): it holds the game (its record and the dice
// in hand, kept in localStorage, so a reload resumes it) and asks the server for everything else:
// every move is checked by the server's game code, every chance shown is computed there.  Its
// words come from the server too (solver/lang, in /api/info), in the language chosen (default:
// the Dice Duel's pad's); the server answers in that language too.
import { api as request, applyWords as showWords, followJob, percent, saveRecord, showJob, translate }
  from "./common.js";

const $ = (id) => document.getElementById(id);
const STORE = "kniffel-duel";
const LANGUAGE = "kniffel-duel-language";
const WORKING_AFTER_MS = 300; // a request slower than this shows that the server is working
const ANALYSIS_PART = 8; // decisions per analysis request: each well inside the server's budget
const S = { info: null, state: null, held: [], entry: [], busy: false, stopping: false,
  job: null, stopJob: null };  // the job of the server a request waits for (the coach's kernels)

function lang() { return $("language").value; }

function api(path, body) { return request("duel/" + path, { ...body, language: lang() }); }

function words() { return S.info.words[lang()] || S.info.words.en; }

function t(key, fields = {}) { return translate(words(), key, fields); }

function chipName(key) { return words().chip[key] || key; }

// A chance in the page's language: "40.6%", German "40,6 %" (a space that does not break).
function pct(p) {
  const text = p > 1 ? `${Math.round(100 * p)}%` : percent(p);  // a sum over decisions may pass 100%
  return lang() === "de" ? text.replace(".", ",").replace("%", "\u00a0%") : text;
}

function applyWords() { showWords(t, lang(), "duel.web.title"); }

function say(text) { $("message").textContent = text || ""; }

// The message and a job's progress below the set-up or the turn, where the player looks.
function placeStatus(after) {
  after.after($("message"));
  $("message").after($("job"));
}

// A job of the server (the coach's kernels compiled once) that a request waits for: its progress
// shown, the request sent again once it is done.
function waitFor(job, again) {
  stopWaiting();
  S.job = job;
  S.stopJob = followJob(job, (current) => { S.job = current; showJob($("job"), current, t, lang()); },
    () => { stopWaiting(); again(); });
}

function stopWaiting() {
  if (S.stopJob) S.stopJob();
  S.job = S.stopJob = null;
  $("job").hidden = true;
}

// The buttons that must wait while the server works, and the coach switch (each would send a
// request of its own); the header's others stay: New, language.
function waiting(on) {
  for (const b of document.querySelectorAll("main button, #coach")) {
    if (on) { b.dataset.wasDisabled = b.disabled ? "1" : ""; b.disabled = true; }
    else if (b.dataset.wasDisabled !== undefined) { b.disabled = b.dataset.wasDisabled === "1"; delete b.dataset.wasDisabled; }
  }
}

// One request (or one step of them) at a time: a tap while one is under way sends nothing.
async function run(task) {
  if (S.busy) { say(t("duel.web.busy")); return; }  // a tap while the server works: refused, visibly
  stopWaiting();  // a new request: whatever waited for a job is no longer wanted
  S.busy = true;
  document.body.classList.add("busy");
  waiting(true);
  const working = setTimeout(() => { document.body.classList.add("working"); say(t("duel.web.working")); },
    WORKING_AFTER_MS);
  try { say(""); await task(); if ($("message").textContent === t("duel.web.working")) say(""); }
  catch (error) {
    say("");
    if (error.job) waitFor(error.job, () => run(task));
    else say(error.message);
  }
  finally {
    clearTimeout(working);
    S.busy = false;
    waiting(false);
    document.body.classList.remove("busy", "working");
  }
}

// coach: whether the answer brings the coach's advice (not for a state replaced at once)
async function move(m, coach = $("coach").checked) {
  const st = S.state;
  // the advice shown goes back with the move: the record notes it, and the analysis judges the
  // decision by the same numbers (solver/duel/multiplayer/notes.py)
  const advice = st.advice && m && (m.keep || (!m.roll && !m.undo)) ? st.advice : null;
  const next = await api("game", { record: st.record, hand: st.hand, move: m, coach, advice });
  show(next);
  return next;
}

function cell(row, tag, text, cls) {
  const c = document.createElement(tag);
  c.textContent = text;
  if (cls) c.className = cls;
  row.append(c);
  return c;
}

// The chips: a row per holder (plate, set aside, each player), a column per chip type headed by
// its value (as printed on the chip), the points last; the chip names in a line below.
function renderChips(st) {
  const table = $("chips");
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  cell(head, "th", "");
  for (const type of st.types) cell(head, "th", type.value).title = chipName(type.key);
  cell(head, "th", t("duel.points"), "points");
  const body = table.createTBody();
  const rows = [[t("duel.plate"), st.plate, "", "holder"], [t("duel.aside"), st.aside, "", "holder"]];
  st.seats.forEach((seat, i) => rows.push([seat.name + (i === st.to_move && !st.over ? " ◀" : ""),
    seat.chips, seat.points, i === st.to_move && !st.over ? "seat mover" : "seat"]));
  for (const [label, counts, points, cls] of rows) {
    const row = body.insertRow();
    row.className = cls;
    cell(row, "th", label);
    for (const n of counts) cell(row, "td", n ? String(n) : "·");
    cell(row, "td", points, "points");
  }
  const legend = $("chip-legend");  // each chip's value and name kept on one line
  legend.replaceChildren();
  st.types.forEach((type, i) => {
    if (i) legend.append(" · ");
    const item = document.createElement("span");
    item.className = "chip-name";
    item.textContent = `${type.value} ${chipName(type.key)}`;
    legend.append(item);
  });
}

function renderTurn(st) {
  const turn = st.turn;
  if (st.over) {
    const winners = st.seats.filter((s, i) => st.wins[i] > 0).map((s) => s.name);
    $("turn").textContent = winners.length ? t("duel.web.wins", { names: winners.join(t("and")), n: winners.length })
      : t("duel.web.tie");
    for (const id of ["roll", "stop", "dice", "moves", "entry"]) $(id).hidden = true;
    $("analyze").hidden = false;
    return;
  }
  $("analyze").hidden = true;
  const name = st.seats[st.to_move].name;
  $("turn").textContent = t("duel.web.turn_of", { name }) + (turn.dice ? t("duel.web.rolls_left", { n: turn.rolls_left }) : "")
    + (st.round_chip_taken ? t("duel.web.round_taken") : "");
  const dice = $("dice");
  dice.replaceChildren();
  dice.hidden = !turn.dice;
  S.held = [];
  for (const [i, face] of (turn.dice || []).entries()) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "die";
    b.textContent = face;
    b.setAttribute("aria-pressed", "false");
    b.addEventListener("click", () => {
      if (turn.rolls_left === 0 || S.busy) return;
      S.held[i] = !S.held[i];
      b.classList.toggle("held", S.held[i]);
      b.setAttribute("aria-pressed", String(S.held[i]));
    });
    dice.append(b);
  }
  const rolling = !turn.dice;
  const real = st.record.real_dice;
  if (rolling && real) showEntry(); else { $("entry").hidden = true; S.entry = []; }
  $("roll").hidden = (rolling && real) || (!rolling && turn.rolls_left === 0);
  $("roll").textContent = rolling ? t("web.roll") : t("duel.web.keep_roll");
  $("stop").hidden = rolling || turn.rolls_left === 0 || S.stopping;
  const moves = $("moves");
  moves.replaceChildren();
  moves.hidden = rolling || (turn.rolls_left > 0 && !S.stopping);
  for (const m of turn.moves) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = m.action === "no_chip" ? t("duel.no_chip") : t("duel.take", { chips: taken(m.chip, m.from) });
    b.addEventListener("click", () => run(() => { S.stopping = false;
      return move(m.action === "no_chip" ? { no_chip: true } : { take: m.chip, from: m.from }); }));
    moves.append(b);
  }
}

// The real dice thrown, tapped on the keypad (or typed): the dice to enter shown as they come.
function showEntry() {
  $("entry").hidden = false;
  const n = S.state.turn.n_to_roll;
  $("entry-help").textContent = t("duel.web.entry_help", { n });
  const shown = $("entry-dice");
  shown.replaceChildren(...Array.from({ length: n }, (_, i) => {
    const d = document.createElement("span");
    d.className = "die" + (S.entry[i] ? "" : " empty");
    d.textContent = S.entry[i] || "?";
    return d;
  }));
  const pad = $("pad");
  if (!pad.children.length) {
    for (let f = 1; f <= 6; f++) {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = f; b.dataset.pad = f;
      b.addEventListener("click", () => enterFace(f));
      pad.append(b);
    }
    const back = document.createElement("button");
    back.type = "button"; back.textContent = "⌫"; back.dataset.pad = "back";
    back.addEventListener("click", () => { S.entry.pop(); showEntry(); });
    pad.append(back);
  }
}

function enterFace(face) {
  if (S.busy || !S.state || !S.state.turn) return;
  S.entry.push(face);
  if (S.entry.length < S.state.turn.n_to_roll) { showEntry(); return; }
  const faces = S.entry;
  S.entry = [];
  run(() => move({ roll: faces })).then(() => { if (S.state.turn && !S.state.turn.dice) showEntry(); });
}

// A chip taken, marked when it comes from the chips set aside (as solver/duel/words.py says it).
function taken(chip, from) {
  return from === "aside" ? t("duel.from_aside", { chip: chipName(chip) }) : chipName(chip);
}

function faces(dice) { return dice.join(" ") || t("nothing"); }

function describe(o) {
  if (o.action === "keep") return t("duel.keep", { dice: faces(o.keep) });
  if (o.action === "stop") return t("duel.stop", { text: describe(o.then) });
  if (o.action === "no_chip") return t("duel.take_none");
  return t("duel.take", { chips: taken(o.chip, o.from) })
    + (o.last_chip_bonus ? t("duel.last_bonus", { n: o.last_chip_bonus }) : "");
}

// A decision of the record ({keep}, {take, from} or {no_chip}) in words.
function describeChoice(c) {
  if (c.keep) return t("duel.keep", { dice: faces([...c.keep].sort()) });
  if (c.no_chip) return t("duel.take_none");
  return t("duel.take", { chips: taken(c.take, c.from || "plate") });
}

// What the chance is and under whose play it holds: an estimate is the advised choice's chance
// if every seat plays the simple rule from here (the rollouts), with 2 players and the horizon
// table only until the table's chips in play, then every seat's best; the exact endgame is every
// seat's best, with 3-4 players a seat that can no longer win favouring the next seat
// (solver/duel/multiplayer/kernels.prefers).
function chanceLine(a, players) {
  if (!a.exact) {
    const key = a.play === "greedy_then_best" ? "duel.web.chance_horizon" : "duel.web.chance_greedy";
    return t(key, { chance: pct(a.probability), lo: pct(a.interval[0]), hi: pct(a.interval[1]), n: a.horizon });
  }
  return t(players > 2 ? "duel.web.chance_exact_many" : "duel.web.chance_exact", { chance: pct(a.probability) });
}

function renderAdvice(st) {
  const box = $("advice");
  box.replaceChildren();
  const a = st.advice;
  if (!a) return;
  const p = document.createElement("p");
  p.className = "chance";
  p.textContent = chanceLine(a, st.seats.length);
  box.append(p);
  if (a.close_call) {
    const close = document.createElement("p");
    close.className = "close-call";
    close.textContent = t("duel.web.close_call");
    box.append(close);
  }
  if (!a.options.length) return;
  const list = document.createElement("ol");
  list.className = "options";
  for (const [i, o] of a.options.slice(0, 6).entries()) {
    const li = document.createElement("li");
    if (i === 0) li.className = "best";
    const what = document.createElement("span");
    what.className = "what";
    what.textContent = describe(o);
    const chance = document.createElement("span");
    chance.className = "p";
    chance.textContent = pct(o.probability);
    li.append(what, chance);
    list.append(li);
  }
  box.append(list);
}

function show(st) {
  S.state = st;
  localStorage.setItem(STORE, JSON.stringify({ record: st.record, hand: st.hand }));
  $("setup").hidden = true;
  $("new-confirm").hidden = true;
  $("play").hidden = false;
  placeStatus($("moves"));
  $("analysis").replaceChildren();
  $("analysis").hidden = true;
  renderChips(st);
  renderTurn(st);
  renderAdvice(st);
}

function rollClicked() {
  const turn = S.state.turn;
  if (!turn.dice) return run(() => move({ roll: true }));
  const keep = turn.dice.filter((f, i) => S.held[i]);
  if (keep.length === 5) { say(t("web.all_held")); return; }
  // keep, and with virtual dice throw the rest at once: one tap, one request (as on the card)
  run(() => move(S.state.record.real_dice ? { keep } : { keep, roll: true }));
}

async function start() {
  const players = $("names").value.split(",").map((s) => s.trim()).filter(Boolean);
  if (players.length < 2 || players.length > 4) { say(t("duel.web.no_names")); return; }
  const body = { players, real_dice: $("real-dice").checked, coach: $("coach").checked };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  show(await api("new", body));
}

async function loadFile(file) {
  let record;
  try { record = JSON.parse(await file.text()); } catch { throw new Error(t("duel.web.bad_file")); }
  show(await api("game", { record, hand: null, coach: $("coach").checked }));
}

function decisions(record) { return record.turns.reduce((n, turn) => n + turn.decisions.length, 0); }

// The analysis, asked for in parts (each well inside the server's budget), its progress shown.
async function analyze() {
  const record = S.state.record, total = decisions(record), box = $("analysis");
  box.hidden = false;
  const progress = document.createElement("p");
  box.replaceChildren(progress);
  const rows = [];
  let lost = null, players = record.players;
  for (let first = 0; first < total; first += ANALYSIS_PART) {
    progress.textContent = t("duel.web.analysing", { done: first, total });
    const part = await api("analyze", { record, first, count: ANALYSIS_PART });
    rows.push(...part.decisions);
    lost = lost ? lost.map((x, i) => x + part.lost[i]) : part.lost;
    players = part.players;
  }
  renderAnalysis(rows, lost || players.map(() => 0), players);
}

// The analysis: each player's total first, then the decisions that cost most (the rest folded).
function renderAnalysis(rows, lost, players) {
  const box = $("analysis");
  const head = document.createElement("h2");
  head.textContent = t("web.analysis");
  const totals = document.createElement("ul");
  players.forEach((name, i) => {
    const li = document.createElement("li");
    li.textContent = t("duel.web.analysis_total", { name, lost: pct(lost[i]) });
    totals.append(li);
  });
  const losses = rows.filter((r) => r.lost > 1e-9).sort((a, b) => b.lost - a.lost);
  const item = (r) => {
    const li = document.createElement("li");
    li.className = "loss";
    li.textContent = t("duel.web.analysis_row", { player: r.player, dice: faces(r.dice), left: t("rolls_left", { n: r.rolls_left }),
      choice: describeChoice(r.choice), p: pct(r.probability), best: pct(r.best) });
    return li;
  };
  const parts = [head, totals];
  if (players.length > 2 && rows.some((r) => r.exact)) {
    const note = document.createElement("p");
    note.textContent = t("duel.web.kingmaker");
    parts.push(note);
  }
  if (!losses.length) {
    const none = document.createElement("p");
    none.textContent = t("duel.web.no_advice_loss");
    parts.push(none);
  } else {
    const top = document.createElement("ol");
    top.append(...losses.slice(0, 5).map(item));
    parts.push(top);
    if (losses.length > 5) {
      const more = document.createElement("details");
      const summary = document.createElement("summary");
      summary.textContent = t("duel.web.more_losses", { n: losses.length - 5 });
      const rest = document.createElement("ol");
      rest.start = 6;
      rest.append(...losses.slice(5).map(item));
      more.append(summary, rest);
      parts.push(more);
    }
  }
  box.replaceChildren(...parts);
}

function showSetup() {
  $("new-confirm").hidden = true;
  $("play").hidden = true;
  $("setup").hidden = false;
  placeStatus($("load-file").parentElement);
  $("back-to-game").hidden = !S.state;
}

function askNew() {
  if (!S.state || $("play").hidden) { showSetup(); return; }
  $("new-confirm").hidden = false;  // asks first; the game stays saved until Start
  $("new-yes").focus();
}

function undoClicked() {
  const { record, hand } = S.state;
  if (!decisions(record) && !(hand && record.real_dice)) { say(t("duel.web.nothing_to_undo")); return; }
  run(() => { S.stopping = false; return move({ undo: true }); });
}

async function init() {
  S.info = await request("info");
  $("language").value = localStorage.getItem(LANGUAGE) || S.info.duel_language;
  applyWords();
  $("language").addEventListener("change", () => {
    localStorage.setItem(LANGUAGE, lang());
    applyWords();
    if (S.job) showJob($("job"), S.job, t, lang());
    if (S.state && !$("play").hidden) show(S.state);
    else say("");
  });
  $("start").addEventListener("click", () => run(start));
  $("new-game").addEventListener("click", askNew);
  $("new-yes").addEventListener("click", showSetup);
  $("new-no").addEventListener("click", () => { $("new-confirm").hidden = true; });
  $("back-to-game").addEventListener("click", () => { stopWaiting(); show(S.state); });
  $("roll").addEventListener("click", rollClicked);
  $("stop").addEventListener("click", () => { S.stopping = true; renderTurn(S.state); });
  $("undo").addEventListener("click", undoClicked);
  $("save").addEventListener("click", () => saveRecord(S.state.record, "kniffel-duel"));
  $("analyze").addEventListener("click", () => run(analyze));
  $("load-file").addEventListener("change", (e) => e.target.files[0] && run(() => loadFile(e.target.files[0])));
  $("coach").addEventListener("change", () => S.state && !$("play").hidden && run(() => move(null)));
  const saved = localStorage.getItem(STORE);
  const query = new URLSearchParams(location.search);
  if (query.get("players")) {  // duel?players=Anna,Ben&seed=3: a new game at once
    $("names").value = query.get("players");
    if (query.get("seed")) $("seed").value = query.get("seed");
    await run(async () => { await start(); if (query.get("roll")) await move({ roll: true }); });
    if ($("play").hidden) showSetup();
  } else if (saved) {
    const { record, hand } = JSON.parse(saved);
    await run(async () => show(await api("game", { record, hand, coach: $("coach").checked })));
    if ($("play").hidden) showSetup();
  } else showSetup();
  document.body.dataset.ready = "1";
}

// Typed dice: 1-6 enter a face on the keypad; any other digit says why it is not taken.
document.addEventListener("keydown", (event) => {
  if ($("entry").hidden || S.busy || event.target.tagName === "INPUT") return;
  if (event.key >= "1" && event.key <= "6") enterFace(Number(event.key));
  else if (/^[0789]$/.test(event.key)) say(t("duel.web.face_range", { face: event.key }));
  else if (event.key === "Backspace") { S.entry.pop(); showEntry(); }
});

init().catch((error) => { say(error.message); showSetup(); });
