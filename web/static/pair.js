// The teacher's remote, as the projector's page offers it (docs/browser.md,
// In class; docs/protocol.md, Classes): Remote on the class bar asks the
// server for a one-time link (class-remote-link, with the teacher's key
// from this browser's storage) and shows it with its QR code. The link
// lets one phone in, within two minutes, and is spent: what the projector
// shows is never the key itself. The remote's own page is remote.js.

import { state } from './store.js';
import { fill } from './i18n.js';
import { el } from './dom.js';
import { qrSVG } from './class.js';

/** tr says key (the catalogue's page.pair.<key>) in the page's language,
 * its {name}s filled from vals. */
const tr = (key, vals = {}) => fill('pair.' + key, state.lang, vals);

export class Pairing {
  constructor(link) {
    this.link = link;
    this.title = el('h2', { id: 'remote-pair-title' });
    this.body = el('div', { class: 'class-big-body' });
    this.closeBtn = el('button', { 'data-testid': 'remote-pair-close', onclick: () => this.close() });
    this.overlay = el('div', { class: 'overlay', hidden: true, 'data-testid': 'remote-pair', 'aria-labelledby': 'remote-pair-title', 'aria-modal': 'true' },
      el('div', { class: 'card class-pair' }, this.title, this.body, this.closeBtn));
    this.overlay.setAttribute('role', 'dialog');
    document.body.append(this.overlay);
    this.shown = null;
  }

  /** button is the class bar's Remote button for the class with code. */
  button(code) {
    return el('button', { 'data-testid': 'remote-open', title: tr('remoteTip'), onclick: () => this.ask(code) }, tr('remote'));
  }

  ask(code) {
    const key = localStorage.getItem('lockstep.teach.' + code) || '';
    this.link.send('class-remote-link', { origin: location.origin, key });
  }

  /** onMessage takes the server's remote-link; true when it did. */
  onMessage(m) {
    if (m.type === 'remote-paired') { this.close(); return true; } // the phone is in: the code is spent
    if (m.type !== 'remote-link' || !m.pairing) return false;
    this.shown = m.pairing;
    this.render();
    this.overlay.hidden = false;
    this.closeBtn.focus();
    clearTimeout(this.timer);
    // The link is spent after its time: the QR code goes with it.
    this.timer = setTimeout(() => this.close(), m.pairing.seconds * 1000);
    return true;
  }

  close() {
    this.overlay.hidden = true;
    this.shown = null;
    clearTimeout(this.timer);
  }

  render() {
    const p = this.shown;
    if (!p) return;
    this.title.textContent = tr('title');
    this.closeBtn.textContent = tr('close');
    this.body.textContent = '';
    this.body.append(qrSVG(p.qr, 300), el('p', {}, tr('how', { s: p.seconds })), el('p', {}, el('code', { 'data-testid': 'remote-link' }, p.link)));
  }
}
