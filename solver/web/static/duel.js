// The Dice Duel page of `kniffel serve` (2-4 players): it holds the game (its record and the dice
// in hand, kept in localStorage) and asks the server for everything else: every move is checked
// by the server's game code, every chance shown is computed there.  Its words come from the
// server too (solver/lang, in /api/info), in the language chosen (default: the Dice Duel's pad's).
import { api as request, applyWords as showWords, percent, saveRecord, translate } from "./common.js";

const $ = (id) => document.getElementById(id);
const STORE = "kniffel-duel";
const LANGUAGE = "kniffel-duel-language";
const S = { info: null, state: null, held: [], busy: false, stopping: false };

function api(path, body) { return request("duel/" + path, { ...body, language: $("language").value }); }

function words() { return S.info.words[$("language").value] || S.info.words.en; }

function t(key, fields = {}) { return translate(words(), key, fields); }

function chipName(key) { return words().chip[key] || key; }

function applyWords() { showWords(t, $("language").value, "duel.web.title"); }

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
  const table = $("chips");
  table.replaceChildren();
  const head = table.insertRow();
  cell(head, "th", "");
  for (const type of st.types) cell(head, "th", `${chipName(type.key)} (${type.value})`);
  cell(head, "th", t("duel.points"));
  const rows = [[t("duel.plate"), st.plate, ""], [t("duel.aside"), st.aside, ""]];
  st.seats.forEach((seat, i) => rows.push([seat.name + (i === st.to_move && !st.over ? " ◀" : ""),
    seat.chips, seat.points]));
  for (const [label, counts, points] of rows) {
    const row = table.insertRow();
    cell(row, "th", label);
    for (const n of counts) cell(row, "td", "●".repeat(n) || "·");
    cell(row, "td", points);
  }
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
  $("turn").textContent = t("duel.web.turn", { name }) + (turn.dice ? t("duel.web.rolls_left", { n: turn.rolls_left }) : "")
    + (st.round_chip_taken ? t("duel.web.round_taken") : "");
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
  $("roll").textContent = rolling ? t("web.roll") : t("duel.web.keep_roll");
  $("stop").hidden = rolling || turn.rolls_left === 0 || S.stopping;
  const moves = $("moves");
  moves.replaceChildren();
  moves.hidden = rolling || (turn.rolls_left > 0 && !S.stopping);
  for (const m of turn.moves) {
    const b = document.createElement("button");
    b.textContent = m.action === "no_chip" ? t("duel.no_chip") : t("duel.take", { chips: taken(m.chip, m.from) });
    b.addEventListener("click", () => run(() => { S.stopping = false;
      return move(m.action === "no_chip" ? { no_chip: true } : { take: m.chip, from: m.from }); }));
    moves.append(b);
  }
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

function renderAdvice(st) {
  const box = $("advice");
  box.replaceChildren();
  const a = st.advice;
  if (!a) return;
  const how = a.exact ? t("duel.exact") : t("duel.web.estimate", { lo: percent(a.interval[0]), hi: percent(a.interval[1]) });
  const p = document.createElement("p");
  p.textContent = t("duel.web.chance", { chance: percent(a.probability), how });
  box.append(p);
  const list = document.createElement("ol");
  for (const o of a.options.slice(0, 6)) {
    const li = document.createElement("li");
    li.textContent = `${describe(o)}: ${percent(o.probability)}` +
      (o.interval ? ` (${percent(o.interval[0])}–${percent(o.interval[1])})` : "");
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

async function analyze() {
  const result = await api("analyze", { record: S.state.record });
  $("analysis").hidden = false;
  const rows = result.decisions.filter((r) => r.lost > 1e-9).map((r) => t("duel.web.analysis_row", {
    player: r.player, dice: faces(r.dice), left: t("rolls_left", { n: r.rolls_left }),
    choice: describeChoice(r.choice), p: percent(r.probability), best: percent(r.best) }));
  if (!rows.length) rows.push(t("duel.no_loss"));
  $("analysis").textContent = rows.concat(result.players.map((name, i) =>
    t("duel.web.given_away", { name, lost: percent(result.lost[i]) }))).join("\n");
}

async function init() {
  S.info = await request("info");
  $("language").value = localStorage.getItem(LANGUAGE) || S.info.duel_language;
  applyWords();
  $("language").addEventListener("change", () => {
    localStorage.setItem(LANGUAGE, $("language").value);
    applyWords();
    if (S.state) show(S.state);
  });
  $("start").addEventListener("click", () => run(start));
  $("new-game").addEventListener("click", () => { localStorage.removeItem(STORE); $("setup").hidden = false; $("play").hidden = true; });
  $("roll").addEventListener("click", rollClicked);
  $("stop").addEventListener("click", () => { S.stopping = true; renderTurn(S.state); });
  $("undo").addEventListener("click", () => run(() => { S.stopping = false; return move({ undo: true }); }));
  $("save").addEventListener("click", () => saveRecord(S.state.record, "kniffel-duel"));
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
