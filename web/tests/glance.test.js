// A board read at a glance (issue: the page a first-time player meets):
// where a step may go stands out in every theme, the computer's turn lands
// step by step and stays marked through the player's turn, a click leaves
// no focus box, the move list follows the game, and the ending says what
// happened with one tap to a rematch, a new game or the analysis board.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, startFrom, statusUntil, over, playOut } from './harness.js';

const env = serverAndBrowser();

/**
 * The contrast of a cell's marker against the empty cell, from the
 * computed styles: the marker's colour mixed into the cell's middle third
 * by the share of it the marker covers (`dot`), or the marking stroke's
 * own colour (`stroke`).
 * @param {import('playwright-core').Page} page
 * @param {string} cell
 * @param {'dot' | 'stroke'} how
 */
function contrast(page, cell, how) {
  return page.evaluate(([name, kind]) => {
    const g = /** @type {SVGElement} */ (document.querySelector(`[data-cell="${name}"]`));
    const ground = /** @type {SVGElement} */ (g.querySelector('.ground'));
    const rgb = (/** @type {string} */ c) => (c.match(/[\d.]+/g) || []).slice(0, 3).map(Number);
    const lin = (/** @type {number} */ v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    const lum = (/** @type {number[]} */ [r, gr, b]) => 0.2126 * lin(r) + 0.7152 * lin(gr) + 0.0722 * lin(b);
    const empty = rgb(getComputedStyle(ground).fill);
    let mark;
    if (kind === 'dot') {
      const dot = /** @type {SVGElement} */ (g.querySelector('.dot'));
      const r = Number(dot.getAttribute('r'));
      let inside = 0;
      const n = 60;
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const x = (i + 0.5) / n / 3 - 1 / 6;
          const y = (j + 0.5) / n / 3 - 1 / 6;
          if (x * x + y * y <= r * r) inside++;
        }
      }
      const share = inside / (n * n);
      const colour = rgb(getComputedStyle(dot).fill);
      mark = empty.map((c, k) => share * colour[k] + (1 - share) * c);
    } else {
      mark = rgb(getComputedStyle(ground).stroke);
    }
    const [a, b] = [lum(mark), lum(empty)];
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  }, [cell, how]);
}

/**
 * A game against the computer at level 1 on a 5×5 board, in `theme`, at
 * `width`×`height`; the page.
 * @param {string} theme
 * @param {number} width
 * @param {number} height
 */
async function computerGame(theme, width, height) {
  const context = await env.browser.newContext({ viewport: { width, height } });
  await context.addInitScript((th) => { localStorage.setItem('vw-theme', th); }, theme);
  const page = await context.newPage();
  // The page's time is Playwright's clock, moved on by the test.
  await page.clock.install();
  await page.goto(env.server.url);
  await startFrom(page, 'computer', { level: 'level:1', side: 'x', size: '5x5' });
  await statusUntil(page, (s) => s === 'X to move');
  return page;
}

