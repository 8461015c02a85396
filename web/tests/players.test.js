// Players in the browser (issue: players): sign up with the refusals next
// to the form, the header naming you, the games this browser held kept
// by the account, a player's page with ratings, a chart and the archive,
// the leaderboard, logging out; at phone size.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSettings, request, serverAndBrowser, startFrom, statusUntil } from './harness.js';

const env = serverAndBrowser();
const PASSWORD = 'violet tram under paper';

/**
 * A request as another browser would make it, with its session cookie.
 * @param {string} method @param {string} path @param {unknown} [body] @param {string} [cookie]
 */
const api = (method, path, body, cookie) => request(env.server.url, method, path, body, cookie);

/** A rated 5×5 blitz game between two sessions, lost by O's resignation. @param {string} x @param {string} o */
async function ratedGame(x, o) {
  const created = (await api('POST', '/api/games', { size: '5x5', side: 'x', rated: true, clock: { base_s: 180, inc_s: 2 } }, x)).json;
  const joined = (await api('POST', `/api/games/${created.id}/join`, undefined, o)).json;
  for (const [side, token] of [['x', created.token], ['o', joined.token]]) {
    let s = (await api('GET', `/api/games/${created.id}`)).json;
    while (s.to_move === side) {
      const r = await fetch(`${env.server.url}/api/games/${created.id}/steps`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ seq: s.seq, steps: [s.legal[0]] }),
      });
      s = await r.json();
    }
  }
  await fetch(`${env.server.url}/api/games/${created.id}/resign`, { method: 'POST', headers: { authorization: `Bearer ${joined.token}` } });
  return created.id;
}

