// An arena in three browsers (issue: tournaments): Ann and Bo (people, on
// phones) and a watcher. Ann joins from the tournament page with the bot
// (the project's own `virus-wars bot --tournament`); the tournament starts
// and pairs Ann with the bot: her page goes to the game; Bo joins from
// the page meanwhile. Ann resigns after a few turns; the bot waits, Ann
// and Bo are paired (never Ann and the bot again); Ann berserks (her
// clock halves), wins after seven turns each and scores 3; the bot is
// paired again, with Bo. The standings move on all three pages, and at
// the end the podium shows.

import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, request, startBrowser, startServer } from './harness.js';

/** @type {{server: {url: string, stop: () => void, data: string}, browser: import('playwright-core').Browser, bot: import('node:child_process').ChildProcess | null}} */
const env = /** @type {any} */ ({ bot: null });
before(async () => {
  env.server = await startServer({ args: ['--no-rate-limits', '--first-step-within', '60'] });
  env.browser = await startBrowser();
});
after(async () => {
  env.bot?.kill('SIGKILL');
  await env.browser?.close();
  env.server?.stop();
});
const PASSWORD = 'violet tram under paper';

/** @param {string} method @param {string} path @param {unknown} [body] @param {string} [cookie] */
const api = (method, path, body, cookie) => request(env.server.url, method, path, body, cookie);

/** A phone logged in with `cookie` (none: a watcher). @param {string} [cookie] */
async function phone(cookie) {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  if (cookie) await context.addCookies([{ name: 'vw_session', value: cookie, url: env.server.url }]);
  return context.newPage();
}

/** Plays `cookie`'s whole turn in game `id` by the API (the first legal cell each step). */
async function playTurn(id, cookie) {
  const first = (await api('GET', `/api/games/${id}`, undefined, cookie)).json;
  const mover = first.to_move;
  for (;;) {
    const s = (await api('GET', `/api/games/${id}`, undefined, cookie)).json;
    if (s.to_move !== mover || s.to_move === null) return;
    const r = await api('POST', `/api/games/${id}/steps`, { seq: s.seq, steps: [s.legal[0]] }, cookie);
    assert.equal(r.status, 200, JSON.stringify(r.json));
  }
}

