// The home page: play the computer, play a friend, quick play, open games.

import { call, remember, rememberBoth } from './api.js';

/**
 * @param {string} html
 * @returns {HTMLElement}
 */
function fragment(html) {
  const t = document.createElement('template');
  t.innerHTML = html.trim();
  return /** @type {HTMLElement} */ (t.content.firstElementChild);
}

/**
 * The game settings a form holds.
 * @param {HTMLFormElement} form
 */
function settings(form) {
  const data = new FormData(form);
  /** @type {Record<string, unknown>} */
  const s = { variant: data.get('variant') || 'classic' };
  const size = String(data.get('size') || '');
  if (size) s.size = size;
  const base = Number(data.get('base') || 0);
  if (base > 0) s.clock = { base_s: base * 60, inc_s: Number(data.get('inc') || 0) };
  return s;
}

const VARIANTS = ['classic', 'classic-pass', 'paper-tactics', 'gcr', 'iggamecenter', 'feup', 'korobkov'];
const variantSelect = `<select name="variant" aria-label="variant">${VARIANTS.map((v) => `<option>${v}</option>`).join('')}</select>
  <select name="size" aria-label="board size"><option value="">its size</option>${[5, 6, 7, 8, 9, 10, 11, 12, 15, 19].map((n) => `<option>${n}x${n}</option>`).join('')}</select>`;
const clockInputs = `<label>minutes <input name="base" type="number" min="0" max="10080" value="0" style="width:5rem"></label>
  <label>+ seconds <input name="inc" type="number" min="0" max="86400" value="0" style="width:5rem"></label>`;

/** @param {HTMLElement} root */
export function showHome(root) {
  const page = fragment(`<div>
    <section><h2>Play the computer</h2>
      <form data-form="computer">
        <select name="level" aria-label="level">${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<option value="level:${n}" ${n === 3 ? 'selected' : ''}>level ${n}</option>`).join('')}</select>
        <select name="side" aria-label="your side"><option value="x">you are X (first)</option><option value="o">you are O</option><option value="random">random side</option></select>
        ${variantSelect}
        <button>Play</button>
      </form></section>
    <section><h2>Play a friend</h2>
      <form data-form="friend">${variantSelect} ${clockInputs}
        <label><input type="checkbox" name="listed"> list it for anyone</label>
        <button>Create a game</button>
      </form>
      <form data-form="join"><input name="code" placeholder="invite code" aria-label="invite code" required><button>Join</button></form>
    </section>
    <section><h2>Play on this device</h2>
      <form data-form="local">${variantSelect} ${clockInputs}
        <label><input type="checkbox" name="turn"> turn the board for the side to move</label>
        <button>Start</button>
      </form></section>
    <section><h2>Quick play</h2>
      <form data-form="quick">${variantSelect} ${clockInputs}<button>Find an opponent</button></form></section>
    <section><h2>Open games</h2><ul class="games" data-open></ul></section>
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
      act(form).catch((err) => { error.textContent = String(err.message || err); });
    });
  };
  /** @param {import('./api.js').SeatTaken} seat */
  const enter = (seat) => { remember(seat); location.hash = `#/game/${seat.id}`; };
  on('computer', async (f) => {
    const data = new FormData(f);
    enter(await call('POST', '/api/games', { ...settings(f), opponent: data.get('level'), side: data.get('side') }));
  });
  on('friend', async (f) => {
    const listed = new FormData(f).get('listed') === 'on';
    enter(await call('POST', '/api/games', { ...settings(f), listed }));
  });
  on('join', async (f) => {
    const code = String(new FormData(f).get('code') || '').trim();
    enter(await call('POST', `/api/games/${encodeURIComponent(code)}/join`));
  });
  on('quick', async (f) => enter(await call('POST', '/api/quick', settings(f))));
  on('local', async (f) => {
    // Both seats on this device: create, take the other seat, keep both tokens.
    const first = await call('POST', '/api/games', { ...settings(f), side: 'x' });
    const second = await call('POST', `/api/games/${first.id}/join`);
    rememberBoth(first.id, { x: first.token, o: second.token });
    localStorage.setItem('vw-turn-board', new FormData(f).get('turn') === 'on' ? 'yes' : 'no');
    location.hash = `#/game/${first.id}`;
  });
  listOpen(/** @type {HTMLElement} */ (page.querySelector('[data-open]')), enter, error);
}

/**
 * @param {HTMLElement} list
 * @param {(s: import('./api.js').SeatTaken) => void} enter
 * @param {HTMLElement} error
 */
async function listOpen(list, enter, error) {
  try {
    /** @type {{id: string, variant: {preset: string, options: string}, free_seat: string, clock: unknown}[]} */
    const games = await call('GET', '/api/games?limit=20');
    if (!games.length) {
      list.innerHTML = '<li>No game is waiting: create one and list it.</li>';
      return;
    }
    list.replaceChildren(...games.map((g) => {
      const size = (g.variant.options.match(/size=([0-9x]+)/) || [])[1] || '';
      const li = fragment(`<li class="row"><span></span><button>Join as ${g.free_seat.toUpperCase()}</button></li>`);
      /** @type {HTMLElement} */ (li.querySelector('span')).textContent = `${g.variant.preset} ${size}${g.clock ? ', timed' : ''}`;
      /** @type {HTMLElement} */ (li.querySelector('button')).addEventListener('click', () => {
        call('POST', `/api/games/${g.id}/join`).then(enter, (e) => { error.textContent = e.message; });
      });
      return li;
    }));
  } catch (e) {
    list.textContent = `The open games could not be read: ${/** @type {Error} */ (e).message}`;
  }
}
