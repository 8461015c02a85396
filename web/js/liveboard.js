// The game page's board, as chessground is to lichess: told the state and
// whether this page may play, it owns what only the board needs: how a
// finger plays a cell (one tap; on cells too small for a finger, a lens
// under it: press, slide, release; with "confirm each step", a first tap
// that chooses), the opponent's steps landing one by one, and the board
// turned for O in pass-and-play. It decides no rule: the legal cells, the
// mover and the previous turn are the server's.

import { drawBoard } from './board.js';
import { t } from './i18n.js';
import { setting } from './stored.js';

/** The time between two of the opponent's steps landing (as in style.css). */
export const ARRIVE_MS = 300;

/**
 * Cells narrower than this (CSS pixels) are played by a finger through the
 * lens: every preset up to 13×13 is wider on a 390 px phone, so one tap
 * plays there.
 */
export const FINGER_PX = 24;

/** The longest time between the two taps of a double tap (ms). */
const TURNED_HOLD_MS = 500;

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
  /** The cell chosen by a first tap ("confirm each step"), and the step it was chosen at. */
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

  /** When the board last turned round (pass-and-play hands it over). */
  let turnedAt = -Infinity;
  let wasTurned = false;
  /** Where and when the last two presses on the board were. */
  let press = { x: 0, y: 0, at: -Infinity };
  let pressBefore = press;
  el.addEventListener('pointerdown', (e) => {
    pressBefore = press;
    press = { x: e.clientX, y: e.clientY, at: performance.now() };
  }, { capture: true });

  /**
   * Whether the last press is the second of a double tap across the board
   * turning round: at the same point, within half a second, the board
   * turned in between (it would land on the mirrored cell, for the other
   * side).
   */
  function acrossTheTurn() {
    const near = Math.hypot(press.x - pressBefore.x, press.y - pressBefore.y) < cellPixels();
    return near && press.at - pressBefore.at < TURNED_HOLD_MS && turnedAt > pressBefore.at;
  }

  /**
   * @param {string} cell
   * @param {string} how  `tap` or `key`
   */
  function tapped(cell, how) {
    // A finger on cells too small for it plays through the lens, on release.
    if (how === 'tap' && lens.owns()) return;
    // The board turned round for the other side between the two taps of
    // a double tap: the second is not taken.
    if (how !== 'key' && acrossTheTurn()) return;
    const why = to.refusal();
    if (why === null) return;
    if (why) {
      to.say(why);
      return;
    }
    // "Confirm each step": a tap chooses, a second tap on the same cell
    // plays it. The keyboard plays at once.
    if (how === 'tap' && setting('confirm-steps') === 'yes' && chosen !== cell && legal.includes(cell)) {
      chosen = cell;
      chosenAt = seq;
      markChosen();
      return;
    }
    chosen = '';
    markChosen();
    to.play(cell);
  }

  const lens = fingerLens(el, cellPixels, (cell) => tapped(cell, 'lens'));

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
      if (turned !== wasTurned) turnedAt = performance.now();
      wasTurned = turned;
      el.classList.toggle('turned', turned);
      drawBoard(el, { ...s, legal }, tapped, { turned, arrive: arrive.cells, arrived: arrive.since });
      // A finger slides over small cells without scrolling the page.
      el.style.touchAction = cellPixels() < FINGER_PX ? 'none' : '';
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

/**
 * The lens of a board whose cells are too small for a finger: a touch
 * pressed on the board shows, above the finger, the cells around the one
 * under it, magnified, with that cell's name; sliding moves it; releasing
 * plays that cell (`play`); a touch that leaves the board, or is taken
 * over by the browser (a scroll, a second finger), plays nothing.
 * @param {HTMLElement} board
 * @param {() => number} cellPixels
 * @param {(cell: string) => void} play
 */
