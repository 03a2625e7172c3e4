// The page of `kniffel serve`: it holds the game (its record and the dice in hand, kept in
// localStorage) and asks the server for everything else: every move is checked by the server's
// game code, every figure shown is computed there.
import { api, applyWords as showWords, bonusUnknown as sharedBonusUnknown, decimal, followJob, percent as percentIn,
  saveRecord, showJob, translate, whyLine, whyParts as sharedWhyParts } from "./common.js";

const $ = (id) => document.getElementById(id);
const STORE = "kniffel-game";
const LANGUAGE = "kniffel-language";  // the language a player chose in the menu: it stays
const S = { info: null, state: null, held: new Set(), entry: [], wasHeld: [], busy: false, all: false,
  winMoves: [], why: null, analysis: null, analysisWhy: null };  // winMoves: indices of the
// decisions taken with the goal "win" (for the analysis); why: the choice whose "why" is open
// ({decision, option}: a key of each); analysis: the analysis shown ({result, wins, byGoal,
// game}); analysisWhy: its decision whose why is open ({game, index})
const W = { job: null, stop: null, refreshes: 0 };  // the job of the server a request waits for
const SHOWN = 6; // choices shown before "all choices": the page stays short on a phone

// ---- words ----------------------------------------------------------------------------------
// The texts come from the server (solver/lang, in /api/info): t("web.new"), t("web.round", {...}).
function t(key, fields = {}) {
  const lang = $("language").value;
  return translate(S.info.words[lang] || S.info.words.en, key, fields, lang);
}

// A chance as the page's language writes it ("31,5 %" in German).
// null: a chance the server could not know within its budget (said so, never "0 %")
function percent(p) { return p === null || p === undefined ? t("chance_unknown") : percentIn(p, $("language").value); }

function applyWords() {
  showWords(t, $("language").value, "web.title");
  $("duel-link").title = t("web.duel_link_title");
}

function kniffelName() {
  const preset = S.info.presets.find((p) => p.name === (S.state ? S.state.rules.preset : $("preset").value));
  return preset ? preset.kniffel[$("language").value] : "Kniffel";
}

// A default name ("Player 2", "Spieler 2") in the page's language; a name a player typed as is.
function shownName(name) {
  const match = /^(?:Player|Spieler) (\d+)$/.exec(name);
  return match ? t("web.player_n", { n: Number(match[1]) }) : name;
}

// A server error in the page's language where the server gave its words, else as it came.
function errorText(error) {
  return error.words ? t(error.words.key, error.words.fields) : error.message;
}

// An error or refusal (red), or with note a plain notice; an error is scrolled into view, so
// that the player sees it wherever they tapped.
function say(text, note) {
  const box = $("message");
  box.textContent = text || "";
  box.classList.toggle("note", Boolean(note));
  if (text && !note) box.scrollIntoView({ block: "nearest" });
}

// The message and a job's progress go where the player looks: near Start in the set-up, above
// the advice in the game.
function placeStatus() {
  $($("setup").hidden ? "play-status" : "setup-status").prepend($("message"), $("job"));
}

// A job of the server (a table solved, kernels compiled, tables built) that the page waits for:
// its progress shown, then `then()` (the request again, or the state asked again).
function waitFor(job, then) {
  stopWaiting();
  W.job = job;
  W.stop = followJob(job, (current) => { W.job = current; showJob($("job"), current, t, lang()); },
    () => { stopWaiting(); then(); });
}

function stopWaiting() {
  if (W.stop) W.stop();
  W.job = W.stop = null;
  $("job").hidden = true;
}

function lang() { return $("language").value; }

const WORKING_AFTER_MS = 300; // a request slower than this shows that the server is working

async function run(task) {
  if (S.busy) { say(t("web.busy")); return; }  // a tap while the server works: refused, visibly
  stopWaiting();  // a new request: whatever waited for a job is no longer wanted
  S.busy = true;
  document.body.classList.add("busy");
  const working = setTimeout(() => {
    document.body.classList.add("working"); say(t("web.working"), true);
  }, WORKING_AFTER_MS);
  try { say(""); await task(); if ($("message").textContent === t("web.working")) say(""); }
  catch (error) {
    if ($("message").textContent === t("web.working")) say("");
    if (error.job) waitFor(error.job, () => run(task));  // asked again once the job is done
    else say(errorText(error));
  }
  finally {
    clearTimeout(working);
    S.busy = false;
    document.body.classList.remove("busy", "working");
  }
  if (S.stale && S.state) { S.stale = false; refresh(); }  // the language or goal changed meanwhile
}

function settings() {
  return { language: $("language").value, goal: $("goal").value };
}

function decisions(record) {
  return record.turns.reduce((n, turn) => n + turn.decisions.length, 0);
}

