// The web UI in headless Chromium against the real server: a whole game
// against the computer on a phone, two people through an invite link with
// a spectator and a reload, and a tap on a cell that is not legal.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openSettings, startFrom, status, statusUntil, over, playOut } from './harness.js';

const env = serverAndBrowser();

test('a whole game against level 1 on a phone', async () => {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(env.server.url);
  await startFrom(page, 'computer', { level: 'level:1', side: 'x', size: '5x5' });
  assert.equal(await status(page), 'X to move');
  const cells = await page.locator('[data-cell]').count();
  assert.equal(cells, 25, 'a 5x5 board');
  assert.equal(await page.locator('[data-cell="a1"]').getAttribute('data-content'), 'empty');
  const result = await playOut([page]);
  assert.ok(['X wins', 'O wins'].includes(result), result);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no horizontal scrolling on a phone: ${width}px`);
  await context.close();
});

test('two people through an invite link, a spectator, and a reload', async () => {
  const a = await (await env.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const b = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  const watcher = await (await env.browser.newContext()).newPage();
  await a.goto(env.server.url);
  await startFrom(a, 'friend', { size: '5x5' });
  const id = a.url().split('#/game/')[1];
  await b.goto(`${env.server.url}/#/join/${id}`);
  await b.waitForURL(new RegExp(`#/game/${id}$`));
  await watcher.goto(`${env.server.url}/#/game/${id}`);
  const first = await status(a);
  assert.match(first, /^[XO] to move$/);
  // Whoever is to move has legal cells on their page, the other none.
  const mover = (await a.locator('[data-cell][data-legal]').count()) ? a : b;
  const other = mover === a ? b : a;
  assert.equal(await other.locator('[data-cell][data-legal]').count(), 0);
  await mover.locator('[data-cell][data-legal]').first().click();
  await watcher.waitForFunction(() => document.querySelectorAll('[data-moves] li').length === 1);
  // A reload keeps the seat.
  await mover.reload();
  await statusUntil(mover, (s) => /to move$/.test(s));
  await mover.locator('[data-cell][data-legal]').first().waitFor();
  const result = await playOut([a, b]);
  assert.ok(over(result), result);
  assert.equal(await statusUntil(watcher, over), result, 'the spectator saw the end');
});

/** Two pages in a 5×5 friend game: `a` made it, `b` joined by its link. */
async function friendsAt5x5() {
  const a = await (await env.browser.newContext()).newPage();
  const b = await (await env.browser.newContext()).newPage();
  await a.goto(env.server.url);
  await startFrom(a, 'friend', { size: '5x5' });
  const id = a.url().split('#/game/')[1];
  await b.goto(`${env.server.url}/#/join/${id}`);
  await b.waitForURL(new RegExp(`#/game/${id}$`));
  return { a, b, id };
}

test('a rematch: each page holds the seat the server gave its token, colours swapped', async () => {
  const { a, b, id } = await friendsAt5x5();
  /** @param {import('playwright-core').Page} p @param {string} game */
  const seatOn = (p, game) => p.evaluate((g) => JSON.parse(localStorage.getItem(`vw-seat-${g}`) || '{}').seat, game);
  const [wasA, wasB] = [await seatOn(a, id), await seatOn(b, id)];
  assert.deepEqual([wasA, wasB].sort(), ['o', 'x']);
  assert.ok(over(await playOut([a, b])));
  await a.locator('[data-result] [data-act="rematch"]').click();
  await a.waitForURL((u) => !u.hash.endsWith(id));
  const next = a.url().split('#/game/')[1];
  // The other player sees the offer on the result card, its button lit
  // (it was a small link far below the card).
  await b.locator('[data-result] [data-rematch-offer]', { hasText: 'Your opponent wants a rematch.' }).waitFor();
  const accept = b.locator(`[data-result] [data-act="rematch"][data-rematch="${next}"].lit`);
  assert.equal(await accept.textContent(), 'Accept the rematch');
  assert.ok(await b.locator('[data-result] [data-act="decline"]').isVisible());
  // The asker, back on the old game, is not offered their own rematch.
  await a.goBack();
  await a.locator('[data-result]:not([hidden])').waitFor();
  assert.ok(await a.locator('[data-rematch-offer]').isHidden(), 'no offer to the asker');
  assert.ok(await a.locator('[data-result] [data-act="decline"]').isHidden());
  await a.goForward();
  await a.waitForURL(new RegExp(`#/game/${next}$`));
  await accept.click();
  await b.waitForURL(new RegExp(`#/game/${next}$`));
  assert.deepEqual([await seatOn(a, next), await seatOn(b, next)], [wasB, wasA], 'the colours swapped');
  // X's page has the legal cell, O's none.
  const x = wasA === 'o' ? a : b;
  await x.locator('[data-cell="a1"][data-legal]').waitFor();
  assert.equal(await (x === a ? b : a).locator('[data-cell][data-legal]').count(), 0);
});

