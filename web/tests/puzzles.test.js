// The puzzle trainer (issue: analysis and puzzles): a player logs in,
// opens the puzzles and solves ten on a phone, each a real position with
// one winning turn, stepping each turn on the board; the puzzle rating
// moves after each; a wrong turn fails the next and shows the solution.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { BIN, serverAndBrowser } from './harness.js';

const env = serverAndBrowser();

/** The shipped puzzles' solutions, by id (`virus-wars puzzles list`). */
const solutions = new Map(execFileSync(BIN, ['puzzles', 'list'], { encoding: 'utf8', maxBuffer: 1 << 24 })
  .trim().split('\n').map((l) => JSON.parse(l)).map((p) => [p.id, /** @type {string[][]} */ (p.solution)]));

/** @param {import('playwright-core').Page} page */
const puzzleShown = async (page, not = '') => {
  await page.waitForFunction((n) => {
    const id = document.getElementById('app')?.dataset.puzzle;
    return id && id !== n && document.querySelector('[data-cell][data-legal]');
  }, not);
  return await page.locator('#app').getAttribute('data-puzzle') || '';
};

/**
 * Steps one turn on the board, a cell at a time (each legal when tapped).
 * @param {import('playwright-core').Page} page
 * @param {string[]} turn
 */
const stepTurn = async (page, turn) => {
  for (const cell of turn) {
    const target = cell === 'pass' ? page.locator('[data-pass]') : page.locator(`[data-cell="${cell}"][data-legal]`);
    await target.click();
  }
};

test('log in, solve ten puzzles: each turn judged, the rating moves each time', async () => {
  const page = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await page.goto(`${env.server.url}/`);
  const signed = await page.evaluate(async () => (await fetch('/api/accounts', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Solver', password: 'violet tram under paper' }),
  })).status);
  assert.equal(signed, 201);
  // On a phone the pages' links are behind the menu button.
  await page.locator('[data-menu]').click();
  await page.locator('[data-nav] a[href="#/puzzles"]').click();
  let id = await puzzleShown(page);
  assert.match(await page.locator('[data-rating]').textContent() || '', /^Log in|Your puzzle rating/);
  let rating = 1500;
  for (let n = 0; n < 10; n++) {
    const solution = solutions.get(id);
    assert.ok(solution, `${id} is a shipped puzzle`);
    assert.match(await page.locator('[data-task]').textContent() || '', /to play: find the winning turn/);
    for (let k = 0; k < solution.length; k += 2) {
      await stepTurn(page, solution[k]);
      const last = k + 1 === solution.length;
      await page.locator(`[data-verdict="${last ? 'solved' : 'right'}"]`).waitFor();
      if (!last) {
        // The reply is played and marked; the board takes the next turn.
        await page.locator('[data-cell][data-legal]').first().waitFor();
      }
    }
    const text = await page.locator('[data-rating]').textContent() || '';
    const moved = text.match(/(\d+) → (\d+) \(\+(\d+)\)/);
    assert.ok(moved, text);
    assert.equal(Number(moved[1]), Math.round(rating));
    assert.ok(Number(moved[2]) > Number(moved[1]), text);
    rating = Number(moved[2]);
    await page.locator('[data-next]').click();
    id = await puzzleShown(page, id);
  }
  // The account's rating, as the server keeps it.
  const me = await page.evaluate(async () => (await fetch('/api/me')).json());
  assert.equal(me.ratings.puzzles.games, 10);
  assert.equal(Math.round(me.ratings.puzzles.rating), rating);
  // A wrong turn: failed at once, the rating falls; the board takes
  // another try, and the solution waits to be asked for.
  // Some puzzles' first step has no cell outside the winning turn: step
  // along the turn until a step has one, and take that.
  const solution = solutions.get(id) || [];
  let wrong = '';
  for (const right of solution[0]) {
    wrong = await page.locator('[data-cell][data-legal]').evaluateAll((cells, turn) => cells.map((c) => c.getAttribute('data-cell') || '').find((c) => !turn.includes(c)) || '', solution[0]);
    if (wrong) break;
    await stepTurn(page, [right]);
    await page.locator(`[data-cell="${right}"][data-legal]`).waitFor({ state: 'detached' });
  }
  assert.ok(wrong, `a cell outside the solution of ${id}`);
  await page.locator(`[data-cell="${wrong}"]`).click();
  // Finish the turn with whatever is legal, until the server judges it.
  while (await page.locator('[data-verdict="wrong"]').count() === 0) {
    const legal = page.locator('[data-cell][data-legal]');
    if (await legal.count() === 0) { await page.waitForTimeout(50); continue; }
    await legal.first().click().catch(() => {});
  }
  const text = await page.locator('[data-rating]').textContent() || '';
  assert.match(text, /\(-\d+\)/, text);
  assert.match(await page.locator('[data-visit]').textContent() || '', /This visit: 10 of 11 solved at the first try · streak 0/);
  await page.locator('[data-cell][data-legal]').first().waitFor();
  assert.equal(await page.locator('[data-cell][data-label]').count(), 0, 'the solution is not given away');
  // "View the solution": played out on the board step by step, numbered,
  // and then the board takes no more steps.
  await page.locator('[data-show-solution]').click();
  await page.locator('[data-verdict="shown"]').waitFor();
  assert.equal(await page.locator('[data-cell][data-label="1"]').count(), 1, 'the solution numbered from 1');
  assert.equal(await page.locator('[data-cell][data-legal]').count(), 0, 'the board takes no more steps');
  assert.match(await page.locator('[data-line]').textContent() || '', /^The winning line: 1\. /);
  assert.equal(await page.locator('[data-rating]').textContent(), text, 'the rating moved once');
  await page.context().close();
});

