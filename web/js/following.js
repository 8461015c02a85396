// The players you follow, on your own page: each with whether they are
// online and a game of theirs to watch, a page at a time; and whether you
// are ever shown online yourself.

import { call } from './api.js';
import { t } from './i18n.js';

/** The green dot before a player who is online (black in e-ink). */
export function onlineDot() {
  const dot = document.createElement('span');
  dot.className = 'online-dot';
  dot.dataset.online = '';
  dot.title = t('online');
  dot.setAttribute('aria-label', t('online'));
  return dot;
}

/**
 * @typedef {{name: string, kind: string, online: boolean, deleted: boolean, playing: string | null}} Followed
 */

/** Who may challenge you, in the page's words. @type {Record<string, string>} */
const CHALLENGERS = { everyone: 'everyone', following: 'players I follow', nobody: 'nobody' };

/**
 * @param {HTMLElement} box
 * @param {import('./account.js').Me} mine
 */
export function showFollowing(box, mine) {
  box.innerHTML = `<section class="following"><h3>${t('Players you follow')}</h3>
    <ul class="games" data-following></ul><button data-following-more hidden>${t('More')}</button>
    <label><input type="checkbox" data-account="hide-online" ${mine.hide_online ? 'checked' : ''}> ${t('never show me online')}</label>
    <label class="field">${t('who may challenge me')} <select data-account="challenges">${['everyone', 'following', 'nobody'].map((v) => `<option value="${v}" ${mine.challenges === v ? 'selected' : ''}>${t(CHALLENGERS[v])}</option>`).join('')}</select></label>
    <p class="error" data-error="following" role="alert"></p></section>`;
  const list = /** @type {HTMLElement} */ (box.querySelector('[data-following]'));
  const more = /** @type {HTMLButtonElement} */ (box.querySelector('[data-following-more]'));
  const error = /** @type {HTMLElement} */ (box.querySelector('[data-error="following"]'));
  /** @type {string | null} */
  let next = null;
  /** @param {Followed} f */
  const line = (f) => {
    const li = document.createElement('li');
    li.dataset.followed = f.name;
    if (f.online) li.append(onlineDot());
    const link = document.createElement('a');
    link.href = `#/@/${encodeURIComponent(f.name)}`;
    link.textContent = f.kind === 'bot' ? `${f.name} (BOT)` : f.name;
    li.append(link);
    if (f.deleted) li.append(` · ${t('This account was deleted.')}`);
    if (f.playing) {
      const watch = document.createElement('a');
      watch.href = `#/game/${encodeURIComponent(f.playing)}`;
      watch.dataset.watch = f.playing;
      watch.textContent = t('watch their game');
      li.append(' · ', watch);
    }
    return li;
  };
  const load = async (/** @type {boolean} */ fresh) => {
    const q = new URLSearchParams({ limit: '50' });
    if (!fresh && next) q.set('after', next);
    try {
      const page = await call('GET', `/api/me/following?${q}`);
      if (fresh) list.replaceChildren();
      list.append(...page.players.map(line));
      if (fresh && !page.players.length) list.append(Object.assign(document.createElement('li'), { textContent: t('You follow nobody yet: follow a player from their page.') }));
      next = page.next;
      more.hidden = !next;
      error.textContent = '';
    } catch (e) {
      error.textContent = /** @type {Error} */ (e).message;
    }
  };
  more.addEventListener('click', () => { load(false); });
  const hide = /** @type {HTMLInputElement} */ (box.querySelector('[data-account="hide-online"]'));
  hide.addEventListener('change', async () => {
    try {
      await call('PATCH', '/api/me', { hide_online: hide.checked });
      error.textContent = '';
    } catch (e) {
      error.textContent = /** @type {Error} */ (e).message;
    }
  });
  const from = /** @type {HTMLSelectElement} */ (box.querySelector('[data-account="challenges"]'));
  from.addEventListener('change', async () => {
    try {
      await call('PATCH', '/api/me', { challenges: from.value });
      error.textContent = '';
    } catch (e) {
      error.textContent = /** @type {Error} */ (e).message;
    }
  });
  load(true);
}
