// Challenges and notifications (issue: community), in two phone browsers:
// Ann follows Bo, sees him online and challenges him from his page to a
// correspondence game; Bo, on the puzzles page, sees the bell's count in
// the tab's title too, and accepts from the bell; Ann's page says so;
// they chat in the game.
// Bo closes his tab; Ann plays her turn: his browser's push subscription
// receives an encrypted your_turn (a receiver on loopback decrypts it);
// Bo plays his, and Ann's home page says it is her move.
// Bo blocks Ann from her page, and her next challenge is refused; an
// operator mutes Ann, and her next chat line is refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before } from 'node:test';
import { BIN, request, startBrowser, startServer } from './harness.js';
import { pushReceiver } from './pushreceiver.js';

/** @type {{server: {url: string, stop: () => void, data: string}, browser: import('playwright-core').Browser}} */
const env = /** @type {any} */ ({});
// Web Push may go to the test's receiver on loopback.
before(async () => {
  env.server = await startServer({ args: ['--no-rate-limits', '--push-allow-loopback'] });
  env.browser = await startBrowser();
});
after(async () => {
  await env.browser?.close();
  env.server?.stop();
});
const PASSWORD = 'violet tram under paper';

/**
 * @param {string} method @param {string} path @param {unknown} [body] @param {string} [cookie]
 */
const api = (method, path, body, cookie) => request(env.server.url, method, path, body, cookie);

/** A phone browser logged in with `cookie`. @param {string} cookie */
async function phone(cookie) {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await context.addCookies([{ name: 'vw_session', value: cookie, url: env.server.url }]);
  return context.newPage();
}

