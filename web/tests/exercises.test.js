// A review's exercises (js/exercises.js): the mistakes and blunders whose
// better turn differs, at most the five that cost the most, in the game's
// order. No browser needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MOST_EXERCISES, exercisesOf } from '../js/exercises.js';

/**
 * A judged turn: `cost` is how much the mover's chance fell.
 * @param {number} turn @param {string | null} judgement @param {number} cost @param {boolean} [same]
 */
const judged = (turn, judgement, cost, same = false) => {
  const side = turn % 2 ? 'x' : 'o';
  const before = 0.5;
  const after = side === 'x' ? before - cost : before + cost;
  return {
    turn, side, judgement, x_win_before: before, x_win_after: after,
    steps: ['a1'], best: same ? ['a1'] : ['b2'],
  };
};

const review = (/** @type {ReturnType<typeof judged>[]} */ turns) => ({
  status: 'done', turns, accuracy: { x: 50, o: 50 }, judged: turns.length, of: turns.length,
});

test('a few mistakes are each an exercise, in the game\'s order', () => {
  const r = review([judged(1, 'mistake', 0.2), judged(2, null, 0.01), judged(3, 'inaccuracy', 0.08), judged(4, 'blunder', 0.4)]);
  assert.deepEqual(exercisesOf(/** @type {any} */ (r)).map((t) => t.turn), [1, 4]);
});

test('many mistakes: only the five that cost the most, for either side, in order', () => {
  const costs = [0.21, 0.5, 0.22, 0.3, 0.45, 0.23, 0.6, 0.35];
  const r = review(costs.map((c, k) => judged(k + 1, c >= 0.3 ? 'blunder' : 'mistake', c)));
  const got = exercisesOf(/** @type {any} */ (r)).map((t) => t.turn);
  assert.equal(got.length, MOST_EXERCISES);
  assert.deepEqual(got, [2, 4, 5, 7, 8]);
});

test('a mistake whose better turn is the one played is no exercise', () => {
  const r = review([judged(1, 'blunder', 0.5, true), judged(2, 'mistake', 0.2)]);
  assert.deepEqual(exercisesOf(/** @type {any} */ (r)).map((t) => t.turn), [2]);
});