async function move(m) {
  const st = S.state;
  const before = decisions(st.record);
  const next = await api("game", { record: st.record, hand: st.hand, move: m, ...settings() });
  const after = decisions(next.record);
  S.winMoves = S.winMoves.filter((i) => i < Math.min(before, after));
  if (after > before && st.goal === "win") S.winMoves.push(before);
  show(next);
  return next;
}

// ---- set-up -------------------------------------------------------------------------------
const CHOICES = { joker: ["none", "max-any", "must-match", "free", "forced", "free-after-upper"],
  joker_requires: ["fifty", "filled"], extra_bonus_requires: ["fifty", "filled"] };

// A new rule set: its pad's language, unless the player chose one in the menu.
function presetChosen() {
  stopWaiting();  // a table being solved for the rules chosen before: not wanted now
  const preset = S.info.presets.find((p) => p.name === $("preset").value);
  if (!localStorage.getItem(LANGUAGE) && $("language").value !== preset.language) {
    $("language").value = preset.language; applyWords(); relabelPlayers();
  }
  showOptions(false);
}

// The house rules of the chosen preset in the page's language; keep: the values set so far
// stay (a change of language), else the preset's.
function showOptions(keep = true) {
  const preset = S.info.presets.find((p) => p.name === $("preset").value);
  $("preset-description").textContent = preset.description[$("language").value];
  const box = $("options"), before = keep ? houseRules() : {};
  box.replaceChildren();
  for (const [name, value] of Object.entries(preset.options)) {
    const label = document.createElement("label");
    label.textContent = t("option." + name, { kniffel: preset.kniffel[$("language").value] });
    let input;
    if (typeof value === "boolean") {
      input = document.createElement("input"); input.type = "checkbox"; input.checked = value;
    } else if (CHOICES[name]) {
      input = document.createElement("select");
      for (const c of CHOICES[name]) input.add(new Option(t("value." + c), c, false, c === value));
    } else {
      input = document.createElement("input"); input.type = "number"; input.min = 0;
      input.value = value === null ? "" : value; input.placeholder = t("value.none");
    }
    input.dataset.option = name; input.dataset.default = JSON.stringify(value);
    if (name in before) {
      const v = before[name];
      if (input.type === "checkbox") input.checked = v; else input.value = v === null ? "" : v;
    }
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
  input.value = name || t("web.player_n", { n: list.children.length + 1 });
  input.maxLength = 40;  // the server's longest name
  input.setAttribute("aria-label", t("web.player_name"));
  list.append(input);
}

function showSetup() {
  $("new-confirm").hidden = true;
  $("setup").hidden = false; $("play").hidden = true;
  $("back-to-game").hidden = !S.state;  // "New" can be undone until Start
  placeStatus();
}

function backToGame() {
  stopWaiting();  // the game it goes back to is what the player wants now
  $("setup").hidden = true; $("play").hidden = false;
  placeStatus(); say("");
  if (S.stale) { S.stale = false; refresh(); }  // the language changed in the set-up
}

async function start() {
  const names = [...$("player-list").querySelectorAll("input")];
  const players = names.map((i) => i.value.trim()).filter(Boolean);
  if (!players.length) { say(t("web.no_names")); return; }
  if (new Set(players).size < players.length) { say(t("web.same_names")); return; }
  const real = document.querySelector("input[name=dice-mode]:checked").value === "real";
  const seed = $("seed").value === "" ? null : Number($("seed").value);
  for (const input of $("options").querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  S.wasHeld = []; S.winMoves = [];
  try {
    show(await api("new", { rules: $("preset").value, options: houseRules(), players,
      real_dice: real, seed: real ? null : seed, ...settings() }));
  } catch (error) { throw houseRuleError(error); }
}

// A house rule the server refused ("rules: upper_bonus_threshold must be 1-105, got 200") in the
// player's words: which rule, and the values it may take where the server said them; the rule
// is marked in the form.
function houseRuleError(error) {
  if (error.status !== 400 || !error.message.startsWith("rules:")) return error;
  const at = (key) => error.message.search(new RegExp(`(^|[^a-z_])${key}($|[^a-z_])`));
  const keys = [...$("options").querySelectorAll("[data-option]")].map((i) => i.dataset.option)
    .filter((key) => at(key) >= 0).sort((a, b) => at(a) - at(b));
  if (!keys.length) return new Error(t("web.bad_house_rules"));
  const input = $("options").querySelector(`[data-option="${keys[0]}"]`);
  input.setAttribute("aria-invalid", "true");
  $("house-rules").open = true;
  const option = input.parentElement.firstChild.textContent;
  const range = /must be (\d+)-(\d+)/.exec(error.message);
  const most = /at most (\d+)/.exec(error.message);
  if (/no effect/.test(error.message)) return new Error(t("web.house_rule_unused", { option }));
  if (range || most) {
    return new Error(t("web.bad_house_rule_range", { option, low: range ? range[1] : 0,
      high: range ? range[2] : most[1] }));
  }
  return new Error(t("web.bad_house_rule", { option }));
}

// A game record from a file; a file that is none, in the page's language.
async function loadFile(file) {
  let record;
  try { record = JSON.parse(await file.text()); } catch { throw new Error(t("web.bad_file")); }
  S.wasHeld = []; S.winMoves = [];
  try { show(await api("game", { record, hand: null, ...settings() })); }
  catch (error) { throw error.status === 400 ? new Error(t("web.bad_file")) : error; }
}

// ---- the game -----------------------------------------------------------------------------
function show(state) {
  const turnChanged = !S.state || !state.turn || !S.state.turn ||
    S.state.turn.player !== state.turn.player || S.state.turn.round !== state.turn.round;
  if (turnChanged) S.wasHeld = [];
  if (S.why && S.why.decision !== decisionKey(state)) S.why = null;  // another decision now
  S.state = state; S.held = new Set(); S.entry = []; S.all = false;
  if (S.writing && (turnChanged || !(state.turn && state.turn.write))) closeWrite();
  document.body.dataset.step = (Number(document.body.dataset.step) || 0) + 1;
  localStorage.setItem(STORE, JSON.stringify({ record: state.record, hand: state.hand, winMoves: S.winMoves,
    ...settings() }));
  $("setup").hidden = true; $("play").hidden = false; $("new-confirm").hidden = true;
  placeStatus();
  if (state.notice) say(state.notice, true); // e.g. win advice over the server's budget: advice for points
  renderOffer(); followStateJob();
  // the menu stays as the player set it; an answer in another language (asked before a change)
  // is shown now and asked again at once
  if (state.language !== $("language").value) S.stale = true;
  applyWords(); renderGoal();
  renderTurn(); renderDice(); renderAdvice(); renderCard();
  renderAnalysis().catch((error) => say(errorText(error)));
  $("line").textContent = state.advice_line ? JSON.stringify(state.advice_line) : "";
}

// The win coach's tables missing: what building them costs, and the button that builds them.
function renderOffer() {
  const offer = S.state.offer;
  $("offer").hidden = !offer || Boolean(W.job);
  $("offer-text").textContent = offer ? offer.text : "";
}

// The win coach's kernels being compiled (once), or its tables built: the advice is for points
// until then; when the job is done the state is asked again, with the win advice.  A job the
// server reports done while the state still waits is asked again twice at most.
function followStateJob() {
  const job = S.state.job;
  if (!job) { W.refreshes = 0; return; }
  if (job.state === "done" && W.refreshes >= 2) return;
  waitFor(job, () => { W.refreshes++; refresh(); });
}

// The game's house rules as /api/new took them: those of its record that differ from its preset's.
function gameOptions() {
  const rules = S.state.record.rules;
  const preset = S.info.presets.find((p) => p.name === S.state.rules.preset);
  if (typeof rules !== "object" || !preset) return {};
  return Object.fromEntries(Object.entries(preset.options)
    .filter(([key, value]) => key in rules && JSON.stringify(rules[key]) !== JSON.stringify(value))
    .map(([key]) => [key, rules[key]]));
}

// The build the offer names: the server answers with its job (503), followed until it is done.
async function buildTables() {
  try {
    await api("build", { rules: S.state.rules.preset, options: gameOptions() });
  } catch (error) {
    if (!error.job) throw error;
    $("offer").hidden = true;
    waitFor(error.job, refresh);
  }
}

// Goal "win" needs other players: with one, the menu says so and the coach plays for points.
function renderGoal() {
  const one = S.state.columns.length === 1, win = $("goal").querySelector("option[value=win]");
  win.disabled = one;
  win.textContent = t(one ? "web.goal_win_one" : "web.goal_win");
  if (one) $("goal").value = "points";
}

function renderTurn() {
  const { turn, over, rules, columns } = S.state, line = $("turn-line");
  if (over) {
    const best = Math.max(...columns.map((c) => c.total));
    const winners = columns.filter((c) => c.total === best).map((c) => shownName(c.name));
    line.textContent = columns.length === 1 ? t("web.final", { score: best })
      : t("web.winner", { names: winners.join(t("and")), n: winners.length, score: best });
    delete line.dataset.rollsLeft; return;
  }
  const jokers = rules.jokers ? t("web.jokers", { n: turn.jokers_left }) : "";
  line.textContent = t("web.round", { round: turn.round, name: shownName(turn.name), roll: turn.roll_number,
    rolls: rules.rolls_per_turn }) + jokers;
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
  $("roll").hidden = !turn || (real && !hand);  // real dice are entered on the pad below
  $("undo").textContent = t(hand && real ? "web.correct" : "web.undo");
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
    if (real) showEntry();  // the dice to enter are shown once, on the pad
    else for (let i = 0; i < turn.n_to_roll; i++) box.append(die(0, "empty"));
  }
  const canRoll = !hand || turn.rolls_left > 0;
  $("roll").disabled = !canRoll || (real && !hand);
  $("roll").textContent = t(hand ? (real ? "web.throw_again" : "web.roll_again") : (real ? "web.enter_dice" : "web.roll"));
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
  $("entry-help").textContent = t("web.entry_help", { n });
  $("write-help").hidden = !S.state.turn.write;  // or the box and points only, as written
  $("write-help").textContent = t("web.write_help", { name: shownName(S.state.turn.name) });
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
  if (keep.length === 5) { say(t("web.all_held")); return; }
  run(() => keepAndRoll(keep));
}

// ---- another player's turn, written as the players write it: a box and its points ------------
function openWrite(box) {
  S.writing = box;
  $("write").hidden = false;
  $("write-label").textContent = t("web.write_box", { box: boxLabel(box), name: shownName(S.state.turn.name) });
  const bonus = S.state.turn.write[box].bonus;
  $("write-bonus-label").hidden = !bonus.length;
  $("write-bonus").checked = false;
  $("write-bonus-text").textContent = t("web.write_bonus", { kniffel: kniffelName() });
  $("write-input").value = "";
  writeChoices();
  $("write").scrollIntoView({ block: "nearest" });  // below the sticky header: scroll-margin-top
}

// The points that box can take as buttons when they are few (a full house: 0 or 25), else typed.
function writeChoices() {
  const options = S.state.turn.write[S.writing], few = 8;
  const points = $("write-bonus").checked ? options.bonus : options.points;
  $("write-points").replaceChildren(...(points.length <= few ? points : []).map((p) => {
    const b = document.createElement("button"); b.type = "button"; b.textContent = p; b.dataset.points = p;
    b.addEventListener("click", () => writeTurn(p)); return b;
  }));
  $("write-typed").hidden = points.length <= few;
}

function writeTurn(points) {
  const box = S.writing, options = S.state.turn.write[box], extra = $("write-bonus").checked;
  if (!Number.isInteger(points) || !(extra ? options.bonus : options.points).includes(points)) {
    say(t("web.write_wrong", { points: Number.isNaN(points) ? "?" : points, box: boxLabel(box) })); return;
  }
  run(() => move({ write: { box, points, extra_bonus: extra } }));
}

function closeWrite() { S.writing = null; $("write").hidden = true; }

function boxLabel(key) { return S.state.boxes.find((b) => b.key === key).label; }

function describe(option) {
  if (option.action === "keep")
    return option.keep.length ? t("web.keep", { dice: option.keep.join(" ") }) : t("web.reroll_all");
  const bonus = option.bonus ? t("web.bonus", { n: option.bonus }) : "";  // bonus points, as advise
  return `${boxLabel(option.box)}: ${option.points}${bonus}`;
}

// A chance to win as a player reads it: "exact", or an estimate (≈) with the range the exact
// chance lies in for certain, or only the end of it the coach knows (the advice's "method",
// an option's "interval" [low, high], low null where not known).
function chanceText(advice, item) {
  const [low, high] = item.interval || [null, null];
  if (advice.method !== "approximate") {
    return item.probability === null ? t("chance_unknown")
      : t("web.chance_exact", { chance: percent(item.probability) });
  }
  if (low === null) {
    return high === null || high >= 1 ? t("chance_unknown") : t("web.chance_at_most", { high: percent(high) });
  }
  if (high === null || high >= 1) return t("web.chance_at_least", { low: percent(low) });
  return t("web.chance_about", { chance: percent(item.probability), low: percent(low),
    high: percent(high) });
}

function renderAdvice() {
  const list = $("advice"), head = $("advice-head"), advice = S.state.advice;
  list.replaceChildren();
  $("advice-legend").hidden = true;
  if (!advice || advice.error) {
    head.textContent = advice && advice.error ? advice.why || advice.error : "";
    return;
  }
  const best = advice.expected_final_score, win = Boolean(advice.objective && advice.objective.win);
  head.textContent = S.state.hand ? t(win ? "web.head_choices_win" : "web.head_choices")
    : win ? t("web.head_win", { chance: chanceText(advice, advice), expected: best })
      : t("web.head_points", { expected: best });
  const estimated = win && advice.method === "approximate";
  // what "≈" and its range mean, and "unknown", in words: for those the list shows
  const said = estimated ? [advice, ...advice.options.slice(0, S.all ? undefined : SHOWN)]
    .map((item) => chanceText(advice, item)) : [];
  const legend = [said.some((c) => c.startsWith("≈")) && t("web.win_legend"),
    said.includes(t("chance_unknown")) && t("web.win_unknown_legend")].filter(Boolean).join(" ");
  $("advice-legend").hidden = !legend;
  $("advice-legend").textContent = legend;
  list.classList.toggle("win", win);
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
      tag.textContent = t("web.joker", { changes: from.map((f, i) => `${f}→${to[i]}`).join(", ") });
      text.append(tag); li.dataset.joker = JSON.stringify(from.map((f, i) => [f, to[i]]));
    }
    if (option.kniffel_joker) {  // the server marks where the joker rule applies (never a guess here)
      const tag = document.createElement("span"); tag.className = "tag kniffel-joker";
      tag.textContent = t("web.kniffel_joker", { kniffel: kniffelName() });
      text.append(tag);
    }
    const value = document.createElement("span"); value.className = "efs";
    value.textContent = decimal(option.expected_final_score, 2, $("language").value);
    if (win) {
      value.textContent = t("web.win_row", { chance: chanceText(advice, option),
        expected: option.expected_final_score });
    }
    const cost = document.createElement("span"); cost.className = "cost";
    // What a choice costs, in the words `kniffel advise` prints.
    cost.textContent = rank === 0 ? t("best") : win
      ? (advice.probability === null || option.probability === null ? "–"  // no tie of unknowns
        : t("web.cost_win", { chance: (estimated ? "≈\u00a0" : "")
          + percent(Math.max(0, advice.probability - option.probability)) }))
      : t("cost", { cost: best - option.expected_final_score });
    li.append(text, value, cost, adviceWhyButton(option));
    if (S.why && S.why.option === optionKey(option) && advice.why) li.append(whyPanel(advice, option));
    li.addEventListener("click", () => run(() => option.action === "keep" ? keepAndRoll(option.keep)
      : move({ box: option.box, jokers: li.dataset.joker ? JSON.parse(li.dataset.joker) : [] })));
    list.append(li);
  });
  if (shown.length < advice.options.length) {
    const more = document.createElement("li");
    more.className = "more"; more.textContent = t("web.all_choices", { n: advice.options.length });
    more.addEventListener("click", () => { S.all = true; renderAdvice(); });
    list.append(more);
  }
}

