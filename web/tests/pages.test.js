// The rest of the UI in headless Chromium against the real server: the
// rules page, Russian, keyboard play, ticking clocks, looking back at a
// turn, the games to watch, and the installed app opening offline.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, startFrom, startServer, status, statusUntil, over, playOut } from './harness.js';

const env = serverAndBrowser();

/**
 * One API request to the test's server.
 * @param {string} path @param {unknown} [body] @param {string} [token]
 */
async function api(path, body, token) {
  const r = await fetch(`${env.server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const v = await r.json();
  assert.ok(r.ok, JSON.stringify(v));
  return v;
}

test('the rules page draws its three examples from the server', async () => {
  const page = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await page.goto(`${env.server.url}/#/rules`);
  // The variants are told here, by name, not left to a file of the repository.
  const variants = await page.locator('[data-variants] dt').allTextContents();
  assert.ok(variants.includes('Classic') && variants.includes('igGameCenter'), variants.join(', '));
  assert.equal(await page.locator('article', { hasText: 'docs/rules.md' }).count(), 0);
  for (const n of [1, 2, 3]) {
    await page.locator(`[data-example="${n}"] figure [data-cell]`).first().waitFor();
    assert.equal(await page.locator(`[data-example="${n}"] figure`).count(), 2, `example ${n} has two boards`);
  }
  // The group cut off: after O's turn, X's zombie on d4 is dead and gives no access.
  const after = page.locator('[data-example="2"] figure[data-frame="3"]');
  assert.equal(await after.locator('[data-cell="d4"]').getAttribute('data-content'), 'x-zombie');
  assert.equal(await after.locator('[data-cell="c3"]').getAttribute('data-content'), 'o-zombie');
  for (const cell of ['c4', 'c5', 'd5', 'e3']) {
    assert.equal(await after.locator(`[data-cell="${cell}"][data-legal]`).count(), 0, `${cell} is out of X's reach`);
  }
  // The chain: X reaches e5 through its zombies on c3 and d4.
  const before = page.locator('[data-example="3"] figure[data-frame="0"]');
  assert.equal(await before.locator('[data-cell="e5"][data-legal]').count(), 1);
  // A piece a step may take is marked by corners around it, never by a dot
  // inside it (which read as a third kind of piece); an empty cell by a dot.
  assert.equal(await before.locator('[data-cell="e5"] .dot').count(), 0);
  assert.equal(await before.locator('[data-cell="e5"] .take').count(), 4);
  const empty = before.locator('[data-cell][data-legal][data-content="empty"]').first();
  assert.equal(await empty.locator('.dot').count(), 1);
  assert.equal(await empty.locator('.take').count(), 0);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no horizontal scrolling: ${width}px`);
});

test('in Russian: the page, the board labels, the status (its data-status stays the API word)', async () => {
  const page = await (await env.browser.newContext()).newPage();
  await page.goto(`${env.server.url}/#/settings`);
  await page.locator('select[name="lang"]').selectOption('ru');
  await page.locator('h2', { hasText: 'Настройки' }).waitFor();
  await page.goto(`${env.server.url}/#/`);
  await page.locator('[data-start="computer"]', { hasText: 'Игра с компьютером' }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ru');
  await startFrom(page, 'computer', { side: 'x', size: '5x5' });
  assert.equal(await status(page), 'X to move');
  // The player's own words: whose turn, and how many steps it has.
  assert.equal(await page.locator('[data-status]').textContent(), 'Ваш ход · 3 шага');
  assert.equal(await page.locator('[data-cell="a1"]').getAttribute('aria-label'), 'a1, пусто, сюда можно сходить');
  // A refused step in Russian words, not the server's English.
  await page.locator('[data-cell="e5"]').click();
  await page.locator('[data-error]', { hasText: 'Первый шаг — только на a1.' }).waitFor();
  // The next step taken clears it.
  await page.locator('[data-cell="a1"]').click();
  await page.locator('[data-cell="a1"][data-content="x"]').waitFor();
  assert.equal(await page.locator('[data-error]').textContent(), '');
  assert.equal(await page.locator('[data-status]').textContent(), 'Ваш ход · 2 шага');
});

test('a game against the computer played by keyboard alone, to the end, on a desktop', async () => {
  const page = await (await env.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const game = await api('/api/games', { size: '5x5', side: 'x', opponent: 'level:1' });
  await page.goto(game.url);
  await page.waitForURL(/#\/game\/[a-z0-9]+$/);
  assert.equal(await status(page), 'X to move');
  // Tab into the board: its one stop is the first legal cell.
  for (let k = 0; k < 30; k++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.getAttribute('data-cell'))) break;
  }
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-cell'));
  assert.equal(await focused(), 'a1');
  assert.equal(await page.locator('[data-cell="a1"]').getAttribute('aria-label'), 'a1, empty, you may step here');
  /** @param {string} cell */
  const played = (cell) => page.waitForFunction(
    (c) => document.querySelector(`[data-cell="${c}"]`)?.getAttribute('data-content') === 'x', cell);
  await page.keyboard.press('Enter');
  await played('a1');
  assert.equal(await focused(), 'a1', 'the focus stays on the board');
  await page.keyboard.press('ArrowUp');
  assert.equal(await focused(), 'a2');
  await page.keyboard.press(' ');
  await played('a2');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await played('b2');
  // The rest by keys too: walk the board to a legal cell and press Enter.
  const end = Date.now() + 60000;
  for (;;) {
    const s = await status(page);
    if (over(s)) break;
    assert.ok(Date.now() < end, `the game ends (status '${s}')`);
    const target = await page.locator('[data-cell][data-legal]').first().getAttribute('data-cell').catch(() => null);
    if (!target || s !== 'X to move') { await page.waitForTimeout(50); continue; }
    const at = /** @type {string} */ (await focused());
    const dx = target.charCodeAt(0) - at.charCodeAt(0);
    const dy = Number(target.slice(1)) - Number(at.slice(1));
    for (let k = 0; k < Math.abs(dx); k++) await page.keyboard.press(dx > 0 ? 'ArrowRight' : 'ArrowLeft');
    for (let k = 0; k < Math.abs(dy); k++) await page.keyboard.press(dy > 0 ? 'ArrowUp' : 'ArrowDown');
    assert.equal(await focused(), target);
    const seen = await page.locator('[data-moves]').textContent();
    await page.keyboard.press('Enter');
    await page.waitForFunction((text) => document.querySelector('[data-moves]')?.textContent !== text, seen);
  }
  assert.ok(['X wins', 'O wins'].includes(await status(page)));
});

test('the clock ticks between states; a turn of the move list shows the board back then', async () => {
  const page = await (await env.browser.newContext()).newPage();
  // The page's time is Playwright's clock, moved on by the test.
  await page.clock.install();
  const game = await api('/api/games', { size: '6x6', side: 'x', clock: { base_s: 600, inc_s: 0 } });
  const other = await api(`/api/games/${game.id}/join`, {});
  await api(`/api/games/${game.id}/steps`, { seq: 0, steps: ['a1', 'b2', 'c3'] }, game.token);
  await api(`/api/games/${game.id}/steps`, { seq: 3, steps: ['f6', 'e5', 'd4'] }, other.token);
  await page.goto(game.url);
  await statusUntil(page, (s) => s === 'X to move');
  const ms = () => page.locator('[data-clock="x"]').getAttribute('data-ms').then(Number);
  const first = await ms();
  await page.clock.runFor(1500);
  const later = await ms();
  assert.ok(first - later >= 1000 && first - later < 5000, `X's clock ran: ${first} then ${later}`);
  assert.equal(await page.locator('[data-clock="x"].running').count(), 1);
  const oClock = await page.locator('[data-clock="o"]').getAttribute('data-ms');
  await page.clock.runFor(300);
  assert.equal(await page.locator('[data-clock="o"]').getAttribute('data-ms'), oClock, "O's clock stands");
  // Turn 1 of 2: only X's first turn is on the board.
  await page.locator('[data-turn="1"]').click();
  await page.locator('[data-looking]:not([hidden])').waitFor();
  assert.equal(await page.locator('[data-cell="f6"]').getAttribute('data-content'), 'empty');
  assert.equal(await page.locator('[data-cell="c3"]').getAttribute('data-content'), 'x');
  assert.equal(await page.locator('[data-cell][data-legal]').count(), 0, 'nothing is played on a past board');
  assert.equal(await page.locator('[data-cell].last').count(), 3);
  await page.locator('[data-back]').click();
  assert.equal(await page.locator('[data-cell="f6"]').getAttribute('data-content'), 'o');
  assert.ok(await page.locator('[data-cell][data-legal]').count() > 0);
});

test('the games to watch: a listed game in play, opened to watch live', async () => {
  const game = await api('/api/games', { size: '5x5', side: 'x', listed: true });
  const other = await api(`/api/games/${game.id}/join`, {});
  const page = await (await env.browser.newContext()).newPage();
  await page.goto(env.server.url);
  await page.locator(`[data-watch-game="${game.id}"]`).click();
  await page.locator('[data-seat]', { hasText: 'You are watching' }).waitFor();
  await api(`/api/games/${game.id}/steps`, { seq: 0, steps: ['a1'] }, game.token);
  await page.waitForFunction(() => document.querySelector('[data-cell="a1"]')?.getAttribute('data-content') === 'x');
  await api(`/api/games/${game.id}/resign`, {}, other.token);
  assert.equal(await statusUntil(page, over), 'X wins');
});

test('pass-and-play to the end on a desktop, with a reload on the way', async () => {
  const page = await (await env.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(env.server.url);
  await startFrom(page, 'local', { size: '5x5' });
  for (let k = 0; k < 4; k++) {
    const seen = await page.locator('[data-moves]').textContent();
    await page.locator('[data-cell][data-legal]').first().click();
    await page.waitForFunction((t) => document.querySelector('[data-moves]')?.textContent !== t, seen);
  }
  const before = await page.locator('[data-moves]').textContent();
  await page.reload();
  await statusUntil(page, (s) => s === 'O to move');
  assert.equal(await page.locator('[data-moves]').textContent(), before, 'the game as it was');
  assert.ok(await page.locator('[data-cell][data-legal]').count() > 0, 'both seats still play here');
  const result = await playOut([page]);
  assert.ok(over(result), result);
});

test('installed, the app opens with the server gone', async () => {
  const own = await startServer();
  try {
    const page = await (await env.browser.newContext()).newPage();
    await page.goto(own.url);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15000 });
    const manifest = await page.evaluate(() => document.querySelector('link[rel="manifest"]')?.getAttribute('href'));
    assert.equal(manifest, '/manifest.webmanifest');
    own.stop();
    await page.reload();
    await page.locator('[data-start="computer"]').waitFor();
    await page.locator('[data-open]', { hasText: 'could not be read' }).waitFor();
    await page.goto(`${own.url}/#/rules`);
    await page.locator('h2', { hasText: 'The rules' }).waitFor();
  } finally {
    own.stop();
  }
});
