import { api, launch, phone, open, sleep, game, state, cellBox, touch, step, OUT } from './zz-review-lib.tmp.mjs';
const browser = await launch(); const log = (...a) => console.log(...a);
async function tapCdp(cdp, p) { await touch(cdp, 'touchStart', [{ x: p.x, y: p.y, id: 1 }]); await touch(cdp, 'touchEnd', []); }
async function twoSeat(size, extra = {}) { const g = await game({ size, side: 'x', opponent: 'human', ...extra }); const j = (await api('POST', `/api/games/${g.id}/join`, {})).body; return { g, j }; }
// landing: X page, O plays via API
{
  const { g, j } = await twoSeat('10x10');
  const ctx = await phone(browser); const page = await open(ctx, g.url); await page.waitForSelector('[data-cell="a1"][data-legal]');
  const cdp = await ctx.newCDPSession(page);
  log('status start', await page.textContent('[data-status]'), '| hint', await page.textContent('[data-first-hint]'));
  await step(g.id, g.token, ['a1', 'b2', 'c3']);
  await sleep(300);
  log('status their', await page.textContent('[data-status]'), 'hint hidden', await page.isHidden('[data-first-hint]'));
  const r = await step(g.id, j.token, ['j10', 'i9', 'h8']); log('O step', r.status);
  await sleep(120);
  log('landing status:', await page.textContent('[data-status]'));
  await tapCdp(cdp, await cellBox(page, 'd4')); await sleep(80);
  log('tap during landing: err', JSON.stringify(await page.textContent('[data-error]')), 'steps', (await state(g.id)).steps.length);
  await sleep(1000);
  log('after landing status:', await page.textContent('[data-status]'), 'err', JSON.stringify(await page.textContent('[data-error]')));
  // status with 1 step
  await step(g.id, g.token, ['d4', 'e5']); await sleep(300);
  log('1 step status', await page.textContent('[data-status]'));
  // confirm-steps
  await page.evaluate(() => localStorage.setItem('vw-confirm-steps', 'yes'));
  await tapCdp(cdp, await cellBox(page, 'f6')); await sleep(300);
  log('confirm first tap: played?', (await state(g.id)).steps.length, 'confirm text', await page.textContent('[data-confirm]'));
  await tapCdp(cdp, await cellBox(page, 'e6')); await sleep(300);
  log('confirm tap other legal: played?', (await state(g.id)).steps.length, 'confirm', await page.textContent('[data-confirm]'));
  await tapCdp(cdp, await cellBox(page, 'e6')); await sleep(400);
  log('confirm second tap: steps', (await state(g.id)).steps.slice(-2), 'to_move', (await state(g.id)).to_move);
  // confirm while a step of the opponent then arrives...
  await page.screenshot({ path: `${OUT}/b-confirm.png` });
  await ctx.close();
}
// pass-and-play via UI, turned
{
  const ctx = await phone(browser, { 'vw-turn-board': 'yes' });
  const page = await open(ctx, 'http://127.0.0.1:19401/#/');
  await page.click('[data-settings="local"]'); await sleep(300);
  await page.selectOption('form[data-form="local"] select[name="size"]', '10x10');
  const turnBox = page.locator('form[data-form="local"] input[name="turn"]'); if (!(await turnBox.isChecked())) await turnBox.check();
  await page.click('form[data-form="local"] button.primary'); await page.waitForSelector('[data-cell="a1"][data-legal]');
  const id = page.url().split('/').pop(); log('local game', id);
  const cdp = await ctx.newCDPSession(page);
  for (const c of ['a1', 'b2', 'c3']) { await tapCdp(cdp, await cellBox(page, c)); await sleep(250); }
  await sleep(300);
  log('after X turn: turned?', await page.$eval('[data-board]', (e) => e.classList.contains('turned')), 'status', await page.textContent('[data-status]'), 'bottom', await page.$eval('[data-play]', (e) => e.dataset.bottom));
  await page.screenshot({ path: `${OUT}/b-turned.png` });
  // double-tap on j10 for O (first step), then fast taps
  const j10 = await cellBox(page, 'j10'); log('j10 pos (turned, should be bottom-left)', j10);
  await tapCdp(cdp, j10); await sleep(30); await tapCdp(cdp, j10); await sleep(400);
  log('O double tap j10 ->', (await state(id)).steps, 'err', await page.textContent('[data-error]'));
  // keyboard on turned board
  await page.focus('[data-board] [tabindex="0"]'); const f0 = await page.evaluate(() => document.activeElement?.getAttribute('data-cell'));
  await page.keyboard.press('ArrowUp'); const f1 = await page.evaluate(() => document.activeElement?.getAttribute('data-cell'));
  await page.keyboard.press('ArrowLeft'); const f2 = await page.evaluate(() => document.activeElement?.getAttribute('data-cell'));
  log('keyboard turned: from', f0, 'Up->', f1, 'Left->', f2);
  // last step of O's turn double tap -> must not play for X
  let st = await state(id); const c1 = st.legal[0]; await tapCdp(cdp, await cellBox(page, c1)); await sleep(300);
  st = await state(id); const c2 = st.legal.find((c) => c !== 'pass');
  const p2 = await cellBox(page, c2); await tapCdp(cdp, p2); await sleep(20); await tapCdp(cdp, p2); await sleep(20); await tapCdp(cdp, p2); await sleep(500);
  st = await state(id); log('O last step triple tap', c2, '-> steps', st.steps, 'to_move', st.to_move, 'err', await page.textContent('[data-error]'));
  // resize mid game
  await page.setViewportSize({ width: 320, height: 568 }); await sleep(300);
  await page.screenshot({ path: `${OUT}/b-turned-320.png`, fullPage: false });
  await ctx.close();
}
// landscape 19x19: check where the board is
{
  const { g } = await twoSeat('19x19');
  const ctx = await phone(browser, {}, { width: 844, height: 390 }); const page = await open(ctx, g.url); await page.waitForSelector('[data-cell="a1"][data-legal]');
  const a1 = await cellBox(page, 'a1'); log('landscape a1', a1, 'board h', await page.$eval('[data-board]', (e) => e.getBoundingClientRect().height));
  await page.screenshot({ path: `${OUT}/b-landscape19.png` });
  await ctx.close();
}
await browser.close();