// ---- why a choice: what its turn plays for (advice/why.py), asked of the server when tapped ----
function decisionKey(state) {
  return state && state.advice_line ? JSON.stringify({ ...state.advice_line, why: undefined }) : null;
}

function optionKey(option) {
  return JSON.stringify([option.action, option.keep || option.box, option.joker || null]);
}

// The small "Why?" button of a choice, during play or in the analysis: `open` whether its why
// is shown; a tap calls toggle() (and never the row's own tap, which takes the choice).
function whyButton(open, toggle) {
  const button = document.createElement("button");
  button.type = "button"; button.className = "why-button"; button.textContent = t("web.why");
  button.title = t("web.why_title");
  button.setAttribute("aria-expanded", String(Boolean(open)));
  button.addEventListener("click", (event) => { event.stopPropagation(); toggle(); });
  return button;
}

// An advice's choice's "Why?": opens (or closes) its why; the first one of a decision asks the
// server for the whys of all its choices (the state again, with "why": true).
function adviceWhyButton(option) {
  const open = S.why && S.why.option === optionKey(option);
  return whyButton(open, () => {
    if (open) { S.why = null; renderAdvice(); return; }
    S.why = { decision: decisionKey(S.state), option: optionKey(option) };
    if (S.state.advice.why) { renderAdvice(); return; }
    run(async () => show(await api("game", { record: S.state.record, hand: S.state.hand,
      ...settings(), why: true })));
  });
}

