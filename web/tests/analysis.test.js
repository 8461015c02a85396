// The analysis board (issue: the first game): turns grouped, the keys, a
// variation that keeps the game, and the engine's answer as a win-chance
// bar and its line drawn on the board.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, status, statusUntil } from './harness.js';

const env = serverAndBrowser();
const RECORD = '[Variant "classic"]\n[Size "5x5"]\n\n1. a1-b2-c3 e5-d4-e4\n';

/** @param {import('playwright-core').Page} page */
const step = async (page) => Number((await page.locator('[data-status]').textContent() || '').match(/(\d+) of/)?.[1]);

test('turns grouped, ←/→ and Home/End, a variation beside the game, the engine\'s bar and line', async () => {
  const page = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await page.goto(`${env.server.url}/#/analysis`);
  await statusUntil(page, (s) => s === 'X to move');
  await page.locator('textarea[name="text"]').fill(RECORD);
  await page.locator('[data-form="load"] button').click();
  await page.locator('[data-frame="6"]').waitFor();
  // Two turns of three steps (before: six stacked one-step buttons).
  assert.equal(await page.locator('[data-frames] li').count(), 2);
  assert.equal(await page.locator('[data-frames] li').first().locator('[data-frame]').count(), 3);
  assert.match(await page.locator('[data-frames] li').nth(1).textContent() || '', /^2\. O/);
  // The keys.
  await page.locator('[data-status]').click();
  await page.keyboard.press('End');
  assert.equal(await step(page), 6);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await step(page), 4);
  assert.equal(await status(page), 'O to move');
  // A step other than the game's, two steps before its end: beside it.
  const next = 'd4';
  const other = await page.locator('[data-cell][data-legal]').evaluateAll((l, n) => l.map((c) => c.getAttribute('data-cell')).find((c) => c !== n), next);
  await page.locator(`[data-cell="${other}"]`).click();
  await page.locator('[data-branch]:not([hidden])', { hasText: 'A variation from step 4' }).waitFor();
  assert.equal(await page.locator('[data-frames] [data-frame]').count(), 6, 'the game keeps all its steps (before: two dropped)');
  assert.equal(await step(page), 5);
  await page.locator('[data-back-to-game]').click();
  assert.equal(await step(page), 4);
  await page.keyboard.press('Home');
  assert.equal(await step(page), 0);
  await page.keyboard.press('ArrowRight');
  assert.equal(await step(page), 1);
  // The engine: a bar of the chances, its line as turn numbers on the board.
  await page.keyboard.press('End');
  await page.locator('[data-ask]').click();
  await page.locator('[data-engine]', { hasText: 'Best turn' }).waitFor({ timeout: 15000 });
  const x = Number(await page.locator('[data-chance]').getAttribute('data-x'));
  assert.ok(x >= 0 && x <= 100 && await page.locator('[data-chance]').isVisible(), `X's chance ${x} %`);
  const first = await page.locator('[data-cell][data-label="1"]').count();
  assert.ok(first >= 1, 'the best turn drawn on the board');
  assert.equal(await page.locator('[data-cell][data-label="1"] .label-x').count(), first, 'in the colour of the side to move');
  await page.context().close();
});

test('the engine\'s answer stays with its position: a late one is dropped, a failed one leaves no "thinking…"', async () => {
  const page = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  // The first question's answer is held back; the second fails.
  let asked = 0;
  /** @type {() => void} */
  let release = () => {};
  const released = new Promise((r) => { release = () => r(undefined); });
  let landed = () => {};
  const late = new Promise((r) => { landed = () => r(undefined); });
  await page.route('**/api/analyze', async (route) => {
    asked += 1;
    if (asked === 1) {
      const answer = await route.fetch();
      await released;
      await route.fulfill({ response: answer });
      landed();
    } else if (asked === 2) {
      await route.continue();
    } else {
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"server","message":"down"}}' });
    }
  });
  await page.goto(`${env.server.url}/#/analysis`);
  await statusUntil(page, (s) => s === 'X to move');
  await page.locator('textarea[name="text"]').fill(RECORD);
  await page.locator('[data-form="load"] button').click();
  await page.locator('[data-frame="6"]').waitFor();
  await page.locator('[data-status]').click();
  await page.keyboard.press('End');
  await page.locator('[data-ask]').click();
  await page.keyboard.press('ArrowLeft');
  await page.locator('[data-ask]').click();
  await page.locator('[data-engine]', { hasText: 'Best turn' }).waitFor({ timeout: 15000 });
  const answer = await page.locator('[data-engine]').textContent();
  release();
  await late;
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));
  assert.equal(await page.locator('[data-engine]').textContent(), answer, 'step 5\'s answer stands');
  // A question that fails while the board shows another position.
  await page.keyboard.press('ArrowLeft');
  const failed = page.waitForResponse('**/api/analyze');
  await page.locator('[data-ask]').click();
  await page.keyboard.press('ArrowLeft');
  await failed;
  await page.keyboard.press('ArrowRight');
  // (Before: "thinking…" stayed for good.)
  await page.waitForFunction(() => document.querySelector('[data-engine]')?.textContent === '', null, { timeout: 5000 });
  await page.context().close();
});
