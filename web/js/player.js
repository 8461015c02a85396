// A player's page (#/@/NAME): ratings by category with a chart of each
// over time, counts and streak, games in progress, and the archive of
// every finished game, filtered, a page at a time. On your own page: your
// account's settings.

import { call } from './api.js';
import { me, ratingText } from './account.js';
import { categoryName, FAMILIES } from './leaderboard.js';
import { playerName, t, tn } from './i18n.js';
import { variantName } from './newgame.js';
import { showFollowing } from './following.js';
import { showOwnAccount } from './ownaccount.js';
import { showChallenge } from './challenge.js';

/**
 * A time control in the page's language, from its fields: `3+2`
 * (minutes + seconds), or days a turn.
 * @param {{base_s: number, inc_s: number, days_per_turn: number | null}} c
 */
function clockWords(c) {
  return c.days_per_turn ? t('{n} day a turn', { n: c.days_per_turn }) : `${c.base_s / 60}+${c.inc_s}`;
}

/**
 * @typedef {{id: string, variant: {preset: string, options: string, size: string}, time_control: string | null,
 *   clock: {base_s: number, inc_s: number, days_per_turn: number | null} | null,
 *   rated: boolean, category: string | null, side: string, opponent: import('./api.js').PlayerInfo,
 *   result: string, rating: {before: number, after: number} | null, created_ms: number, last_active_ms: number}} PlayedGame
 */

/** @param {string} text */
const esc = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A game as a line of a player's list: the opponent, the variant and
 * clock, the result and what it did to the rating; it opens the game, and
 * the analysis board on it.
 * @param {PlayedGame} g
 */
export function gameLine(g) {
  const li = document.createElement('li');
  li.className = 'row played';
  li.dataset.game = g.id;
  li.dataset.result = g.result;
  const who = g.opponent.account && g.opponent.name
    ? `<a href="#/@/${encodeURIComponent(g.opponent.name)}">${esc(g.opponent.name)}</a>`
    : esc(g.opponent.kind === 'human' && !g.opponent.name ? t('a person') : playerName(g.opponent));
  const moved = g.rating ? Math.round(g.rating.after - g.rating.before) : null;
  const change = moved === null ? '' : ` <span class="change">${moved >= 0 ? '+' : ''}${moved}</span>`;
  li.innerHTML = `<span><strong>${t(g.result)}</strong> ${t('vs')} ${who} · ${esc(variantName(g.variant.preset))} ${esc(g.variant.size.replace('x', '×'))}${g.clock ? ` · ${esc(clockWords(g.clock))}` : ''}${g.rated ? ` · ${t('rated')}` : ''}${change}
    · <time>${new Date(g.last_active_ms).toLocaleDateString()}</time></span>
    <span><a href="#/game/${g.id}">${t('Open')}</a> <a href="#/analysis/${g.id}">${t('Analyse')}</a></span>`;
  return li;
}

/**
 * A rating over time as a line in an SVG: where the player started, then
 * one point a rated game.
 * @param {{at_ms: number, before: number, rating: number}[]} history
 */