// The box of a why: its lines are added to it; a tap inside it is not the row's.
function whyBox() {
  const panel = document.createElement("div");
  panel.className = "why";
  panel.addEventListener("click", (event) => event.stopPropagation());
  return panel;
}

// The words a why is written in (common.js whyParts): this page's language and box names.
function whyWords() { return { t, percent, label: boxLabel, lang: lang() }; }
function whyParts(panel, before, option) { sharedWhyParts(panel, before, option, whyWords()); }
function bonusUnknown(panel, why, preparing) { sharedBonusUnknown(panel, why, preparing, t); }

// A choice's why during play (the advice asked with "why": true).
function whyPanel(advice, option) {
  const panel = whyBox();
  if (advice.why.available === false || !option.why) { whyLine(panel, t("why.approximate")); return panel; }
  whyLine(panel, t("web.why_title") + ":");
  whyParts(panel, advice.why, option);
  bonusUnknown(panel, advice.why, advice.preparing === "why");
  return panel;
}

// A costly decision's why in the analysis (asked with "why": true): what the choice made and the
// best one for points play for, each as a choice's why during play.
function analysisWhyPanel(d, preparing) {
  const panel = whyBox();
  whyLine(panel, t("web.why_analysis"));
  for (const [head, decision, mine] of [[t("web.why_choice", { choice: choiceText(d.choice) }), d.choice,
    d.why.choice], [t("web.why_best", { choice: choiceText(d.best) }), d.best, d.why.best]]) {
    whyLine(panel, head, "why-head");
    whyParts(panel, d.why, { action: "keep" in decision ? "keep" : "score", why: mine });
  }
  bonusUnknown(panel, d.why, preparing);
  return panel;
}

