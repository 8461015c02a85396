// The leaderboards: #/leaderboard, an overview of every category anybody
// is rated in with its top three; #/leaderboard/CATEGORY, the best 100 of
// one, provisional ratings apart; and the categories' names.

import { call } from './api.js';
import { t, tn } from './i18n.js';

/** The rating families (docs/api.md, Ratings), as the server names them. */
export const FAMILIES = ['classic', 'paper-tactics', 'gcr', 'iggamecenter', 'korobkov', 'other'];
const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'];
const FAMILY_NAMES = /** @type {Record<string, string>} */ ({
  classic: 'Classic', 'paper-tactics': 'Paper Tactics', gcr: 'Corners 11×11', iggamecenter: 'igGameCenter', korobkov: 'Small board', other: 'Other variants', puzzles: 'Puzzles',
});

/**
 * A category (`classic-blitz`) or a family (`classic`) in words.
 * @param {string} id
 */
export function categoryName(id) {
  const speed = SPEEDS.find((s) => id.endsWith(`-${s}`));
  const family = speed ? id.slice(0, -speed.length - 1) : id;
  const name = t(FAMILY_NAMES[family] || family);
  return speed ? `${name}, ${t(speed)}` : name;
}

/** @param {string} text */
const esc = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A leaderboard's line.
 * @param {{name: string, kind: string, rating: number, games: number}} l
 * @param {string} mark  '?' after a provisional rating
 */
const leaderLine = (l, mark) => `<li data-leader="${esc(l.name)}"><a href="#/@/${encodeURIComponent(l.name)}">${esc(l.name)}</a>${l.kind === 'bot' ? ' <span class="badge">BOT</span>' : ''} <strong>${Math.round(l.rating)}${mark}</strong> <span class="hint">${tn('{n} games', l.games)}</span></li>`;

/**
 * The overview (`GET /api/leaderboard`): a card a category with its best
 * three, settled first, else the provisional ones marked "?".
 * @param {HTMLElement} root
 * @returns {() => void}
 */
function showOverview(root) {
  let gone = false;
  root.innerHTML = `<section class="leaderboard"><h2>${t('Top players')}</h2>
    <div class="tops" data-tops></div>
    <p class="error" data-error role="alert"></p></section>`;
  call('GET', '/api/leaderboard').then((/** @type {{category: string, leaders: any[], provisional: any[]}[]} */ tops) => {
    if (gone) return;
    const box = /** @type {HTMLElement} */ (root.querySelector('[data-tops]'));
    box.innerHTML = tops.length
      ? tops.map((c) => {
        const [list, mark] = c.leaders.length ? [c.leaders, ''] : [c.provisional, '?'];
        return `<section class="category-top" data-top="${esc(c.category)}"><h3><a href="#/leaderboard/${esc(c.category)}">${esc(categoryName(c.category))}</a></h3>
          <ol class="leaders">${list.map((l) => leaderLine(l, mark)).join('')}</ol>
          <a class="more" href="#/leaderboard/${esc(c.category)}">${t('All of {category}', { category: categoryName(c.category) })}</a></section>`;
      }).join('')
      : `<p class="nobody">${t('Nobody is rated yet: play a rated game or a puzzle while logged in.')}</p>`;
  }, (e) => {
    if (!gone) /** @type {HTMLElement} */ (root.querySelector('[data-error]')).textContent = e.message;
  });
  return () => { gone = true; };
}

/**
 * @param {HTMLElement} root
 * @param {string} category  '' for the overview
 */
export function showLeaderboard(root, category) {
  if (!category) return showOverview(root);
  let gone = false;
  const all = FAMILIES.flatMap((f) => SPEEDS.map((s) => `${f}-${s}`)).concat(['puzzles']);
  const chosen = all.includes(category) ? category : 'classic-blitz';
  root.innerHTML = `<section class="leaderboard"><h2>${t('Top players')}</h2>
    <p><a href="#/leaderboard" data-overview>${t('All categories')}</a></p>
    <label class="field">${t('Category')} <select data-category>${all.map((c) => `<option value="${c}" ${c === chosen ? 'selected' : ''}>${esc(categoryName(c))}</option>`).join('')}</select></label>
    <p class="hint">${t('Ratings still provisional (marked ?) are listed apart, below.')}</p>
    <ol class="leaders" data-leaders></ol>
    <h3>${t('Still provisional')}</h3><ol class="leaders" data-provisional></ol>
    <p class="error" data-error role="alert"></p></section>`;
  const select = /** @type {HTMLSelectElement} */ (root.querySelector('[data-category]'));
  select.addEventListener('change', () => { location.hash = `#/leaderboard/${select.value}`; });
  // The settled board, and apart the players whose rating is still provisional.
  for (const [sel, query, mark] of [['[data-leaders]', '', ''], ['[data-provisional]', '?provisional=true', '?']]) {
    call('GET', `/api/leaderboard/${chosen}${query}`).then((/** @type {any[]} */ leaders) => {
      if (gone) return;
      const list = /** @type {HTMLElement} */ (root.querySelector(sel));
      list.innerHTML = leaders.length
        ? leaders.map((l) => leaderLine(l, mark)).join('')
        : `<li class="nobody">${t('Nobody yet.')}</li>`;
    }, (e) => {
      if (!gone) /** @type {HTMLElement} */ (root.querySelector('[data-error]')).textContent = e.message;
    });
  }
  return () => { gone = true; };
}
