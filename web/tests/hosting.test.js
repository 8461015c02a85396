// docs/hosting.md followed as written: Caddy (Debian's, with its own
// certificate authority standing in for a public one) in front of two server
// processes on one PostgreSQL, from the two-process Caddyfile of the guide
// and a settings file. Over https, through the proxy: two browsers that
// trust the authority play a game; two bots meet and play one; sign-ups
// from two client addresses are limited per address, not together; the
// database goes through pg_dump and pg_restore and a server plays on the
// copy; the two processes restart one after the other under a load test
// that loses nothing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createHash, X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { BIN, freePort, startFrom, playOut, over, status } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const ci = process.env.CI === 'true';
const pgUrl = process.env.VW_TEST_POSTGRES_URL || '';
const has = (/** @type {string} */ tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const missing = [
  ...(pgUrl ? [] : ['VW_TEST_POSTGRES_URL (scripts/test starts a PostgreSQL)']),
  ...['caddy', 'psql', 'pg_dump', 'pg_restore'].filter((t) => !has(t)),
];
if (missing.length && ci) throw new Error(`CI runs the hosting test: missing ${missing.join(', ')}`);
const skip = missing.length ? `SKIPPED: the hosting test (missing ${missing.join(', ')})` : false;

/** Runs psql on `url` with `sql`. @param {string} url @param {string} sql */
function psql(url, sql) {
  const r = spawnSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qc', sql], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

/** `base`'s server with database `db`. @param {string} db */
const dbUrl = (db) => pgUrl.replace(/\/[^/]*$/, `/${db}`);

/**
 * A process started with its output kept (for the failure message).
 * @param {string} cmd @param {string[]} args @param {Record<string, string>} [env]
 */
function run(cmd, args, env = {}) {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => { out += d; });
  child.stderr?.on('data', (d) => { err = (err + d).slice(-20000); });
  /** @type {Promise<{code: number | null, signal: string | null}>} */
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => out, output: () => `${out}\n${err}`, exited };
}

/**
 * An https request through the proxy from the client address `from`.
 * @param {string} base @param {string} method @param {string} path
 * @param {{body?: string, from?: string, headers?: Record<string, string>}} [how]
 * @returns {Promise<{status: number, body: any}>}
 */
function https(base, method, path, how = {}) {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method,
      ca: env.root,
      localAddress: how.from,
      headers: {
        'content-type': 'application/json',
        origin: base,
        ...how.headers,
      },
    }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => {
        let body = null;
        try { body = JSON.parse(text); } catch { body = text; }
        resolve({ status: res.statusCode || 0, body });
      });
    });
    req.on('error', reject);
    req.end(how.body);
  });
}

/** Waits until `check` resolves true (checked every 100 ms). @param {() => Promise<boolean>} check */
async function until(check, ms = 30000, what = 'the condition') {
  const end = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`${what} did not come within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The fenced code blocks of a Markdown text. @param {string} text */
function fencedBlocks(text) {
  /** @type {string[]} */
  const blocks = [];
  /** @type {string[] | null} */
  let open = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) {
      if (open) { blocks.push(open.join('\n')); open = null; } else open = [];
    } else if (open) open.push(line);
  }
  return blocks;
}

const env = /** @type {{dir: string, db: string, public: string, root: Buffer, rootFile: string,
  config: string, ports: number[], servers: ReturnType<typeof run>[], proxy: ReturnType<typeof run>,
  browser: import('playwright-core').Browser, finished: string}} */ ({});

/** Starts server process `k` (0 or 1) on its fixed port from the settings file. @param {number} k */
async function startProcess(k) {
  const p = run(BIN, ['serve', '--config', env.config, '--addr', `127.0.0.1:${env.ports[k]}`]);
  env.servers[k] = p;
  await until(async () => (await fetch(`http://127.0.0.1:${env.ports[k]}/healthz`)).ok, 30000,
    `server process ${k} (${p.output()})`);
}

/** Stops process `k` as systemd would (SIGTERM) and waits for it to exit. @param {number} k */
async function stopProcess(k) {
  env.servers[k].child.kill('SIGTERM');
  const { code } = await env.servers[k].exited;
  assert.equal(code, 0, `process ${k} stopped cleanly: ${env.servers[k].output()}`);
}