test('anybody can solve a puzzle; a puzzle opens by its address', async () => {
  const page = await (await env.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const [id, solution] = [...solutions.entries()].find(([, s]) => s.length === 3) || ['', []];
  await page.goto(`${env.server.url}/#/puzzles/${id}`);
  assert.equal(await puzzleShown(page), id);
  assert.match(await page.locator('[data-task]').textContent() || '', /find the winning turn \(\d steps?\), then 1 more/);
  assert.match(await page.locator('[data-rating]').textContent() || '', /Log in to have a puzzle rating/);
  // Each theme is said in a sentence.
  assert.ok(await page.locator('[data-themes] li').count() > 0);
  // A miss first (a cell outside the turn), then a retry that solves it.
  const other = await page.locator('[data-cell][data-legal]').evaluateAll((cells, right) => cells.map((c) => c.getAttribute('data-cell') || '').find((c) => !right.includes(c)) || '', solution[0]);
  if (other) {
    await page.locator(`[data-cell="${other}"]`).click();
    while (await page.locator('[data-verdict="wrong"]').count() === 0) {
      const legal = page.locator('[data-cell][data-legal]');
      if (await legal.count() === 0) { await page.waitForTimeout(50); continue; }
      await legal.first().click().catch(() => {});
    }
    await page.locator('[data-show-solution]:not([hidden])').waitFor();
    await page.locator('[data-cell][data-legal]').first().waitFor();
  }
  await stepTurn(page, solution[0]);
  await page.locator('[data-verdict="right"]').waitFor();
  await page.locator('[data-cell][data-legal]').first().waitFor();
  await stepTurn(page, solution[2]);
  await page.locator('[data-verdict="solved"]').waitFor();
  if (other) assert.match(await page.locator('[data-verdict]').textContent() || '', /Solved, after a miss/);
  assert.match(await page.locator('[data-line]').textContent() || '', /^The winning line: 1\. .* 2\. .* 3\. /);
  assert.equal(await page.locator('[data-cell][data-legal]').count(), 0, 'solved: the board takes no more steps');
  await page.context().close();
});

test('a solution that leaves the game on is followed by one way on to its end', async () => {
  // The first one-turn puzzle whose solution leaves the game on, as the
  // server says when it is solved.
  let open = '';
  for (const [id, solution] of solutions) {
    if (solution.length !== 1) continue;
    const a = await (await fetch(`${env.server.url}/api/puzzles/${id}/attempt`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ steps: solution[0] }),
    })).json();
    assert.equal(a.done, true, JSON.stringify(a));
    if (a.to_the_end.length) { open = id; break; }
  }
  assert.ok(open, 'a one-turn puzzle that leaves the game on');
  const page = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await page.goto(`${env.server.url}/#/puzzles/${open}`);
  assert.equal(await puzzleShown(page), open);
  await stepTurn(page, solutions.get(open)?.[0] || []);
  await page.locator('[data-verdict="solved"]').waitFor();
  const line = page.locator('[data-line]');
  assert.match(await line.textContent() || '', /^The winning line: 1\. \S+ The game goes on, but [XO] wins whatever the other side plays \(proved by the solver\)\. One way to the end: 2\. \S+/);
  assert.ok(Number(await line.getAttribute('data-to-the-end')) >= 1);
  await page.context().close();
});