function cell(tag, text, cls) {
  const c = document.createElement(tag); c.textContent = text; if (cls) c.className = cls; return c;
}

function renderCard() {
  const { boxes, columns, turn, rules } = S.state, table = $("card");
  const open = new Map((turn && S.state.hand ? turn.boxes : []).map((b) => [b.box, b]));
  const head = document.createElement("tr");
  table.classList.toggle("many", columns.length > 2);
  table.classList.toggle("crowded", columns.length > 4);
  head.append(cell("th", ""));
  columns.forEach((c, p) => {
    const th = cell("th", "", turn && turn.player === p ? "current" : "");
    th.append(cell("span", shownName(c.name))); th.title = shownName(c.name); head.append(th);
  });
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
      else if (turn && turn.player === p && turn.write && turn.write[box.key] && !S.state.hand) {
        td.classList.add("writable");  // another player's turn: the box they write in
        td.addEventListener("click", () => openWrite(box.key));
      } else if (turn && turn.player === p && open.has(box.key)) {
        const o = open.get(box.key);
        td.textContent = o.points + (o.bonus ? `+${o.bonus}` : "");
        td.className = "open" + (o.points ? "" : " zero");
        td.addEventListener("click", () => run(() => move({ box: box.key, jokers: [] })));
      }
      tr.append(td);
    });
    body.append(tr);
    if (b === 5) {
      sumRow(t("card.upper_total"), columns.map((c) => c.upper));
      sumRow(t("card.bonus", { threshold: rules.upper_bonus_threshold }), columns.map((c) => c.upper_bonus
        ? c.upper_bonus : (c.bonus_possible ? t(columns.length > 4 ? "web.needs_short" : "web.needs", { n: c.bonus_needs }) : "–")));
    }
  });
  if (rules.extra_bonus) sumRow(t("card.extra", { kniffel: kniffelName() }), columns.map((c) => c.extra_bonus));
  if (rules.jokers) sumRow(t("card.jokers_left"), columns.map((c) => c.jokers_left));
  sumRow(t("card.total"), columns.map((c) => c.total), "total");
  table.replaceChildren(thead, body);
}

