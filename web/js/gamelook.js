// The game page's list of turns, and a look back at the board after any
// of them (the server replays the record; the page works out nothing).

import { framesOf } from './gamelink.js';
import { t } from './i18n.js';
import { turnEnds } from './history.js';

/**
 * The move list and the looks back of game `id`'s page.
 * @param {(name: string) => HTMLElement} part
 * @param {ReturnType<typeof import('./gamestore.js').gameStore>} store
 * @param {ReturnType<typeof import('./liveboard.js').liveBoard>} board
 * @param {string} id
 * @param {{gone: () => boolean, redraw: () => void}} page
 */
export function lookBacks(part, store, board, id, page) {
  /** The turn being looked back at (1-based), or 0 for the game as it is. */
  let lookingAt = 0;
  /** The game's positions step by step, fetched when first looked back at. */
  /** @type {{seq: number, frames: import('./history.js').Frame[]} | null} */
  let history = null;
  /** Counts the looks back asked for: only the newest answer is shown. */
  let looks = 0;

  /**
   * Shows the board after turn `k`, or the game as it stands for 0.
   * @param {number} k
   */
  async function lookBack(k) {
    const now = store.get().state;
    if (!now) return;
    const look = ++looks;
    if (k === 0 || k > now.turns.length) {
      lookingAt = 0;
      // Back to the game as it is: drawn at once, nothing replayed.
      board.afresh();
      part('looking').hidden = true;
      page.redraw();
      part('board').querySelector('svg')?.setAttribute('aria-label', t('board'));
      return;
    }
    if (now.fog) {
      // The record, which would show every cell, waits for the end.
      store.say(t('In fog of war the turns can be looked back at once the game is over.'));
      return;
    }
    try {
      if (!history || history.seq !== now.seq) {
        history = { seq: now.seq, frames: await framesOf(id) };
      }
      // The page may have been left, the game moved on, or another turn
      // been asked for meanwhile.
      const state = store.get().state;
      if (page.gone() || !state || look !== looks) return;
      const ends = turnEnds(history.frames);
      const frame = history.frames[ends[k - 1]];
      if (!frame) return;
      lookingAt = k;
      const start = k > 1 ? ends[k - 2] + 1 : 1;
      const steps = history.frames.slice(start, ends[k - 1] + 1).map((f) => f.step || '');
      const label = t('Turn {k} of {n}', { k, n: state.turns.length });
      board.drawPast(frame.board, steps, label);
      part('looking-at').textContent = label;
      part('looking').hidden = false;
      page.redraw();
    } catch (e) {
      if (!page.gone()) store.say(/** @type {Error} */ (e).message);
    }
  }
  part('back').addEventListener('click', () => { lookBack(0); });

  return {
    /** The turn looked back at, or 0. */
    at: () => lookingAt,
    /**
     * The list of `s`'s turns, each a button that looks back at it.
     * @param {import('./api.js').GameState} s
     */
    list(s) {
      const moves = part('moves');
      moves.replaceChildren(...s.turns.map((text, k) => {
        const li = document.createElement('li');
        const b = document.createElement('button');
        b.className = 'turn';
        b.textContent = text;
        b.dataset.turn = String(k + 1);
        if (k + 1 === lookingAt) b.setAttribute('aria-current', 'step');
        b.addEventListener('click', () => { lookBack(k + 1); });
        li.append(b);
        return li;
      }));
      // The list follows the game (where it is a box of its own).
      if (!lookingAt) moves.scrollTop = moves.scrollHeight;
    },
  };
}