export function chart(history) {
  const W = 600; const H = 240; const pad = 60;
  if (!history.length) return `<p class="hint">${t('No rated game yet.')}</p>`;
  const points = [{ at_ms: history[0].at_ms, rating: history[0].before }, ...history];
  const ratings = points.map((p) => p.rating);
  const lo = Math.floor((Math.min(...ratings) - 20) / 50) * 50;
  const hi = Math.ceil((Math.max(...ratings) + 20) / 50) * 50;
  const x = (/** @type {number} */ k) => pad + (k * (W - pad - 8)) / (points.length - 1);
  const y = (/** @type {number} */ r) => 14 + ((hi - r) * (H - 50)) / (hi - lo);
  const line = points.map((p, k) => `${x(k).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${t('Rating over {n} rated games, from {a} to {b}', { n: history.length, a: Math.round(ratings[0]), b: Math.round(ratings[ratings.length - 1]) })}">
    <line x1="${pad}" y1="${y(hi)}" x2="${W}" y2="${y(hi)}" class="grid"/><line x1="${pad}" y1="${y(lo)}" x2="${W}" y2="${y(lo)}" class="grid"/>
    <text x="2" y="${y(hi) + 8}">${hi}</text><text x="2" y="${y(lo) + 8}">${lo}</text>
    <text x="${pad}" y="${H - 6}">${new Date(points[0].at_ms).toLocaleDateString()}</text>
    <text x="${W - 8}" y="${H - 6}" text-anchor="end">${new Date(points[points.length - 1].at_ms).toLocaleDateString()}</text>
    <polyline points="${line}" class="line"/></svg>`;
}

/**
 * The follow button of a player's page: it says what a tap does, and the
 * followers' count follows it.
 * @param {HTMLButtonElement | null} button
 * @param {{name: string, you_follow: boolean | null, followers: number}} p
 */
function followButton(button, p) {
  if (!button) return;
  let following = Boolean(p.you_follow);
  let followers = p.followers;
  const show = () => {
    button.textContent = following ? t('Unfollow') : t('Follow');
    button.setAttribute('aria-pressed', String(following));
    const count = button.closest('.player')?.querySelector('[data-followers]');
    if (count) count.textContent = t('Followers: {n}', { n: followers });
  };
  show();
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await call(following ? 'DELETE' : 'PUT', `/api/me/following/${encodeURIComponent(p.name)}`);
      followers += following ? -1 : 1;
      following = !following;
      show();
    } catch (e) {
      button.textContent = /** @type {Error} */ (e).message;
    } finally {
      button.disabled = false;
    }
  });
}

/**
 * @param {HTMLElement} root
 * @param {string} name
 */
