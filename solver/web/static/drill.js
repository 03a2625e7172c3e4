// The drill page (/drill): positions from the player's own costly decisions (or the built-in
// set), one at a time.  The player answers with the dice to keep or a box; the server prices
// the answer, says what each turn plays for, and brings a wrong answer back soon (history/drill.py).
import { api, applyWords, bonusUnknown, percent as percentIn, translate, whyLine, whyParts } from "./common.js";

const $ = (id) => document.getElementById(id);
const LANGUAGE = "kniffel-language";  // the language chosen on any page of the coach: it stays
const PLAYER = "kniffel-drill-player";
const S = { info: null, player: null, item: null, position: null, held: new Set(), busy: false,
  judged: null };  // judged: the answer to the position shown, once given

function lang() { return $("language").value; }
function t(key, fields = {}) { return translate(S.info.words[lang()] || S.info.words.en, key, fields, lang()); }
function percent(p) { return percentIn(p, lang()); }
function label(key) { const box = S.position.boxes.find((b) => b.key === key); return box.label[lang()] || box.label.en; }
function say(text) { $("message").textContent = text || ""; }

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

// One request at a time: a second tap while the server answers is ignored.
async function run(work) {
  if (S.busy) return;
  S.busy = true; document.body.classList.add("busy");
  try { say(""); await work(); } catch (error) { say(error.message); } finally {
    S.busy = false; document.body.classList.remove("busy");
  }
}

async function next() {
  const body = { language: lang() };
  if (S.player) body.player = S.player;
  const answer = await api("drill/next", body);
  S.player = answer.player; S.item = answer.item; S.position = answer.position; S.held = new Set();
  S.judged = null;
  $("player").value = S.player;
  localStorage.setItem(PLAYER, S.player);
  $("verdict").hidden = true; $("question").hidden = false;
  render(); summary(answer.summary);
}

function render() {
  const item = S.item, position = S.position;
  if (!item) return;
  const where = item.game !== null ? t("web.drill_from_game", { game: item.game, round: item.round })
    : t("web.drill_built_in");
  $("where").textContent = where + (item.asked_before ? t("web.drill_again", { n: item.asked_before }) : "");
  const table = $("card"); table.replaceChildren();
  for (const box of position.boxes) {
    const row = el("tr");
    row.append(el("td", label(box.key)), el("td", box.points === null ? "" : String(box.points)));
    if (box.points === null) row.className = "free";
    table.append(row);
  }
  const needs = position.upper_bonus_needs;
  $("upper").textContent = t("web.drill_upper", { subtotal: position.upper_subtotal, threshold: position.threshold,
    state: needs === 0 ? t("web.drill_bonus_reached") : needs === null ? t("web.drill_bonus_out")
      : t("web.drill_bonus_needs", { n: needs }) });
  $("rolls").textContent = t("web.drill_rolls", { n: position.rolls_left });
  renderDice(); renderBoxes();
}

function renderDice() {
  const box = $("dice"), canKeep = S.position.rolls_left > 0 && !S.judged;
  box.replaceChildren();
  S.position.dice.forEach((face, i) => {
    const b = el("button", String(face), "die" + (S.held.has(i) ? " held" : ""));
    b.type = "button"; b.dataset.face = face; b.disabled = !canKeep;
    b.setAttribute("aria-pressed", S.held.has(i));
    b.addEventListener("click", () => { S.held.has(i) ? S.held.delete(i) : S.held.add(i); renderDice(); });
    box.append(b);
  });
  $("keep").hidden = $("keep-help").hidden = !canKeep;
  $("keep").textContent = S.held.size ? t("web.drill_keep", { dice: heldFaces().join(" ") }) : t("web.drill_reroll_all");
  $("keep").disabled = S.held.size === 5;  // all five held: that is entering a box
}

function heldFaces() { return [...S.held].map((i) => S.position.dice[i]).sort((a, b) => a - b); }

function renderBoxes() {
  const list = $("boxes");
  list.replaceChildren();
  $("box-help").hidden = list.hidden = Boolean(S.judged);
  $("box-help").textContent = t(S.position.rolls_left ? "web.drill_box_now" : "web.drill_box");
  for (const box of S.position.boxes.filter((b) => b.points === null)) {
    const li = el("li", undefined, "box-choice");
    li.dataset.box = box.key;
    li.append(el("span", label(box.key), "what"), el("span", String(box.now), "efs"));
    li.tabIndex = 0; li.setAttribute("role", "button");
    li.addEventListener("click", () => run(() => answer({ box: box.key })));
    list.append(li);
  }
}

async function answer(decision) {
  S.judged = await api("drill/answer", { player: S.player, id: S.item.id, answer: decision, language: lang() });
  $("verdict").hidden = false;  // below the position, whose answer is given: no more taps there
  renderDice(); renderBoxes();
  renderVerdict(); summary(S.judged.summary);
  $("next").focus();
}

function renderVerdict() {
  const judged = S.judged, best = choiceText(judged.best), chosen = choiceText(judged.choice);
  $("result").textContent = judged.right ? t("web.drill_right", { best })
    : t("web.drill_wrong", { choice: chosen, cost: judged.cost, best });
  $("result").className = judged.right ? "right" : "wrong";
  const why = $("why"); why.replaceChildren();
  why.append(whyPart(judged.why, judged.best, t("web.drill_why_best", { choice: best })));
  if (!judged.right) why.append(whyPart(judged.why, judged.choice, t("web.drill_why_yours", { choice: chosen })));
  $("again").textContent = t("web.drill_comes_back", { n: judged.again_after });
}

function choiceText(option) {
  return option.action === "keep" ? (option.keep.length ? t("web.keep", { dice: option.keep.join(" ") }) : t("web.reroll_all"))
    : `${label(option.box)} (${option.points})`;
}

// What a move's turn plays for (advice/why.py, common.js whyParts): the boxes it ends in with
// their chances and points, the upper bonus's chance (a box: before and after), the boxes it
// leaves open; or why the bonus's chance is missing.
function whyPart(why, option, head) {
  const part = el("div", undefined, "why");
  whyLine(part, head, "head");
  if (!why || why.available === false || !option.why) { whyLine(part, t("why.approximate")); return part; }
  whyParts(part, why, option, { t, percent, label, lang: lang() });
  bonusUnknown(part, why, S.judged.preparing === "why", t);
  return part;
}

function summary(s) {
  S.summary = s;
  $("summary").textContent = s ? t("web.drill_summary", { player: S.player, n: s.answers, right: s.right,
    positions: s.positions, due: s.due_now }) : "";
}

async function init() {
  S.info = await api("info");
  const chosen = localStorage.getItem(LANGUAGE);
  $("language").value = S.info.languages.includes(chosen) ? chosen : "de";
  applyWords(t, lang(), "web.drill_title");
  S.player = localStorage.getItem(PLAYER);
  $("language").addEventListener("change", () => {
    localStorage.setItem(LANGUAGE, lang());
    applyWords(t, lang(), "web.drill_title");
    render();  // the position's box names came in both languages
    if (S.judged) renderVerdict();
    summary(S.summary);
  });
  $("keep").addEventListener("click", () => run(() => answer({ keep: heldFaces() })));
  $("next").addEventListener("click", () => run(next));
  $("player-go").addEventListener("click", () => {
    const name = $("player").value.trim();
    if (name) { S.player = name; run(next); }
  });
  await run(next);
  document.body.dataset.ready = "1";
}

init();
