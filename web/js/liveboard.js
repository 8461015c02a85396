// The game page's board, as chessground is to lichess: told the state and
// whether this page may play, it owns what only the board needs: the cell
// chosen by a first tap on cells too small for a finger (a second tap
// plays it), the opponent's steps landing one by one, and the board
// turned for O in pass-and-play. It decides no rule: the legal cells,
// the mover and the previous turn are the server's.

import { drawBoard } from './board.js';
import { t } from './i18n.js';

/** The time between two of the opponent's steps landing (as in style.css). */
export const ARRIVE_MS = 300;

/** Cells narrower than this (CSS pixels) are chosen by a tap, played by a second. */
const FINGER_PX = 36;

/**
 * @typedef {import('./api.js').GameState} GameState
 * @typedef {import('./api.js').Held} Held
 * @typedef {{cells: string[], since: number}} Landing
 */

/**
 * The live board in `el`, its hint for a chosen cell in `confirm`.
 * @param {HTMLElement} el
 * @param {HTMLElement} confirm
 * @param {{refusal: () => string | null, play: (cell: string) => void, say: (message: string) => void}} to
 *   `refusal`: why a tap cannot play now ('' if it can; null: say nothing);
 *   `play`: plays a cell; `say`: says why not
 */
export function liveBoard(el, confirm, to) {
  /** The cell chosen by a first tap, and the step it was chosen at. */
  let chosen = '';
  let chosenAt = -1;
  /** The step count of the board last drawn (-1: none yet). */
  let drawnSeq = -1;
  /** The opponent's turn being played out: at which seq, its cells, since when. */
  let arrival = { seq: -1, cells: /** @type {string[]} */ ([]), at: 0 };
  /** The legal cells of the board drawn, and its step count. */
  let legal = /** @type {string[]} */ ([]);
  let seq = -1;

  /** A cell's width on the screen, in CSS pixels. */
  function cellPixels() {
    const ground = el.querySelector('[data-cell] .ground');
    return ground ? ground.getBoundingClientRect().width : 100;
  }

  /** Marks the chosen cell and says how to play it. */
  function markChosen() {
    el.querySelectorAll('.chosen').forEach((c) => c.classList.remove('chosen'));
    if (chosen) el.querySelector(`[data-cell="${chosen}"]`)?.classList.add('chosen');
    confirm.textContent = chosen ? t('Tap {cell} again to play it.', { cell: chosen }) : '';
  }

  /**
   * @param {string} cell
   * @param {string} how  `tap` or `key`
   */
  function tapped(cell, how) {
    const why = to.refusal();
    if (why === null) return;
    if (why) {
      to.say(why);
      return;
    }
    // Too small for a finger: a tap chooses, a second tap on the same cell
    // plays it. The keyboard plays at once.
    if (how === 'tap' && cellPixels() < FINGER_PX && chosen !== cell && legal.includes(cell)) {
      chosen = cell;
      chosenAt = seq;
      markChosen();
      return;
    }
    chosen = '';
    markChosen();
    to.play(cell);
  }

  return {
    /**
     * The cells of the steps that arrived since the board was last drawn
     * and that this page did not play: the opponent's turn, once it is
     * this seat's turn again; every new step for a watcher; none the
     * first time or with both seats here, nor where nothing moves (e-ink,
     * reduced motion). An arrival under way is carried on, not started
     * over. With how long it has been landing.
     * @param {GameState} s
     * @param {Held | null} seat
     * @returns {Landing}
     */
    landing(s, seat) {
      const both = Boolean(seat && seat.tokens);
      // (In fog, an enemy step not seen is '?': nothing to show landing.)
      const fresh = drawnSeq >= 0 && s.seq > drawnSeq ? s.steps.slice(drawnSeq).filter((c) => c !== '?') : [];
      const was = drawnSeq;
      drawnSeq = s.seq;
      const still = document.documentElement.dataset.theme === 'eink'
        || matchMedia('(prefers-reduced-motion: reduce)').matches;
      if (s.seq === was && arrival.seq === s.seq) {
        const since = performance.now() - arrival.at;
        return since < arrival.cells.length * ARRIVE_MS ? { cells: arrival.cells, since } : { cells: [], since: 0 };
      }
      const cells = both || !fresh.length || still ? []
        : !seat ? fresh.filter((c) => c !== 'pass')
        : s.to_move === seat.seat ? s.previous_turn.filter((c) => fresh.includes(c)) : [];
      arrival = { seq: s.seq, cells, at: performance.now() };
      return { cells, since: 0 };
    },

    /**
     * The board as the game stands, playable where `mine`; `arrive` the
     * cells that appear one by one; turned where `turned`.
     * @param {GameState} s
     * @param {boolean} mine
     * @param {Landing} arrive
     * @param {boolean} turned
     */
    draw(s, mine, arrive, turned) {
      legal = mine ? s.legal : [];
      seq = s.seq;
      el.classList.toggle('turned', turned);
      drawBoard(el, { ...s, legal }, tapped, { turned, arrive: arrive.cells, arrived: arrive.since });
      if (!legal.includes(chosen) || s.seq !== chosenAt) chosen = '';
      markChosen();
    },

    /**
     * A board of the past (a turn looked back at): nothing to play.
     * @param {string[]} board
     * @param {string[]} steps  the turn's steps, marked
     * @param {string} label
     */
    drawPast(board, steps, label) {
      el.classList.remove('turned');
      drawBoard(el, { board, legal: [], last_turn: steps }, () => {}, { label });
    },

    /** The next state is drawn at once, nothing landing (back from the past). */
    afresh() {
      drawnSeq = -1;
    },
  };
}
