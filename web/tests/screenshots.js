// Screenshots of every page at phone (390×844) and desktop (1280×800)
// sizes, in each theme, to look at while building the UI:
// `node tests/screenshots.js [FOLDER] [--lang ru]` in web/ (after
// `cargo build`); it starts its own server and plays a few steps so that
// the game page has something to show. Not a test: it asserts nothing.
// `node tests/screenshots.js ../docs/img --docs` makes docs/web.md's pictures.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, startBrowser } from './harness.js';

const out = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : '/tmp/vw-shots';
// `--docs`: only the three pictures docs/web.md shows (home, a game against the
// computer, the analysis board with the engine's answer), at phone size, light theme.
const docs = process.argv.includes('--docs');
const lang = process.argv.includes('--lang') ? process.argv[process.argv.indexOf('--lang') + 1] : 'en';
mkdirSync(out, { recursive: true });
const server = await startServer();
const browser = await startBrowser();
/** @param {string} path @param {unknown} [body] @param {string} [token] */
const api = async (path, body, token) => (await fetch(`${server.url}${path}`, {
  method: body === undefined ? 'GET' : 'POST',
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: body === undefined ? undefined : JSON.stringify(body),
})).json();
// A game under way, with zombies and a clock, and a listed one to watch.
const game = await api('/api/games', { size: '8x8', clock: { base_s: 300, inc_s: 5 }, side: 'x', listed: true });
const other = await api(`/api/games/${game.id}/join`, {});
const turns = [['a1', 'b2', 'c3'], ['h8', 'g7', 'f6'], ['d4', 'e5', 'd5'], ['e6', 'e5', 'd6'], ['c4', 'd6', 'e7']];
let seq = 0;
for (const [k, steps] of turns.entries()) {
  const r = await api(`/api/games/${game.id}/steps`, { seq, steps }, k % 2 ? other.token : game.token);
  if (r.error) { console.error(steps, r.error.message); break; }
  seq = r.seq;
}
await api('/api/games', { size: '6x6', side: 'o', listed: true });
if (docs) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.locator('[data-start="computer"]').waitFor();
  await page.screenshot({ path: join(out, 'home.png') });
  // A game against the computer: a turn played, its answer marked.
  await page.locator('[data-start="computer"]').click();
  await page.waitForURL(/#\/game\//);
  for (const cell of ['a1', 'b2', 'c3']) {
    await page.locator(`[data-cell="${cell}"][data-legal]`).click();
    // Cells too small for a finger: a tap chooses, a second plays.
    if (await page.locator(`[data-cell="${cell}"].chosen`).count()) await page.locator(`[data-cell="${cell}"]`).click();
    await page.locator(`[data-cell="${cell}"][data-content="x"]`).waitFor();
  }
  await page.locator('[data-cell].last').first().waitFor();
  await page.waitForTimeout(1200);
  await page.screenshot({ path: join(out, 'game.png') });
  await page.goto(`${server.url}/#/analysis/${game.id}`);
  await page.locator('[data-frame]').first().waitFor();
  await page.locator('[data-ask]').click();
  await page.locator('[data-engine]', { hasText: /\w/ }).waitFor({ timeout: 20000 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(out, 'analysis.png') });
  // A player's page after a few rated games.
  /** @param {string} path @param {unknown} body @param {string} [cookie] */
  const as = async (path, body, cookie) => {
    const r = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url, ...(cookie ? { cookie: `vw_session=${cookie}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = (r.headers.get('set-cookie') || '').match(/vw_session=([^;]*)/);
    return { json: await r.json(), cookie: set ? set[1] : '' };
  };
  const ann = (await as('/api/accounts', { name: 'Ann', password: 'violet tram under paper' })).cookie;
  const bo = (await as('/api/accounts', { name: 'bo', password: 'violet tram under paper' })).cookie;
  for (let k = 0; k < 4; k++) {
    const made = (await as('/api/games', { size: '5x5', side: 'x', rated: true, clock: { base_s: 180, inc_s: 2 } }, ann)).json;
    const took = (await as(`/api/games/${made.id}/join`, undefined, bo)).json;
    for (const [side, token] of [['x', made.token], ['o', took.token]]) {
      let s = await api(`/api/games/${made.id}`);
      while (s.to_move === side) s = await api(`/api/games/${made.id}/steps`, { seq: s.seq, steps: [s.legal[0]] }, token);
    }
    await api(`/api/games/${made.id}/resign`, {}, k === 2 ? made.token : took.token);
  }
  await page.goto(`${server.url}/#/@/Ann`);
  await page.locator('[data-chart] svg polyline').waitFor();
  await page.locator('[data-archive] [data-game]').first().waitFor();
  await page.screenshot({ path: join(out, 'player.png'), fullPage: true });
  await browser.close();
  server.stop();
  console.log(`pictures in ${out}`);
  process.exit(0);
}
// An account, for its page.
await fetch(`${server.url}/api/accounts`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'shot', password: 'violet tram under paper' }),
});
const pages = [['home', '#/'], ['game', `#/game/${game.id}`], ['watch', `#/game/${game.id}`], ['rules', '#/rules'], ['analysis', '#/analysis'], ['settings', '#/settings'],
  ['login', '#/login'], ['player', '#/@/shot'], ['leaderboard', '#/leaderboard/classic-blitz'], ['leaderboards', '#/leaderboard'], ['puzzles', '#/puzzles']];