before(async () => {
  if (skip) return;
  env.dir = mkdtempSync(join(tmpdir(), 'vw-hosting-'));
  env.db = `vw_hosting_${process.pid}`;
  psql(pgUrl, `CREATE DATABASE ${env.db}`);
  const port = await freePort();
  env.public = `https://localhost:${port}`;
  env.ports = [await freePort(), await freePort()];
  // The settings file, as docs/hosting.md writes one.
  env.config = join(env.dir, 'virus-wars.toml');
  writeFileSync(env.config, [
    `database-url = "${dbUrl(env.db)}"`,
    `public-url = "${env.public}"`,
    'trust-proxy = ["127.0.0.1"]',
    'signups-per-hour = 2',
    'games-per-minute = 0',
    'messages-per-minute = 0',
    '',
  ].join('\n'));
  env.servers = [];
  await startProcess(0);
  await startProcess(1);
  // The guide's Caddyfile for two processes, with this test's names and
  // ports; Caddy's own authority signs instead of a public one.
  const guide = readFileSync(join(here, '..', '..', 'docs', 'hosting.md'), 'utf8');
  const block = fencedBlocks(guide).find((b) => b.includes('127.0.0.1:8081') && b.includes('reverse_proxy'));
  assert.ok(block, 'docs/hosting.md has a Caddyfile for two processes');
  const site = block.replace('vw.example', env.public)
    .replace('127.0.0.1:8080', `127.0.0.1:${env.ports[0]}`)
    .replace('127.0.0.1:8081', `127.0.0.1:${env.ports[1]}`);
  const storage = join(env.dir, 'caddy');
  const caddyfile = join(env.dir, 'Caddyfile');
  writeFileSync(caddyfile, `{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n\thttp_port ${await freePort()}\n`
    + `\tstorage file_system ${storage}\n}\n${site}`);
  env.proxy = run('caddy', ['run', '--adapter', 'caddyfile', '--config', caddyfile],
    { HOME: env.dir, XDG_DATA_HOME: env.dir, XDG_CONFIG_HOME: env.dir });
  env.rootFile = join(storage, 'pki', 'authorities', 'local', 'root.crt');
  await until(async () => existsSync(env.rootFile), 30000, `Caddy's authority (${env.proxy.output()})`);
  env.root = readFileSync(env.rootFile);
  await until(async () => (await https(env.public, 'GET', '/healthz')).status === 200, 30000,
    `Caddy serving ${env.public} (${env.proxy.output()})`);
  // Chromium trusts the authority: its intermediate's key, which signs the
  // site's certificate, is named as trusted.
  const intermediate = new X509Certificate(readFileSync(join(storage, 'pki', 'authorities', 'local', 'intermediate.crt')));
  const spki = createHash('sha256')
    .update(intermediate.publicKey.export({ type: 'spki', format: 'der' })).digest('base64');
  env.browser = await chromium.launch({
    executablePath: process.env.VW_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      `--ignore-certificate-errors-spki-list=${spki}`],
  });
});

after(async () => {
  if (skip) return;
  await env.browser?.close();
  env.proxy?.child.kill('SIGKILL');
  for (const s of env.servers || []) s.child.kill('SIGKILL');
  await Promise.all((env.servers || []).map((s) => s.exited));
  spawnSync('psql', [pgUrl, '-qc', `DROP DATABASE IF EXISTS ${env.db} WITH (FORCE)`]);
  spawnSync('psql', [pgUrl, '-qc', `DROP DATABASE IF EXISTS ${env.db}_restored WITH (FORCE)`]);
  rmSync(env.dir, { recursive: true, force: true });
});

test('two browsers play a game over https through the proxy to two processes', { skip }, async () => {
  const a = await (await env.browser.newContext()).newPage();
  const b = await (await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true })).newPage();
  await a.goto(env.public);
  await startFrom(a, 'friend', { size: '5x5' });
  const id = a.url().split('#/game/')[1];
  await b.goto(`${env.public}/#/join/${id}`);
  await b.waitForURL(new RegExp(`#/game/${id}$`));
  assert.equal(new URL(b.url()).protocol, 'https:');
  const result = await playOut([a, b]);
  assert.ok(over(result), result);
  assert.equal(await status(b), result);
  // Both processes hold the whole game.
  const steps = await Promise.all(env.ports.map(async (p) =>
    (await (await fetch(`http://127.0.0.1:${p}/api/games/${id}`)).json()).steps));
  assert.ok(steps[0].length > 0);
  assert.deepEqual(steps[0], steps[1]);
  env.finished = id;
});

test('two bots meet by quick play and finish a game over https', { skip }, async () => {
  const engine = `${BIN} engine`;
  const bot = (/** @type {string} */ name) => run(BIN, ['bot', '--server', env.public, '--engine', engine,
    '--register', name, '--option', 'size=5x5', '--move-time-ms', '30'], { SSL_CERT_FILE: env.rootFile });
  const first = bot(`hosted-first-${process.pid}`);
  await until(async () => {
    const { body } = await https(env.public, 'GET', '/api/games');
    return Array.isArray(body) && body.length > 0;
  }, 30000, 'the first bot\'s seek');
  const second = bot(`hosted-second-${process.pid}`);
  const done = await Promise.all([first.exited, second.exited]);
  assert.deepEqual(done.map((d) => d.code), [0, 0], `${first.output()}\n${second.output()}`);
  // Each prints "game ID: played N turn(s) as x; X wins (…)".
  const games = [first, second].map((b) => b.stdout().split(':')[0]);
  assert.equal(games[0], games[1], `one game: ${games}`);
  assert.match(first.stdout(), /; (X wins|O wins)/);
});

