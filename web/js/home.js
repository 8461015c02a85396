// The home page: play the computer, play a friend, on this device, quick
// play, the open games and the games to watch.

import { call, remember, rememberBoth, seatOf } from './api.js';
import { playerName, t } from './i18n.js';

/**
 * @param {string} html
 * @returns {HTMLElement}
 */
function fragment(html) {
  const tpl = document.createElement('template');
  tpl.innerHTML = html.trim();
  return /** @type {HTMLElement} */ (tpl.content.firstElementChild);
}

/**
 * The game settings a form holds: the variant, its size, steps and other
 * options (`key=value` pairs the server checks), and the clock.
 * @param {HTMLFormElement} form
 */
export function settings(form) {
  const data = new FormData(form);
  /** @type {Record<string, unknown>} */
  const s = { variant: data.get('variant') || 'classic' };
  /** @type {Record<string, string>} */
  const options = {};
  for (const part of String(data.get('options') || '').split(/[,;]/)) {
    if (!part.trim()) continue;
    const eq = part.indexOf('=');
    if (eq < 1) {
      const shown = part.trim();
      throw new Error(t('an option is written key=value, not "{part}"', { part: shown.length > 40 ? `${shown.slice(0, 40)}…` : shown }));
    }
    options[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  const size = String(data.get('size') || '');
  if (size) options.size = size;
  const steps = String(data.get('steps') || '');
  if (steps) options.steps = steps;
  Object.assign(s, options);
  const base = Number(data.get('base') || 0);
  if (base > 0) s.clock = { base_s: base * 60, inc_s: Number(data.get('inc') || 0) };
  return s;
}

const VARIANTS = ['classic', 'classic-pass', 'paper-tactics', 'gcr', 'iggamecenter', 'feup', 'korobkov'];

/** The variant fields every form shares. */
function variantFields() {
  return `<select name="variant" aria-label="${t('variant')}">${VARIANTS.map((v) => `<option>${v}</option>`).join('')}</select>
  <select name="size" aria-label="${t('board size')}"><option value="">${t('its size')}</option>${[5, 6, 7, 8, 9, 10, 11, 12, 15, 19].map((n) => `<option>${n}x${n}</option>`).join('')}</select>
  <details class="more"><summary>${t('more settings')}</summary><div class="row">
  <select name="steps" aria-label="${t('steps per turn')}"><option value="">${t('its steps')}</option>${[1, 2, 3, 4, 5].map((n) => `<option value="${n}">${t('{n} steps a turn', { n })}</option>`).join('')}</select>
  <input name="options" class="options" aria-label="${t('more options, e.g. trenches=10, end=pass')}" placeholder="${t('more options, e.g. trenches=10, end=pass')}">
  </div></details>`;
}

function clockFields() {
  return `<label>${t('minutes')} <input name="base" type="number" min="0" max="10080" value="0" class="short"></label>
  <label>${t('+ seconds')} <input name="inc" type="number" min="0" max="86400" value="0" class="short"></label>`;
}

/** @param {HTMLElement} root */
export function showHome(root) {
  const page = fragment(`<div>
    <p class="intro"><a href="#/rules">${t('How to play')}</a></p>
    <section><h2>${t('Play the computer')}</h2>
      <form data-form="computer">
        <select name="level" aria-label="${t('level')}">${[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `<option value="level:${n}" ${n === 3 ? 'selected' : ''}>${t('level {n}', { n })}</option>`).join('')}</select>
        <select name="side" aria-label="${t('your side')}"><option value="x">${t('you are X (first)')}</option><option value="o">${t('you are O')}</option><option value="random">${t('random side')}</option></select>
        ${variantFields()}
        <label><input type="checkbox" name="listed"> ${t('let others watch')}</label>
        <button>${t('Play')}</button>
      </form></section>
    <section><h2>${t('Play a friend')}</h2>
      <form data-form="friend">${variantFields()} ${clockFields()}
        <label><input type="checkbox" name="listed"> ${t('list it for anyone')}</label>
        <button>${t('Create a game')}</button>
      </form>
      <form data-form="join"><input name="code" placeholder="${t('invite code')}" aria-label="${t('invite code')}" required><button>${t('Join')}</button></form>
    </section>
    <section><h2>${t('Play on this device')}</h2>
      <form data-form="local">${variantFields()} ${clockFields()}
        <label><input type="checkbox" name="turn"> ${t('turn the board for the side to move')}</label>
        <button>${t('Start')}</button>
      </form></section>
    <section><h2>${t('Quick play')}</h2>
      <form data-form="quick">${variantFields()} ${clockFields()}<button>${t('Find an opponent')}</button></form></section>
    <section><h2>${t('Open games')}</h2><ul class="games" data-open></ul></section>
    <section><h2>${t('Games to watch')}</h2><ul class="games" data-watch></ul></section>
    <p class="error" data-error role="alert"></p>
  </div>`);
  root.replaceChildren(page);
  const error = /** @type {HTMLElement} */ (page.querySelector('[data-error]'));
  /** @param {string} name @param {(f: HTMLFormElement) => Promise<void>} act */
  const on = (name, act) => {
    const form = /** @type {HTMLFormElement} */ (page.querySelector(`[data-form="${name}"]`));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      error.textContent = '';
      const button = form.querySelector('button');
      if (button) button.disabled = true;
      act(form)
        .catch((err) => { error.textContent = String(err.message || err); })
        .finally(() => { if (button) button.disabled = false; });
    });
  };
  /** @param {import('./api.js').SeatTaken} seat */
  const enter = (seat) => { remember(seat); location.hash = `#/game/${seat.id}`; };
  on('computer', async (f) => {
    const data = new FormData(f);
    enter(await call('POST', '/api/games', {
      ...settings(f), opponent: data.get('level'), side: data.get('side'), listed: data.get('listed') === 'on',
    }));
  });
  on('friend', async (f) => {
    const listed = new FormData(f).get('listed') === 'on';
    enter(await call('POST', '/api/games', { ...settings(f), listed }));
  });
  on('join', async (f) => {
    // The code, or a whole invite link pasted.
    const text = String(new FormData(f).get('code') || '').trim();
    const code = ((text.match(/#\/join\/([a-z0-9]+)/i) || [])[1] || text).toLowerCase();
    // A game this browser already sits in is opened, not joined again.
    if (seatOf(code)) {
      location.hash = `#/game/${code}`;
      return;
    }
    enter(await call('POST', `/api/games/${encodeURIComponent(code)}/join`));
  });
  on('quick', async (f) => enter(await call('POST', '/api/quick', settings(f))));
  on('local', async (f) => {
    // Both seats on this device: create, take the other seat, keep both tokens.
    const first = await call('POST', '/api/games', { ...settings(f), side: 'x' });
    /** @type {import('./api.js').SeatTaken} */
    let second;
    try {
      second = await call('POST', `/api/games/${first.id}/join`);
    } catch (e) {
      // Half a game is no game: call it off.
      await call('POST', `/api/games/${first.id}/abort`, undefined, first.token).catch(() => {});
      throw e;
    }
    rememberBoth(first.id, { x: first.token, o: second.token });
    localStorage.setItem('vw-turn-board', new FormData(f).get('turn') === 'on' ? 'yes' : 'no');
    location.hash = `#/game/${first.id}`;
  });
  const open = /** @type {HTMLElement} */ (page.querySelector('[data-open]'));
  const watch = /** @type {HTMLElement} */ (page.querySelector('[data-watch]'));
  listOpen(open, enter, error);
  listPlaying(watch);
}

/**
 * A game's variant in a few words.
 * @param {{preset: string, options: string}} v
 */
function describe(v) {
  const size = (v.options.match(/size=([0-9x]+)/) || [])[1] || '';
  return `${v.preset} ${size}`;
}

/**
 * @param {HTMLElement} list
 * @param {(s: import('./api.js').SeatTaken) => void} enter
 * @param {HTMLElement} error
 */
async function listOpen(list, enter, error) {
  try {
    /** @type {{id: string, variant: {preset: string, options: string}, free_seat: string, clock: unknown}[]} */
    const all = await call('GET', '/api/games?limit=20');
    // Games this browser created wait for someone else.
    /** @type {typeof all} */
    const games = all.filter((/** @type {{id: string}} */ g) => !seatOf(g.id));
    if (!games.length) {
      list.innerHTML = `<li>${t('No game is waiting: create one and list it.')}</li>`;
      return;
    }
    list.replaceChildren(...games.map((g) => {
      const li = fragment(`<li class="row"><span></span><button data-join="${g.id}"></button></li>`);
      /** @type {HTMLElement} */ (li.querySelector('span')).textContent = `${describe(g.variant)}${g.clock ? `, ${t('timed')}` : ''}`;
      const b = /** @type {HTMLElement} */ (li.querySelector('button'));
      b.textContent = t('Join as {side}', { side: g.free_seat.toUpperCase() });
      b.addEventListener('click', () => {
        call('POST', `/api/games/${g.id}/join`).then(enter, (e) => { error.textContent = e.message; });
      });
      return li;
    }));
  } catch (e) {
    list.textContent = t('The list could not be read: {why}', { why: /** @type {Error} */ (e).message });
  }
}

/** @param {HTMLElement} list */
async function listPlaying(list) {
  try {
    /** @type {{id: string, variant: {preset: string, options: string}, players: import('./api.js').Seats, seq: number}[]} */
    const games = await call('GET', '/api/watch?limit=20');
    if (!games.length) {
      list.innerHTML = `<li>${t('No listed game is being played now.')}</li>`;
      return;
    }
    list.replaceChildren(...games.map((g) => {
      const li = fragment(`<li class="row"><span></span><a data-watch-game="${g.id}" href="#/game/${g.id}"></a></li>`);
      /** @type {HTMLElement} */ (li.querySelector('span')).textContent =
        `${describe(g.variant)}: ${playerName(g.players.x)} – ${playerName(g.players.o)}, ${t('step {n}', { n: g.seq })}`;
      /** @type {HTMLElement} */ (li.querySelector('a')).textContent = t('Watch');
      return li;
    }));
  } catch (e) {
    list.textContent = t('The list could not be read: {why}', { why: /** @type {Error} */ (e).message });
  }
}