for (const theme of ['light', 'dark', 'eink']) {
  for (const [w, h] of [[390, 844], [1280, 800]]) {
    // A phone is a touch screen: taps, not clicks.
    const phone = w < 500;
    const context = await browser.newContext({ viewport: { width: w, height: h }, hasTouch: phone, isMobile: phone });
    await context.addInitScript(([t, l]) => { localStorage.setItem('vw-theme', t); localStorage.setItem('vw-lang', l); }, [theme, lang]);
    const page = await context.newPage();
    for (const [name, hash] of pages) {
      if (name === 'game') await page.goto(`${game.url.replace(/^https?:\/\/[^/]+/, server.url)}`);
      else await page.goto(`${server.url}/${hash}`);
      if (name === 'watch') await page.evaluate((id) => localStorage.removeItem(`vw-seat-${id}`), game.id).then(() => page.reload());
      await page.waitForTimeout(name === 'rules' || name === 'analysis' ? 800 : 400);
      await page.screenshot({ path: join(out, `${name}-${theme}-${w}.png`), fullPage: true });
    }
    await context.close();
  }
}
// Signed in, the community's parts: the bell's panel with a challenge in it
// (home), a game played over days with its chat, a player's page with the
// challenge form open.
/** @param {string} path @param {unknown} body @param {string} cookie */
const asAccount = async (path, body, cookie) => (await fetch(`${server.url}${path}`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: server.url, cookie: `vw_session=${cookie}` },
  body: JSON.stringify(body),
})).json();
/** @param {string} name */
const signUp = async (name) => {
  const r = await fetch(`${server.url}/api/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: 'violet tram under paper' }),
  });
  return ((r.headers.get('set-cookie') || '').match(/vw_session=([^;]*)/) || ['', ''])[1];
};
const me = await signUp('Mira');
const kai = await signUp('Kai');
const over = await asAccount('/api/challenges', { to: 'Mira', size: '8x8', clock: { days_per_turn: 3 }, side: 'x' }, kai);
const accepted = await asAccount(`/api/challenges/${over.id}/accept`, {}, me);
await asAccount('/api/challenges', { to: 'Mira', size: '10x10', clock: { base_s: 300, inc_s: 3 } }, kai);
// An arena running, Mira and Kai paired in it; another starting soon.
const arena = await asAccount('/api/tournaments', { kind: 'arena', name: 'Evening arena', minutes: 60, starts_in_s: 0, clock: { base_s: 180, inc_s: 2 }, rated: false }, me);
await asAccount('/api/tournaments', { kind: 'arena', minutes: 45, starts_in_s: 1800, clock: { base_s: 300, inc_s: 3 }, variant: 'paper-tactics' }, kai);
for (const who of [me, kai]) await asAccount(`/api/tournaments/${arena.id}/join`, {}, who);
await new Promise((r) => setTimeout(r, 2500));
const paired = await (await fetch(`${server.url}/api/tournaments/${arena.id}`, { headers: { cookie: `vw_session=${me}` } })).json();
for (const theme of ['light', 'dark', 'eink']) {
  for (const [w, h] of [[390, 844], [1280, 800]]) {
    const phone = w < 500;
    const context = await browser.newContext({ viewport: { width: w, height: h }, hasTouch: phone, isMobile: phone });
    await context.addInitScript(([t, l]) => { localStorage.setItem('vw-theme', t); localStorage.setItem('vw-lang', l); }, [theme, lang]);
    await context.addCookies([{ name: 'vw_session', value: me, url: server.url }]);
    const page = await context.newPage();
    await page.goto(`${server.url}/#/`);
    await page.locator('[data-bell]:not([hidden])').waitFor();
    await page.locator('[data-bell]').click();
    await page.locator('[data-notes] li').first().waitFor();
    await page.screenshot({ path: join(out, `bell-${theme}-${w}.png`) });
    await page.goto(`${server.url}/#/game/${accepted.id}`);
    await page.locator('[data-chat-text]').waitFor();
    if (theme === 'light' && phone) {
      await page.locator('[data-chat-text]').fill('good luck, Kai');
      await page.locator('[data-chat-send]').click();
    }
    await page.locator('[data-chat-lines] li').first().waitFor();
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(out, `chat-${theme}-${w}.png`), fullPage: true });
    await page.goto(`${server.url}/#/@/Kai`);
    await page.locator('[data-challenge-open]').click();
    await page.locator('[data-challenge-form]:not([hidden])').waitFor();
    await page.screenshot({ path: join(out, `challenge-${theme}-${w}.png`), fullPage: true });
    await page.goto(`${server.url}/#/tournament/${arena.id}`);
    await page.locator('[data-standings] tr[data-line="Kai"]').waitFor();
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(out, `tournament-${theme}-${w}.png`), fullPage: true });
    if (paired.you && paired.you.game) {
      await page.goto(`${server.url}/#/game/${paired.you.game}`);
      await page.locator('[data-tournament-part]:not([hidden])').waitFor();
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(out, `tournament-game-${theme}-${w}.png`), fullPage: true });
    }
    await page.goto(`${server.url}/#/tournaments`);
    await page.locator('[data-soon] li[data-tournament]').waitFor();
    await page.screenshot({ path: join(out, `tournaments-${theme}-${w}.png`), fullPage: true });
    await context.close();
  }
}
await browser.close();
server.stop();
console.log(`screenshots in ${out}`);