test('a verdict redrawn after "Next puzzle" was asked does not land on the next puzzle', async () => {
  const page = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  // Once a turn has been judged, the replay that redraws the board after
  // the verdict is held back until the next puzzle is shown.
  let judged = false;
  /** @type {() => void} */
  let release = () => {};
  const released = new Promise((r) => { release = () => r(undefined); });
  let landed = () => {};
  const late = new Promise((r) => { landed = () => r(undefined); });
  await page.route('**/api/puzzles/*/attempt', async (route) => { await route.continue(); judged = true; });
  await page.route('**/api/replay', async (route) => {
    if (!judged) return route.continue();
    const answer = await route.fetch();
    await released;
    await route.fulfill({ response: answer });
    landed();
  });
  // A puzzle whose first step can be other than the solution's: a turn
  // with a cell outside the solution's turn leaves another board, so it is
  // judged wrong (a turn made of the solution's cells in another order is
  // right, and a solved puzzle redraws nothing).
  let id = '';
  /** @type {string[]} */
  let wrong = [];
  for (const [k, turns] of solutions) {
    const start = (await (await fetch(`${env.server.url}/api/puzzles/${k}`)).json()).start;
    const other = start.legal.find((/** @type {string} */ c) => !turns[0].includes(c));
    if (other) { id = k; wrong = [other]; break; }
  }
  assert.ok(id, 'a shipped puzzle can be failed on its first step');
  await page.goto(`${env.server.url}/#/puzzles/${id}`);
  await puzzleShown(page);
  // The turn goes on with any legal cells until it is judged.
  for (let tries = 0; !judged; tries++) {
    assert.ok(tries < 500, `no attempt was sent for puzzle ${id} after ${tries} tries`);
    const cells = await page.locator('[data-cell][data-legal]').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')));
    if (!cells.length) { await page.waitForTimeout(20); continue; }
    const cell = wrong.shift() ?? cells[0];
    await page.locator(`[data-cell="${cell}"][data-legal]`).click();
  }
  // (The wrong verdict redraws the board from before the turn: that replay
  // is the one held back.)
  await page.locator('[data-next]').click();
  await puzzleShown(page, id);
  release();
  await late;
  // The old puzzle's verdict and board stayed with the old puzzle.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));
  assert.equal(await page.locator('[data-verdict]').getAttribute('data-verdict'), '');
  assert.ok(await page.locator('[data-cell][data-legal]').count() > 0, 'the next puzzle takes steps');
  await page.context().close();
});

test('while the solution plays out, the board takes no step, even when "Next puzzle" fails', async () => {
  const page = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  // A puzzle missed on its first step (a cell outside the solution's turn).
  let id = '';
  let other = '';
  for (const [k, turns] of solutions) {
    const start = (await (await fetch(`${env.server.url}/api/puzzles/${k}`)).json()).start;
    other = start.legal.find((/** @type {string} */ c) => c !== 'pass' && !turns[0].includes(c)) || '';
    if (other) { id = k; break; }
  }
  await page.goto(`${env.server.url}/#/puzzles/${id}`);
  await puzzleShown(page);
  await page.locator(`[data-cell="${other}"][data-legal]`).click();
  while (await page.locator('[data-verdict="wrong"]').count() === 0) {
    const legal = page.locator('[data-cell][data-legal]');
    if (await legal.count() === 0) { await page.waitForTimeout(50); continue; }
    await legal.first().click().catch(() => {});
  }
  let attempts = 0;
  await page.route('**/api/puzzles/*/attempt', (route) => { attempts += 1; return route.continue(); });
  // "Next puzzle" fails while the solution plays out.
  await page.route('**/api/puzzles/next*', (route) => route.abort());
  await page.locator('[data-show-solution]').click();
  await page.waitForTimeout(300);
  await page.locator('[data-next]').click();
  await page.locator('[data-error]:not(:empty)').waitFor();
  // Until the solution is shown, no cell is offered, and a tap plays nothing.
  while (await page.locator('[data-verdict="shown"]').count() === 0) {
    assert.equal(await page.locator('[data-cell][data-legal]').count(), 0, 'the board takes no step while the solution plays');
    await page.waitForTimeout(100);
  }
  assert.equal(attempts, 0);
  await page.context().close();
});
