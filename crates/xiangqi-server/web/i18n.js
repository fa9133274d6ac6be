// The client's words in the player's language: `t(key, args)` looks a key up
// in the catalogue of the current language (`/static/locales/<lang>.json`,
// one flat JSON object per language), falling back to English, and fills in
// its `{name}` placeholders from `args`. A message that depends on a number
// is an object of CLDR plural forms ("one", "few", "other", ...), chosen by
// `Intl.PluralRules` of the language from `args.count` (or, without one, from
// the message's one numeric argument, such as `{seconds}`).
// `tParts(key, args)` does the same but keeps DOM nodes given as arguments
// (a link inside a sentence), returning an array for `h(...)`.
//
// `initI18n(language)` loads the catalogues before the first page is drawn;
// `setLanguage(language)` switches and tells `onLanguageChange` listeners.

/** The languages of the interface: [code, name in that language]. */
export const LANGUAGES = [
  ["en", "English"],
  ["zh-Hans", "简体中文"],
  ["zh-Hant", "繁體中文"],
  ["vi", "Tiếng Việt"],
  ["sk", "Slovenčina"],
  ["cs", "Čeština"],
  ["tl", "Tagalog"],
];
export const DEFAULT_LANGUAGE = "en";

const CODES = new Set(LANGUAGES.map(([code]) => code));
let current = DEFAULT_LANGUAGE;
let catalogue = {};
let english = {};
let plurals = new Intl.PluralRules(DEFAULT_LANGUAGE);
const listeners = new Set();
const loaded = new Map();

/**
 * The interface language that best fits a list of language tags in order of
 * preference (`navigator.languages`, an Accept-Language list): an exact
 * match, then the script or region a Chinese tag implies, then the language
 * alone; English when nothing fits.
 */
export function matchLanguage(tags) {
  for (const raw of tags || []) {
    const tag = String(raw).trim();
    if (!tag) continue;
    if (CODES.has(tag)) return tag;
    const parts = tag.toLowerCase().split(/[-_]/);
    const base = parts[0];
    if (base === "zh") {
      const traditional = parts.some((p) => ["hant", "tw", "hk", "mo"].includes(p));
      return traditional ? "zh-Hant" : "zh-Hans";
    }
    // Filipino is the standard form of Tagalog; the same words serve both.
    if (base === "fil") return "tl";
    if (CODES.has(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

async function fetchCatalogue(language) {
  if (loaded.has(language)) return loaded.get(language);
  const response = await fetch(`/static/locales/${language}.json`, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`no catalogue for ${language}`);
  const data = await response.json();
  loaded.set(language, data);
  return data;
}

/** The current language's code. */
export function language() {
  return current;
}

/** Loads English and `language` (a supported code, or anything `matchLanguage` can place). */
export async function initI18n(language) {
  english = await fetchCatalogue(DEFAULT_LANGUAGE);
  await use(language);
}

async function use(language) {
  const code = CODES.has(language) ? language : matchLanguage([language]);
  try {
    catalogue = await fetchCatalogue(code);
    current = code;
  } catch {
    catalogue = english;
    current = DEFAULT_LANGUAGE;
  }
  plurals = new Intl.PluralRules(current);
  document.documentElement.lang = current;
}

/** Switches the language and calls every `onLanguageChange` listener. */
export async function setLanguage(language) {
  const before = current;
  await use(language);
  if (current !== before) for (const fn of [...listeners]) fn(current);
}

/** Calls `fn(code)` after each change of language; returns the unsubscribe function. */
export function onLanguageChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The number a plural message depends on: `args.count`, else its one numeric argument. */
function pluralCount(args) {
  if (args && typeof args.count === "number") return args.count;
  const numbers = Object.values(args || {}).filter((value) => typeof value === "number");
  return numbers.length === 1 ? numbers[0] : 0;
}

function message(key, args) {
  let text = Object.hasOwn(catalogue, key) ? catalogue[key] : english[key];
  if (text === undefined) return key;
  if (typeof text === "object") {
    const form = plurals.select(pluralCount(args));
    text = text[form] !== undefined ? text[form] : text.other;
  }
  return text;
}

/** The message `key` in the current language, its `{placeholders}` filled from `args`. */
export function t(key, args = {}) {
  return message(key, args).replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(args, name) ? String(args[name]) : whole);
}

/** Like `t`, but arguments may be DOM nodes: an array of strings and nodes. */
export function tParts(key, args = {}) {
  const parts = [];
  const text = message(key, args);
  let last = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    const name = match[1];
    parts.push(Object.hasOwn(args, name) ? args[name] : match[0]);
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** Whether the catalogues have `key` (for words chosen from a server's code). */
export function has(key) {
  return Object.hasOwn(catalogue, key) || Object.hasOwn(english, key);
}
