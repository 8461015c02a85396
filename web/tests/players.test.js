// Players in the browser (issue: players): sign up with the refusals next
// to the form, the header naming you, the games this browser held kept
// by the account, a player's page with ratings, a chart and the archive,
// the leaderboard, logging out; at phone size.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, startFrom, statusUntil } from './harness.js';

const env = serverAndBrowser();
const PASSWORD = 'violet tram under paper';

/**
 * A request as another browser would make it, with its session cookie.
 * @param {string} method @param {string} path @param {unknown} [body] @param {string} [cookie]
 * @returns {Promise<{status: number, cookie: string, json: any}>}
 */
async function api(method, path, body, cookie) {
  const r = await fetch(`${env.server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin: env.server.url, ...(cookie ? { cookie: `vw_session=${cookie}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const set = r.headers.get('set-cookie') || '';
  return { status: r.status, cookie: (set.match(/vw_session=([^;]*)/) || [])[1] || cookie || '', json: await r.json().catch(() => null) };
}

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
  assert.equal(points?.split(' ').length, 3, 'one point a rated game');
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
  // The leaderboard: nobody settled yet in this category.
  await page.goto(`${env.server.url}/#/leaderboard/other-blitz`);
  await page.locator('[data-leaders] li', { hasText: 'Nobody yet.' }).waitFor();
  await page.context().close();
});
