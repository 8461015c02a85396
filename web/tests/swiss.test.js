// A Swiss tournament and a round robin on the pages (issue: tournaments).
// The make form shows each kind's own fields; a Swiss of three players
// runs two rounds (each with its bye), the page saying the round, the
// points, the tiebreaks and the bye, and at the end the podium and the
// TRF file; a round robin's page says its games are all being played and
// offers no withdrawal.

import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { request, startBrowser, startServer } from './harness.js';

/** @type {{server: {url: string, stop: () => void}, browser: import('playwright-core').Browser}} */
const env = /** @type {any} */ ({});
before(async () => {
  env.server = await startServer({ args: ['--no-rate-limits'] });
  env.browser = await startBrowser();
});
after(async () => {
  await env.browser?.close();
  env.server?.stop();
});
const PASSWORD = 'violet tram under paper';

/** @param {string} method @param {string} path @param {unknown} [body] @param {string} [cookie] */
const api = (method, path, body, cookie) => request(env.server.url, method, path, body, cookie);

/** A desktop page logged in with `cookie`. @param {string} cookie */
async function desk(cookie) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: 'vw_session', value: cookie, url: env.server.url }]);
  return context.newPage();
}

/** The tournament as the API gives it. @param {string} id @param {string} cookie */
const tournament = async (id, cookie) => (await api('GET', `/api/tournaments/${id}`, undefined, cookie)).json;

