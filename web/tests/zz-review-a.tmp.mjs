import { api, launch, phone, open, sleep, game, state, cellBox, touch, OUT } from './zz-review-lib.tmp.mjs';
const browser = await launch();
const log = (...a) => console.log(...a);
async function twoSeat(size, extra = {}) {
  const g = await game({ size, side: 'x', opponent: 'human', ...extra });
  const j = (await api('POST', `/api/games/${g.id}/join`, {})).body;
  return { g, j };
}
async function tapCdp(cdp, p) { await touch(cdp, 'touchStart', [{ x: p.x, y: p.y, id: 1 }]); await touch(cdp, 'touchEnd', []); }
// ---- 10x10 one tap, double tap
{
  const { g, j } = await twoSeat('10x10');
  const ctx = await phone(browser); const page = await open(ctx, g.url); await page.waitForSelector('[data-cell="a1"][data-legal]');
  const cdp = await ctx.newCDPSession(page);
  const a1 = await cellBox(page, 'a1'); log('10x10 cell px', a1.w);
  await tapCdp(cdp, a1); await sleep(50); await tapCdp(cdp, a1); await sleep(400);
  let s = await state(g.id); log('after double tap a1: steps', s.steps, 'err', await page.textContent('[data-error]'), 'lens visible?', await page.isVisible('[data-lens]'));
  const b2 = await cellBox(page, 'b2'); await tapCdp(cdp, b2); await sleep(10); await tapCdp(cdp, await cellBox(page, 'a2')); await sleep(10); await tapCdp(cdp, await cellBox(page, 'b1')); await sleep(500);
  s = await state(g.id); log('after b2,a2,b1 rapid taps: steps', s.steps, 'to_move', s.to_move, 'err', await page.textContent('[data-error]'), 'status', await page.textContent('[data-status]'));
  // non-legal tap on my turn? now O's turn: tap -> should say not your turn
  await tapCdp(cdp, await cellBox(page, 'e5')); await sleep(200); log('tap on opp turn err:', await page.textContent('[data-error]'));
  // scroll check on big board: page scroll of a swipe
  await page.screenshot({ path: `${OUT}/a-10x10.png` });
  // O plays 3 steps via API quickly, X taps while landing
  for (const c of ['j10', 'j9', 'i10']) { const st = await state(g.id); await api('POST', `/api/games/${g.id}/steps`, { seq: st.seq, steps: [c], token: j.token }); }
  await sleep(150);
  const mid = await page.textContent('[data-status]');
  await tapCdp(cdp, await cellBox(page, 'c3')); await sleep(100);
  log('tap during landing: status', mid, 'err', await page.textContent('[data-error]'), 'steps', (await state(g.id)).steps.length);
  await sleep(1200); log('after landing status', await page.textContent('[data-status]'), 'err', await page.textContent('[data-error]'));
  // keyboard
  await page.focus('[data-board] [tabindex="0"]'); await page.keyboard.press('Enter'); await sleep(300);
  log('keyboard Enter played:', (await state(g.id)).steps.slice(-1), 'focused', await page.evaluate(() => document.activeElement?.getAttribute('data-cell')));
  // mouse on non-legal
  await page.mouse.click(a1.x + 200, a1.y - 200); await sleep(300); log('mouse on non-legal: err', await page.textContent('[data-error]'));
  await ctx.close();
}
// ---- 19x19 lens
{
  const { g, j } = await twoSeat('19x19');
  const ctx = await phone(browser); const page = await open(ctx, g.url); await page.waitForSelector('[data-cell="a1"][data-legal]');
  const cdp = await ctx.newCDPSession(page);
  const a1 = await cellBox(page, 'a1'); log('19x19 cell px', a1.w, 'touchAction', await page.$eval('[data-board]', (e) => e.style.touchAction));
  await page.evaluate(() => window.scrollTo(0, 0));
  const sy0 = await page.evaluate(() => scrollY);
  // slide: start on e5, move to a1, lens shown, end
  const e5 = await cellBox(page, 'e5');
  await touch(cdp, 'touchStart', [{ x: e5.x, y: e5.y, id: 1 }]); await sleep(50);
  log('lens visible at start', await page.isVisible('[data-lens]'), await page.textContent('[data-lens] span').catch(() => '?'));
  for (let k = 1; k <= 5; k++) { await touch(cdp, 'touchMove', [{ x: e5.x + (a1.x - e5.x) * k / 5, y: e5.y + (a1.y - e5.y) * k / 5, id: 1 }]); await sleep(30); }
  log('lens on', await page.textContent('[data-lens] span'), 'scrollY', sy0, '->', await page.evaluate(() => scrollY));
  const lensBox = await page.$eval('[data-lens]', (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; });
  log('lens box', lensBox, 'viewport h', 844);
  await page.screenshot({ path: `${OUT}/a-lens.png` });
  await touch(cdp, 'touchEnd', []); await sleep(400);
  log('after slide release steps', (await state(g.id)).steps, 'err', await page.textContent('[data-error]'));
  // touch cancel
  const b2 = await cellBox(page, 'b2');
  await touch(cdp, 'touchStart', [{ x: b2.x, y: b2.y, id: 1 }]); await sleep(30); await touch(cdp, 'touchCancel', []); await sleep(300);
  log('after cancel steps', (await state(g.id)).steps, 'lens hidden', await page.isHidden('[data-lens]'));
  // slide off the board
  await touch(cdp, 'touchStart', [{ x: b2.x, y: b2.y, id: 1 }]); await touch(cdp, 'touchMove', [{ x: b2.x, y: b2.y + 200, id: 1 }]); await sleep(50);
  log('lens off-board hidden', await page.isHidden('[data-lens]'), 'scrollY', await page.evaluate(() => scrollY));
  await touch(cdp, 'touchEnd', []); await sleep(300);
  log('after slide-off steps', (await state(g.id)).steps);
  // multi touch: finger1 on b2, finger2 on a2, lift finger1 then 2
  const a2 = await cellBox(page, 'a2');
  await touch(cdp, 'touchStart', [{ x: b2.x, y: b2.y, id: 1 }]); await sleep(30);
  await touch(cdp, 'touchStart', [{ x: b2.x, y: b2.y, id: 1 }, { x: a2.x, y: a2.y, id: 2 }]); await sleep(30);
  await touch(cdp, 'touchEnd', [{ x: a2.x, y: a2.y, id: 2 }]); await sleep(30);
  await touch(cdp, 'touchEnd', []); await sleep(400);
  log('after two-finger steps', (await state(g.id)).steps, 'err', await page.textContent('[data-error]'));
  // quick tap (no slide) on non-legal cell
  const k10 = await cellBox(page, 'k10'); await tapCdp(cdp, k10); await sleep(400);
  log('tap non-legal k10: steps', (await state(g.id)).steps, 'err', await page.textContent('[data-error]'));
  // mouse click right after a touch (within 600ms)
  const st = await state(g.id); log('legal', st.legal.slice(0, 5), st.to_move);
  const c = await cellBox(page, st.legal[0]);
  await tapCdp(cdp, await cellBox(page, 'k10')); await sleep(100); await page.mouse.click(c.x, c.y); await sleep(400);
  log('mouse click 100ms after touch on', st.legal[0], '-> steps', (await state(g.id)).steps);
  // rotate mid game
  await page.setViewportSize({ width: 844, height: 390 }); await sleep(300);
  const w = (await cellBox(page, 'a1')).w; log('landscape cell px', w, 'touchAction', await page.$eval('[data-board]', (e) => e.style.touchAction));
  await page.screenshot({ path: `${OUT}/a-landscape.png` });
  const st2 = await state(g.id);
  if (st2.to_move === 'x') { const c2 = await cellBox(page, st2.legal[0]); await tapCdp(cdp, c2); await sleep(400); log('tap after rotate (cell', w, ') played?', (await state(g.id)).steps.slice(-1), 'lens', await page.isVisible('[data-lens]')); }
  await ctx.close();
}
await browser.close();
