// The analysis board's lines (js/variation.js): trying a step never cuts
// the game's main line. No browser needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { current, go, index, loaded, path, tryStep } from '../js/variation.js';

/** @param {number} seq @param {string | null} step */
const frame = (seq, step) => ({
  seq, step, position: `p${seq}${step}`, board: [], legal: [], to_move: 'x', status: 'X to move', ending: null, steps_left: 1,
});
const game = [frame(0, null), frame(1, 'a1'), frame(2, 'b2'), frame(3, 'c3'), frame(4, 'e5'), frame(5, 'd4')];
const served = (/** @type {string} */ step) => async () => frame(99, step);

test('the game\'s own next step moves along it; another step branches beside it', async () => {
  let l = loaded(game, 2);
  l = await tryStep(l, 'c3', served('c3'));
  assert.deepEqual([l.branch, index(l)], [null, 3], 'along the game');
  l = await tryStep(l, 'a5', served('a5'));
  assert.equal(l.main.length, 6, 'the game keeps every step');
  assert.deepEqual([l.branch?.from, l.branch?.frames.map((f) => f.step)], [3, ['a5']]);
  assert.equal(current(l)?.step, 'a5');
  assert.equal(current(l)?.seq, 4, 'numbered from where it leaves the game');
  assert.deepEqual(path(l).map((f) => f.step), [null, 'a1', 'b2', 'c3', 'a5']);
});

test('a variation goes on, and is replaced after where the board is, never the game', async () => {
  let l = await tryStep(loaded(game, 3), 'a5', served('a5'));
  l = await tryStep(l, 'b5', served('b5'));
  l = await tryStep(l, 'c5', served('c5'));
  assert.deepEqual(l.branch?.frames.map((f) => f.step), ['a5', 'b5', 'c5']);
  l = go(l, index(l) - 2);
  assert.equal(current(l)?.step, 'a5');
  l = await tryStep(l, 'b5', served('b5'));
  assert.equal(l.branch?.frames.length, 3, 'its own next step moves along it');
  l = go(l, index(l) - 1);
  l = await tryStep(l, 'e1', served('e1'));
  assert.deepEqual(l.branch?.frames.map((f) => f.step), ['a5', 'e1']);
  assert.equal(l.main.length, 6);
});

test('back past the variation\'s start is the game again; the ends are clamped', async () => {
  let l = await tryStep(loaded(game, 3), 'a5', served('a5'));
  l = go(l, 2);
  assert.deepEqual([l.at.branch, current(l)?.step], [false, 'b2']);
  l = go(l, 99);
  assert.equal(current(l)?.step, 'd4', 'on the game, the end is the game\'s end');
  l = go(l, -5);
  assert.equal(index(l), 0);
});

test('from where a variation leaves the game, its first step enters it whole', async () => {
  let l = /** @type {import('../js/variation.js').Lines} */ (await tryStep(loaded(game, 3), 'a5', served('a5')));
  l = /** @type {import('../js/variation.js').Lines} */ (await tryStep(l, 'b5', served('b5')));
  l = go(l, 3);
  assert.equal(l.at.branch, false);
  const again = await tryStep(l, 'a5', async () => null);
  assert.deepEqual(again?.branch?.frames.map((f) => f.step), ['a5', 'b5'], 'nothing of it lost');
  assert.deepEqual([again?.at.branch, again && current(again)?.step], [true, 'a5']);
  assert.equal(await tryStep(l, 'e1', async () => null), null, 'a new step needs the server');
});