// The analysis of a finished game, asked of the server.  Asked with the whys at once: the
// server says which decisions have one (each player's costliest), so that only their rows get a
// "Why?", and the dear part of a why (the upper bonus's chances) stays within the analysis's
// budget of work (web/tasks.py ANALYSIS_WORK: under a second more for docs/examples' game); a
// second request at the first tap would take as long again, while the player waits for it.
async function renderAnalysis() {
  const box = $("analysis");
  box.hidden = !S.state.over;
  if (!S.state.over) return;
  box.textContent = t("web.analysing");
  const wins = new Set(S.winMoves), several = S.state.columns.length > 1;
  const request = { record: S.state.record, why: true };
  if (wins.size && several) Object.assign(request, { goal: "win", from_round: firstWinRound(wins) });
  const game = JSON.stringify(S.state.record);
  if (S.analysisWhy && S.analysisWhy.game !== game) S.analysisWhy = null;  // another game's
  const result = await api("analyze", request);
  S.analysis = { result, wins, byGoal: Boolean(request.goal), game };
  drawAnalysis();
  // the whys' bonus chances wait for the server's kernels (compiled once): asked again after
  // their job (not again for a job already done: that answer would come back the same)
  if (result.job && result.job.state !== "done") {
    waitFor(result.job, () => renderAnalysis().catch((error) => say(errorText(error))));
  }
}

// A choice as the analysis names it: its keep ("web.keep") or its box.
function choiceText(c) {
  return c.keep ? t("web.keep", { dice: c.keep.join(" ") || t("nothing") }) : boxLabel(c.box);
}

