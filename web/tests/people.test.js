// People find each other (issue: community), in the browser: Ann follows
// Bo from his page, sees him online and a game of his to watch on her own
// page and on the home page; Bo hides that he is online, and Ann no longer
// sees it; at phone size.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request, serverAndBrowser } from './harness.js';

const env = serverAndBrowser();
const PASSWORD = 'violet tram under paper';

/**
 * A request as another browser would make it, with its session cookie.
 * @param {string} method @param {string} path @param {unknown} [body] @param {string} [cookie]
 */
const api = (method, path, body, cookie) => request(env.server.url, method, path, body, cookie);

/** A phone browser logged in with `cookie`. @param {string} cookie */
async function phone(cookie) {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await context.addCookies([{ name: 'vw_session', value: cookie, url: env.server.url }]);
  return context.newPage();
}

test('follow a player from their page; see them online and their game; hidden, they are not shown', async () => {
  const ann = (await api('POST', '/api/accounts', { name: 'Ann', password: PASSWORD })).cookie;
  const bo = (await api('POST', '/api/accounts', { name: 'Bo', password: PASSWORD })).cookie;
  // A listed game of Bo's, waiting for a player: anyone may watch it.
  const game = (await api('POST', '/api/games', { size: '5x5', side: 'x', listed: true }, bo)).json;
  const page = await phone(ann);
  await page.goto(`${env.server.url}/#/@/Bo`);
  await page.locator('[data-player-name]', { hasText: 'Bo' }).waitFor();
  assert.equal(await page.locator('[data-player-name] [data-online]').count(), 1, 'Bo is online');
  assert.equal(await page.locator('[data-followers]').textContent(), 'Followers: 0');
  const follow = page.locator('[data-follow]');
  assert.equal(await follow.textContent(), 'Follow');
  await follow.tap();
  await page.locator('[data-follow][aria-pressed="true"]', { hasText: 'Unfollow' }).waitFor();
  assert.equal(await page.locator('[data-followers]').textContent(), 'Followers: 1');
  // Her own page lists him: online, with his game to watch.
  await page.goto(`${env.server.url}/#/@/Ann`);
  const bo1 = page.locator('[data-followed="Bo"]');
  await bo1.waitFor();
  assert.equal(await bo1.locator('[data-online]').count(), 1);
  assert.equal(await bo1.locator('[data-watch]').getAttribute('href'), `#/game/${game.id}`);
  // The home page lists the games of those she follows.
  await page.goto(`${env.server.url}/#/`);
  await page.locator('[data-followed-box]:not([hidden]) [data-watch-game]').waitFor();
  assert.equal(await page.locator('[data-followed-box] [data-watch-game]').getAttribute('href'), `#/game/${game.id}`);
  // And who is online: Bo among them, with his dot and a link to his page
  // (the list folded on a phone: opened).
  await page.locator('[data-online-box]:not([hidden]) [data-online-count]').tap();
  const online = page.locator('[data-online-box]:not([hidden]) [data-online-names] a', { hasText: 'Bo' });
  await online.waitFor();
  assert.equal(await online.getAttribute('href'), '#/@/Bo');
  assert.equal(await online.locator('[data-online]').count(), 1);
  const count = Number((await page.locator('[data-online-count]').textContent() || '').replace(/\D/g, ''));
  assert.ok(count >= 2, `Ann and Bo at least: ${count}`);
  await page.goto(`${env.server.url}/#/@/Ann`);
  await page.locator('[data-followed="Bo"]').waitFor();
  // Bo, on his own page, is never to be shown online.
  const his = await phone(bo);
  await his.goto(`${env.server.url}/#/@/Bo`);
  const hide = his.locator('[data-account="hide-online"]');
  await hide.waitFor();
  assert.equal(await his.locator('[data-follow]').count(), 0, 'no button to follow yourself');
  const saved = his.waitForResponse((r) => r.url().endsWith('/api/me') && r.request().method() === 'PATCH');
  await hide.tap();
  assert.equal((await saved).status(), 200);
  await page.reload();
  await page.locator('[data-followed="Bo"]').waitFor();
  assert.equal(await page.locator('[data-followed="Bo"] [data-online]').count(), 0, 'hidden: not shown online');
  // Nor among the names on the home page; still counted.
  await page.goto(`${env.server.url}/#/`);
  await page.locator('[data-online-box]:not([hidden]) [data-online-count]').tap();
  await page.locator('[data-online-box]:not([hidden]) [data-online-names] a', { hasText: 'Ann' }).waitFor();
  assert.equal(await page.locator('[data-online-names] a', { hasText: 'Bo' }).count(), 0, 'hidden: no name');
  assert.equal(Number((await page.locator('[data-online-count]').textContent() || '').replace(/\D/g, '')), count, 'still counted');
  await page.goto(`${env.server.url}/#/@/Ann`);
  // Unfollowed from his page: her list says so.
  await page.goto(`${env.server.url}/#/@/Bo`);
  await page.locator('[data-follow][aria-pressed="true"]').tap();
  await page.locator('[data-follow][aria-pressed="false"]', { hasText: 'Follow' }).waitFor();
  await page.goto(`${env.server.url}/#/@/Ann`);
  await page.locator('[data-following] li', { hasText: 'You follow nobody yet' }).waitFor();
  await page.context().close();
  await his.context().close();
});