test('sign up on a phone: refusals by the form, the header names you, this browser\'s games kept', async () => {
  const page = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await page.goto(env.server.url);
  // A game first, without an account.
  await startFrom(page, 'computer', { level: 'level:1', side: 'x', size: '5x5' });
  await statusUntil(page, (s) => s === 'X to move');
  const id = page.url().split('#/game/')[1];
  await page.locator('[data-me]', { hasText: 'Log in' }).click();
  const signup = page.locator('[data-form="signup"]');
  await signup.locator('input[name="name"]').fill('Phone_Ann');
  await signup.locator('input[name="password"]').fill('password1');
  await signup.locator('button').click();
  await signup.locator('[data-error]', { hasText: /too easy to guess/ }).waitFor();
  await signup.locator('input[name="password"]').fill(PASSWORD);
  await signup.locator('button').click();
  await page.waitForURL(/#\/@\/Phone_Ann$/);
  await page.locator('[data-me]', { hasText: 'Phone_Ann' }).waitFor();
  await page.locator('[data-player-name]', { hasText: 'Phone_Ann' }).waitFor();
  // The game against the computer is the account's now.
  await page.locator(`[data-playing] [data-game="${id}"]`).waitFor();
  const state = await (await fetch(`${env.server.url}/api/games/${id}`)).json();
  assert.deepEqual(state.players.x, { kind: 'human', level: null, name: 'Phone_Ann', account: true });
  // The home page lists it among my games; the name is taken now.
  await page.goto(`${env.server.url}/#/`);
  await page.locator(`[data-my-games] [data-game="${id}"]`).waitFor();
  const again = await api('POST', '/api/accounts', { name: 'phone_ann', password: PASSWORD });
  assert.equal(again.status, 409);
  // Log out: the header offers to log in again.
  await page.goto(`${env.server.url}/#/@/Phone_Ann`);
  await page.locator('[data-account="logout"]').click();
  await page.locator('[data-me]', { hasText: 'Log in' }).waitFor();
  await page.context().close();
});

test('a player\'s page: ratings with a chart, the archive filtered, the leaderboard', async () => {
  const ann = (await api('POST', '/api/accounts', { name: 'chart_ann', password: PASSWORD })).cookie;
  const bo = (await api('POST', '/api/accounts', { name: 'chart_bo', password: PASSWORD })).cookie;
  for (let k = 0; k < 3; k++) await ratedGame(ann, bo);
  const page = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await page.goto(`${env.server.url}/#/@/chart_ann`);
  const row = page.locator('[data-category="other-blitz"] [data-rating]');
  await row.waitFor();
  assert.match(await row.textContent() || '', /^\d{4}\?$/, 'provisional: shown with ?');
  await page.locator('[data-chart] svg polyline').waitFor();
  const points = await page.locator('[data-chart] svg polyline').getAttribute('points');
  assert.equal(points?.split(' ').length, 4, 'where she started, then one point a rated game');
  await page.locator('[data-archive] [data-game]').nth(2).waitFor();
  assert.equal(await page.locator('[data-archive] [data-result="won"]').count(), 3);
  // Filtered: no game lost.
  await page.locator('[data-form="archive"] select[name="result"]').selectOption('lost');
  await page.locator('[data-form="archive"] button').click();
  await page.locator('[data-archive] li', { hasText: 'No game.' }).waitFor();
  // Each game opens the analysis board on it.
  await page.locator('[data-form="archive"] select[name="result"]').selectOption('');
  await page.locator('[data-form="archive"] button').click();
  await page.locator('[data-archive] [data-game] a', { hasText: 'Analyse' }).first().click();
  await page.waitForURL(/#\/analysis\//);
  // The leaderboard: nobody settled yet in this category; both players
  // among the provisional ones, best first.
  await page.goto(`${env.server.url}/#/leaderboard/other-blitz`);
  await page.locator('[data-leaders] li', { hasText: 'Nobody yet.' }).waitFor();
  await page.locator('[data-provisional] [data-leader="chart_bo"]').waitFor();
  const order = await page.locator('[data-provisional] [data-leader]').evaluateAll((l) => l.map((e) => e.getAttribute('data-leader')));
  assert.deepEqual(order, ['chart_ann', 'chart_bo']);
  await page.context().close();
});

/**
 * Signs a new player up in a phone-sized browser; the page.
 * @param {string} name
 */
async function signedUp(name) {
  const page = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await page.goto(`${env.server.url}/#/login`);
  const form = page.locator('[data-form="signup"]');
  await form.locator('input[name="name"]').fill(name);
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.locator('button').click();
  await page.waitForURL(new RegExp(`#/@/${name}$`));
  return page;
}

test('two people sign up on phones, play a rated blitz game, and see it on their pages, the archive and the leaderboard', async () => {
  const [ann, bo] = [await signedUp('done_ann'), await signedUp('done_bo')];
  // Ann starts a rated 3+2 game for a friend from the home page.
  await ann.goto(env.server.url);
  const form = await openSettings(ann, 'friend');
  await form.locator('select[name="size"]').selectOption('5x5');
  // The clock is a tile now (it was two number fields).
  await form.locator('input[name="clock"][value="3+2"]').check({ force: true });
  await form.locator('input[name="rated"]').check();
  await form.locator('button.primary').click();
  await ann.waitForURL(/#\/game\//);
  const id = ann.url().split('#/game/')[1];
  // Ann's page knows her stakes before Bo sits down; his come when he does.
  await ann.locator('[data-card-rating]').first().waitFor();
  await bo.goto(`${env.server.url}/#/join/${id}`);
  await bo.waitForURL(new RegExp(`#/game/${id}$`));
  const state = await (await fetch(`${env.server.url}/api/games/${id}`)).json();
  assert.equal(state.rated, true);
  // The game says it is rated, and in what; each card shows its player's
  // rating (new accounts: 1500, provisional).
  for (const page of [ann, bo]) {
    await page.locator('[data-stakes]', { hasText: 'Rated · Other variants, blitz · 3+2' }).waitFor();
    for (const side of ['x', 'o']) {
      assert.equal(await page.locator(`[data-card="${side}"] [data-card-rating]`).textContent(), '1500?');
    }
  }
  // Each plays a turn on the board (X, O, X again), then O resigns.
  const pageOf = (/** @type {string} */ side) => (state.players[side].name === 'done_ann' ? ann : bo);
  for (const side of ['x', 'o', 'x']) {
    const page = pageOf(side);
    await page.locator('[data-card][data-to-move]', { hasText: 'You' }).waitFor();
    const legal = page.locator('[data-cell][data-legal]');
    while (await page.locator('[data-card][data-to-move]', { hasText: 'You' }).count() && await legal.count()) {
      const cell = await legal.first().getAttribute('data-cell');
      await legal.first().click();
      await page.locator(`[data-cell="${cell}"]:not([data-content="empty"])`).waitFor();
    }
  }
  const mover = pageOf('o');
  await mover.locator('[data-card][data-to-move]', { hasText: 'You' }).waitFor();
  await mover.locator('[data-act="resign"]').click();
  await mover.locator('[data-act="resign"]').click();
  await mover.locator('[data-result]:not([hidden])').waitFor();
  // The end shows what it did to each rating: O lost (−), X won (+).
  for (const page of [ann, bo]) {
    await page.locator('[data-card="o"] [data-card-change]', { hasText: /^−\d/ }).waitFor();
    await page.locator('[data-card="x"] [data-card-change]', { hasText: /^\+\d/ }).waitFor();
  }
  // Both ratings moved, on each player's page, with a chart.
  for (const [page, name] of [[ann, 'done_ann'], [bo, 'done_bo']]) {
    await /** @type {import('playwright-core').Page} */ (page).goto(`${env.server.url}/#/@/${name}`);
    const rating = await page.locator('[data-category="other-blitz"] [data-rating]').textContent();
    assert.notEqual(rating, '1500?', `${name}: ${rating}`);
    await page.locator('[data-chart] svg polyline').waitFor();
  }
  // From another device: logged in, the game is in the archive.
  const other = await (await env.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await other.goto(`${env.server.url}/#/login`);
  const login = other.locator('[data-form="login"]');
  await login.locator('input[name="name"]').fill('done_bo');
  await login.locator('input[name="password"]').fill(PASSWORD);
  await login.locator('button').click();
  await other.waitForURL(/#\/@\/done_bo$/);
  await other.locator(`[data-archive] [data-game="${id}"]`).waitFor();
  // A third person finds both on the leaderboard (provisional after one game).
  const third = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  // The overview first: the category's card lists them (provisional,
  // marked "?"), and leads to its whole board.
  await third.goto(`${env.server.url}/#/leaderboard`);
  const card = third.locator('[data-top="other-blitz"]');
  await card.locator('[data-leader="done_ann"]').waitFor();
  assert.match(await card.locator('[data-leader="done_bo"] strong').textContent() || '', /^\d+\?$/);
  await card.locator('a.more').click();
  await third.waitForURL(/#\/leaderboard\/other-blitz$/);
  await third.locator('[data-provisional] [data-leader="done_ann"]').waitFor();
  await third.locator('[data-provisional] [data-leader="done_bo"]').waitFor();
  for (const p of [ann, bo, other, third]) await p.context().close();
});

test('my games on the home page: the tab title counts those waiting for my move', async () => {
  const page = await signedUp('title_cy');
  await page.goto(env.server.url);
  await startFrom(page, 'computer', { level: 'level:1', side: 'x', size: '5x5' });
  await statusUntil(page, (s) => s === 'X to move');
  await page.goto(`${env.server.url}/#/`);
  await page.locator('[data-my-games] [data-your-turn]').waitFor();
  await page.waitForFunction(() => document.title.startsWith('(1) '));
  assert.match(await page.locator('link[rel="icon"]').getAttribute('href') || '', /^data:image\/svg\+xml/);
  await page.context().close();
});
