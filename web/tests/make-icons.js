// Draws the PWA's PNG icons (web/icon-192.png, web/icon-512.png) from
// web/icon.svg in headless Chromium: `node tests/make-icons.js` in web/.
// The icons are committed; run this again after changing icon.svg.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startBrowser } from './harness.js';

const web = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const svg = readFileSync(join(web, 'icon.svg'), 'utf8');
const browser = await startBrowser();
for (const size of [192, 512]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(`<html><body style="margin:0">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
  await page.screenshot({ path: join(web, `icon-${size}.png`), omitBackground: false });
  await page.close();
}
await browser.close();
