// What the scorecard page (app.js) and the Dice Duel page (duel.js) share: the words (solver/lang,
// sent in /api/info) and the requests to the server.
const token = new URLSearchParams(location.search).get("token");

// The JSON answer of the server's api/PATH (a GET without a body, else a POST of it); an error
// answer throws its message.
export async function api(path, body) {
  const headers = { "content-type": "application/json" };
  if (token) headers["x-kniffel-token"] = token;
  const response = await fetch("api/" + path, body === undefined ? { headers } :
    { method: "POST", headers, body: JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.words = data.words;  // {key, fields} of solver/lang, where the server has them
    error.status = response.status;
    error.job = data.job;  // a 503 while a job of the server prepares what the request needs
    throw error;
  }
  return data;
}

// ---- jobs of the server (a table solved, kernels compiled, the win tables built) -------------
const POLL_MS = 1500;  // how often a page asks GET /api/jobs how far a job is

function sameJob(a, b) {
  return a.kind === b.kind && a.rules === b.rules && a.feature === b.feature;
}

// Follow `job` (as the server described it) until it ends: show(job) at once and at each poll
// with its progress, then done(job) once its state is "done"; a failed job is shown and left.
// Returns a function that stops following (a new request makes the waiting pointless).
export function followJob(job, show, done) {
  let stopped = false, timer = null;
  const step = async (current) => {
    if (stopped) return;
    show(current);
    if (current.state === "done") { stopped = true; done(current); return; }
    if (current.state === "failed") { stopped = true; return; }
    timer = setTimeout(poll, POLL_MS);
  };
  const poll = async () => {
    let found = job;
    try {
      const jobs = (await api("jobs")).jobs;
      // gone from the list (the server restarted): asking again starts it anew if needed
      found = jobs.find((j) => sameJob(j, job)) || { ...job, state: "done" };
    } catch { /* the server did not answer this time: ask again at the next poll */ }
    step(found);
  };
  step(job);
  return () => { stopped = true; clearTimeout(timer); };
}

// What a job does and how far it is, in the words `t` (solver/lang) of `lang`: "Die Tabelle für
// Kniffel wird berechnet: 46,2 % fertig, noch etwa 10 s".
export function jobText(job, t, lang) {
  const title = job.title ? job.title[lang] || job.title.en : job.rules;
  const what = job.kind === "table" ? t("job.table", { title })
    : job.kind === "win" ? t("job.win", { title })
      : t(job.feature === "duel" ? "job.warm_duel" : job.feature === "why" ? "job.warm_why"
        : "job.warm_win");
  if (job.state === "failed") return t("job.failed", { what, error: job.error || "?" });
  if (job.state === "done") return t("job.finished", { what });
  if (!job.fraction) return t("job.waiting", { what });
  const done = percent(job.fraction, lang);
  const eta = job.eta_seconds ?? guessEta(job);
  return eta === null ? t("job.done", { what, percent: done })
    : t("job.done_eta", { what, percent: done, eta: duration(eta, t) });
}

// Seconds to go from the time so far and the share done, where the server gives none (a value
// table counts its levels only); none before a tenth is done (too early to tell).
function guessEta(job) {
  return job.fraction >= 0.1 && job.seconds ? job.seconds * (1 - job.fraction) / job.fraction : null;
}

// A time as a person says it ("40 s", "3 min", "2 h 10 min"), as the server's ask/build.py does.
export function duration(seconds, t) {
  if (seconds < 90) return t("eta.seconds", { n: Math.max(10, Math.round(seconds / 10) * 10) });
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return t("eta.minutes", { n: minutes });
  return t("eta.hours", { h: Math.floor(minutes / 60), m: minutes % 60 });
}

// The progress element `box` (a <p> and a <progress> in it) showing `job`.
export function showJob(box, job, t, lang) {
  box.hidden = false;
  box.dataset.state = job.state;
  box.querySelector("p").textContent = jobText(job, t, lang);
  const bar = box.querySelector("progress");
  bar.hidden = job.state === "failed";
  if (job.state === "done") bar.value = 1;
  else if (job.fraction) bar.value = job.fraction;
  else bar.removeAttribute("value");  // how far is not known yet: a bar that says "working"
}

// Every element's text (data-t) and placeholder (data-t-placeholder) in the language `lang`,
// t(key) giving its words; the page's title is t(title).
export function applyWords(t, lang, title) {
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of document.querySelectorAll("[data-t-placeholder]")) el.placeholder = t(el.dataset.tPlaceholder);
  document.title = t(title);
  document.documentElement.lang = lang;
}

