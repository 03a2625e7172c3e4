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
    throw error;
  }
  return data;
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