test('a challenge by name: sent from a page, heard on another, accepted from the bell; a turn told; a block refuses', async () => {
  const ann = (await api('POST', '/api/accounts', { name: 'Ann', password: PASSWORD })).cookie;
  const bo = (await api('POST', '/api/accounts', { name: 'Bo', password: PASSWORD })).cookie;
  let his = await phone(bo);
  await his.goto(`${env.server.url}/#/puzzles`);
  await his.locator('[data-bell]:not([hidden])').waitFor();
  assert.equal(await his.locator('[data-bell-count]').textContent(), '');
  const page = await phone(ann);
  await page.goto(`${env.server.url}/#/@/Bo`);
  await page.locator('[data-player-name] [data-online]').waitFor();
  await page.locator('[data-follow]').tap();
  await page.locator('[data-follow][aria-pressed="true"]').waitFor();
  // The challenge: 3 days a turn, Ann as X.
  await page.locator('[data-challenge-open]').tap();
  await page.locator('[data-challenge-form] select[name="clock"]').selectOption('3d');
  await page.locator('[data-challenge-form] select[name="side"]').selectOption('x');
  await page.locator('[data-challenge-send]').tap();
  await page.locator('[data-challenge-sent]:not([hidden])', { hasText: 'waiting for an answer' }).waitFor();
  // Bo, on the puzzles page: the bell says 1, and so does the tab's title.
  await his.locator('[data-bell-count]', { hasText: '1' }).waitFor({ timeout: 5000 });
  assert.match(await his.title(), /^\(1\) /);
  await his.locator('[data-bell]').tap();
  const note = his.locator('[data-notes] li[data-kind="challenge"]');
  await note.waitFor();
  assert.match(await note.textContent() || '', /Ann challenges you/);
  // Opened, it is read: the count goes.
  await his.locator('[data-bell-count]:empty').waitFor({ state: 'attached' });
  await note.locator('[data-accept]').tap();
  await his.waitForURL(/#\/game\/[a-z0-9]+$/);
  const id = his.url().split('/').pop() || '';
  await his.locator('[data-board]').waitFor();
  // Ann's page says it was accepted, with the game one tap away.
  await page.locator('[data-challenge-sent] a', { hasText: 'Open the game' }).waitFor();
  assert.equal(await page.locator('[data-challenge-sent] a').getAttribute('href'), `#/game/${id}`);
  await page.locator('[data-bell-count]', { hasText: '1' }).waitFor();
  // They chat in the game: Ann's line reaches Bo's page.
  await page.locator('[data-challenge-sent] a').tap();
  await page.locator('[data-board]').waitFor();
  // On her game page, Bo's card has the online dot (his page is open); her
  // own card does not ask.
  await page.locator('[data-card] .card-name', { hasText: 'Bo' }).locator('[data-online]').waitFor({ timeout: 5000 });
  assert.equal(await page.locator('[data-card] [data-online]').count(), 1);
  await page.locator('[data-chat-text]').fill('good luck, Bo');
  await page.locator('[data-chat-send]').tap();
  await his.locator('[data-chat-lines] li[data-room="players"]', { hasText: 'good luck, Bo' }).waitFor({ timeout: 5000 });
  assert.equal(await his.locator('[data-chat-lines] li strong').first().textContent(), 'Ann');
  // Bo's browser is subscribed to Web Push (here a receiver on loopback
  // stands for his browser's push service); he closes his tab, and Ann
  // plays her turn (X) as her page would: his browser receives an
  // encrypted your_turn that decrypts to the game.
  const push = await pushReceiver();
  assert.equal((await api('POST', '/api/me/push', push.subscription, bo)).status, 204);
  await his.context().close();
  let s = (await api('GET', `/api/games/${id}`, undefined, ann)).json;
  while (s.to_move === 'x') {
    s = (await api('POST', `/api/games/${id}/steps`, { seq: s.seq, steps: [s.legal[0]] }, ann)).json;
  }
  const message = await push.next();
  assert.equal(message.headers['content-encoding'], 'aes128gcm');
  assert.match(String(message.headers.authorization), /^vapid t=.+, k=/);
  const said = push.decrypt(message.body);
  assert.deepEqual([said.kind, said.game, said.opponent], ['your_turn', id, 'Ann']);
  push.close();
  // Back on the puzzles page, the bell has it.
  his = await phone(bo);
  await his.goto(`${env.server.url}/#/puzzles`);
  await his.locator('[data-bell]:not([hidden])').waitFor();
  // Ann's chat line told him too (a game played over days): two unread.
  await his.locator('[data-bell-count]', { hasText: '2' }).waitFor({ timeout: 5000 });
  assert.match(await his.title(), /^\(2\) /);
  await his.locator('[data-bell]').tap();
  assert.match(await his.locator('[data-notes] li[data-kind="message"]').textContent() || '', /Ann: good luck, Bo/);
  const turn = his.locator('[data-notes] li[data-kind="your_turn"]');
  await turn.waitFor();
  assert.match(await turn.textContent() || '', /Your turn against Ann/);
  assert.equal(await turn.locator('a').getAttribute('href'), `#/game/${id}`);
  // Ann on the home page: her game waits for Bo; Bo plays, and her list
  // says it is her move at once (the notification), with no reload.
  await page.goto(`${env.server.url}/#/`);
  await page.locator(`[data-my-games] li[data-game="${id}"]`, { hasText: 'Their move' }).waitFor();
  s = (await api('GET', `/api/games/${id}`, undefined, bo)).json;
  while (s.to_move === 'o') {
    s = (await api('POST', `/api/games/${id}/steps`, { seq: s.seq, steps: [s.legal[0]] }, bo)).json;
  }
  await page.locator(`[data-my-games] li[data-game="${id}"][data-your-turn]`, { hasText: 'Your move' }).waitFor({ timeout: 5000 });
  assert.match(await page.title(), /^\(\d\) /);
  // Bo blocks Ann from her page: her next challenge is refused, saying why.
  await his.goto(`${env.server.url}/#/@/Ann`);
  await his.locator('[data-block]', { hasText: 'Block' }).tap();
  await his.locator('[data-block][aria-pressed="true"]', { hasText: 'Unblock' }).waitFor();
  await page.goto(`${env.server.url}/#/@/Bo`);
  await page.locator('[data-challenge-open]').tap();
  await page.locator('[data-challenge-send]').tap();
  await page.locator('[data-error="challenge"]', { hasText: 'one of you blocks the other' }).waitFor();
  // An operator mutes Ann with `virus-wars admin` while the server runs:
  // her next chat line is refused, in words.
  const data = /** @type {{data: string}} */ (/** @type {unknown} */ (env.server)).data;
  const muted = execFileSync(BIN, ['admin', '--data', data, '--by', 'op', 'mute', 'Ann', '--days', '1']).toString();
  assert.match(muted, /Ann is muted/);
  await page.goto(`${env.server.url}/#/game/${id}`);
  await page.locator('[data-chat-text]').fill('can you hear me?');
  await page.locator('[data-chat-send]').tap();
  await page.locator('[data-error]', { hasText: 'A moderator muted you' }).waitFor({ timeout: 5000 });
  await page.context().close();
  await his.context().close();
});