test('a rematch declined: the decliner is told, the asker sees it called off', async () => {
  const { a, b, id } = await friendsAt5x5();
  assert.ok(over(await playOut([a, b])));
  await a.locator('[data-result] [data-act="rematch"]').click();
  await a.waitForURL((u) => !u.hash.endsWith(id));
  await b.locator('[data-result] [data-act="decline"]').click();
  await b.locator('[data-rematch-offer]', { hasText: 'You declined the rematch.' }).waitFor();
  assert.ok(await b.locator('[data-result] [data-act="rematch"]').isHidden(), 'nothing left to accept');
  // Not offered again after a reload (its Accept opened a game called off).
  await b.reload();
  await b.locator('[data-result]:not([hidden])').waitFor();
  assert.ok(await b.locator('[data-rematch-offer]').isHidden(), 'declined stays declined');
  assert.ok(await b.locator('[data-result] [data-act="decline"]').isHidden());
  await a.locator('[data-result]:not([hidden]) [data-result-title]', { hasText: 'The game was called off' }).waitFor();
});

test('a tap on a cell that is not legal says why and changes nothing', async () => {
  const page = await (await env.browser.newContext()).newPage();
  await page.goto(env.server.url);
  await startFrom(page, 'computer', { side: 'x', size: '5x5' });
  assert.equal(await status(page), 'X to move');
  await page.locator('[data-cell="e5"]').click();
  // The server's reason in the player's words (before: "step 1 (e5): not accessible for X").
  await page.locator('[data-error]', { hasText: 'Your first step must be on a1.' }).waitFor();
  assert.equal(await page.locator('[data-cell="e5"]').getAttribute('data-content'), 'empty');
  assert.equal(await page.locator('[data-cell][data-content="x"]').count(), 0);
  assert.equal(await status(page), 'X to move');
  await page.locator('[data-cell="a1"]').click();
  await page.locator('[data-cell="a1"][data-content="x"]').waitFor();
  await page.locator('[data-cell="e5"]').click();
  await page.locator('[data-error]', { hasText: "You can't reach e5: it touches none of your live viruses" }).waitFor();
});

test('pass-and-play: both seats on one device, the board turned for O', async () => {
  const page = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await page.goto(env.server.url);
  await startFrom(page, 'local', { size: '5x5' }, ['turn']);
  assert.equal(await status(page), 'X to move');
  // X's whole first turn, then O is to move on the same screen, board turned.
  for (let k = 0; k < 3; k++) {
    const seen = await page.locator('[data-moves]').textContent();
    await page.locator('[data-cell][data-legal]').first().click();
    await page.waitForFunction((t) => document.querySelector('[data-moves]')?.textContent !== t, seen);
  }
  await statusUntil(page, (s) => s === 'O to move');
  assert.ok(await page.locator('[data-cell][data-legal]').count() > 0, 'O plays here too');
  assert.equal(await page.locator('.board.turned').count(), 1);
  const result = await playOut([page]);
  assert.ok(over(result), result);
});

test('pass-and-play with the board turned: a double tap on a turn\'s last step never plays for the other side', async () => {
  const page = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await page.goto(env.server.url);
  await startFrom(page, 'local', { size: '10x10' }, ['turn']);
  /** Plays `cell` with one tap, once its turn's board is drawn. @param {string} cell */
  const play = async (cell) => {
    await page.locator(`[data-cell="${cell}"][data-legal]`).click();
    await page.locator(`[data-cell="${cell}"]:not([data-content="empty"])`).waitFor();
  };
  for (const cell of ['a1', 'b2', 'c3', 'j10', 'i9', 'h8', 'd4', 'e5', 'f6', 'g7', 'g6']) await play(cell);
  // O's last step tapped twice at one point of the screen, the second after
  // the board has turned round for X: it landed on the mirrored cell (d5)
  // and played it for X.
  const box = await page.locator('[data-cell="f5"]').boundingBox();
  assert.ok(box);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.locator('.board:not(.turned)').waitFor();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForTimeout(600);
  const state = await (await fetch(`${env.server.url}/api/games/${page.url().split('#/game/')[1]}`)).json();
  assert.equal(state.to_move, 'x');
  assert.equal(state.steps_left, 3, `X played nothing: ${state.steps.join(' ')}`);
  assert.equal(state.steps.at(-1), 'f5');
});

