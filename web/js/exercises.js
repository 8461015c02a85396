// A reviewed game's mistakes and blunders as exercises on the analysis
// board: "find the better turn". The board goes to the position before
// the turn; the player steps a whole turn there; it is found when it
// leaves the board as the engine's better turn does (the server replays
// both: the page compares the positions it is given, it decides no rule).

import { replay } from './api.js';
import { t } from './i18n.js';
import { MARKS, turnWords } from './review.js';

/**
 * @typedef {import('./review.js').TurnJudged} TurnJudged
 * @typedef {import('./history.js').Frame} Frame
 * @typedef {{turn: TurnJudged, from: number, outcome: '' | 'found' | 'missed' | 'same'}} Exercise
 */

/** The most exercises a game gives: its largest swings. */
export const MOST_EXERCISES = 5;

/**
 * How much a turn cost its mover: the fall in its side's chance to win.
 * @param {TurnJudged} turn
 */
const swing = (turn) => (turn.side === 'x' ? 1 : -1) * (turn.x_win_before - turn.x_win_after);

/**
 * The turns worth an exercise: mistakes and blunders whose better turn
 * differs, at most the five that cost the most, in the game's order.
 * @param {import('./review.js').GameAnalysis} review
 */
export function exercisesOf(review) {
  const worth = review.turns.filter((turn) => (turn.judgement === 'mistake' || turn.judgement === 'blunder')
    && turn.best.join('-') !== turn.steps.join('-'));
  const largest = new Set([...worth].sort((a, b) => swing(b) - swing(a)).slice(0, MOST_EXERCISES));
  return worth.filter((turn) => largest.has(turn));
}

/**
 * The list of exercises, each a button that starts it; those done marked.
 * @param {HTMLElement} box
 * @param {TurnJudged[]} turns
 * @param {Map<number, string>} done  outcome by turn number
 * @param {(turn: TurnJudged) => void} onStart
 */
export function drawExercises(box, turns, done, onStart) {
  box.hidden = turns.length === 0;
  if (!turns.length) return;
  const title = document.createElement('h3');
  title.textContent = t('Find the better turn');
  const found = [...done.values()].filter((o) => o === 'found').length;
  const tally = document.createElement('p');
  tally.className = 'hint';
  tally.textContent = t('{found} of {n} found', { found, n: turns.length });
  const buttons = turns.map((turn) => {
    const b = document.createElement('button');
    const outcome = done.get(turn.turn) || '';
    b.textContent = `${turnWords(turn)} ${MARKS[turn.judgement || ''] || ''}${outcome === 'found' ? ' ✓' : outcome === 'missed' ? ' ✗' : ''}`;
    b.dataset.exercise = String(turn.turn);
    b.dataset.outcome = outcome;
    b.addEventListener('click', () => onStart(turn));
    return b;
  });
  const row = document.createElement('div');
  row.className = 'row';
  row.append(...buttons);
  box.replaceChildren(title, tally, row);
}

/**
 * Where the board stands in an exercise: the steps tried from its start
 * along the line shown, and whether they make a whole turn.
 * @param {Exercise} ex
 * @param {Frame[]} line  the frames from the game's start to the end of the line shown
 * @param {number} at  the frame shown
 */
export function tried(ex, line, at) {
  const start = line[ex.from];
  if (!start || at <= ex.from) return { steps: [], whole: false };
  // One turn only: no turn ended before `at`.
  if (line.slice(ex.from + 1, at).some((f) => f.turn_start || f.ending !== null)) return { steps: [], whole: false };
  const steps = line.slice(ex.from + 1, at + 1).map((f) => f.step || '');
  const f = line[at];
  return { steps, whole: f.turn_start || f.ending !== null };
}

/**
 * Judges a whole turn tried from the exercise's start: the turn played
 * again, the engine's better turn (the same board after it), or another.
 * @param {Exercise} ex
 * @param {Frame} start  the position before the turn
 * @param {string[]} steps  the turn tried
 * @param {Frame} after  the position it left
 * @returns {Promise<'found' | 'missed' | 'same'>}
 */
export async function judgeTried(ex, start, steps, after) {
  if (steps.join('-') === ex.turn.steps.join('-')) return 'same';
  const r = await replay({ position: start.position, moves: ex.turn.best });
  return r.frames[r.frames.length - 1].position === after.position ? 'found' : 'missed';
}

/**
 * The words for an exercise as it stands.
 * @param {Exercise} ex
 */
export function exerciseText(ex) {
  const best = ex.turn.best.join('-');
  switch (ex.outcome) {
    case 'found': return t('✓ Found: {best} is the engine\'s turn.', { best });
    case 'missed': return t('✗ Not the engine\'s turn: it was {best} (numbered on the board).', { best });
    case 'same': return t('That is the turn played: step another one.');
    default: return t('{turn}. Step a better turn for {side} on the board.', {
      turn: turnWords(ex.turn), side: ex.turn.side.toUpperCase(),
    });
  }
}
