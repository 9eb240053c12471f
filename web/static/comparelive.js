// Side by side with a lesson in real time on a live server (etcd,
// ZooKeeper; docs/services.md, "Side by side"): the lessons that teach
// the loaded one's workload under other locks, first in the picker, and
// what a side in real time lets one compare, said above the two
// timelines in the server's words (both languages, as its notes are).

import { el } from './dom.js';
import { pick, t } from './i18n.js';

// The picker's words for them: the catalogue's page.comparelive.<key>.
const word = (key, lang) => t('comparelive.' + key, lang);

/** alikeGroup is the picker's group of the lessons alike to the loaded
 * one (the answer's alike: Redis lessons and live ones), each under its
 * title in lang, or null when there are none. */
export function alikeGroup(r, catalog, lang) {
  const byId = new Map((catalog || []).map((c) => [c.id, c]));
  const ids = ((r && r.alike) || []).filter((id) => byId.has(id));
  if (!ids.length) return null;
  const g = el('optgroup', { label: word('alike', lang), 'data-group': 'alike' });
  for (const id of ids) g.append(el('option', { value: id }, pick(byId.get(id).title, lang) || id));
  return g;
}

/** liveNotes are the answer's words on its sides in real time (which
 * side ran on which live server, and that the verdicts compare, not the
 * milliseconds), a paragraph each. */
export function liveNotes(r, lang) {
  return ((r && r.live) || []).map((n) => el('p', { class: 'cmp-live', 'data-testid': 'compare-live' }, pick(n, lang)));
}
