// The game page's store: the newest state wins, steps go out one at a
// time with the mover's token, taps wait for the answer and are dropped
// once the turn has passed. No browser needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gameStore, mayPlay } from '../js/gamestore.js';

/**
 * A state as the server sends it, with only the fields the store reads.
 * @param {number} version
 * @param {string | null} toMove
 * @param {string[]} legal
 */
function state(version, toMove, legal = ['a1', 'b2', 'c3']) {
  return /** @type {import('../js/api.js').GameState} */ (/** @type {unknown} */ ({
    version, seq: version, to_move: toMove, legal,
  }));
}

/** A store holding `seat`, its socket recording what is sent. */
function held(/** @type {import('../js/api.js').Held | null} */ seat) {
  const store = gameStore(seat);
  /** @type {any[]} */
  const sent = [];
  store.attach({ send: (m) => sent.push(m) });
  return { store, sent };
}

test('an older state than the one held is dropped', () => {
  const { store } = held(null);
  store.receive(state(5, 'x'));
  store.receive(state(4, 'o'));
  assert.equal(store.get().state?.version, 5);
  store.receive(state(6, 'o'));
  assert.equal(store.get().state?.to_move, 'o');
});

test('one step goes out at a time, with its seat token; taps meanwhile wait', () => {
  const { store, sent } = held({ seat: 'x', token: 'tx' });
  store.receive(state(0, 'x'));
  store.tap('a1');
  store.tap('b2');
  assert.deepEqual(sent, [{ type: 'steps', seq: 0, steps: ['a1'], token: 'tx' }]);
  store.receive(state(1, 'x'));
  assert.deepEqual(sent[1], { type: 'steps', seq: 1, steps: ['b2'], token: 'tx' });
  // A tap queued for X is dropped once the turn has passed to O.
  store.tap('c3');
  store.receive(state(2, 'o'));
  assert.equal(sent.length, 2);
  assert.equal(mayPlay(/** @type {any} */ (store.get().state), store.get().seat), false);
  store.tap('c3');
  assert.equal(sent.length, 2, "not this page's turn: nothing is sent");
});

test('a change that is not the step (a draw offer) does not release a queued tap', () => {
  const { store, sent } = held({ seat: 'x', token: 'tx' });
  store.receive(state(0, 'x'));
  store.tap('a1');
  store.tap('b2');
  // An offer: a newer version, the same seq; the step is still on its way.
  store.receive(/** @type {any} */ ({ ...state(0, 'x'), version: 1 }));
  assert.equal(sent.length, 1, 'b2 waits for a1 to land');
  store.receive(/** @type {any} */ ({ ...state(1, 'x'), version: 2 }));
  assert.deepEqual(sent[1], { type: 'steps', seq: 1, steps: ['b2'], token: 'tx' });
});

test('both seats on one device play each side with its own token', () => {
  const { store, sent } = held({ seat: 'both', token: 'tx', tokens: { x: 'tx', o: 'to' } });
  store.receive(state(3, 'o'));
  store.play(['pass']);
  assert.equal(sent[0].token, 'to');
});

test('a refusal is said and drops the queued taps', () => {
  const { store, sent } = held({ seat: 'x', token: 'tx' });
  store.receive(state(0, 'x'));
  store.tap('a1');
  store.tap('b2');
  store.fail('step 1 (a1): not accessible');
  assert.equal(store.get().error, 'step 1 (a1): not accessible');
  store.receive(state(0, 'x'));
  assert.equal(sent.length, 1, 'the queued tap was dropped');
  assert.equal(store.get().error, '', 'a new state clears the refusal');
});
