// A tournament game's part of its page: the tournament it belongs to (one
// tap back to its standings) and, for a seat before its first step,
// berserk (halve your own clock: a win of 7 turns or more scores one point
// more). The server says whether the seat may berserk (GET
// /api/games/ID/tournament); the page asks again when the game moves, until
// it may not.

import { call } from './api.js';
import { t } from './i18n.js';

/** @param {unknown} text */
const esc = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Fills `box` for game `id`; `changes` is called with a function to call
 * at each new state of the game. Returns what leaving the page does.
 * @param {HTMLElement} box
 * @param {string} id
 * @param {(onState: (seq: number) => void) => void} changes
 */
export function showGameTournament(box, id, changes) {
  let gone = false;
  /** Asks while the server may still say yes: a tournament game whose seat may berserk. */
  let asking = true;
  let lastSeq = -1;
  function ask() {
    call('GET', `/api/games/${id}/tournament`).then((g) => {
      if (gone) return;
      asking = g.may_berserk;
      box.hidden = false;
      box.innerHTML = `<a href="#/tournament/${encodeURIComponent(g.id)}" data-back-to-tournament>${t('Back to {name}', { name: esc(g.name) })}</a>
        ${g.berserk[0] ? `<span class="hint">${t('X berserked')} ⚡</span>` : ''} ${g.berserk[1] ? `<span class="hint">${t('O berserked')} ⚡</span>` : ''}
        ${g.may_berserk ? `<button data-berserk title="${t('Halve your clock: a win of 7 turns or more scores one point more')}">⚡ ${t('Berserk')}</button>` : ''}`;
    }, () => {
      // No tournament's game (404), or not now: nothing shown.
      asking = false;
    });
  }
  box.addEventListener('click', (e) => {
    const b = /** @type {HTMLElement} */ (e.target).closest('[data-berserk]');
    if (!b) return;
    b.setAttribute('disabled', '');
    call('POST', `/api/games/${id}/berserk`).then(ask, (err) => {
      if (gone) return;
      b.removeAttribute('disabled');
      box.append(Object.assign(document.createElement('span'), { className: 'error', textContent: err.message }));
    });
  });
  changes((seq) => {
    if (seq !== lastSeq && asking) { lastSeq = seq; ask(); }
  });
  return () => { gone = true; };
}
