// The puzzle trainer (#/puzzles, #/puzzles/ID): one puzzle at a time, at
// the player's puzzle rating when logged in, any theme or one. The player
// steps a whole turn (legal cells from the server's replay of the line),
// the server judges it: right, and the reply is played (or it is solved);
// wrong, and the solution is shown numbered on the board. The ratings and
// every judgement come from the server; the page knows no rule. The state
// and every request are the store's (puzzlestore.js); this file draws it.

import { drawBoard } from './board.js';
import { isOver, puzzleStore } from './puzzlestore.js';
import { ratingText } from './account.js';
import { statusWithEnding, t, tn } from './i18n.js';
import { variantName } from './newgame.js';
import { keepPuzzleChoice, puzzleChoiceKept } from './stored.js';

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
/** What each theme means: a fact about the winning turn (docs/puzzles.md). */
const THEME_MEANS = /** @type {Record<string, () => string>} */ ({
  'cut-off-group': () => t('The turn takes at least half of the cells the other side could step on.'),
  bunker: () => t('The turn kills at least two viruses: a wall of your zombies.'),
  fortress: () => t('Afterwards the other side can reach none of your viruses.'),
  'last-live-virus': () => t('The turn leaves the other side one virus.'),
  'race-for-an-entry-cell': () => t('A side has not entered the board yet.'),
});

/**
 * This visit's puzzles: how many were tried and solved at the first try,
 * and the run of first-try solves going on (kept while the page is open).
 */
const visit = { tried: 0, solved: 0, streak: 0, counted: new Set() };

/** @param {string} text */
const esc = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The puzzle page, its parts empty, with the theme and variant `choice`
 * selected.
 * @param {{theme: string, variant: string}} choice
 * @returns {string}
 */
function puzzlePageHtml(choice) {
  return `<div class="game puzzle">
    <div><div class="board" data-board></div></div>
    <div>
      <h2>${t('Puzzles')}</h2>
      <p class="status" data-status></p>
      <p data-task></p>
      <div class="row">
        <button data-again disabled>${t('Start the turn again')}</button>
        <button data-pass hidden>${t('Pass')}</button>
        <button data-show-solution hidden>${t('View the solution')}</button>
        <button data-next>${t('Next puzzle')}</button>
      </div>
      <p class="verdict" data-verdict role="status"></p>
      <p data-line hidden></p>
      <p data-rating></p>
      <p class="hint" data-visit></p>
      <p class="hint" data-about></p>
      <ul class="hint" data-themes></ul>
      <p class="error" data-error role="alert"></p>
      <div class="row">
        <label class="field">${t('Theme')} <select data-theme><option value="">${t('any theme')}</option>${THEMES.map((th) => `<option value="${th}" ${th === choice.theme ? 'selected' : ''}>${esc(THEME_NAMES[th]())}</option>`).join('')}</select></label>
        <label class="field">${t('Variant')} <select data-variant><option value="">${t('any variant')}</option>${VARIANTS.map((v) => `<option value="${v}" ${v === choice.variant ? 'selected' : ''}>${esc(variantName(v))}</option>`).join('')}</select></label>
      </div>
    </div>
  </div>`;
}

/** The puzzle's figures (as the last try left them). @param {import('./puzzlestore.js').PuzzleSnapshot} s */
const aboutLine = (s) => {
  const p = /** @type {import('./puzzlestore.js').PuzzleView} */ (s.puzzle);
  const c = s.counts || p;
  const themes = p.themes.map((th) => THEME_NAMES[th] ? THEME_NAMES[th]() : th).join(', ');
  return t('Puzzle {id} · {variant} · rated {rating} · solved {solved} of {plays}', { id: p.id, variant: variantName(p.variant), rating: p.rating, solved: c.solved, plays: c.plays })
    + (themes ? ` · ${themes}` : '');
};

/** This visit's count, once a puzzle is decided (its first try). @param {import('./puzzlestore.js').PuzzleSnapshot} s */
const countVisit = (s) => {
  const p = s.puzzle;
  const decided = s.verdict === 'solved' || s.missed;
  if (!p || !decided || visit.counted.has(p.id)) return;
  visit.counted.add(p.id);
  visit.tried += 1;
  if (s.missed) visit.streak = 0;
  else { visit.solved += 1; visit.streak += 1; }
};

/** @param {import('./puzzlestore.js').PuzzleSnapshot} s */
const ratingLine = (s) => {
  const p = /** @type {import('./puzzlestore.js').PuzzleView} */ (s.puzzle);
  if (s.rated) {
    const d = Math.round(s.rated.after - s.rated.before);
    return t('Your puzzle rating: {before} → {after} ({change})', { before: Math.round(s.rated.before), after: Math.round(s.rated.after), change: d >= 0 ? `+${d}` : String(d) });
  }
  return p.your_rating
    ? t('Your puzzle rating: {rating}', { rating: ratingText(p.your_rating) }) + (p.tried ? ` ${t('(tried before: it will not move)')}` : '')
    : t('Log in to have a puzzle rating.');
};

const VERDICTS = /** @type {Record<string, (s: import('./puzzlestore.js').PuzzleSnapshot) => string>} */ ({
  '': () => '',
  right: () => t('✓ Right. The reply is played: go on.'),
  solved: () => t('✓ Solved!'),
  wrong: () => t('✗ Not the winning turn (yours is marked). Try again, or view the solution.'),
  shown: (s) => t('The winning turn, numbered on the board: {turn}.', { turn: (s.solution || []).join('-') }),
});
// Solved after a miss: said so (the rating moved on the first try).
const solvedAfterMiss = () => t('✓ Solved, after a miss (the rating moves on the first try only).');

