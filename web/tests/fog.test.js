// Fog of war in the browser: two people play a fog game from the home
// page's friend form and the invite link, a third watches. After every
// step each page's board is kept; once the game is over the record is
// replayed and every kept board is checked against the truth: what a page
// showed is true, it hid something, and the watcher saw no more than
// either player. The end lifts the fog.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, startFrom, status, statusUntil, over, playOut } from './harness.js';

const env = serverAndBrowser();

/** The data-content word of each board letter (as the board draws them). */
const CONTENT = /** @type {Record<string, string>} */ ({
  '.': 'empty', X: 'x', O: 'o', x: 'x-zombie', o: 'o-zombie', '#': 'trench', '*': 'obstacle',
});

/**
 * Steps played as the page's move list says (a '?' step counts too).
 * @param {import('playwright-core').Page} page
 */
const seqOf = (page) => page.evaluate(() => [...document.querySelectorAll('[data-moves] li')]
  .map((li) => (li.textContent || '').trim().split(' ').slice(2).join(' '))
  .reduce((n, steps) => n + (steps ? steps.split('-').length : 0), 0));

/**
 * The board as the page draws it: cell → data-content.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<Record<string, string>>}
 */
const boardOf = (page) => page.evaluate(() => Object.fromEntries(
  [...document.querySelectorAll('[data-cell]')].map((c) => [c.getAttribute('data-cell'), c.getAttribute('data-content')]),
));

test('two people play in fog, a third watches: each page shows only its view, the end lifts the fog', async () => {
  // x creates the game, o joins it (which side each plays is drawn).
  const x = await (await env.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const o = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  const watcher = await (await env.browser.newContext()).newPage();
  await x.goto(env.server.url);
  await startFrom(x, 'friend', { variant: 'paper-tactics', size: '6x6' }, ['fog']);
  const id = x.url().split('#/game/')[1];
  await o.goto(`${env.server.url}/#/join/${id}`);
  await o.waitForURL(new RegExp(`#/game/${id}$`));
  await watcher.goto(`${env.server.url}/#/game/${id}`);
  const pages = { x, o, watcher };
  await x.locator('[data-content="unknown"]').first().waitFor();
  assert.match(await x.locator('[data-seat]').textContent() || '', /Fog of war: \d+ cells are hidden from you/);
  assert.ok(await x.locator('[data-content="unknown"]').count() > 0);
  assert.match(await watcher.locator('[data-seat]').textContent() || '', /you see only what both players see/);
  assert.equal(await x.locator('[data-record]').isHidden(), true, 'no record while the fog is on');
  /** @type {{seq: number, who: string, board: Record<string, string>}[]} */
  const kept = [];
  const deadline = Date.now() + 60000;
  for (let steps = 0; steps < 40 && Date.now() < deadline && !over(await status(x));) {
    const mover = (await x.locator('[data-cell][data-legal]').count()) ? x : o;
    const cell = mover.locator('[data-cell][data-legal]').first();
    // (While the other's turn lands, nobody has a legal cell yet.)
    if (!(await cell.count())) { await x.waitForTimeout(50); continue; }
    steps += 1;
    const seq = await seqOf(mover);
    await cell.click();
    for (const page of Object.values(pages)) {
      await page.waitForFunction(
        (want) => [...document.querySelectorAll('[data-moves] li')]
          .map((li) => (li.textContent || '').trim().split(' ').slice(2).join(' '))
          .reduce((k, steps) => k + (steps ? steps.split('-').length : 0), 0) >= want,
        seq + 1,
      );
    }
    if (over(await status(x))) break;
    for (const [who, page] of Object.entries(pages)) kept.push({ seq: seq + 1, who, board: await boardOf(page) });
  }
  if (!over(await status(x))) {
    // Long enough: X resigns (twice, as Resign asks).
    await x.locator('[data-act="resign"]').click();
    await x.locator('[data-act="resign"]').click();
  }
  for (const page of Object.values(pages)) await statusUntil(page, over);
  // The end lifts the fog on every page, and the record is served.
  for (const [who, page] of Object.entries(pages)) {
    await page.waitForFunction(() => !document.querySelector('[data-content="unknown"]'));
    assert.equal(await page.locator('[data-content="unknown"]').count(), 0, who);
  }
  assert.equal(await x.locator('[data-record]').isVisible(), true);
  const record = await (await fetch(`${env.server.url}/api/games/${id}/record`)).text();
  const replay = await (await fetch(`${env.server.url}/api/replay`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ record }),
  })).json();
  assert.ok(kept.length >= 6, `${kept.length} boards kept`);
  let hidden = 0;
  for (const { seq, who, board } of kept) {
    const frame = replay.frames[seq];
    const height = frame.board.length;
    /** @type {string[]} */
    const unknown = [];
    frame.board.forEach((/** @type {string} */ row, /** @type {number} */ y) => [...row].forEach((letter, f) => {
      const cell = `${String.fromCharCode(97 + f)}${height - y}`;
      if (board[cell] === 'unknown') unknown.push(cell);
      else assert.equal(board[cell], CONTENT[letter], `${who} at step ${seq}: ${cell}`);
    }));
    hidden += unknown.length;
    if (who === 'watcher') {
      for (const other of kept.filter((k) => k.seq === seq && k.who !== 'watcher')) {
        for (const [cell, content] of Object.entries(board)) {
          if (content !== 'unknown') assert.notEqual(other.board[cell], 'unknown', `the watcher saw ${cell}, which ${other.who} did not`);
        }
      }
    }
  }
  assert.ok(hidden > 0, 'the fog hid something');
  // The analysis board of the finished game shows each side's view on asking.
  await x.goto(`${env.server.url}/#/analysis/${id}`);
  const seen = x.locator('[data-seen-as]');
  await seen.waitFor();
  await x.locator('[data-go="first"]').click();
  assert.equal(await x.locator('[data-content="unknown"]').count(), 0, 'the whole board first');
  await seen.selectOption('watchers');
  await x.locator('[data-content="unknown"]').first().waitFor();
  await seen.selectOption('');
  await x.waitForFunction(() => !document.querySelector('[data-content="unknown"]'));
});

test('a fog game against the computer from its form, played to the end on a phone', async () => {
  const page = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await page.goto(env.server.url);
  await startFrom(page, 'computer', { level: 'level:1', side: 'x', size: '5x5' }, ['fog']);
  await page.locator('[data-content="unknown"]').first().waitFor();
  assert.match(await page.locator('[data-seat]').textContent() || '', /Fog of war: \d+ cells are hidden from you/);
  const result = await playOut([page]);
  assert.ok(over(result), result);
  await page.waitForFunction(() => !document.querySelector('[data-content="unknown"]'));
});