for (const [theme, width, height] of [['light', 390, 844], ['dark', 1280, 800], ['eink', 390, 844]]) {
  test(`${theme} at ${width}px: the legal cell and the computer's last turn stand out; a click leaves no focus box`, async () => {
    const page = await computerGame(String(theme), Number(width), Number(height));
    // At the start the only legal cell is a1 (before: 1.15:1, nearly invisible).
    assert.deepEqual(await page.locator('[data-cell][data-legal]').evaluateAll((l) => l.map((c) => c.getAttribute('data-cell'))), ['a1']);
    const legal = await contrast(page, 'a1', 'dot');
    assert.ok(legal >= 3, `the legal cell's marker: ${legal.toFixed(2)}:1`);
    // X's turn, one tap at a time; the computer answers with its turn
    // (level 1 plays to win: its answer may take c3 at once).
    for (const cell of ['a1', 'b2', 'c3']) {
      await page.locator(`[data-cell="${cell}"][data-legal]`).click();
      await page.locator(`[data-cell="${cell}"]:not([data-content="empty"])`).waitFor();
    }
    if (theme !== 'eink') {
      // Its steps land one after another, and the page says it is X's
      // turn only once the last has landed.
      await page.locator('[data-cell].arrive').nth(2).waitFor();
      const order = await page.locator('[data-cell].arrive').evaluateAll((l) => l.map((c) => /** @type {SVGElement} */ (c).style.getPropertyValue('--arrive')).sort());
      assert.deepEqual(order, ['0', '1', '2'], 'each of the three steps has its place in the order');
      const animation = await page.locator('[data-cell].arrive > :not(.ground)').first().evaluate((e) => getComputedStyle(e).animationName);
      assert.equal(animation, 'arrive');
      assert.notEqual(await page.locator('[data-status]').textContent(), 'X to move', 'not yet: O\'s steps are landing');
      // Drawn again meanwhile (a tap says it is not X's turn yet), the
      // arrival carries on instead of starting over.
      await page.clock.runFor(150);
      await page.locator('[data-cell="e5"]').click();
      const arrived = await page.locator('[data-board] svg').evaluate((e) => parseFloat(/** @type {SVGElement} */ (e).style.getPropertyValue('--arrived')) || 0);
      assert.ok(arrived >= 100, `carried on from ${arrived} ms`);
    }
    await statusUntil(page, (s) => s === 'X to move' || over(s));
    const theirs = await page.locator('[data-cell].last').evaluateAll((l) => l.map((c) => c.getAttribute('data-cell')));
    assert.equal(theirs.length, 3, `O's turn is marked: ${theirs}`);
    // Nothing moves in e-ink: O's turn is there at once.
    if (theme === 'eink') assert.equal(await page.locator('[data-cell].arrive').count(), 0);
    // Measured once the steps have landed.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState === 'finished'));
    const marked = await contrast(page, theirs[0], 'stroke');
    assert.ok(marked >= 3, `the last turn's mark: ${marked.toFixed(2)}:1 (before: 1.66:1)`);
    // The computer's turn stays marked after X's first step of the next turn.
    const first = page.locator('[data-cell][data-legal]').first();
    const name = await first.getAttribute('data-cell');
    await first.click();
    await page.locator(`[data-cell="${name}"]:not([data-content="empty"])`).waitFor();
    const still = await page.locator('[data-cell].last').evaluateAll((l) => l.map((c) => c.getAttribute('data-cell')));
    assert.deepEqual(still.sort(), [...theirs].sort(), 'still marked through X\'s turn');
    // A click leaves no focus box; the keyboard shows one.
    const box = () => page.evaluate(() => Boolean(document.querySelector('.cell:focus-visible')));
    assert.equal(await box(), false, 'no focus box after a click');
    await page.keyboard.press('ArrowRight');
    assert.equal(await box(), true, 'the keyboard shows where it is');
    await page.context().close();
  });
}

test('the move list follows the game, and the ending offers a rematch, a new game and the analysis', async () => {
  const page = await computerGame('light', 1280, 800);
  const result = await playOut([page]);
  assert.ok(['X wins', 'O wins'].includes(result), result);
  // The newest turn is in view in the list's box.
  const shown = await page.locator('[data-moves] li').last().evaluate((li) => {
    const box = /** @type {HTMLElement} */ (li.closest('[data-moves]')).getBoundingClientRect();
    const r = li.getBoundingClientRect();
    return r.bottom <= box.bottom + 1 && r.top >= box.top - 1;
  });
  assert.ok(shown, 'the last turn is visible');
  // The result in the player's words, and what next.
  await page.locator('[data-result]:not([hidden])').waitFor();
  const title = await page.locator('[data-result-title]').textContent();
  assert.equal(title, result === 'X wins' ? 'You won' : 'You lost');
  assert.ok((await page.locator('[data-result-why]').textContent())?.length, 'why it ended');
  assert.ok(await page.locator('[data-result] [data-act="rematch"]').isVisible());
  assert.ok(await page.locator('[data-result] [data-new-game]').isVisible());
  // Analyse: this game on the analysis board, at its end, with no copying.
  const id = page.url().split('#/game/')[1];
  const steps = await page.locator('[data-moves] li').count();
  await page.locator('[data-result] [data-analyse]').click();
  await page.waitForURL(new RegExp(`#/analysis/${id}$`));
  await page.locator('[data-frames] li').first().waitFor();
  const status = await page.locator('[data-status]').getAttribute('data-status');
  assert.equal(status, result, 'the analysis opens at the game\'s end');
  assert.ok((await page.locator('[data-frames] li').count()) >= steps, 'every step of the game is there');
  await page.context().close();
});