function drawAnalysis() {
  const box = $("analysis"), { result, wins, byGoal } = S.analysis;
  const best = Math.max(...S.state.columns.map((c) => c.total)), several = S.state.columns.length > 1;
  box.replaceChildren(cell("h2", t("web.analysis")),
    cell("p", t("web.analysis_start", { expected: result.expected_start })));
  if (byGoal) box.append(cell("p", t("web.analysis_win_note"), "note"));
  // the chances counted from a later round than asked (the analysis's budget of work): why
  if (result.goal_note) box.append(cell("p", t(result.goal_note.key, result.goal_note.fields), "note"));
  for (const p of result.players) {
    if (!p.decisions && p.written) {  // no dice seen: nothing to judge
      box.append(cell("p", t("web.analysis_unseen", { name: shownName(p.name), score: p.score,
        wins: p.score === best && several ? t("web.analysis_wins") : "" })));
      continue;
    }
    const unseen = p.written ? t("web.analysis_some_unseen", { n: p.written }) : "";
    const mine = result.decisions.filter((d, i) => d.name === p.name && wins.has(i) && "chance_loss" in d);
    const chance = mine.length ? t("web.analysis_win_chance",
      { chance: percent(mine.reduce((sum, d) => sum + d.chance_loss, 0)) }) : "";
    box.append(cell("p", t("web.analysis_player", { name: shownName(p.name), score: p.score,
      wins: p.score === best && several ? t("web.analysis_wins") : "", loss: p.loss, optimal: p.optimal,
      n: p.decisions }) + chance + unseen));
  }
  const list = document.createElement("ol");
  result.decisions.forEach((d, i) => {
    const byWin = wins.has(i) && "chance_loss" in d;
    if (byWin ? d.chance_loss < 5e-10 : d.optimal) return;
    list.append(analysisRow(d, i, byWin, result.preparing === "why"));
  });
  box.append(list);
}

// A costly decision's row: what was chosen, what it cost, the best choice; its "Why?" where the
// analysis explains it, and its why below when open (one at a time).
function analysisRow(d, i, byWin, preparing) {
  const li = cell("li", "", "loss");
  li.dataset.decision = i;
  const text = cell("span", byWin
    ? t("web.analysis_row_win", { round: d.round, name: shownName(d.name), dice: d.dice.join(" "), choice: choiceText(d.choice),
      chance: percent(d.chance_choice), cost: t("cost_chance", { chance: percent(d.chance_loss) }),
      best: choiceText(d.best_for_goal || d.best), points: d.optimal ? t("best") : t("cost", { cost: d.loss }) })
    : t("web.analysis_row", { round: d.round, name: shownName(d.name), dice: d.dice.join(" "), choice: choiceText(d.choice),
      loss: d.loss, best: choiceText(d.best) }), "what");
  if (!d.why) { li.append(text); return li; }
  const open = Boolean(S.analysisWhy && S.analysisWhy.index === i);
  li.classList.add("with-why");
  // the button first: it floats at the right of the text's first lines
  li.append(whyButton(open, () => {
    S.analysisWhy = open ? null : { game: S.analysis.game, index: i };
    drawAnalysis();
  }), text);
  if (open) li.append(analysisWhyPanel(d, preparing));
  return li;
}

// ---- the history: what the games kept say, per player ---------------------------------------
async function showHistory() {
  const box = $("history"), button = $("history-button");
  if (!box.hidden) { box.hidden = true; button.setAttribute("aria-expanded", "false"); return; }
  const result = await api(`history?language=${lang()}`);
  box.replaceChildren(cell("h2", t("web.history")));
  if (!result.players.length) box.append(cell("p", t("web.history_none"), "note"));
  for (const player of result.players) {
    const part = document.createElement("div");
    part.className = "player-history";
    part.append(cell("p", player.lines[0]), sparkline(player.losses));
    player.lines.slice(1).forEach((line) => part.append(cell("p", line.trim())));
    box.append(part);
  }
  const drill = cell("a", t("web.drill_open"), "drill-link");  // their costly decisions, drilled
  drill.href = "drill";
  box.append(drill);
  box.hidden = false; button.setAttribute("aria-expanded", "true");
  box.scrollIntoView({ block: "start" });
}

// The points given away game by game (oldest first) as a line, its height the largest (an
// inline SVG, parsed from its markup: numbers only, the words set as text afterwards).
function sparkline(losses) {
  const width = 300, height = 48, holder = document.createElement("div");
  const top = Math.max(...losses, 1e-9), step = losses.length > 1 ? width / (losses.length - 1) : 0;
  const points = losses.map((x, i) =>
    `${(i * step).toFixed(1)},${(height - 2 - (height - 4) * x / top).toFixed(1)}`).join(" ");
  holder.innerHTML = `<svg class="sparkline" viewBox="0 0 ${width} ${height}" role="img">`
    + `<title></title><polyline points="${points}"></polyline></svg>`;
  const svg = holder.firstElementChild;
  svg.setAttribute("aria-label", t("web.history_chart"));
  svg.querySelector("title").textContent = t("web.history_chart");
  return svg;
}

function firstWinRound(wins) {
  let index = 0, first = Infinity;
  for (const turn of S.state.record.turns)
    for (const _ of turn.decisions) { if (wins.has(index)) first = Math.min(first, turn.round); index++; }
  return Number.isFinite(first) ? first : 1;
}

