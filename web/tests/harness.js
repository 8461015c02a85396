// What the browser tests share: the real server binary on a loopback
// port with a fresh data folder, and headless Chromium (Debian's).

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { createServer } from 'node:net';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));

/** The `virus-wars` binary: VW_BIN, or the workspace's debug build. */
export const BIN = process.env.VW_BIN || join(here, '..', '..', 'target', 'debug', 'virus-wars');

/**
 * A loopback port free a moment ago.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = /** @type {import('node:net').AddressInfo} */ (s.address()).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts `virus-wars serve` on a free loopback port (or `addr`) with a
 * fresh data folder (or `data`, kept); resolves to its URL and a stop
 * function (which removes a fresh folder).
 * @param {{addr?: string, data?: string, args?: string[]}} [how]
 * @returns {Promise<{url: string, stop: () => void, data: string}>}
 */
export function startServer(how = {}) {
  const data = how.data || mkdtempSync(join(tmpdir(), 'vw-web-'));
  const args = how.args || ['--no-rate-limits'];
  const child = spawn(BIN, ['serve', ...args, '--addr', how.addr || '127.0.0.1:0', '--data', data], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const stop = () => {
    child.kill('SIGKILL');
    if (!how.data) rmSync(data, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { stop(); reject(new Error('the server did not start in 20 s')); }, 20000);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    const lines = createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) });
    lines.once('line', (line) => {
      clearTimeout(timer);
      const url = line.replace(/^listening on /, '').trim();
      resolve({ url, stop, data });
    });
  });
}

/** Headless Chromium from the system (scripts/test installs it). */
export function startBrowser() {
  return chromium.launch({
    executablePath: process.env.VW_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}

/**
 * Starts a game from the settings of a kind of game on the home page: each select
 * named in `selects` set to its value, each box in `checks` ticked; waits
 * for the game's page.
 * @param {import('playwright-core').Page} page
 * @param {string} form
 * @param {Record<string, string>} selects
 * @param {string[]} [checks]
 */
export async function startFrom(page, form, selects, checks = []) {
  const f = await openSettings(page, form);
  for (const [name, value] of Object.entries(selects)) {
    await f.locator(`select[name="${name}"]`).selectOption(value);
  }
  for (const name of checks) await f.locator(`input[name="${name}"]`).check();
  await f.locator('button.primary').click();
  await page.waitForURL(/#\/game\//);
}

/**
 * Opens the settings dialog of a kind of game on the home page; its form.
 * @param {import('playwright-core').Page} page
 * @param {string} kind  computer, friend or local
 */
export async function openSettings(page, kind) {
  await page.locator(`[data-settings="${kind}"]`).click();
  const f = page.locator(`dialog [data-form="${kind}"]`);
  await f.waitFor();
  return f;
}

/**
 * The status words the page shows (`data-status`).
 * @param {import('playwright-core').Page} page
 */
export async function status(page) {
  // Once the state came (the line is hidden once the game is over: the
  // result card says it).
  const s = page.locator('[data-status]:not([data-status=""])');
  await s.waitFor({ state: 'attached' });
  return (await s.getAttribute('data-status')) || '';
}

/**
 * Waits until `test` holds for the page's status.
 * @param {import('playwright-core').Page} page
 * @param {(s: string) => boolean} test
 */
export async function statusUntil(page, test, ms = 20000) {
  const end = Date.now() + ms;
  for (;;) {
    const s = await status(page).catch(() => '');
    if (s && test(s)) return s;
    if (Date.now() > end) throw new Error(`the status stayed '${s}'`);
    await page.waitForTimeout(50);
  }
}

/** @param {string} s */
export const over = (s) => ['X wins', 'O wins', 'draw', 'aborted'].includes(s);

/**
 * Plays the first legal cell whenever a page has one, until the game ends.
 * @param {import('playwright-core').Page[]} pages
 */
export async function playOut(pages, ms = 60000) {
  const end = Date.now() + ms;
  for (;;) {
    const s = await status(pages[0]);
    if (over(s)) return s;
    if (Date.now() > end) throw new Error(`the game did not end (status '${s}')`);
    let played = false;
    for (const page of pages) {
      const cell = page.locator('[data-cell][data-legal]').first();
      if (await cell.count()) {
        const seen = await page.locator('[data-moves]').textContent();
        await cell.click();
        // The page changes only when the server's new state arrives.
        await page.waitForFunction(
          (text) => document.querySelector('[data-moves]')?.textContent !== text,
          seen,
          { timeout: 10000 },
        );
        played = true;
        break;
      }
    }
    if (!played) await pages[0].waitForTimeout(50);
  }
}

/**
 * A server and a browser for a test file: started before its tests,
 * stopped after them.
 * @returns {{server: {url: string, stop: () => void}, browser: import('playwright-core').Browser}}
 */
export function serverAndBrowser() {
  const env = /** @type {{server: {url: string, stop: () => void}, browser: import('playwright-core').Browser}} */ ({});
  before(async () => {
    env.server = await startServer();
    env.browser = await startBrowser();
  });
  after(async () => {
    await env.browser?.close();
    env.server?.stop();
  });
  return env;
}

/**
 * A request to `base` as another browser would make it, with its session
 * cookie; the answer's status, the session cookie it set (or the one
 * sent), and its JSON.
 * @param {string} base @param {string} method @param {string} path @param {unknown} [body] @param {string} [cookie]
 * @returns {Promise<{status: number, cookie: string, json: any}>}
 */
export async function request(base, method, path, body, cookie) {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin: base, ...(cookie ? { cookie: `vw_session=${cookie}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const set = r.headers.get('set-cookie') || '';
  return { status: r.status, cookie: (set.match(/vw_session=([^;]*)/) || [])[1] || cookie || '', json: await r.json().catch(() => null) };
}
