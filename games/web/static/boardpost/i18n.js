// @ts-check
// The page's language and its texts: Django's gettext catalogue for the web client
// (locale/<lang>/LC_MESSAGES/djangojs.po), fetched from /jsi18n.json before any module renders
// (a top-level await on the URL of the page's <link rel="preload" id="i18n-catalogue">). The
// server answers it, like the page itself, in the language it chose for <html lang> (the
// language cookie, then Accept-Language). English, the texts' own language, needs none: its
// page has no such link.
//
// Mark every text people read with gettext("...") (or ngettext, pgettext, npgettext) called on
// a plain string literal, so `manage.py makemessages -d djangojs` finds it (docs/i18n.md), and
// put values in with named placeholders, which translators may move:
//   interpolate(gettext("Waiting for %(names)s"), { names })
// Codes, slugs and other machine values are never translated.

/** The page's language, as Django names it ("en", "fr", "pt-br", "ko"). */
export const LANG = (document.documentElement.lang || "en").toLowerCase();
/** The same as a BCP 47 tag for Intl ("pt-BR"). */
export const LOCALE = LANG.replace(/-([a-z]+)$/, (_, country) => `-${country.toUpperCase()}`);

/**
 * @typedef {{catalog?: Object<string, string | string[]>, plural?: string}} Catalogue
 */

/** @returns {Promise<Catalogue>} */
async function loadCatalogue() {
  const url = /** @type {HTMLLinkElement | null} */ (document.getElementById("i18n-catalogue"))?.href;
  if (!url) return {};
  try {
    const response = await fetch(url, {
      headers: { Accept: "application/json" }, credentials: "same-origin",
    });
    if (response.ok) return await response.json();
  } catch {
    /* the page still works, in English */
  }
  return {};
}

const data = await loadCatalogue();
const catalog = data.catalog || {};

const menu = document.getElementById("language-menu");
/** [[code, name in its own language], ...]: the languages of the header's menu (the server's
 * settings.LANGUAGES), and the cookie that picks one. */
/** @type {string[][]} */
export const LANGUAGES = menu
  ? [...menu.querySelectorAll("[data-language]")].map((b) => [/** @type {HTMLElement} */ (b).dataset.language || "", b.textContent || ""])
  : [["en", "English"]];
export const LANGUAGE_COOKIE = menu?.dataset.cookie || "django_language";

// The plural formulas of the catalogues' Plural-Forms headers (no eval: the page's CSP forbids
// it). A language with another formula adds it here.
/** @type {Object<string, (n: number) => number>} */
const PLURALS = {
  "(n != 1)": (n) => (n !== 1 ? 1 : 0),
  "(n > 1)": (n) => (n > 1 ? 1 : 0),
  "0": () => 0,
};
const plural = PLURALS[(data.plural || "(n != 1)").replace(/\s+/g, " ").trim()]
  || PLURALS["(n != 1)"];

/** @param {string} msgid @returns {string} */
export function gettext(msgid) {
  const value = catalog[msgid];
  if (value === undefined || value === "") return msgid;
  return Array.isArray(value) ? value[0] : value;
}

/** Marks a text for the catalogues (makemessages extracts gettext_noop("...")) and returns it
 * unchanged: for a table of texts that arrive in English as data and are translated with
 * gettext(text) where they are shown.
 * @param {string} msgid @returns {string} */
export function gettext_noop(msgid) {
  return msgid;
}

/** @param {string} singular @param {string} pluralText @param {number} count @returns {string} */
export function ngettext(singular, pluralText, count) {
  const value = catalog[singular];
  if (Array.isArray(value)) {
    const form = value[plural(count)];
    if (form !== undefined && form !== "") return form;
  }
  return count === 1 ? singular : pluralText;
}

/** @param {string} context @param {string} msgid @returns {string} */
export function pgettext(context, msgid) {
  const value = catalog[`${context}\x04${msgid}`];
  if (value === undefined || value === "") return msgid;
  return Array.isArray(value) ? value[0] : value;
}

/**
 * @param {string} context @param {string} singular @param {string} pluralText
 * @param {number} count @returns {string}
 */
export function npgettext(context, singular, pluralText, count) {
  const value = catalog[`${context}\x04${singular}`];
  if (Array.isArray(value)) {
    const form = value[plural(count)];
    if (form !== undefined && form !== "") return form;
  }
  return count === 1 ? singular : pluralText;
}

const PLACEHOLDER = /%\((\w+)\)[sd]/g;

/** interpolate("%(n)s open seats", {n: 2}) -> "2 open seats". Values go in as they are
 * (a number the page's language should write its own way: formatNumber first).
 * @param {string} text @param {Object<string, unknown>} values @returns {string} */
export function interpolate(text, values) {
  return text.replace(PLACEHOLDER, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** The same, for text with DOM nodes in it: an array of strings and nodes, in the translated
 * order, to append to an element.
 * @param {string} text @param {Object<string, unknown>} values @returns {(string | Node)[]} */
export function interpolateNodes(text, values) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    parts.push(text.slice(last, match.index));
    const value = values[match[1]];
    parts.push(value === undefined ? match[0] : value instanceof Node ? value : String(value));
    last = /** @type {number} */ (match.index) + match[0].length;
  }
  parts.push(text.slice(last));
  return parts.filter((part) => part !== "");
}

const numberFormat = new Intl.NumberFormat(LOCALE);

/** @param {number} value @param {Intl.NumberFormatOptions} [options] @returns {string} */
export function formatNumber(value, options) {
  if (options) return new Intl.NumberFormat(LOCALE, options).format(value);
  return Number.isInteger(value) ? numberFormat.format(value) : String(value);
}

/** A list of names joined as the language does ("a, b and c").
 * @param {unknown[]} items @param {Intl.ListFormatType} [type] @returns {string} */
export function formatList(items, type = "conjunction") {
  return new Intl.ListFormat(LOCALE, { style: "long", type }).format(items.map(String));
}

/** "1st", "2e", "3º", "4위": a rank as the page's language writes it.
 * @param {number} n @returns {string} */
export function ordinal(n) {
  const category = new Intl.PluralRules(LOCALE, { type: "ordinal" }).select(n);
  const text = category === "one" ? pgettext("ordinal rank", "%(n)sst")
    : category === "two" ? pgettext("ordinal rank", "%(n)snd")
      : category === "few" ? pgettext("ordinal rank", "%(n)srd")
        : pgettext("ordinal rank", "%(n)sth");
  return interpolate(text, { n });
}