test('sign-ups are limited per client address behind the proxy, not for all together', { skip }, async () => {
  const signUp = (/** @type {string} */ name, /** @type {string} */ from) => https(env.public, 'POST', '/api/accounts',
    { from, body: JSON.stringify({ name, password: 'violet tram under paper' }) });
  const tag = process.pid.toString(36);
  // Two an hour from each address (the settings file says so).
  assert.equal((await signUp(`two-a-${tag}`, '127.0.0.2')).status, 201);
  assert.equal((await signUp(`two-b-${tag}`, '127.0.0.2')).status, 201);
  const third = await signUp(`two-c-${tag}`, '127.0.0.2');
  assert.equal(third.status, 429, JSON.stringify(third.body));
  // Another player behind the same proxy is not refused for it.
  assert.equal((await signUp(`three-a-${tag}`, '127.0.0.3')).status, 201);
  // A client's own X-Forwarded-For is not taken for its address: the proxy
  // appends the address it saw, and the server reads from the right.
  const forged = await https(env.public, 'POST', '/api/accounts', {
    from: '127.0.0.2',
    headers: { 'x-forwarded-for': '203.0.113.9' },
    body: JSON.stringify({ name: `forged-${tag}`, password: 'violet tram under paper' }),
  });
  assert.equal(forged.status, 429, JSON.stringify(forged.body));
});

test('pg_dump while the servers run, pg_restore into a new database, and a server plays on it', { skip }, async () => {
  assert.ok(env.finished, 'the browsers\' game finished first');
  const dump = join(env.dir, 'vw.dump');
  const restored = `${env.db}_restored`;
  // The commands of docs/hosting.md.
  let r = spawnSync('pg_dump', ['--format=custom', `--file=${dump}`, dbUrl(env.db)], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  psql(pgUrl, `CREATE DATABASE ${restored}`);
  r = spawnSync('pg_restore', [`--dbname=${dbUrl(restored)}`, dump], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const port = await freePort();
  const copy = run(BIN, ['serve', '--database-url', dbUrl(restored), '--addr', `127.0.0.1:${port}`, '--no-rate-limits']);
  try {
    await until(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, 30000, `the restored server (${copy.output()})`);
    const original = await (await fetch(`http://127.0.0.1:${env.ports[0]}/api/games/${env.finished}`)).json();
    const back = await (await fetch(`http://127.0.0.1:${port}/api/games/${env.finished}`)).json();
    assert.deepEqual(back.steps, original.steps);
    assert.equal(back.status, original.status);
    // It plays on: a new game, and its first step.
    const made = await (await fetch(`http://127.0.0.1:${port}/api/games`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ size: '5x5', side: 'x' }),
    })).json();
    await fetch(`http://127.0.0.1:${port}/api/games/${made.id}/join`, { method: 'POST' });
    const stepped = await fetch(`http://127.0.0.1:${port}/api/games/${made.id}/steps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${made.token}` },
      body: JSON.stringify({ seq: 0, steps: ['a1'] }),
    });
    assert.equal(stepped.status, 200, await stepped.text());
  } finally {
    copy.child.kill('SIGKILL');
    await copy.exited;
  }
});

test('a rolling restart of both processes under load loses no step and fails no client', { skip }, async () => {
  const load = run(BIN, ['loadtest', '--url', env.public, '--games', '40', '--seconds', '24',
    '--think-ms', '20', '--size', '6x6'], { SSL_CERT_FILE: env.rootFile });
  await new Promise((r) => setTimeout(r, 5000));
  for (const k of [0, 1]) {
    await stopProcess(k);
    await startProcess(k);
    await new Promise((r) => setTimeout(r, 3000));
  }
  const { code } = await load.exited;
  const line = load.stdout().trim();
  assert.equal(code, 0, load.output());
  /** @param {string} name */
  const figure = (name) => Number((line.match(new RegExp(`(?:^|, )${name} ([\\d.]+)`)) || [])[1]);
  console.log(`rolling restart under load: ${line}`);
  assert.ok(figure('steps') > 100, line);
  assert.equal(figure('errors'), 0, line);
  assert.equal(figure('lost'), 0, line);
  assert.equal(figure('duplicated'), 0, line);
  assert.ok(figure('reconnected') > 0, `the restarts sent players to the other process: ${line}`);
});
