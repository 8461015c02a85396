// The home page a first-time player meets (issue: the first game): a few
// controls on a phone, what the game is in a sentence, one tap to a game
// against the computer, variants by their human names, settings kept for
// the next tap, quick play tiles, and each refusal shown next to the
// control that caused it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openSettings, status } from './harness.js';

const env = serverAndBrowser();

/** @param {number} width @param {number} height */
async function phone(width = 390, height = 844) {
  const context = await env.browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  await page.goto(env.server.url);
  await page.locator('[data-start="computer"]').waitFor();
  return page;
}

/**
 * The controls a player can reach on the page: links, buttons, fields and
 * the summaries of closed panels, where they show.
 * @param {import('playwright-core').Page} page
 */
function controls(page) {
  return page.evaluate(() => [...document.querySelectorAll('a[href], button, input, select, textarea, summary')]
    .filter((e) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
    }).length);
}

test('on a phone: at most 20 controls, a sentence on the game, one tap to a game against the computer', async () => {
  const page = await phone();
  const n = await controls(page);
  assert.ok(n <= 20, `${n} controls (before: 34, 42 with the closed panels)`);
  assert.match(await page.locator('.hero p').first().textContent() || '', /game for two/);
  // The big actions are big: 44 px at least.
  for (const kind of ['computer', 'friend']) {
    const box = await page.locator(`[data-start="${kind}"]`).boundingBox();
    assert.ok(box && box.height >= 44, `${kind}: ${box?.height}px tall`);
  }
  await page.locator('[data-start="computer"]').click();
  await page.waitForURL(/#\/game\//);
  assert.equal(await status(page), 'X to move');
  const id = page.url().split('#/game/')[1];
  const state = await (await fetch(`${env.server.url}/api/games/${id}`)).json();
  assert.deepEqual(state.players.o, { kind: 'computer', level: 1, name: null, account: false }, 'a gentle computer to start with');
  assert.equal(state.variant.preset, 'classic');
  await page.context().close();
});

test('variants by their human names with a line on each; settings kept for the next tap', async () => {
  const page = await phone(1280, 800);
  const form = await openSettings(page, 'computer');
  const names = await form.locator('select[name="variant"] option').allTextContents();
  assert.ok(names.includes('Classic') && names.includes('Paper Tactics') && names.includes('igGameCenter'), names.join(', '));
  assert.ok(!names.some((v) => /^[a-z-]+$/.test(v)), `no code names: ${names.join(', ')}`);
  const about = form.locator('[data-about]');
  assert.match(await about.textContent() || '', /10×10/);
  await form.locator('select[name="variant"]').selectOption('paper-tactics');
  assert.match(await about.textContent() || '', /paper-tactics\.com/);
  // Each level says what to expect, and how it measured on the ladder.
  const level = form.locator('[data-level-about]');
  assert.match(await level.textContent() || '', /^Novice: .*ladder starts here/);
  assert.match((await form.locator('select[name="level"] option').allTextContents()).join(', '), /level 9 · Grandmaster/);
  await form.locator('select[name="level"]').selectOption('level:9');
  assert.match(await level.textContent() || '', /^Grandmaster: .*Beat level 8 28–12 on the ladder; rated 1663 above level 1\./);
  await form.locator('select[name="level"]').selectOption('level:2');
  await form.locator('select[name="size"]').selectOption('5x5');
  await form.locator('button.primary').click();
  await page.waitForURL(/#\/game\//);
  await page.goto(`${env.server.url}/#/`);
  const hint = page.locator('[data-action="computer"] [data-hint]');
  assert.equal(await hint.textContent(), 'Paper Tactics · 5×5 · level 2 · you play X');
  await page.locator('[data-start="computer"]').click();
  await page.waitForURL(/#\/game\//);
  const id = page.url().split('#/game/')[1];
  const state = await (await fetch(`${env.server.url}/api/games/${id}`)).json();
  assert.equal(state.players.o.level, 2, 'the one-tap start plays what was chosen');
  assert.equal(state.board.length, 5);
  await page.context().close();
});

test('a refusal shows next to what caused it, on the screen', async () => {
  const page = await phone();
  // A join code that names no game.
  await page.locator('input[name="code"]').fill('nosuchgame');
  await page.locator('input[name="code"]').press('Enter');
  const error = page.locator('[data-error="join"]');
  await error.filter({ hasText: 'no' }).waitFor();
  const near = async (/** @type {string} */ control, /** @type {import('playwright-core').Locator} */ message) => {
    const c = await page.locator(control).boundingBox();
    const m = await message.boundingBox();
    assert.ok(c && m, 'both shown');
    const gap = m.y - (c.y + c.height);
    assert.ok(gap >= -1 && gap < 120, `${control}: the message ${Math.round(gap)} px below it (before: 1,450 px down)`);
    assert.ok(m.y + m.height <= 844 + (await page.evaluate(() => window.scrollY)), 'in view');
  };
  await near('[data-form="join"]', error);
  // A bad option in the settings: said in the dialog, under its button.
  const form = await openSettings(page, 'friend');
  await form.locator('summary').click();
  await form.locator('input[name="options"]').fill('trenches');
  await form.locator('button.primary').click();
  const said = form.locator('[data-error]', { hasText: 'key=value' });
  await said.waitFor();
  await near('dialog [data-form="friend"] button.primary', said);
  await page.context().close();
});

test('a quick play tile pairs with one tap', async () => {
  const a = await phone();
  const b = await phone();
  await a.locator('[data-tile="1"]').click();
  await a.waitForURL(/#\/game\//);
  // Alone: a search with its time, not a dead end.
  const panel = a.locator('[data-searching]:not([hidden])');
  await panel.waitFor();
  await a.waitForFunction(() => document.querySelector('[data-searching-time]')?.textContent !== '0:00', null, { timeout: 5000 });
  assert.equal(await a.locator('[data-act="invite"]').isVisible(), false, 'no invite link to send');
  await b.locator('[data-tile="1"]').click();
  await b.waitForURL(/#\/game\//);
  assert.equal(a.url().split('#/game/')[1], b.url().split('#/game/')[1], 'the two met in one game');
  const id = a.url().split('#/game/')[1];
  const state = await (await fetch(`${env.server.url}/api/games/${id}`)).json();
  assert.deepEqual([state.clocks.base_s, state.clocks.inc_s], [600, 5]);
  await a.locator('[data-searching][hidden]').waitFor({ state: 'attached' });
  await a.locator('[data-notice].success', { hasText: 'Your opponent is here' }).waitFor();
  await a.context().close();
  await b.context().close();
});

test('a quick play search can be called off, or traded for the computer meanwhile', async () => {
  const page = await phone();
  await page.locator('[data-tile="2"]').click();
  await page.waitForURL(/#\/game\//);
  const first = page.url().split('#/game/')[1];
  await page.locator('[data-search="cancel"]').click();
  await page.waitForURL(/#\/$/);
  const called = await (await fetch(`${env.server.url}/api/games/${first}`)).json();
  assert.equal(called.ending?.reason, 'aborted', 'the search is called off');
  await page.locator('[data-tile="2"]').click();
  await page.waitForURL(/#\/game\//);
  const second = page.url().split('#/game/')[1];
  await page.locator('[data-search="computer"]').click();
  await page.waitForURL((u) => u.hash.startsWith('#/game/') && !u.hash.endsWith(second));
  const id = page.url().split('#/game/')[1];
  const state = await (await fetch(`${env.server.url}/api/games/${id}`)).json();
  assert.equal(state.players.o.kind, 'computer');
  assert.equal(state.variant.preset, 'paper-tactics', 'the variant of the tile');
  const left = await (await fetch(`${env.server.url}/api/games/${second}`)).json();
  assert.equal(left.ending?.reason, 'aborted');
  await page.context().close();
});

test('corrupt or hostile remembered settings: the home page still works, nothing is injected', async () => {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addInitScript(() => {
    localStorage.setItem('vw-new-computer', JSON.stringify({ level: 5, side: 'o', base: '"><img src=x data-injected>', options: 7 }));
    localStorage.setItem('vw-new-friend', '{not json');
  });
  const page = await context.newPage();
  await page.goto(env.server.url);
  await page.locator('[data-start="computer"]').waitFor();
  assert.equal(await page.locator('[data-action="computer"] [data-hint]').textContent(), 'Classic · level 1 · you play O');
  const form = await openSettings(page, 'computer');
  assert.equal(await form.locator('select[name="level"]').inputValue(), 'level:1');
  assert.equal(await page.locator('[data-injected]').count(), 0);
  await form.locator('[data-close]').click();
  await openSettings(page, 'friend');
  await context.close();
});

test('quick play in fog: the box pairs those who ticked it, and only them', async () => {
  const [a, b, c] = [await phone(), await phone(), await phone()];
  const idOf = (/** @type {import('playwright-core').Page} */ p) => p.url().split('#/game/')[1];
  await a.locator('input[name="fog-quick"]').check();
  await a.locator('[data-tile="0"]').click();
  await a.waitForURL(/#\/game\//);
  // Without the box: a search of its own, not the fog game.
  await c.locator('[data-tile="0"]').click();
  await c.waitForURL(/#\/game\//);
  assert.notEqual(idOf(c), idOf(a), 'a game without fog is not paired with a fog game');
  await b.locator('input[name="fog-quick"]').check();
  await b.locator('[data-tile="0"]').click();
  await b.waitForURL(/#\/game\//);
  assert.equal(idOf(b), idOf(a), 'the two who ticked fog met');
  const state = await (await fetch(`${env.server.url}/api/games/${idOf(a)}`)).json();
  assert.equal(state.fog?.viewer, 'watchers', 'a fog game, shown to a watcher as one');
  assert.equal(state.position, null);
  await c.locator('[data-search="cancel"]').click();
  await c.waitForURL(/#\/$/);
  for (const p of [a, b, c]) await p.context().close();
});

test('a friend game: its side and a clock tile chosen, then the link itself to copy or share', async () => {
  const page = await phone();
  const form = await openSettings(page, 'friend');
  // The clock is a tile (it was two number fields at 0 and 0); custom opens the fields.
  assert.ok(await form.locator('[data-custom-clock]').isHidden(), 'no number fields until "custom"');
  await form.locator('input[name="clock"][value="custom"]').check({ force: true });
  assert.ok(await form.locator('[data-custom-clock]').isVisible());
  // Seconds without minutes are no clock: said, not made into an untimed game.
  await form.locator('input[name="base"]').fill('0');
  await form.locator('input[name="inc"]').fill('5');
  await form.locator('button.primary').click();
  await form.locator('[data-error]', { hasText: 'A clock needs its minutes' }).waitFor();
  await form.locator('input[name="clock"][value="5+3"]').check({ force: true });
  await form.locator('select[name="side"]').selectOption('o');
  await form.locator('select[name="size"]').selectOption('6x6');
  await form.locator('button.primary').click();
  await page.waitForURL(/#\/game\/[a-z0-9]+$/);
  const id = page.url().split('#/game/')[1];
  const state = await (await fetch(`${env.server.url}/api/games/${id}`)).json();
  assert.deepEqual([state.clocks.base_s, state.clocks.inc_s], [300, 3], 'the 5+3 tile');
  await page.locator('[data-seat]', { hasText: 'You play O' }).waitFor();
  // The link is shown (it was only behind a button), on the screen.
  const link = page.locator('[data-invite-link]');
  await link.waitFor();
  assert.equal(await link.inputValue(), `${env.server.url}/#/join/${id}`);
  const box = await link.boundingBox();
  assert.ok(box && box.y + box.height <= 844, `the link is in view: ${box?.y}`);
  assert.ok(await page.locator('[data-act="invite"]').isVisible());
  // For the friend across the table: the link as a QR code, drawn.
  await page.locator('[data-act="qr"]').click();
  const qr = page.locator('[data-invite-qr]');
  await qr.waitFor();
  await page.waitForFunction(() => {
    const img = /** @type {HTMLImageElement | null} */ (document.querySelector('[data-invite-qr]'));
    return img && img.complete && img.naturalWidth >= 200;
  });
  assert.equal(await page.locator('[data-act="qr"]').getAttribute('aria-expanded'), 'true');
  // Whole on the phone's screen (it fell below the fold).
  await page.waitForFunction(() => {
    const r = document.querySelector('[data-invite-qr]')?.getBoundingClientRect();
    return r && r.top >= 0 && r.bottom <= window.innerHeight + 1;
  });
  // The summary on the home page says what a tap on "Play a friend" plays.
  await page.goto(env.server.url);
  const line = await page.locator('[data-action="friend"] [data-hint]').textContent();
  assert.match(line || '', /you play O/);
  assert.match(line || '', /5\+3/);
  await page.context().close();
});
