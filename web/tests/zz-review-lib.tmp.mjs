import { chromium } from 'playwright-core';
export const BASE = process.env.BASE || 'http://127.0.0.1:19401';
export const OUT = '/tmp/review-45';
export async function api(method, path, body, cookie, token) {
  const h = { 'content-type': 'application/json' };
  if (cookie) h.cookie = cookie;
  if (token) h.authorization = 'Bearer ' + token;
  const r = await fetch(BASE + path, { method, headers: h, body: body ? JSON.stringify(body) : undefined });
  const text = await r.text();
  let j; try { j = JSON.parse(text); } catch { j = text; }
  return { status: r.status, body: j, setCookie: r.headers.get('set-cookie') };
}
export async function launch() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}
export async function phone(browser, ls = {}, vp = { width: 390, height: 844 }) {
  const ctx = await browser.newContext({ viewport: vp, hasTouch: true, isMobile: true });
  await ctx.addInitScript((ls) => { if (!sessionStorage.getItem('__init')) { for (const [k, v] of Object.entries(ls)) localStorage.setItem(k, v); sessionStorage.setItem('__init', '1'); } }, ls);
  return ctx;
}
export async function open(ctx, url) {
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
  page.on('console', (m) => { if (m.type() === 'error') console.log('CONSOLE', m.text()); });
  await page.goto(url.replace('http://localhost:19401', BASE));
  return page;
}
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export async function game(body) { const r = await api('POST', '/api/games', body); if (r.status !== 201) throw new Error(JSON.stringify(r.body)); return r.body; }
export async function state(id) { return (await api('GET', `/api/games/${id}`)).body; }
export async function cellBox(page, cell) {
  return page.evaluate((c) => { const g = document.querySelector(`[data-board] [data-cell="${c}"] .ground`) || document.querySelector(`[data-board] [data-cell="${c}"]`); const r = g.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2, w: r.width }; }, cell);
}
export async function touch(cdp, type, pts) { await cdp.send('Input.dispatchTouchEvent', { type, touchPoints: pts }); }
export async function step(id, token, cells) { const st = await state(id); return api('POST', `/api/games/${id}/steps`, { seq: st.seq, steps: cells }, null, token); }