function undoClicked() {
  const { record, hand } = S.state;
  if (!decisions(record) && !(hand && record.real_dice)) { say(t("web.nothing_to_undo")); return; }
  run(() => move({ undo: true }));
}

function askNew() {
  if (!S.state || $("play").hidden) { showSetup(); return; }
  $("new-confirm").hidden = false;  // asks first; the game stays saved until Start
  $("new-yes").focus();
}

async function init() {
  S.info = await api("info");
  for (const p of S.info.presets) $("preset").add(new Option(p.name, p.name));
  $("goal-label").hidden = !S.info.goals.includes("win");
  // the language chosen in the menu, else that of the saved game, else the rule set's pad's
  const chosen = localStorage.getItem(LANGUAGE), saved = localStorage.getItem(STORE);
  const savedLanguage = saved ? JSON.parse(saved).language : null;
  $("language").value = [chosen, savedLanguage].find((l) => S.info.languages.includes(l))
    || S.info.presets.find((p) => p.name === $("preset").value).language;
  applyWords(); showOptions(false); addPlayer();
  $("preset").addEventListener("change", presetChosen);
  $("add-player").addEventListener("click", () => addPlayer());
  $("start").addEventListener("click", () => run(start));
  $("new-game").addEventListener("click", askNew);
  $("history-button").addEventListener("click", () => run(showHistory));
  $("new-yes").addEventListener("click", showSetup);
  $("new-no").addEventListener("click", () => { $("new-confirm").hidden = true; });
  $("back-to-game").addEventListener("click", backToGame);
  $("roll").addEventListener("click", rollClicked);
  $("write-bonus").addEventListener("change", writeChoices);
  $("write-ok").addEventListener("click", () => writeTurn(Number($("write-input").value === "" ? NaN : $("write-input").value)));
  $("write-cancel").addEventListener("click", closeWrite);
  $("undo").addEventListener("click", undoClicked);
  $("save").addEventListener("click", () => saveRecord(S.state.record, "kniffel-game"));
  for (const id of ["load-file", "load-file-2"]) {
    $(id).addEventListener("change", (e) => {
      const file = e.target.files[0];
      e.target.value = "";  // the same file chosen again is read again
      if (file) run(() => loadFile(file));
    });
  }
  $("build").addEventListener("click", () => run(buildTables));
  $("options").addEventListener("change", stopWaiting);  // other house rules: another table
  // the header's height, so that what is scrolled into view stops below it (style.css)
  new ResizeObserver(([entry]) => document.documentElement.style.setProperty("--header",
    `${entry.target.offsetHeight}px`)).observe(document.querySelector("header"));
  $("language").addEventListener("change", () => {
    localStorage.setItem(LANGUAGE, $("language").value);
    languageChanged();
  });
  $("goal").addEventListener("change", () => S.state && refresh());
  if (saved) {
    const { record, hand, goal, objective, winMoves } = JSON.parse(saved);
    // a game saved before the goal had its name kept "objective": "expected" | "win"
    const kept = goal || (objective === "win" ? "win" : objective && "points");
    if (kept) $("goal").value = kept;
    S.winMoves = winMoves || [];
    await run(async () => show(await api("game", { record, hand, ...settings() })));
    if ($("play").hidden) showSetup();
  } else showSetup();
  document.body.dataset.ready = "1";
}

// Everything in the new language at once: the page's words, the set-up (rules text, house rules,
// default names, even while hidden behind a running game) and the game (turn, card, advice).
function languageChanged() {
  applyWords(); showOptions(); relabelPlayers();
  if (W.job) showJob($("job"), W.job, t, lang());
  if (S.state && W.job && !$("setup").hidden) S.stale = true;  // a new game waits: asked after it
  else if (S.state) refresh();
}

// The game shown again as the server sees it now (language, goal); a step still running: after it.
function refresh() {
  if (S.busy) { S.stale = true; return; }
  run(async () => {
    const inSetup = !$("setup").hidden;  // "New" pressed: the set-up stays open, the game behind it
    show(await api("game", { record: S.state.record, hand: S.state.hand, ...settings(),
      ...(S.why ? { why: true } : {}) }));
    if (inSetup) showSetup();
  });
}

// Default player names follow the language until a player types one.
function relabelPlayers() {
  [...$("player-list").querySelectorAll("input")].forEach((input, i) => {
    if (/^(Player|Spieler) \d+$/.test(input.value)) input.value = t("web.player_n", { n: i + 1 });
    input.setAttribute("aria-label", t("web.player_name"));
  });
}

document.addEventListener("keydown", (event) => {
  if ($("entry").hidden || S.busy || event.target.tagName === "INPUT") return;
  if (event.key >= "1" && event.key <= "6") enterFace(Number(event.key));
  else if (event.key === "Backspace") { S.entry.pop(); showEntry(); }
});

init().catch((error) => { say(errorText(error)); showSetup(); });