test('a friend joins: a notice says so, the cards name the players, the tab title says whose turn', async () => {
  const a = await (await env.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  const b = await (await env.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  // B chooses a name in the settings; a name the server would refuse is
  // said at once, next to the field, and not kept.
  await b.goto(`${env.server.url}/#/settings`);
  const name = b.locator('input[name="name"]');
  await name.fill('Bo<b>');
  assert.match(await b.locator('[data-error="name"]').textContent() ?? '', /letters, digits/);
  await name.fill('Боб');
  assert.equal(await b.locator('[data-error="name"]').textContent(), '');
  assert.equal(await b.evaluate(() => localStorage.getItem('vw-name')), 'Боб');
  await a.goto(env.server.url);
  await startFrom(a, 'friend', { size: '5x5' });
  const id = a.url().split('#/game/')[1];
  await a.locator('[data-card]').first().waitFor();
  assert.equal(await a.title(), 'Virus Wars', 'nobody to play yet');
  await b.goto(`${env.server.url}/#/join/${id}`);
  await b.waitForURL(new RegExp(`#/game/${id}$`));
  const joined = a.locator('[data-notice].success', { hasText: 'Your opponent is here' });
  await joined.waitFor();
  const cards = await a.locator('[data-card]').allTextContents();
  assert.ok(cards.some((c) => c.endsWith('You')) && cards.some((c) => c.endsWith('Боб')), cards.join(' | '));
  // B, who chose no name on A's side, is "Your opponent" the other way round
  // (B's cards are drawn once its first state comes: waited for).
  await b.locator('[data-card]', { hasText: 'Your opponent' }).first().waitFor();
  assert.ok((await b.locator('[data-card]').allTextContents()).some((c) => c.endsWith('Your opponent')));
  // Whoever is to move sees it in the tab's title; the other does not.
  await b.locator('[data-card][data-to-move]').waitFor();
  const mover = (await a.locator('[data-cell][data-legal]').count()) ? a : b;
  const other = mover === a ? b : a;
  await mover.waitForFunction(() => document.title.startsWith('Your turn'));
  assert.equal(await other.title(), 'Virus Wars');
  const moverCard = await mover.locator('[data-card][data-to-move]').textContent();
  assert.ok(moverCard?.endsWith('You'), `the side to move's card is marked: ${moverCard}`);
  await a.context().close();
  await b.context().close();
});

test('a game against the computer names it with its level', async () => {
  const page = await computerGame('light', 390, 844);
  const cards = await page.locator('[data-card]').allTextContents();
  assert.deepEqual(cards, ['XYou', 'OComputer, level 1']);
  await page.context().close();
});

test('on a phone one tap plays a step; cells too small for a finger play through a lens; confirming each step is a setting', async () => {
  /** A phone: 390×844, a touch screen. @param {Record<string, string>} [kept] */
  const phone = async (kept = {}) => {
    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(env.server.url);
    await page.evaluate((k) => { for (const [key, v] of Object.entries(k)) localStorage.setItem(key, v); }, kept);
    return page;
  };
  // The default 10×10 board: one tap, one step (it took two below 36 px).
  const ten = await phone();
  await startFrom(ten, 'computer', { level: 'level:1', side: 'x', size: '10x10' });
  await statusUntil(ten, (s) => s === 'X to move');
  const box = await ten.locator('[data-cell="a1"]').boundingBox();
  assert.ok(box && box.width >= 24 && box.width < 36, `a 10×10 cell on a phone: ${box?.width}px`);
  // Turn 1 says why a1 is the only dot, until it is played.
  await ten.locator('[data-first-hint]:not([hidden])', { hasText: 'Your first virus goes on a1' }).waitFor();
  await ten.locator('[data-cell="a1"]').tap();
  await ten.locator('[data-cell="a1"][data-content="x"]').waitFor();
  assert.equal(await ten.locator('[data-confirm]').textContent(), '', 'no second tap asked for');
  assert.ok(await ten.locator('[data-first-hint]').isHidden(), 'said once, on the first step');
  // Its coordinates legible (before: 9.4 px).
  const px = await ten.locator('.coord').first().evaluate((e) => e.getBoundingClientRect().height);
  assert.ok(px >= 12, `coordinates ${px.toFixed(1)} px tall`);
  await ten.context().close();

  // "Confirm each step" (Settings): a tap chooses, a second tap plays.
  const careful = await phone({ 'vw-confirm-steps': 'yes' });
  await startFrom(careful, 'computer', { level: 'level:1', side: 'x', size: '10x10' });
  await statusUntil(careful, (s) => s === 'X to move');
  await careful.locator('[data-cell="a1"]').tap();
  await careful.locator('[data-confirm]', { hasText: 'Tap a1 again to play it.' }).waitFor();
  assert.equal(await careful.locator('[data-cell="a1"]').getAttribute('data-content'), 'empty', 'not played yet');
  assert.equal(await careful.locator('[data-cell="a1"].chosen').count(), 1);
  await careful.locator('[data-cell="a1"]').tap();
  await careful.locator('[data-cell="a1"][data-content="x"]').waitFor();
  await careful.context().close();

  // 19×19: under 24 px a cell plays through the lens: press, slide, release.
  const big = await phone();
  await startFrom(big, 'computer', { level: 'level:1', side: 'x', size: '19x19' });
  await statusUntil(big, (s) => s === 'X to move');
  const a1 = await big.locator('[data-cell="a1"]').boundingBox();
  const b2 = await big.locator('[data-cell="b2"]').boundingBox();
  assert.ok(a1 && b2 && a1.width < 24, `a 19×19 cell on a phone: ${a1?.width}px`);
  const at = (/** @type {{x: number, y: number, width: number, height: number}} */ b) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
  const cdp = await big.context().newCDPSession(big);
  const touch = (/** @type {string} */ type, /** @type {{x: number, y: number}[]} */ points) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points });
  // Two fingers (a pinch) play nothing.
  await touch('touchStart', [at(b2), at(a1)]);
  await touch('touchEnd', []);
  await big.waitForTimeout(700);
  assert.equal(await big.locator('[data-cell="a1"]').getAttribute('data-content'), 'empty', 'a pinch is no step');
  await touch('touchStart', [at(b2)]);
  await big.locator('[data-lens]:not([hidden])', { hasText: 'b2' }).waitFor();
  await touch('touchMove', [at(a1)]);
  await big.locator('[data-lens]:not([hidden])', { hasText: 'a1' }).waitFor();
  assert.equal(await big.locator('[data-cell="a1"]').getAttribute('data-content'), 'empty', 'nothing played while pressed');
  await touch('touchEnd', []);
  await big.locator('[data-cell="a1"][data-content="x"]').waitFor();
  assert.ok(await big.locator('[data-lens]').isHidden(), 'the lens goes with the finger');
  // Its coordinates legible too (before: about 7 px).
  const small = await big.locator('.coord').first().evaluate((e) => e.getBoundingClientRect().height);
  assert.ok(small >= 11, `19×19 coordinates ${small.toFixed(1)} px tall`);
  await big.context().close();
});