/** Waits until it is `cookie`'s turn in game `id`. */
async function myTurn(id, cookie, seat) {
  for (let k = 0; k < 600; k++) {
    const s = (await api('GET', `/api/games/${id}`, undefined, cookie)).json;
    if (s.to_move === seat) return;
    assert.notEqual(s.to_move, null, `the game ended before my turn: ${s.status} ${JSON.stringify(s.ending)} after ${s.turns.length} turns; ${seat}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('my turn never came');
}

/** The points a page's standings show for `name`. @param {import('playwright-core').Page} page @param {string} name @param {string} points */
async function pointsShown(page, name, points) {
  await page.locator(`[data-standings] tr[data-line="${name}"] [data-points]`, { hasText: new RegExp(`^${points}$`) }).waitFor({ timeout: 20000 });
}

test('an arena: joined from its page, paired, berserk, standings live on three pages, the podium', async () => {
  const ann = (await api('POST', '/api/accounts', { name: 'Ann', password: PASSWORD })).cookie;
  const bo = (await api('POST', '/api/accounts', { name: 'Bo', password: PASSWORD })).cookie;
  const made = await api('POST', '/api/tournaments', {
    kind: 'arena', name: 'Evening arena', minutes: 2, starts_in_s: 8, rated: false,
    clock: { base_s: 60, inc_s: 0 }, size: '15x15',
  }, ann);
  assert.equal(made.status, 201, JSON.stringify(made.json));
  const id = made.json.id;
  const url = `${env.server.url}/#/tournament/${id}`;
  // Ann joins from the page; the watcher looks on; the bot joins.
  const hers = await phone(ann);
  await hers.goto(`${env.server.url}/#/tournaments`);
  await hers.locator(`[data-tournament="${id}"] a`).tap();
  await hers.locator('[data-countdown]', { hasText: /Starts in 0:0\d/ }).waitFor();
  await hers.locator('[data-join]').tap();
  await hers.locator('[data-withdraw]').waitFor();
  const watcher = await phone();
  await watcher.goto(url);
  await watcher.locator('[data-standings] tr[data-line="Ann"]').waitFor();
  env.bot = spawn(BIN, ['bot', '--server', env.server.url, '--register', 'abot', '--engine', `${BIN} engine`, '--tournament', id], { stdio: 'ignore' });
  await watcher.locator('[data-standings] tr[data-line="abot"]').waitFor({ timeout: 20000 });
  // The start pairs Ann and the bot: her page goes to the game.
  await hers.waitForURL(/#\/game\/[a-z0-9]+$/, { timeout: 30000 });
  const first = hers.url().split('/').pop() || '';
  await hers.locator('[data-back-to-tournament]').waitFor();
  // Bo joins from the page meanwhile.
  const his = await phone(bo);
  await his.goto(url);
  await his.locator('[data-join]').tap();
  await his.locator('[data-withdraw]', { hasText: 'Pause' }).waitFor();
  await watcher.locator('[data-games] li', { hasText: 'abot' }).waitFor();
  // Ann plays two turns and resigns: the bot's 2 points on every page.
  const annSeat = (await api('GET', `/api/tournaments/${id}`, undefined, ann)).json.you.seat;
  for (let k = 0; k < 2; k++) {
    await myTurn(first, ann, annSeat);
    await playTurn(first, ann);
  }
  assert.equal((await api('POST', `/api/games/${first}/resign`, undefined, ann)).status, 200);
  await pointsShown(watcher, 'abot', '2');
  // Ann and Bo are paired (the bot waits: Ann just played it); both pages
  // go to the game.
  await hers.waitForURL((u) => /#\/game\/[a-z0-9]+$/.test(u.hash) && !u.hash.endsWith(first), { timeout: 20000 });
  await his.waitForURL(/#\/game\/[a-z0-9]+$/, { timeout: 20000 });
  const second = hers.url().split('/').pop() || '';
  assert.equal(his.url().split('/').pop(), second);
  // Ann berserks: her clock halves; the button goes.
  const mine = (await api('GET', `/api/games/${second}`, undefined, ann)).json;
  const annSide = mine.players.x.name === 'Ann' ? 'x' : 'o';
  await hers.locator('[data-berserk]').tap();
  await hers.locator('[data-berserk]').waitFor({ state: 'detached' });
  await hers.locator('[data-tournament-part]', { hasText: `${annSide.toUpperCase()} berserked` }).waitFor();
  const left = (await api('GET', `/api/games/${second}`, undefined, ann)).json.clocks[`${annSide}_ms`];
  // (The stored time is at the turn's start: what ran of the turn is added back.)
  assert.ok(left <= 31000 && left > 20000, `half a minute left, not ${left}`);
  await hers.locator(`[data-clock="${annSide}"]`, { hasText: /0:[23]\d/ }).waitFor();
  // Seven turns each, then Bo resigns: Ann's berserk win scores 3.
  for (let k = 0; k < 7; k++) {
    for (const [cookie, side] of annSide === 'x' ? [[ann, 'x'], [bo, 'o']] : [[bo, 'x'], [ann, 'o']]) {
      await myTurn(second, cookie, side);
      await playTurn(second, cookie);
    }
  }
  // Bo resigns, unless the rules ended it already (he had no step left).
  if ((await api('GET', `/api/games/${second}`)).json.to_move !== null) {
    assert.equal((await api('POST', `/api/games/${second}/resign`, undefined, bo)).status, 200);
  }
  assert.equal((await api('GET', `/api/games/${second}`)).json.status, `${annSide.toUpperCase()} wins`);
  await pointsShown(watcher, 'Ann', '3');
  // The bot is paired again, with Bo: his page goes to the game.
  await his.waitForURL((u) => /#\/game\/[a-z0-9]+$/.test(u.hash) && !u.hash.endsWith(second), { timeout: 20000 });
  const third = his.url().split('/').pop() || '';
  const game3 = (await api('GET', `/api/games/${third}`)).json;
  assert.deepEqual([game3.players.x.name, game3.players.o.name].sort(), ['Bo', 'abot']);
  // Ann and Bo pause from the tournament page (Bo's own game one tap
  // away from his), so that nobody is paired after this game.
  await hers.goto(url);
  await hers.locator('[data-games] li', { hasText: 'abot' }).waitFor();
  await pointsShown(hers, 'Ann', '3');
  await hers.locator('[data-withdraw]', { hasText: 'Pause' }).tap();
  await hers.locator('[data-join]', { hasText: 'Come back' }).waitFor();
  await his.locator('[data-tournament-part] [data-back-to-tournament]').tap();
  await his.locator('[data-your-game-link]').waitFor();
  await his.locator('[data-withdraw]', { hasText: 'Pause' }).tap();
  await his.locator('[data-join]', { hasText: 'Come back' }).waitFor();
  await watcher.locator('[data-standings] tr[data-line="Bo"]', { hasText: 'paused' }).waitFor();
  // Bo resigns: the bot's 4 points reach all three pages as they are scored.
  assert.equal((await api('POST', `/api/games/${third}/resign`, undefined, bo)).status, 200);
  for (const page of [hers, his, watcher]) await pointsShown(page, 'abot', '4');
  // The end: the podium on all three pages (none reloaded), the bot first
  // (4), Ann (3), Bo.
  for (const page of [hers, his, watcher]) {
    await page.locator('[data-podium]:not([hidden])').waitFor({ timeout: 150000 });
    assert.deepEqual(await page.locator('[data-podium] li').allTextContents(), ['abot', 'Ann', 'Bo']);
    await page.locator('[data-countdown]', { hasText: 'Finished' }).waitFor();
  }
  // Ann's page lists it with her place.
  await hers.goto(`${env.server.url}/#/@/Ann`);
  await hers.locator('[data-player-tournaments] li', { hasText: 'place 2 of 3' }).waitFor();
});

test('paired while its own game still goes on, a page stays until that game ends, then goes to the tournament game', async () => {
  const cy = (await api('POST', '/api/accounts', { name: 'Cy', password: PASSWORD })).cookie;
  const di = (await api('POST', '/api/accounts', { name: 'Di', password: PASSWORD })).cookie;
  // Cy and Di play a casual game; Cy's page shows it.
  const casual = await api('POST', '/api/games', { size: '7x7', side: 'x', opponent: 'human' }, cy);
  assert.equal(casual.status, 201, JSON.stringify(casual.json));
  assert.equal((await api('POST', `/api/games/${casual.json.id}/join`, undefined, di)).status, 200);
  const hers = await phone(cy);
  await hers.goto(casual.json.url);
  await hers.locator('[data-playing-now]').waitFor();
  // Both join an arena that starts at once: it pairs them (its games are
  // its own; a casual game elsewhere is the player's affair).
  const made = await api('POST', '/api/tournaments', {
    kind: 'arena', name: 'Side arena', minutes: 2, starts_in_s: 0, rated: false, clock: { base_s: 60, inc_s: 0 }, size: '7x7',
  }, cy);
  assert.equal(made.status, 201, JSON.stringify(made.json));
  for (const cookie of [cy, di]) assert.equal((await api('POST', `/api/tournaments/${made.json.id}/join`, undefined, cookie)).status, 200);
  let paired = '';
  for (let k = 0; k < 100 && !paired; k++) {
    paired = (await api('GET', `/api/tournaments/${made.json.id}`, undefined, cy)).json.you?.game || '';
    if (!paired) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(paired, 'the arena paired Cy and Di');
  // The note came while Cy's own game goes on: the page stays on it.
  await new Promise((r) => setTimeout(r, 1500));
  assert.ok(hers.url().includes(casual.json.id), `still the casual game, not ${hers.url()}`);
  // Di resigns the casual game: Cy's page goes to the arena's game.
  assert.equal((await api('POST', `/api/games/${casual.json.id}/resign`, undefined, di)).status, 200);
  await hers.waitForURL((u) => u.hash === `#/game/${paired}`, { timeout: 20000 });
  await hers.locator('[data-back-to-tournament]').waitFor();
  await hers.context().close();
});

test('the form makes an arena and a Swiss while others are listed: every field of the kind chosen shows and is sent', async () => {
  const eve = (await api('POST', '/api/accounts', { name: 'Eve', password: PASSWORD })).cookie;
  const fay = (await api('POST', '/api/accounts', { name: 'Fay', password: PASSWORD })).cookie;
  // Tournaments listed above the form (Fay's): their cards carry data-kind too.
  for (const kind of ['arena', 'swiss']) {
    const made = await api('POST', '/api/tournaments', {
      kind, name: `Listed ${kind}`, starts_in_s: 600, rated: false, clock: { base_s: 60, inc_s: 0 }, size: '7x7',
      ...(kind === 'swiss' ? { rounds: 3 } : { minutes: 10 }),
    }, fay);
    assert.equal(made.status, 201, JSON.stringify(made.json));
  }
  const page = await phone(eve);
  await page.goto(`${env.server.url}/#/tournaments`);
  await page.locator('[data-soon] [data-tournament]').first().waitFor();
  await page.locator('[data-make] summary').tap();
  const form = page.locator('[data-form]');
  // A Swiss: its rounds show, the arena's length hides, the clock stays.
  await form.locator('select[name="kind"]').selectOption('swiss');
  await form.locator('input[name="rounds"]').waitFor({ state: 'visible' });
  await form.locator('input[name="minutes"]').waitFor({ state: 'hidden' });
  await form.locator('input[name="base"]').waitFor({ state: 'visible' });
  await form.locator('input[name="name"]').fill('Form Swiss');
  await form.locator('input[name="rounds"]').fill('7');
  await form.locator('input[name="base"]').fill('4');
  await form.locator('input[name="inc"]').fill('3');
  await form.locator('input[name="max_bots"]').fill('2');
  await form.locator('button.primary').tap();
  await page.waitForURL(/#\/tournament\/[a-z0-9]+$/);
  const swiss = (await api('GET', `/api/tournaments/${page.url().split('/').pop()}`, undefined, eve)).json;
  assert.equal(swiss.kind, 'swiss');
  assert.equal(swiss.rounds, 7);
  assert.equal(swiss.time_control, '4+3');
  assert.equal(swiss.max_bots, 2);
  // An arena: its length shows, the rounds hide.
  await page.goto(`${env.server.url}/#/tournaments`);
  await page.locator('[data-soon] [data-tournament]').first().waitFor();
  await page.locator('[data-make] summary').tap();
  await form.locator('select[name="kind"]').selectOption('swiss');
  await form.locator('select[name="kind"]').selectOption('arena');
  await form.locator('input[name="minutes"]').waitFor({ state: 'visible' });
  await form.locator('input[name="rounds"]').waitFor({ state: 'hidden' });
  await form.locator('input[name="name"]').fill('Form arena');
  await form.locator('input[name="minutes"]').fill('30');
  await form.locator('button.primary').tap();
  await page.waitForURL(/#\/tournament\/[a-z0-9]+$/);
  const arena = (await api('GET', `/api/tournaments/${page.url().split('/').pop()}`, undefined, eve)).json;
  assert.equal(arena.kind, 'arena');
  assert.equal(arena.ends_ms - arena.starts_ms, 30 * 60_000);
  await page.context().close();
});
