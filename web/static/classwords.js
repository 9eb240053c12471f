// The class's words: the class bar's (class.js and its parts) and the
// remote's (remote.js). Their sentences are the catalogue's class.… and
// remote.… ids, and the class's error codes its error.… ids
// (internal/fact/words, written into words.js by go generate; messages.js
// says the errors). A page file names an id in full, as a literal, so that
// TestThePageReadsTheCatalogue (internal/fact) finds every id it says.

import { state } from './store.js';
import { LANGS, WORDS } from './words.js';

/** say is the sentence id names (a words.js id, such as 'class.join') in
 * the page's language, each {name} in it filled with vals' value; an id
 * the catalogue lacks is said as itself. */
export function say(id, vals = {}) {
  const row = WORDS[id];
  if (!row) return id;
  let s = row[Math.max(0, LANGS.indexOf(state.lang))];
  for (const [k, v] of Object.entries(vals)) s = s.split('{' + k + '}').join(String(v));
  return s;
}

/** KINDS are the question kinds the picker offers, in its order: each
 * kind (docs/protocol.md, class-ask), its sentence's id, and the id of
 * its short form (Presenter mode's bar). */
export const KINDS = [
  ['next', 'class.kind-next', 'class.kind-next-short'],
  ['reply', 'class.kind-reply', 'class.kind-reply-short'],
  ['holder', 'class.kind-holder', 'class.kind-holder-short'],
  ['verdict', 'class.kind-verdict', 'class.kind-verdict-short'],
  ['move', 'class.kind-move', 'class.kind-move-short'],
  ['free', 'class.kind-free', 'class.kind-free-short'],
];