/**
 * @param {HTMLElement} root
 * @param {string} [id] a puzzle to open; else the next one
 * @returns {() => void} what leaving the page does
 */
export function showPuzzles(root, id = '') {
  /** The theme and variant chosen, kept for the next visit. */
  /** @type {{theme: string, variant: string}} */
  let choice = { theme: '', variant: '' };
  // A choice that does not read: any theme, any variant.
  const kept = /** @type {Record<string, unknown> | null} */ (puzzleChoiceKept());
  for (const key of /** @type {const} */ (['theme', 'variant'])) {
    const value = kept && typeof kept === 'object' && Object.hasOwn(kept, key) ? kept[key] : '';
    if (typeof value === 'string') choice[key] = value;
  }
  root.innerHTML = puzzlePageHtml(choice);
  /** @param {string} name */
  const part = (name) => /** @type {HTMLElement} */ (root.querySelector(`[data-${name}]`));
  const store = puzzleStore();

  /** What is said of the puzzle: the task, what it is, the player's rating. @param {import('./puzzlestore.js').PuzzleView} p */
  const about = (p) => {
    const mover = (p.start.to_move || '').toUpperCase();
    const steps = tn('{n} steps', p.start.steps_left);
    part('task').textContent = p.turns_to_find > 1
      ? t('{side} to play: find the winning turn ({steps}), then {n} more after the replies.', { side: mover, steps, n: p.turns_to_find - 1 })
      : t('{side} to play: find the winning turn ({steps}).', { side: mover, steps });
    part('themes').replaceChildren(...p.themes.filter((th) => THEME_MEANS[th]).map((th) => {
      const li = document.createElement('li');
      const name = document.createElement('b');
      name.textContent = THEME_NAMES[th]();
      li.append(name, `: ${THEME_MEANS[th]()}`);
      return li;
    }));
    root.dataset.puzzle = p.id;
    if (location.hash !== `#/puzzles/${p.id}`) history.replaceState(null, '', `#/puzzles/${p.id}`);
  };

  /** @type {import('./puzzlestore.js').PuzzleView | null} */
  let told = null;
  /** @param {import('./puzzlestore.js').PuzzleSnapshot} s */
  const draw = (s) => {
    part('error').textContent = s.error;
    const { frame, puzzle } = s;
    if (!frame || !puzzle) return;
    if (puzzle !== told) about(puzzle);
    told = puzzle;
    const over = isOver(s);
    const legal = over || s.busy || s.showing ? [] : frame.legal;
    const played = s.line.slice(s.turnStart);
    const side = puzzle.start.to_move || 'x';
    const labels = s.verdict === 'shown' && s.solution ? new Map(s.solution.map((cell, k) => [cell, { text: String(k + 1), side }])) : undefined;
    drawBoard(part('board'), { board: frame.board, legal, last_turn: played.length ? played : s.marked }, (cell) => { store.step(cell); }, { labels });
    part('pass').hidden = !legal.includes('pass');
    part('again').toggleAttribute('disabled', over || s.busy || s.showing || s.line.length === s.turnStart);
    const status = part('status');
    status.textContent = statusWithEnding(frame);
    status.dataset.status = frame.status;
    const verdict = part('verdict');
    verdict.textContent = s.verdict === 'solved' && s.missed ? solvedAfterMiss() : VERDICTS[s.verdict](s);
    verdict.dataset.verdict = s.verdict;
    part('show-solution').hidden = !s.missed || over;
    part('show-solution').toggleAttribute('disabled', s.busy || s.showing);
    // Once done, the line to its win, turn by turn.
    const line = part('line');
    line.hidden = !over || !s.whole;
    line.textContent = over && s.whole
      ? t('The winning line: {line}', { line: s.whole.map((turn, k) => `${k + 1}. ${turn.join('-')}`).join(' ') })
        + (frame.ending ? '' : ` ${t('The game goes on, but {side} wins whatever the other side plays (proved by the solver).', { side: side.toUpperCase() })}`)
        + (frame.ending || !s.toTheEnd?.length ? '' : ` ${t('One way to the end: {line}', { line: s.toTheEnd.map((turn, k) => `${k + 1 + (s.whole?.length || 0)}. ${turn.join('-')}`).join(' ') })}`)
      : '';
    line.dataset.toTheEnd = s.toTheEnd?.length && !frame.ending ? String(s.toTheEnd.length) : '';
    part('rating').textContent = ratingLine(s);
    part('about').textContent = aboutLine(s);
    countVisit(s);
    part('visit').textContent = visit.tried
      ? t('This visit: {solved} of {tried} solved at the first try · streak {streak}', { solved: visit.solved, tried: visit.tried, streak: visit.streak })
      : '';
  };

  part('next').addEventListener('click', () => { store.next(choice); });
  part('pass').addEventListener('click', () => { store.step('pass'); });
  part('again').addEventListener('click', () => { store.again(); });
  part('show-solution').addEventListener('click', () => { store.showSolution(); });
  for (const name of ['theme', 'variant']) {
    const select = /** @type {HTMLSelectElement} */ (part(name));
    select.addEventListener('change', () => {
      choice = { ...choice, [name]: select.value };
      keepPuzzleChoice(choice);
      store.next(choice);
    });
  }
  store.subscribe(draw);
  if (id) store.open(id);
  else store.next(choice);
  return () => { store.stop(); };
}