test('the e-ink theme: black and white, no transparency, trenches and obstacles too', async () => {
  const page = await (await env.browser.newContext()).newPage();
  await page.goto(`${env.server.url}/#/settings`);
  await page.locator('select[name="theme"]').selectOption('eink');
  await page.goto(`${env.server.url}/#/`);
  const form = await openSettings(page, 'computer');
  await form.locator('select[name="level"]').selectOption('level:1');
  await form.locator('select[name="side"]').selectOption('x');
  await form.locator('select[name="size"]').selectOption('5x5');
  await form.locator('summary').click();
  await form.locator('input[name="options"]').fill('trenches=20, obstacles=c3');
  await form.locator('button', { hasText: 'Play' }).click();
  await page.waitForURL(/#\/game\//);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'eink');
  assert.equal(await page.locator('[data-cell="c3"]').getAttribute('data-content'), 'obstacle');
  assert.ok(await page.locator('[data-content="trench"]').count() > 0, 'trenches on the board');
  // Play until zombies are on the board or the game ends.
  for (let k = 0; k < 40 && !(await page.locator('.zombie').count()); k++) {
    if (over(await status(page))) break;
    const cell = page.locator('[data-cell][data-legal]').first();
    if (await cell.count()) {
      const seen = await page.locator('[data-moves]').textContent();
      await cell.click();
      await page.waitForFunction((t) => document.querySelector('[data-moves]')?.textContent !== t, seen);
    } else {
      await page.waitForTimeout(50);
    }
  }
  const colours = await page.evaluate(() => {
    const seen = new Set();
    for (const e of document.querySelectorAll('body, body *')) {
      const c = getComputedStyle(e);
      for (const v of [c.color, c.backgroundColor, c.fill, c.stroke]) {
        if (v && v !== 'none' && v !== 'rgba(0, 0, 0, 0)') seen.add(v);
      }
      for (const o of [c.opacity, c.fillOpacity, c.strokeOpacity]) {
        if (o && Number(o) < 1) seen.add(`opacity ${o} on ${e.tagName}.${e.getAttribute('class')}`);
      }
    }
    return [...seen];
  });
  const allowed = new Set(['rgb(0, 0, 0)', 'rgb(255, 255, 255)']);
  assert.deepEqual(colours.filter((c) => !allowed.has(c)), [], 'only black and white');
});

test('the analysis board loads a record, steps through it and asks the engine', async () => {
  const page = await (await env.browser.newContext()).newPage();
  await page.goto(`${env.server.url}/#/analysis`);
  await statusUntil(page, (s) => s === 'X to move');
  const record = '[Variant "classic"]\n[Size "5x5"]\n\n1. a1-b2-c3 e5-d4-e4\n';
  await page.locator('textarea[name="text"]').fill(record);
  await page.locator('[data-form="load"] button').click();
  await page.locator('[data-frame="6"]').waitFor();
  assert.equal(await page.locator('[data-cell]').count(), 25);
  await page.locator('[data-go="last"]').click();
  assert.equal(await page.locator('[data-cell="e4"]').getAttribute('data-content'), 'o');
  assert.equal(await status(page), 'X to move');
  await page.locator('[data-go="back"]').click();
  assert.equal(await page.locator('[data-cell="e4"]').getAttribute('data-content'), 'empty');
  assert.equal(await status(page), 'O to move');
  // A variation: a legal cell played from here, beside the game (which keeps its 6 steps).
  await page.locator('[data-cell][data-legal]').first().click();
  await page.locator('[data-branch-frame]').first().waitFor();
  assert.equal(await page.locator('[data-frames] [data-frame]').count(), 6);
  await page.locator('[data-ask]').click();
  await page.locator('[data-engine]', { hasText: 'Best turn' }).waitFor({ timeout: 15000 });
  // Junk says why.
  await page.locator('textarea[name="text"]').fill('1. a1 zz');
  await page.locator('[data-form="load"] button').click();
  await page.locator('[data-error]', { hasText: 'record' }).waitFor();
});

test("the creation answer's url opens the game in the creator's seat; invite takes the other", async () => {
  const created = await (await fetch(`${env.server.url}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ size: '5x5', side: 'x' }),
  })).json();
  assert.match(created.url, /#\/game\/[a-z0-9]+\/seat\/x\//);
  const page = await (await env.browser.newContext()).newPage();
  await page.goto(created.url);
  await page.waitForURL(new RegExp(`#/game/${created.id}$`));
  await page.locator('[data-seat]', { hasText: 'You play X' }).waitFor();
  const other = await (await env.browser.newContext()).newPage();
  await other.goto(created.invite);
  await other.locator('[data-seat]', { hasText: 'You play O' }).waitFor();
  await page.locator('[data-cell][data-legal]').first().waitFor();
});

test('a real-time game counts down the first step it waits for, in both seats', async () => {
  const created = await (await fetch(`${env.server.url}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ size: '5x5', side: 'x', clock: { base_s: 300, inc_s: 0 } }),
  })).json();
  const page = await (await env.browser.newContext()).newPage();
  await page.goto(created.url);
  const other = await (await env.browser.newContext()).newPage();
  await other.goto(created.invite);
  const mine = page.locator('[data-first-step]', { hasText: /^Make your first step within (29|30) s, or the game is called off\.$/ });
  await mine.waitFor();
  await other.locator('[data-first-step]', { hasText: /^X has \d+ s to make a first step/ }).waitFor();
  // Once X has stepped, nothing is counted down for X.
  await page.locator('[data-cell="a1"][data-legal]').click();
  await page.locator('[data-cell="a1"][data-content="x"]').waitFor();
  await page.locator('[data-first-step]').waitFor({ state: 'hidden' });
  await page.context().close();
  await other.context().close();
});
