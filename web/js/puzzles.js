// The puzzle trainer (#/puzzles, #/puzzles/ID): one puzzle at a time, at
// the player's puzzle rating when logged in, any theme or one. The player
// steps a whole turn (legal cells from the server's replay of the line),
// the server judges it: right, and the reply is played (or it is solved);
// wrong, and the solution is shown numbered on the board. The ratings and
// every judgement come from the server; the page knows no rule.

import { call, replay as replayAll } from './api.js';
import { drawBoard } from './board.js';
import { ratingText } from './account.js';
import { statusWithEnding, t } from './i18n.js';
import { keepPuzzleChoice, puzzleChoiceKept } from './stored.js';

/**
 * @typedef {import('./history.js').Frame} Frame
 * @typedef {{id: string, variant: string, start: Frame, turns_to_find: number, themes: string[],
 *   rating: number, plays: number, solved: number, tried: boolean,
 *   your_rating: import('./account.js').Rating | null}} PuzzleView
 * @typedef {{correct: boolean, reply: string[], done: boolean, solution: string[][] | null,
 *   your_rating: {before: number, after: number, rd: number} | null, puzzle_rating: number}} Answer
 */

// The themes and variants the shipped set has puzzles of (the API takes
// every theme and preset; race-for-an-entry-cell and korobkov's small
// boards, the same as paper-tactics's, have none).
const THEMES = ['cut-off-group', 'bunker', 'fortress', 'last-live-virus'];
const THEME_NAMES = /** @type {Record<string, () => string>} */ ({
  'cut-off-group': () => t('cut-off group'),
  bunker: () => t('bunker'),
  fortress: () => t('fortress'),
  'last-live-virus': () => t('last live virus'),
  'race-for-an-entry-cell': () => t('race for an entry cell'),
});
const VARIANTS = ['classic', 'classic-pass', 'paper-tactics', 'gcr', 'feup', 'iggamecenter'];
/** The theme and variant chosen, kept for the next visit. */

/** @param {string} text */
const esc = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * @param {HTMLElement} root
 * @param {string} [id] a puzzle to open; else the next one
 * @returns {() => void} what leaving the page does
 */
