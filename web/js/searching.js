// Quick play's search: while a quick play game waits for its opponent, the
// game page shows how long it has been looking, a Cancel (the game is
// called off and the page goes home) and a game against the computer
// meanwhile (the search called off for a game against it, same variant).

import { call, named, remember } from './api.js';
import { t } from './i18n.js';
import { remembered, request } from './newgame.js';
import { forgetSearch, keepSearch, searchKept } from './stored.js';


/**
 * Marks game `id` as this tab's quick play search.
 * @param {string} id
 */
export function markSearching(id) {
  keepSearch({ id, since: Date.now() });
}

/**
 * When this tab began searching with game `id`, or null.
 * @param {string} id
 * @returns {number | null}
 */
function searchingSince(id) {
  try {
    const kept = /** @type {{id?: unknown, since?: unknown} | null} */ (searchKept());
    return kept && kept.id === id ? Number(kept.since) || Date.now() : null;
  } catch {
    return null;
  }
}

/** The panel's HTML, to place in the game page. */
export const searchingHtml = () => `<div class="searching" data-searching hidden>
    <p><strong>${t('Looking for an opponent…')}</strong> <span data-searching-time>0:00</span></p>
    <p>${t('The next player who taps the same tile plays you.')}</p>
    <div class="row"><button data-search="cancel">${t('Cancel')}</button>
      <button data-search="computer">${t('Play the computer meanwhile')}</button></div>
  </div>`;

/**
 * Shows the panel while game `id` of this tab's search waits (and says for
 * how long); returns whether it shows. The search ends when the game stops
 * waiting.
 * @param {HTMLElement} panel
 * @param {string} id
 * @param {boolean} waiting
 */
export function showSearching(panel, id, waiting) {
  const since = searchingSince(id);
  if (since !== null && !waiting) forgetSearch();
  const on = since !== null && waiting;
  panel.hidden = !on;
  if (on) {
    const s = Math.floor((Date.now() - since) / 1000);
    /** @type {HTMLElement} */ (panel.querySelector('[data-searching-time]')).textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  }
  return on;
}

/**
 * Wires the panel's buttons for game `id`, held with `token`.
 * @param {HTMLElement} panel
 * @param {string} id
 * @param {() => {token: string, variant: string} | null} held  the seat's token and the game's variant, now
 * @param {(message: string) => void} say  a refusal
 */
export function wireSearching(panel, id, held, say) {
  panel.querySelectorAll('[data-search]').forEach((b) => b.addEventListener('click', async () => {
    const now = held();
    if (!now) return;
    const button = /** @type {HTMLButtonElement} */ (b);
    button.disabled = true;
    try {
      // The computer's game first: if it cannot be made, the search goes on.
      const meanwhile = button.dataset.search === 'computer'
        ? await call('POST', '/api/games', named(request('computer', { ...remembered('computer'), variant: now.variant, size: '', steps: '', options: '' })))
        : null;
      // Called off only while nobody has come: one who just arrived plays.
      const state = await call('GET', `/api/games/${id}`);
      if (state.seats_free.x || state.seats_free.o) {
        await call('POST', `/api/games/${id}/abort`, undefined, now.token);
      } else if (meanwhile) {
        await call('POST', `/api/games/${meanwhile.id}/abort`, undefined, meanwhile.token).catch(() => {});
        return;
      } else {
        return;
      }
      forgetSearch();
      if (!meanwhile) {
        location.hash = '#/';
        return;
      }
      remember(meanwhile);
      location.hash = `#/game/${meanwhile.id}`;
    } catch (e) {
      say(/** @type {Error} */ (e).message);
    } finally {
      button.disabled = false;
    }
  }));
}
