// The server's error codes, in English and Chinese: the page says an
// error from its code and arguments. Everything else the server writes
// comes in both languages already: an event's words (its note, {en, zh}),
// a scenario file's problems ({msg, zh}), an error's arguments in words
// ({en, zh}). No server text is read back here.

import { WORDS } from './words.js';

/** untranslated holds the names asked for in Chinese that the page's
 * catalogue lacks (i18n.js, name). */
export const untranslated = new Set();

// The server's errors: a code and its arguments, rendered here; their
// sentences are the catalogue's error.… (internal/fact/words, made into
// words.js by go generate).
const ERRORS = Object.fromEntries(Object.entries(WORDS)
  .filter(([id]) => id.startsWith('error.'))
  .map(([id, says]) => [id.slice('error.'.length), says]));


/** serverError renders an error message from the server: its code's
 * sentence with the code's arguments (an argument the server said in both
 * languages, {en, zh}, in lang), else its text. */
export function serverError(m, lang) {
  const s = m.code && ERRORS[m.code];
  if (!s) return m.error || '';
  let out = lang === 'zh' ? s[1] : s[0];
  for (const [k, v] of Object.entries(m.args || {})) {
    const said = v && typeof v === 'object' ? (lang === 'zh' ? v.zh : v.en) || v.en || '' : String(v);
    out = out.split('{' + k + '}').join(said);
  }
  return out;
}