export function showPuzzles(root, id = '') {
  let gone = false;
  /** @type {{theme: string, variant: string}} */
  let choice = { theme: '', variant: '' };
  // A choice that does not read: any theme, any variant.
  const kept = /** @type {Record<string, unknown> | null} */ (puzzleChoiceKept());
  for (const key of /** @type {const} */ (['theme', 'variant'])) {
    const value = kept && typeof kept === 'object' && Object.hasOwn(kept, key) ? kept[key] : '';
    if (typeof value === 'string') choice[key] = value;
  }
  root.innerHTML = `<div class="game puzzle">
    <div><div class="board" data-board></div></div>
    <div>
      <h2>${t('Puzzles')}</h2>
      <p class="status" data-status></p>
      <p data-task></p>
      <div class="row">
        <button data-again disabled>${t('Start the turn again')}</button>
        <button data-pass hidden>${t('Pass')}</button>
        <button data-next>${t('Next puzzle')}</button>
      </div>
      <p class="verdict" data-verdict role="status"></p>
      <p data-rating></p>
      <p class="hint" data-about></p>
      <p class="error" data-error role="alert"></p>
      <div class="row">
        <label class="field">${t('Theme')} <select data-theme><option value="">${t('any theme')}</option>${THEMES.map((th) => `<option value="${th}" ${th === choice.theme ? 'selected' : ''}>${esc(THEME_NAMES[th]())}</option>`).join('')}</select></label>
        <label class="field">${t('Variant')} <select data-variant><option value="">${t('any variant')}</option>${VARIANTS.map((v) => `<option value="${v}" ${v === choice.variant ? 'selected' : ''}>${esc(v)}</option>`).join('')}</select></label>
      </div>
    </div>
  </div>`;
  /** @param {string} name */
  const part = (name) => /** @type {HTMLElement} */ (root.querySelector(`[data-${name}]`));
  /** @type {PuzzleView | null} */
  let puzzle = null;
  /** The line from the puzzle's position: right turns, replies, the turn being stepped. */
  /** @type {string[]} */
  let line = [];
  /** Where the turn being stepped starts in `line`. */
  let turnStart = 0;
  /** @type {Frame | null} */
  let frame = null;
  /** The other side's turn just played, marked on the board. */
  /** @type {string[]} */
  let marked = [];
  /** Numbers on cells: the solution's turn, once shown. */
  /** @type {Map<string, {text: string, side: string}> | undefined} */
  let labels;
  /** Whole turns in `line` before the turn being stepped. */
  let turnsPlayed = 0;
  /** Solved or failed: the board takes no more steps. */
  let over = false;
  let busy = false;

  const fail = (/** @type {unknown} */ e) => {
    busy = false;
    if (!gone) part('error').textContent = e instanceof Error ? e.message : String(e);
  };

  const draw = () => {
    if (!frame || !puzzle) return;
    const legal = over || busy ? [] : frame.legal;
    const played = line.slice(turnStart);
    drawBoard(part('board'), { board: frame.board, legal, last_turn: played.length ? played : marked }, (cell) => step(cell), { labels });
    part('pass').hidden = !legal.includes('pass');
    part('again').toggleAttribute('disabled', over || busy || line.length === turnStart);
    const status = part('status');
    status.textContent = statusWithEnding(frame);
    status.dataset.status = frame.status;
  };

  /** The board after the line (a replay from the puzzle's position). */
  const replay = async () => {
    if (!puzzle) return null;
    const r = await replayAll({ position: puzzle.start.position, moves: line });
    return /** @type {Frame} */ (r.frames[r.frames.length - 1]);
  };

  const rating = (/** @type {string} */ text) => { part('rating').textContent = text; };

  /** @param {PuzzleView} p */
  const start = (p) => {
    puzzle = p;
    line = [];
    turnStart = 0;
    turnsPlayed = 0;
    marked = [];
    labels = undefined;
    over = false;
    busy = false;
    frame = p.start;
    const mover = (p.start.to_move || '').toUpperCase();
    part('task').textContent = p.turns_to_find > 1
      ? t('{side} to play: find the winning turn, then {n} more after the replies.', { side: mover, n: p.turns_to_find - 1 })
      : t('{side} to play: find the winning turn.', { side: mover });
    part('verdict').textContent = '';
    part('verdict').dataset.verdict = '';
    part('error').textContent = '';
    const themes = p.themes.map((th) => THEME_NAMES[th] ? THEME_NAMES[th]() : th).join(', ');
    part('about').textContent = t('Puzzle {id} · {variant} · rated {rating} · solved {solved} of {plays}', { id: p.id, variant: p.variant, rating: p.rating, solved: p.solved, plays: p.plays })
      + (themes ? ` · ${themes}` : '');
    rating(p.your_rating
      ? t('Your puzzle rating: {rating}', { rating: ratingText(p.your_rating) }) + (p.tried ? ` ${t('(tried before: it will not move)')}` : '')
      : t('Log in to have a puzzle rating.'));
    root.dataset.puzzle = p.id;
    if (location.hash !== `#/puzzles/${p.id}`) history.replaceState(null, '', `#/puzzles/${p.id}`);
    draw();
  };

  const next = () => {
    const q = new URLSearchParams();
    if (choice.theme) q.set('theme', choice.theme);
    if (choice.variant) q.set('variant', choice.variant);
    if (puzzle) q.set('not', puzzle.id);
    part('error').textContent = '';
    call('GET', `/api/puzzles/next?${q}`).then((p) => { if (!gone) start(p); }, fail);
  };

  /** @param {Answer} a */
  const judged = async (a) => {
    if (!puzzle) return;
    if (a.your_rating) {
      const d = Math.round(a.your_rating.after - a.your_rating.before);
      rating(t('Your puzzle rating: {before} → {after} ({change})', { before: Math.round(a.your_rating.before), after: Math.round(a.your_rating.after), change: d >= 0 ? `+${d}` : String(d) }));
    }
    const verdict = part('verdict');
    if (!a.correct) {
      over = true;
      const right = (a.solution || [])[turnsPlayed] || [];
      verdict.textContent = t('✗ Not the winning turn (yours is framed). The winning turn, numbered on the board: {turn}.', { turn: right.join('-') });
      verdict.dataset.verdict = 'wrong';
      // Back to the position before the wrong turn, the right one numbered.
      const wrongTurn = line.slice(turnStart);
      line = line.slice(0, turnStart);
      frame = await replay();
      const side = puzzle.start.to_move || 'x';
      labels = new Map(right.map((cell, k) => [cell, { text: String(k + 1), side }]));
      marked = wrongTurn;
      turnStart = line.length;
      busy = false;
      draw();
      return;
    }
    if (a.done) {
      over = true;
      verdict.textContent = t('✓ Solved!');
      verdict.dataset.verdict = 'solved';
      busy = false;
      marked = line.slice(turnStart);
      turnStart = line.length;
      draw();
      return;
    }
    verdict.textContent = t('✓ Right. The reply is played: go on.');
    verdict.dataset.verdict = 'right';
    line = line.concat(a.reply);
    marked = a.reply;
    turnStart = line.length;
    frame = await replay();
    busy = false;
    draw();
  };

  /** @param {string} cell */
  const step = async (cell) => {
    if (!puzzle || !frame || over || busy || !frame.legal.includes(cell)) return;
    busy = true;
    part('error').textContent = '';
    // Where the board was: back to it if a request fails; an answer that
    // comes after "Next puzzle" is dropped.
    const [was, wasLine, wasStart, wasMarked] = [puzzle, line, frame, marked];
    line = line.concat([cell]);
    try {
      const f = await replay();
      if (gone || puzzle !== was || !f) return;
      frame = f;
      const whole = f.turn_start || f.ending !== null;
      if (!whole) {
        busy = false;
        draw();
        return;
      }
      draw();
      /** @type {Answer} */
      const a = await call('POST', `/api/puzzles/${puzzle.id}/attempt`, { steps: line });
      if (gone || puzzle !== was) return;
      if (a.correct && !a.done) turnsPlayed += 2;
      await judged(a);
    } catch (e) {
      if (gone || puzzle !== was) return;
      [line, frame, marked] = [wasLine, wasStart, wasMarked];
      fail(e);
      draw();
    }
  };

  part('next').addEventListener('click', next);
  part('pass').addEventListener('click', () => step('pass'));
  part('again').addEventListener('click', async () => {
    if (over || busy) return;
    line = line.slice(0, turnStart);
    frame = await replay().catch((e) => { fail(e); return frame; });
    draw();
  });
  for (const name of ['theme', 'variant']) {
    const select = /** @type {HTMLSelectElement} */ (part(name));
    select.addEventListener('change', () => {
      choice = { ...choice, [name]: select.value };
      keepPuzzleChoice(choice);
      next();
    });
  }
  if (id) {
    call('GET', `/api/puzzles/${encodeURIComponent(id)}`).then((p) => { if (!gone) start(p); }, fail);
  } else {
    next();
  }
  return () => { gone = true; };
}