/** Waits until `ok` holds of the tournament (the task pairs every second). */
async function until(/** @type {string} */ id, /** @type {string} */ cookie, /** @type {(t: any) => boolean} */ ok, /** @type {string} */ what) {
  for (let k = 0; k < 300; k++) {
    const t = await tournament(id, cookie);
    if (ok(t)) return t;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: never`);
}

/** X plays a turn (its first legal cells), then O resigns. @param {any} g @param {Record<string, string>} cookies */
async function xWins(g, cookies) {
  const x = cookies[g.x];
  for (;;) {
    const s = (await api('GET', `/api/games/${g.game}`, undefined, x)).json;
    if (s.to_move !== 'x') break;
    const r = await api('POST', `/api/games/${g.game}/steps`, { seq: s.seq, steps: [s.legal[0]] }, x);
    assert.equal(r.status, 200, JSON.stringify(r.json));
  }
  const r = await api('POST', `/api/games/${g.game}/resign`, undefined, cookies[g.o]);
  assert.equal(r.status, 200, JSON.stringify(r.json));
}

test('a Swiss: made from the form, two rounds with their byes, tiebreaks, the podium and the TRF', async () => {
  /** @type {Record<string, string>} */
  const cookies = {};
  for (const name of ['Ann', 'Bo', 'Cy']) cookies[name] = (await api('POST', '/api/accounts', { name, password: PASSWORD })).cookie;
  // The form: choosing Swiss shows the rounds and hides the arena's length.
  const page = await desk(cookies.Ann);
  await page.goto(`${env.server.url}/#/tournaments`);
  await page.locator('[data-make] summary').click();
  await page.locator('[data-form] select[name="kind"]').selectOption('swiss');
  assert.equal(await page.locator('input[name="rounds"]').isVisible(), true);
  assert.equal(await page.locator('input[name="minutes"]').isVisible(), false);
  await page.locator('input[name="name"]').fill('Club Swiss');
  await page.locator('input[name="rounds"]').fill('2');
  await page.locator('input[name="starts"]').fill('60');
  await page.locator('[data-form] button.primary').click();
  await page.waitForURL(/#\/tournament\//);
  const formId = decodeURIComponent(page.url().split('#/tournament/')[1]);
  const made = await tournament(formId, cookies.Ann);
  assert.equal(made.kind, 'swiss');
  assert.equal(made.rounds, 2);
  await page.locator('[data-about]', { hasText: 'Swiss, rounds: 2' }).waitFor();
  // The Swiss played: all three in before its start, a few seconds away.
  const r = await api('POST', '/api/tournaments', {
    kind: 'swiss', name: 'Quick Swiss', rounds: 2, starts_in_s: 3, rated: false,
    clock: { base_s: 120, inc_s: 0 }, size: '9x9',
  }, cookies.Ann);
  assert.equal(r.status, 201, JSON.stringify(r.json));
  const id = r.json.id;
  for (const name of ['Ann', 'Bo', 'Cy']) assert.equal((await api('POST', `/api/tournaments/${id}/join`, undefined, cookies[name])).status, 200);
  // Round 1 by pairing numbers (all rated alike: by name): Ann–Bo, Cy's bye.
  let t = await until(id, cookies.Ann, (x) => x.round === 1, 'round 1');
  assert.deepEqual(t.games.map((/** @type {any} */ g) => [g.x, g.o]), [['Ann', 'Bo']]);
  // Bo's page follows it live from here (paired already: it stays).
  const bo = await desk(cookies.Bo);
  await bo.goto(`${env.server.url}/#/tournament/${id}`);
  await bo.locator('[data-countdown]', { hasText: 'round 1 of 2' }).waitFor();
  await bo.locator('[data-standings] tr[data-line="Cy"] .mark.bye').waitFor();
  await xWins(t.games[0], cookies);
  // Round 2: Ann and Cy (1 point each) meet, Bo has the bye.
  t = await until(id, cookies.Ann, (x) => x.round === 2, 'round 2');
  assert.deepEqual(t.games.map((/** @type {any} */ g) => [g.x, g.o]), [['Cy', 'Ann']]);
  await bo.locator('[data-countdown]', { hasText: 'round 2 of 2' }).waitFor();
  await xWins(t.games[0], cookies);
  // The end: Cy 2; Ann and Bo 1 each, Ann ahead on Buchholz (3 to 1).
  await bo.locator('[data-podium] [data-place="1"]', { hasText: 'Cy' }).waitFor({ timeout: 20000 });
  assert.equal(await bo.locator('[data-podium] [data-place="2"]').textContent(), 'Ann');
  assert.equal(await bo.locator('[data-standings] tr[data-line="Ann"] [data-points]').textContent(), '1');
  assert.equal(await bo.locator('thead th').nth(3).locator('abbr').getAttribute('title'), 'Buchholz');
  // The table fits a phone's width (the page scrolls no sideways).
  await bo.setViewportSize({ width: 390, height: 844 });
  assert.equal(await bo.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
  const row = await bo.locator('[data-standings] tr[data-line="Ann"] td').allTextContents();
  assert.equal(row[3], '3', `Ann's Buchholz: ${row}`);
  await bo.locator('[data-standings] tr[data-line="Bo"] .mark.bye').waitFor();
  // The TRF: three players, two rounds, the byes as U.
  const href = await bo.locator('[data-trf] a').getAttribute('href') || '';
  const trf = await (await bo.request.get(`${env.server.url}${href}`)).text();
  assert.match(trf, /\nXXR 2\n/);
  assert.equal(trf.split('\n').filter((l) => l.startsWith('001')).length, 3, trf);
  assert.equal((trf.match(/0000 - U/g) || []).length, 2, trf);
  await page.context().close();
  await bo.context().close();
});

test('a round robin: all games at once, no withdrawal, Sonneborn-Berger', async () => {
  /** @type {Record<string, string>} */
  const cookies = {};
  for (const name of ['Di', 'Ed']) cookies[name] = (await api('POST', '/api/accounts', { name, password: PASSWORD })).cookie;
  const r = await api('POST', '/api/tournaments', {
    kind: 'round-robin', name: 'Winter league', starts_in_s: 2, rated: false,
    clock: { days_per_turn: 3 }, size: '9x9',
  }, cookies.Di);
  assert.equal(r.status, 201, JSON.stringify(r.json));
  const id = r.json.id;
  for (const name of ['Di', 'Ed']) assert.equal((await api('POST', `/api/tournaments/${id}/join`, undefined, cookies[name])).status, 200);
  const page = await desk(cookies.Di);
  await page.goto(`${env.server.url}/#/tournament/${id}`);
  await page.locator('[data-countdown]', { hasText: 'all games being played' }).waitFor();
  assert.equal(await page.locator('[data-games] li').count(), 2);
  assert.equal(await page.locator('[data-withdraw]').count(), 0, 'no withdrawing from a running round robin');
  assert.equal(await page.locator('thead th').nth(3).locator('abbr').getAttribute('title'), 'Sonneborn-Berger');
  assert.match(page.url(), /#\/tournament\//, 'a round robin does not take the page to a game');
  await page.context().close();
});