export function showPlayer(root, name) {
  let gone = false;
  root.innerHTML = `<p>${t('Loading…')}</p>`;
  (async () => {
    /** @type {any} */
    let p;
    try {
      p = await call('GET', `/api/players/${encodeURIComponent(name)}`);
    } catch (e) {
      if (!gone) root.innerHTML = `<p class="error">${esc(/** @type {Error} */ (e).message)}</p>`;
      return;
    }
    if (gone) return;
    const cats = Object.keys(p.ratings);
    const streak = p.streak ? t('Streak: {n} {result}', { n: p.streak.games, result: t(p.streak.result) }) : '';
    root.innerHTML = `<div class="player">
      <h2 data-player-name>${p.online ? `<span class="online-dot" data-online title="${t('online')}" aria-label="${t('online')}"></span>` : ''}${esc(p.name)}${p.kind === 'bot' ? ' <span class="badge">BOT</span>' : ''}</h2>
      <p class="hint">${p.deleted ? t('This account was deleted.') : t('Playing since {date}', { date: new Date(p.created_ms).toLocaleDateString() })}
        · <span data-followers>${t('Followers: {n}', { n: p.followers })}</span></p>
      ${p.you_follow === null || p.deleted ? '' : '<p><button data-follow></button></p><div data-challenge-box></div>'}
      <section><h3>${t('Ratings')}</h3>${cats.length ? `<table class="ratings"><tbody>${cats.map((c) => `<tr data-category="${c}">
        <th scope="row"><a href="#/leaderboard/${c}">${esc(categoryName(c))}</a></th><td data-rating>${ratingText(p.ratings[c])}</td>
        <td>${tn('{n} games', p.ratings[c].games)}</td></tr>`).join('')}</tbody></table>
        <label class="field">${t('Chart')} <select data-chart-category>${cats.map((c) => `<option value="${c}">${esc(categoryName(c))}</option>`).join('')}</select></label>
        <div data-chart></div>` : `<p>${t('No rated game yet.')}</p>`}</section>
      <section><h3>${t('Games')}</h3><p data-counts>${t('{played} played: {won} won, {lost} lost, {drawn} drawn.', p)} ${streak}</p></section>
      <section><h3>${t('In progress')}</h3><ul class="games" data-playing></ul></section>
      ${p.tournaments.length ? `<section><h3>${t('Tournaments')}</h3><ul class="tournament-list" data-player-tournaments>${p.tournaments.map((/** @type {any} */ x) => `<li><a href="#/tournament/${encodeURIComponent(x.id)}">${esc(x.name)}</a> <span class="hint">${x.place ? t('place {place} of {n}', { place: x.place, n: x.players }) : t(x.state === 'soon' ? 'starting soon' : 'running')} · ${tn('{n} points', x.points)}</span></li>`).join('')}</ul></section>` : ''}
      <section><h3>${t('Archive')}</h3>
        <form class="row filters" data-form="archive">
          <select name="variant" aria-label="${t('variant')}"><option value="">${t('all variants')}</option>${FAMILIES.map((f) => `<option value="${f}">${esc(categoryName(f))}</option>`).join('')}</select>
          <select name="result" aria-label="${t('result')}"><option value="">${t('all results')}</option>${['won', 'lost', 'drawn', 'aborted'].map((r) => `<option value="${r}">${t(r)}</option>`).join('')}</select>
          <select name="rated" aria-label="${t('rated')}"><option value="">${t('rated and casual')}</option><option value="true">${t('rated')}</option><option value="false">${t('casual')}</option></select>
          <input name="opponent" placeholder="${t('opponent')}" aria-label="${t('opponent')}" maxlength="20">
          <button>${t('Show')}</button></form>
        <ul class="games" data-archive></ul><button data-more hidden>${t('More')}</button>
        <p>${t('Download every game')}: <a data-export href="/api/players/${encodeURIComponent(p.name)}/export" download>${t('records (.vwr)')}</a>
          · <a href="/api/players/${encodeURIComponent(p.name)}/export?format=jsonl" download>${t('JSON lines')}</a></p>
        <p class="error" data-error="archive" role="alert"></p></section>
      <div data-follows></div><div data-own></div></div>`;
    const part = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (root.querySelector(sel));
    followButton(root.querySelector('[data-follow]'), p);
    showChallenge(root.querySelector('[data-challenge-box]'), p);
    const playing = /** @type {PlayedGame[]} */ (p.playing);
    part('[data-playing]').replaceChildren(...(playing.length ? playing.map(gameLine) : [Object.assign(document.createElement('li'), { textContent: t('None.') })]));
    const select = /** @type {HTMLSelectElement | null} */ (root.querySelector('[data-chart-category]'));
    const drawChart = async () => {
      if (!select) return;
      const points = await call('GET', `/api/players/${encodeURIComponent(p.name)}/ratings/${select.value}`).catch(() => []);
      if (!gone) part('[data-chart]').innerHTML = chart(points);
    };
    select?.addEventListener('change', drawChart);
    drawChart();
    // The archive: a page at a time, with its filters.
    const form = /** @type {HTMLFormElement} */ (part('[data-form="archive"]'));
    const list = part('[data-archive]');
    const more = /** @type {HTMLButtonElement} */ (part('[data-more]'));
    /** @type {string | null} */
    let next = null;
    const load = async (/** @type {boolean} */ fresh) => {
      const q = new URLSearchParams();
      new FormData(form).forEach((v, k) => { if (String(v).trim()) q.set(k, String(v).trim()); });
      if (!fresh && next) q.set('before', next);
      q.set('limit', '30');
      try {
        // A page looks at a bounded number of games: with a narrow filter
        // it may hold few, and say where to go on; asked on until 30 come.
        /** @type {any[]} */
        const games = [];
        let page = { games: [], next: null };
        for (let ask = 0; ask < 20; ask++) {
          page = await call('GET', `/api/players/${encodeURIComponent(p.name)}/games?${q}`);
          if (gone) return;
          games.push(...page.games);
          if (!page.next || games.length >= 30) break;
          q.set('before', page.next);
          q.set('limit', String(30 - games.length));
        }
        part('[data-error="archive"]').textContent = '';
        if (fresh) list.replaceChildren();
        list.append(...games.map(gameLine));
        if (fresh && !games.length) list.append(Object.assign(document.createElement('li'), { textContent: t('No game.') }));
        next = page.next;
        more.hidden = !next;
      } catch (e) {
        part('[data-error="archive"]').textContent = /** @type {Error} */ (e).message;
      }
    };
    form.addEventListener('submit', (e) => { e.preventDefault(); load(true); });
    more.addEventListener('click', () => { load(false); });
    load(true);
    const mine = await me();
    if (!gone && mine && mine.name.toLowerCase() === p.name.toLowerCase()) {
      showFollowing(part('[data-follows]'), mine);
      showOwnAccount(part('[data-own]'), mine);
    }
  })();
  return () => { gone = true; };
}
