// The engine's review of a finished game (issue: analysis and puzzles):
// a game played to its end on one device, Analyse, and within a minute the
// win-chance graph, each side's accuracy, the judgement marks, the best
// turn drawn beside the one played; the graph and ←/→ move the board.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playOut, serverAndBrowser, startFrom } from './harness.js';

const env = serverAndBrowser();

/** @param {import('playwright-core').Page} page */
const step = async (page) => Number((await page.locator('[data-status]').textContent() || '').match(/(\d+) of/)?.[1]);

test('a finished game, Analyse: the graph, accuracy, marks and better turns within a minute', async () => {
  const page = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await page.goto(`${env.server.url}/`);
  await startFrom(page, 'local', { size: '5x5' });
  await playOut([page]);
  const id = page.url().match(/#\/game\/([^/]+)/)?.[1] || '';
  await page.locator('[data-result] [data-analyse]').click();
  await page.waitForURL(/#\/analysis\//);
  const asked = Date.now();
  await page.locator('[data-review-status="done"]').waitFor({ timeout: 60000 });
  const seconds = (Date.now() - asked) / 1000;
  assert.ok(seconds < 60, `reviewed in ${seconds} s`);
  const review = await (await fetch(`${env.server.url}/api/games/${id}/analysis`)).json();
  assert.equal(review.status, 'done');
  const turns = review.turns.length;
  assert.ok(turns >= 2, JSON.stringify(review));
  // The graph under the board: a column a turn, named for screen readers.
  const graph = page.locator('svg.review-graph');
  assert.ok(await graph.isVisible());
  assert.equal(await page.locator('.review-turn').count(), turns);
  assert.match(await page.locator('.review-turn').first().getAttribute('aria-label') || '', /^Turn 1, X: X \d+ % → \d+ %/);
  // Each side's accuracy, as the server gave it.
  const accuracy = await page.locator('[data-accuracy] [data-side="x"]').textContent() || '';
  assert.match(accuracy, new RegExp(`^X: accuracy ${Math.round(review.accuracy.x)} %`));
  // The marks in the turn list, one for each judged turn.
  const judged = review.turns.filter((/** @type {{judgement: string | null}} */ t) => t.judgement).length;
  assert.equal(await page.locator('[data-frames] [data-judgement]').count(), judged);
  // A tap on the graph goes to the end of that turn: the turn in words,
  // the better turn numbered on the board beside the one played.
  // (A turn whose mover still wins, not judged, keeps the win: no better
  // turn is given for it.)
  /** @param {{side: string, x_win_after: number, judgement: string | null}} t */
  const keeps = (t) => !t.judgement && (t.side === 'x' ? t.x_win_after : 1 - t.x_win_after) >= 0.9;
  const k = review.turns.findIndex((/** @type {{best: string[], steps: string[], side: string, x_win_after: number, judgement: string | null}} */ t) => t.best.join() !== t.steps.join() && !keeps(t));
  assert.ok(k >= 0, 'the engine would have played another turn somewhere');
  const box = await graph.boundingBox();
  if (!box) throw new Error('no graph');
  await page.mouse.click(box.x + ((k + 0.5) / turns) * box.width, box.y + box.height / 2);
  await page.locator('[data-judged]:not([hidden])', { hasText: `Turn ${k + 1},` }).waitFor();
  assert.match(await page.locator('[data-judged]').textContent() || '', /Better: /);
  const best = review.turns[k].best;
  assert.equal(await page.locator(`[data-cell="${best[0]}"]`).getAttribute('data-label'), '1', 'the better turn numbered');
  assert.equal(await page.locator(`[data-cell="${best[0]}"] .label-badge`).count(), 1, 'on a badge that reads over any piece');
  assert.equal(await page.locator('.review-shown').count(), 1, 'the turn shown marked on the graph');
  // The axes, and the turn under the finger in words.
  assert.match(await page.locator('[data-axis="sides"]').textContent() || '', /X ahead.*50 %.*O ahead/);
  assert.match(await page.locator('[data-axis="turns"]').textContent() || '', new RegExp(`turn 1.*turn ${turns}$`));
  assert.match(await page.locator('[data-review-under]').textContent() || '', new RegExp(`^Turn ${k + 1}, [XO]: X \\d+ % → \\d+ %`));
  // ←: a step back, inside the turn; →: its end again.
  const at = await step(page);
  await page.locator('[data-status]').click();
  await page.keyboard.press('ArrowLeft');
  assert.equal(await step(page), at - 1);
  await page.keyboard.press('ArrowRight');
  assert.equal(await step(page), at);
  assert.ok(await page.locator('[data-judged]').isVisible());
  // The mistakes and blunders as exercises: the turn played again is
  // refused, the engine's better turn found.
  /** @typedef {{turn: number, judgement: string | null, best: string[], steps: string[]}} Judged */
  const worth = review.turns.filter((/** @type {Judged} */ t) => (t.judgement === 'mistake' || t.judgement === 'blunder') && t.best.join('-') !== t.steps.join('-'));
  // At most the five that cost the most.
  assert.equal(await page.locator('[data-exercise]').count(), Math.min(5, worth.length));
  /** @param {string[]} turn */
  const stepTurn = async (turn) => {
    for (const cell of turn) {
      await (cell === 'pass' ? page.locator('[data-pass]') : page.locator(`[data-cell="${cell}"][data-legal]`)).click();
    }
  };
  if (worth.length) {
    const first = Number(await page.locator('[data-exercise]').first().getAttribute('data-exercise'));
    const ex = /** @type {Judged} */ (worth.find((/** @type {Judged} */ t) => t.turn === first));
    await page.locator(`[data-exercise="${ex.turn}"]`).click();
    await page.locator('[data-exercise-text]:not([hidden])', { hasText: 'Step a better turn' }).waitFor();
    assert.ok(await page.locator('[data-judged]').isHidden(), 'the answer stays hidden');
    await stepTurn(ex.steps);
    await page.locator('[data-exercise-text][data-outcome="same"]').waitFor();
    await stepTurn(ex.best);
    await page.locator('[data-exercise-text][data-outcome="found"]').waitFor();
    assert.match(await page.locator(`[data-exercise="${ex.turn}"]`).textContent() || '', /✓$/);
    assert.match(await page.locator('[data-exercises]').textContent() || '', /1 of \d+ found/);
  } else {
    assert.ok(await page.locator('[data-exercises]').isHidden());
  }
  await page.context().close();
  // The same review seen half judged (its answers held at their first
  // half): a bar, and no figure, mark, better turn or exercise yet.
  const half = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await half.route('**/api/games/*/analysis', async (route) => {
    const answer = await route.fetch();
    const a = await answer.json();
    const judged = Math.floor(a.turns.length / 2);
    await route.fulfill({ response: answer, json: { ...a, status: 'running', judged, turns: a.turns.slice(0, judged) } });
  });
  await half.goto(`${env.server.url}/#/analysis/${id}`);
  await half.locator('[data-review-progress]').waitFor();
  await half.locator('[data-frames] button').first().waitFor();
  await half.waitForTimeout(1500);
  assert.equal(await half.locator('[data-accuracy]').count(), 0, 'no accuracy before it is known');
  assert.equal(await half.locator('[data-frames] [data-judgement]').count(), 0, 'no marks before the end');
  assert.ok(await half.locator('[data-exercises]').isHidden(), 'no exercises before the end');
  await half.context().close();
  // On a touch phone a finger pressed on the graph and slid along it goes
  // through the turns, the line under it saying each; the graph stays the
  // same element all the way (redrawn, it would lose the finger).
  const phone = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const touch = await phone.newPage();
  await touch.goto(`${env.server.url}/#/analysis/${id}`);
  await touch.locator('[data-review-status="done"]').waitFor();
  const chart = touch.locator('svg.review-graph');
  await chart.scrollIntoViewIfNeeded();
  await chart.evaluate((svg) => { svg.setAttribute('data-before', ''); });
  const where = await chart.boundingBox();
  if (!where) throw new Error('no graph');
  const cdp = await phone.newCDPSession(touch);
  const y = where.y + where.height / 2;
  const xAt = (/** @type {number} */ turn) => where.x + ((turn - 0.5) / turns) * where.width;
  // A scroll that starts on the graph is the page's: the turn shown stays.
  const before = await touch.locator('[data-review-under]').textContent();
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: xAt(1), y }] });
  for (let k = 1; k <= 10; k++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: xAt(1), y: y - 25 * k }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await touch.waitForTimeout(300);
  assert.equal(await touch.locator('[data-review-under]').textContent(), before, 'a scroll changes no turn');
  await chart.scrollIntoViewIfNeeded();
  const on = await chart.boundingBox();
  if (!on) throw new Error('no graph');
  const yOn = on.y + on.height / 2;
  const xOn = (/** @type {number} */ turn) => on.x + ((turn - 0.5) / turns) * on.width;
  // Sideways, it slides through the turns.
  assert.ok(on.width / turns > 9, 'a column wide enough to slide inside');
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: on.x + 1, y: yOn }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: on.x + 8, y: yOn }] });
  await touch.locator('[data-review-under]', { hasText: /^Turn 1, X/ }).waitFor();
  for (let turn = 2; turn <= turns; turn++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: xOn(turn), y: yOn }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await touch.locator('[data-review-under]', { hasText: new RegExp(`^Turn ${turns}, `) }).waitFor();
  await touch.locator('[data-judged]:not([hidden])', { hasText: `Turn ${turns},` }).waitFor();
  assert.equal(await touch.locator('svg.review-graph[data-before]').count(), 1, 'the same graph throughout the slide');
  await phone.close();
});

test('a game being played has no review yet, and says why', async () => {
  const page = await (await env.browser.newContext()).newPage();
  await page.goto(`${env.server.url}/`);
  await startFrom(page, 'local', { size: '5x5' });
  const id = page.url().match(/#\/game\/([^/]+)/)?.[1] || '';
  await page.goto(`${env.server.url}/#/analysis/${id}`);
  await page.locator('[data-review]:not([hidden])', { hasText: 'ask for its analysis once it is over' }).waitFor();
  await page.context().close();
});
