// Every word a Russian, Ukrainian or Czech reader sees is theirs: each page this test visits
// is read whole (its visible text, its fields' placeholders and labels),
// and any English word on it fails the test: for Russian and Ukrainian any
// word in Latin letters, for Czech (written in Latin letters too) any word
// of the page's English texts that no Czech text uses. What is no English
// word and stays: the sides X and O, cell names (a1), notation (a1-b2-c3),
// numbers, clocks and dates, and the names of games and people
// (igGameCenter), and the languages' own names in the language list.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, startFrom } from './harness.js';
import { EN, RU } from '../js/i18n.js';
import { CS } from '../js/cs.js';

const env = serverAndBrowser();

/**
 * Words of Latin letters that are no English: the sides, the names of
 * games, engines, sites and institutions (Paper Tactics, gcr, FEUP), a
 * language's own name in the language list.
 */
const KEPT = new Set(['X', 'O', 'BOT', 'igGameCenter', 'Glicko', 'Paper', 'Tactics', 'gcr', 'FEUP', 'English', 'Čeština']);

/** The words of a text, in any script, lower case. @param {string} text */
const wordsOf = (text) => (text.match(/\p{L}[\p{L}'’]+/gu) || []).map((w) => w.toLowerCase());
/** Words only English uses: in the page's English texts and in no Czech one. */
const czech = new Set(Object.values(CS).flatMap(wordsOf));
const ONLY_ENGLISH = new Set([...Object.keys(RU), ...Object.values(EN)].flatMap(wordsOf).filter((w) => !czech.has(w)));

/**
 * The English words on the page as a reader of `lang` sees it (text,
 * placeholders, field labels, the title).
 * @param {import('playwright-core').Page} page
 * @param {string} lang
 */
async function english(page, lang) {
  const text = await page.evaluate(() => {
    const parts = [document.title, document.body.innerText];
    document.querySelectorAll('input, textarea').forEach((e) => {
      const f = /** @type {HTMLInputElement} */ (e);
      if (f.placeholder) parts.push(f.placeholder);
      if (f.getAttribute('aria-label')) parts.push(f.getAttribute('aria-label') || '');
    });
    document.querySelectorAll('[aria-label]').forEach((e) => {
      if (!e.closest('[data-board]') && !e.closest('svg')) parts.push(e.getAttribute('aria-label') || '');
    });
    return parts.join('\n');
  });
  return [...new Set(text
    // Cells and notation, ids (letters and digits); a site's address and
    // a file's ending.
    .replace(/\b[a-s]\d{1,2}(-[a-s]\d{1,2})*\b/g, ' ')
    .replace(/\b\w*\d\w*\b/g, ' ')
    .replace(/[\w-]*\.(com|vwr)\b/g, ' ')
    .match(/\p{L}[\p{L}'’]+/gu) || [])]
    .filter((w) => !KEPT.has(w))
    .filter((w) => (lang === 'cs' ? ONLY_ENGLISH.has(w.toLowerCase()) : /^[A-Za-z'’]+$/.test(w)));
}

/**
 * A page in `lang` at 390×844.
 * @param {string} lang
 */
async function speaking(lang) {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addInitScript((l) => { localStorage.setItem('vw-lang', l); }, lang);
  return context.newPage();
}

for (const [lang, name] of [['ru', 'Russian'], ['uk', 'Ukrainian'], ['cs', 'Czech']]) test(`in ${name}, no page this test visits shows an English word`, async () => {
  const page = await speaking(lang);
  /** @type {Record<string, string[]>} */
  const found = {};
  const visit = async (/** @type {string} */ name) => {
    await page.waitForTimeout(0);
    const words = await english(page, lang);
    if (words.length) found[name] = words;
  };
  await page.goto(env.server.url);
  await page.locator('[data-start="computer"]').waitFor();
  await page.locator('[data-hint]').first().waitFor();
  await visit('home');
  // The settings of each kind of game, "more settings" open.
  for (const kind of ['computer', 'friend']) {
    await page.locator(`[data-settings="${kind}"]`).click();
    await page.locator('dialog details.more summary').click();
    await visit(`${kind} settings`);
    await page.locator('dialog [data-close]').click();
  }
  await page.locator('[data-menu]').click();
  await visit('menu');
  for (const [hash, ready] of [
    ['#/rules', '[data-example="3"] [data-cell]'],
    ['#/settings', 'select[name="lang"]'],
    ['#/puzzles', '[data-board] [data-cell]'],
    ['#/analysis', 'textarea'],
    ['#/login', 'input'],
  ]) {
    await page.goto(`${env.server.url}/${hash}`);
    await page.locator(ready).first().waitFor();
    await visit(hash);
  }
  // A game against the computer, with a clock, played a step.
  await page.goto(env.server.url);
  await startFrom(page, 'computer', { side: 'x', size: '5x5' });
  await page.locator('[data-cell="a1"]').click();
  await page.locator('[data-cell="a1"][data-content="x"]').waitFor();
  await visit('game');
  assert.deepEqual(found, {}, `English words on ${name} pages`);
  // And the page says it in the language's own script.
  assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
  await page.context().close();
});