test('a phone game fits the screen: a one-line header, the opponent above the board and you below, the actions in view', async () => {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await page.goto(env.server.url);
  await startFrom(page, 'computer', { level: 'level:1', side: 'o', size: '10x10' });
  await page.locator('[data-act="resign"]:not([hidden])').waitFor();
  const box = async (/** @type {string} */ selector) => {
    const b = await page.locator(selector).boundingBox();
    assert.ok(b, `${selector} is shown`);
    return b;
  };
  // The header is one line (it wrapped onto two, about 140 px above the board).
  const header = await box('[data-top]');
  assert.ok(header.height <= 60, `the header is ${header.height}px tall`);
  const board = await box('[data-board] svg');
  const mine = await box('[data-card="o"]');
  const theirs = await box('[data-card="x"]');
  assert.ok(theirs.y + theirs.height <= board.y + 1, 'the opponent\'s card is above the board');
  assert.ok(mine.y >= board.y + board.height - 1, 'this player\'s card is below it');
  assert.ok(board.y < 140, `the board starts ${board.y}px down`);
  // Nothing of the game below the fold: the status and the actions in view, no scroll.
  for (const part of ['[data-status]', '[data-act="resign"]']) {
    const b = await box(part);
    assert.ok(b.y + b.height <= 844, `${part} ends at ${b.y + b.height}px`);
  }
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  // The pages' links behind the menu button, one tap away.
  assert.ok(await page.locator('[data-nav]').isHidden(), 'the links wait behind the menu');
  await page.locator('[data-menu]').tap();
  assert.equal(await page.locator('[data-menu]').getAttribute('aria-expanded'), 'true');
  await page.locator('[data-nav] a[href="#/rules"]').tap();
  await page.waitForURL(/#\/rules$/);
  // (The address changes before the page's own handler closes the menu.)
  await page.locator('[data-nav]').waitFor({ state: 'hidden', timeout: 5000 });
  // Held sideways the board and both cards fit the screen's height.
  await page.goBack();
  await page.setViewportSize({ width: 844, height: 390 });
  await page.locator('[data-card="o"]').waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  const low = await page.locator('[data-card="o"]').boundingBox();
  assert.ok(low && low.y + low.height <= 390, `the lower card ends at ${low && low.y + low.height}px`);
  await context.close();
});