function fingerLens(board, cellPixels, play) {
  const view = document.createElement('div');
  view.className = 'lens';
  view.dataset.lens = '';
  view.hidden = true;
  view.setAttribute('aria-hidden', 'true');
  const name = document.createElement('span');
  view.append(name);
  /** The touch being followed, and the cell under it. */
  let pointer = -1;
  let aimed = '';
  /** A second finger came down (a pinch): nothing is played until all lift. */
  let fingers = 0;
  let called = false;
  /** When the last touch on small cells ended: its click is not a tap. */
  let endedAt = -Infinity;

  const small = () => cellPixels() < FINGER_PX;

  /** @param {PointerEvent} e */
  function aim(e) {
    const hit = document.elementFromPoint(e.clientX, e.clientY)?.closest('[data-cell]');
    const cell = hit && board.contains(hit) ? hit.getAttribute('data-cell') || '' : '';
    board.querySelectorAll('.aimed').forEach((c) => c.classList.remove('aimed'));
    aimed = cell;
    const svg = board.querySelector('svg');
    if (!cell || !svg || !hit) {
      view.hidden = true;
      return;
    }
    hit.classList.add('aimed');
    // The cells around the aimed one, three across, drawn from the board.
    const ground = /** @type {SVGRectElement | null} */ (hit.querySelector('.ground'));
    const x = Number(ground?.getAttribute('x') || 0);
    const y = Number(ground?.getAttribute('y') || 0);
    const copy = /** @type {SVGSVGElement} */ (svg.cloneNode(true));
    copy.removeAttribute('role');
    copy.setAttribute('viewBox', `${x - 1} ${y - 1} 3 3`);
    // A picture only: no cell of the page's board, nothing to focus.
    copy.querySelectorAll('[data-cell]').forEach((c) => {
      for (const a of ['data-cell', 'data-legal', 'data-content', 'tabindex', 'role', 'aria-label']) c.removeAttribute(a);
    });
    name.textContent = cell;
    view.replaceChildren(copy, name);
    // (A board drawn again meanwhile, a step arriving, dropped it.)
    if (!view.isConnected) board.append(view);
    const box = board.getBoundingClientRect();
    const size = view.offsetWidth || 96;
    // Above the finger, kept on the screen.
    const left = Math.min(Math.max(e.clientX - box.left - size / 2, 0), box.width - size);
    const top = e.clientY - box.top - size - 48;
    view.style.left = `${left}px`;
    view.style.top = `${Math.max(top, -size)}px`;
    view.hidden = false;
  }

  function end() {
    pointer = -1;
    view.hidden = true;
    board.querySelectorAll('.aimed').forEach((c) => c.classList.remove('aimed'));
    endedAt = performance.now();
  }

  board.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' || !small()) return;
    fingers += 1;
    if (pointer >= 0 || fingers > 1) {
      // Two fingers: a pinch, not a step.
      called = true;
      end();
      return;
    }
    called = false;
    pointer = e.pointerId;
    aim(e);
  });
  board.addEventListener('pointermove', (e) => {
    if (e.pointerId === pointer) aim(e);
  });
  /** @param {PointerEvent} e */
  const lifted = (e) => {
    // Only the touches the lens counted (on a board of small cells).
    if (e.pointerType === 'mouse' || fingers === 0) return;
    fingers -= 1;
    endedAt = performance.now();
  };
  board.addEventListener('pointerup', (e) => {
    lifted(e);
    if (e.pointerId !== pointer || called) {
      if (!fingers) called = false;
      return;
    }
    aim(e);
    const cell = aimed;
    end();
    if (cell) play(cell);
  });
  board.addEventListener('pointercancel', (e) => {
    lifted(e);
    if (e.pointerId === pointer) end();
    if (!fingers) called = false;
  });

  return {
    /** Whether a touch on this board is the lens's (its click is no tap). */
    owns() {
      return pointer >= 0 || fingers > 0 || performance.now() - endedAt < 600;
    },
  };
}