// The text of `key` in `words` (one language's table) with its fields filled in: a pair is
// [singular, plural], chosen by the field n; {x:.2f} formats a number, in the decimals of
// `lang` when given ("250,77" in German).  An unknown key is itself.
export function translate(words, key, fields = {}, lang) {
  let text = words[key];
  if (text === undefined) return key;
  if (Array.isArray(text)) text = fields.n === 1 ? text[0] : text[1];
  return text.replace(/\{(\w+)(?::\.(\d+)f)?\}/g, (whole, name, digits) => {
    const value = fields[name];
    if (value === undefined) return whole;
    if (digits) return decimal(value, Number(digits), lang);
    return typeof value === "number" && lang === "de" ? String(value).replace(".", ",") : String(value);
  });
}

// x with `digits` decimals, written as `lang` writes numbers: a decimal comma in German.
export function decimal(x, digits, lang) {
  const text = Number(x).toFixed(digits);
  return lang === "de" ? text.replace(".", ",") : text;
}

// A chance as a percentage with sensible decimals (as the command line prints it, lang.percent);
// with `lang` "de" as German writes it, "31,5 %" (a no-break space before the sign).
export function percent(p, lang) {
  const value = 100 * p, sign = lang === "de" ? "\u00a0%" : "%";
  if (value < 5e-11) return "0" + sign;
  if (value > 100 - 5e-11) return "100" + sign;
  let digits = value >= 10 ? 1 : value >= 1 ? 2 : Math.min(10, 1 - Math.floor(Math.log10(value)));
  while (digits < 10 && value.toFixed(digits) === (100).toFixed(digits)) digits++;
  return decimal(value, digits, lang) + sign;
}

// The game record as a file download, named PREFIX-DATE-TIME.json.
export function saveRecord(record, prefix) {
  const blob = new Blob([JSON.stringify(record, null, 1) + "\n"], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `${prefix}-${new Date().toISOString().slice(0, 19).replaceAll(":", "")}.json`;
  a.click();
  URL.revokeObjectURL(a.href);
}

// ---- the why of a choice (advice/why.py), as the game page and the drill page show it -------
function whyCell(tag, text, cls) {
  const c = document.createElement(tag); c.textContent = text; if (cls) c.className = cls; return c;
}

export function whyLine(panel, text, cls) { panel.append(whyCell("p", text, cls)); }

// Points entered on average: whole where they are, else one decimal (as `advise --why`).
function averagePoints(x, lang) {
  return Math.abs(x - Math.round(x)) < 1e-9 ? String(Math.round(x)) : decimal(x, 1, lang);
}

// What one choice plays for, in the server's words, added to `panel`: the boxes its turn ends in
// (chance, points), the upper bonus's chance after it (a box: before it too, `before` the
// advice's why) and the boxes a box leaves open.  Whether it is known: the caller says why not.
// words: {t, percent, label (a box's name), lang} of the page.
export function whyParts(panel, before, option, { t, percent, label, lang }) {
  const mine = option.why, boxes = document.createElement("ul");
  mine.boxes.forEach((b) => boxes.append(whyCell("li", t("why.box", { box: label(b.box),
    chance: percent(b.probability), points: averagePoints(b.points, lang) }))));
  panel.append(boxes);
  if (mine.upper_bonus_chance !== null) {
    whyLine(panel, option.action === "keep" ? t("why.upper", { chance: percent(mine.upper_bonus_chance) })
      : t("why.upper_change", { before: percent(before.upper_bonus_chance),
        after: percent(mine.upper_bonus_chance) }));
  }
  if (mine.open) whyLine(panel, t("why.open", { boxes: mine.open.map(label).join(", ") || t("nothing") }));
}

// Why the upper bonus's chances are missing, if they are: over the budget of work, or their
// kernels still being compiled on the server (`preparing`: the answer's "preparing" is "why").
export function bonusUnknown(panel, why, preparing, t) {
  if (why.upper_bonus_chance !== null) return;
  if (why.over_budget) {
    whyLine(panel, t("why.over_budget", { seconds: why.over_budget.work, budget: why.over_budget.budget }), "note");
  } else if (preparing) whyLine(panel, t("why.preparing"), "note");
}
