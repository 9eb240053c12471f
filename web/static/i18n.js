// The page's words: every sentence it says is an id of the catalogue
// (internal/fact/words, page.…), which go generate writes to words.js,
// one sentence per language in LANGS' order. t(key, lang) picks one;
// apply() rewrites the elements that carry data-i18n. A mark's or fault's
// name is name.<n>, a verdict's word verdict.<n>; a third language is one
// more file of the catalogue, and no code here.

import { untranslated } from './messages.js';
import { LANGS, WORDS } from './words.js';

/** said is key's sentence in lang, or undefined when the catalogue lacks
 * it (a language it does not know reads English). */
function said(key, lang) {
  const s = WORDS[key];
  if (!s) return undefined;
  const i = LANGS.indexOf(lang);
  return s[i < 0 ? 0 : i];
}

/** nextLang is the language the switch turns lang into: the next of
 * LANGS, after the last the first. */
export function nextLang(lang) {
  return LANGS[(LANGS.indexOf(lang) + 1) % LANGS.length];
}

/** langName is a language's name as it writes it: English, or its own. */
export function langName(lang) {
  return said('langName', lang);
}

/** verdictWord gives a verdict's name alone, as a narrow cell shows it:
 * oversell, or its word in Chinese (its name then goes in the cell's
 * tooltip). */
export function verdictWord(n, lang) {
  if (!n) return n;
  const w = said('verdict.' + n, lang);
  if (w === undefined && lang !== LANGS[0]) untranslated.add('verdict: ' + n);
  return w === undefined ? n : w;
}

/** verdictName gives a verdict's name as the page shows it in lang: its
 * word with its name beside it (the name is what a scenario's expect: and
 * the command line write): oversell, or its word in Chinese with
 * (oversell) after it (verdictNamed). */
export function verdictName(n, lang) {
  if (!n || said('verdict.' + n, lang) === undefined) return verdictWord(n, lang);
  return fill('verdictNamed', lang, { word: verdictWord(n, lang), name: n });
}

/** verdictNames writes a list of verdict names in lang, comma-separated. */
export function verdictNames(names, lang) {
  return names.map((n) => verdictName(n, lang)).join(t('listComma', lang));
}

/** name gives a mark's or fault's name in plain words. */
export function name(n, lang) {
  const s = said('name.' + n, lang);
  if (s === undefined) {
    if (lang !== LANGS[0] && n) untranslated.add('name: ' + n);
    return n;
  }
  return s;
}

// The server's error codes are said by messages.js; everything else the
// server writes comes in both languages ({en, zh}).
export { serverError, untranslated } from './messages.js';

/** fill replaces {name} in a catalogue string with values. */
export function fill(key, lang, vals = {}) {
  let s = t(key, lang);
  for (const [k, v] of Object.entries(vals)) s = s.split('{' + k + '}').join(String(v));
  return s;
}

export const KEYS = [
  ['Space, →, .', 'kStep'], ['←', 'kBack'], ['P', 'kPlay'], ['Home', 'kReset'], ['End', 'kEnd'],
  ['PageDown / PageUp', 'kClicker'], ['↑ / ↓', 'kSelect'], ['F', 'kPresenter'], ['T', 'kTime'], ['L', 'kLang'], ['?', 'kHelp'],
];

/** t gives the string for key in lang ('en' or 'zh'): the catalogue's
 * page.<key>, or the key itself when the catalogue lacks it. */
export function t(key, lang) {
  const s = said(key, lang);
  return s === undefined ? key : s;
}

/** pick chooses the en or zh side of a {en, zh} text. */
export function pick(text, lang) {
  if (!text) return '';
  return (lang === 'zh' ? text.zh : text.en) || text.en || text.zh || '';
}

/** faultKey is the catalogue key of a fault kind's menu label: fClockJump
 * for clock-jump; its tooltip is the key with Tip. */
export function faultKey(kind) {
  return 'f' + kind.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** amount says a duration of ms milliseconds in lang: 1s, 500ms (unitS,
 * unitMs). */
export function amount(ms, lang) {
  return ms % 1000 === 0 ? fill('unitS', lang, { n: ms / 1000 }) : fill('unitMs', lang, { n: ms });
}

/** apply rewrites every element with data-i18n under root; an element
 * with data-i18n-ms fills its {d} with that amount. */
export function apply(root, lang) {
  // Only what differs is written: a render (every step) then changes
  // nothing the browser must lay out again.
  const html = lang === 'zh' ? 'zh-CN' : 'en';
  if (document.documentElement.lang !== html) document.documentElement.lang = html;
  if (document.title !== t('docTitle', lang)) document.title = t('docTitle', lang);
  const text = (key, el) => el.dataset.i18nMs ? fill(key, lang, { d: amount(Number(el.dataset.i18nMs), lang) }) : t(key, lang);
  for (const el of root.querySelectorAll('[data-i18n]')) {
    const s = text(el.dataset.i18n, el);
    if (el.textContent !== s) el.textContent = s;
  }
  for (const el of root.querySelectorAll('[data-i18n-title]')) {
    const s = text(el.dataset.i18nTitle, el);
    if (el.title !== s) el.title = s;
  }
  for (const el of root.querySelectorAll('[data-i18n-group]')) {
    const s = t(el.dataset.i18nGroup, lang);
    if (el.label !== s) el.label = s;
  }
  for (const el of root.querySelectorAll('[data-i18n-label]')) {
    const s = t(el.dataset.i18nLabel, lang);
    if (el.getAttribute('aria-label') !== s) el.setAttribute('aria-label', s);
  }
}
