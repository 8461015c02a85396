// The home page: what the game is in one sentence and a picture, two big
// one-tap actions (the computer, a friend) with their settings in a
// dialog, quick play tiles, an invite code, play on this device, and the
// open games and games to watch. A refusal shows next to what caused it.

import { call, named, remember, rememberBoth, seatOf } from './api.js';
import { drawBoard } from './board.js';
import { markSearching } from './searching.js';
import { playerName, t } from './i18n.js';
import { me } from './account.js';
import { gameLine } from './player.js';
import { showWaiting } from './gameparts.js';
import { showNextTournament } from './tournaments.js';
import { onlineDot } from './following.js';
import { keepSetting } from './stored.js';
import {
  TILES, describeLevel, describeVariant, formHtml, wireClockTiles, keep, remembered, request, settings, summary, tileClock, tileRequest, valuesOf, variantName,
} from './newgame.js';

/**
 * @param {string} html
 * @returns {HTMLElement}
 */
function fragment(html) {
  const tpl = document.createElement('template');
  tpl.innerHTML = html.trim();
  return /** @type {HTMLElement} */ (tpl.content.firstElementChild);
}

/** A small game in progress, to show what the game looks like. */
const PICTURE = ['....OO', '...xOO', '..XXo.', '.XX...', 'XX....', 'X.....'];

/**
 * Goes to the game whose seat this browser just took.
 * @param {import('./api.js').SeatTaken} seat
 */
function enter(seat) {
  remember(seat);
  location.hash = `#/game/${seat.id}`;
}

/**
 * Starts a game of `kind` with `v`.
 * @param {import('./newgame.js').Kind} kind
 * @param {import('./newgame.js').Values} v
 */
async function start(kind, v) {
  const body = request(kind, v);
  if (kind !== 'local') {
    enter(await call('POST', '/api/games', named(body)));
    return;
  }
  // Both seats on this device: create, take the other seat, keep both tokens.
  const first = await call('POST', '/api/games', body);
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
  keepSetting('turn-board', v.turn === 'on' ? 'yes' : 'no');
  location.hash = `#/game/${first.id}`;
}

/**
 * The home page, its lists empty; `wide`: a screen wide enough to show
 * the lists open.
 * @param {boolean} wide
 * @returns {HTMLElement}
 */
function homePage(wide) {
  const action = (/** @type {import('./newgame.js').Kind} */ kind, /** @type {string} */ label) => `
    <div class="action" data-action="${kind}">
      <div class="row"><button class="big" data-start="${kind}">${label}</button>
        <button class="gear" data-settings="${kind}" aria-label="${t('Settings')}: ${label}" title="${t('Settings')}">⚙</button></div>
      <p class="hint" data-hint></p>
      <p class="error" data-error role="alert"></p>
    </div>`;
  return fragment(`<div class="home">
    <section class="hero">
      <div class="board picture" data-picture aria-hidden="true"></div>
      <div><h1>${t('Virus Wars')}</h1>
        <p>${t('A game for two from squared paper: spread your viruses a few cells a turn, kill the other side\'s, and leave it no step.')}</p></div>
    </section>
    <section class="mine" data-mine hidden><h2>${t('My games')}</h2><ul class="games" data-my-games></ul></section>
    <section class="next-tournament" data-next-tournament hidden></section>
    <section class="actions">
      ${action('computer', t('Play the computer'))}
      ${action('friend', t('Play a friend'))}
    </section>
    <section><h2>${t('Quick play')}</h2>
      <label data-rated-quick hidden><input type="checkbox" name="rated-quick"> ${t('rated (with players who are logged in)')}</label>
      <label><input type="checkbox" name="fog-quick"> ${t('in fog of war (each side sees only near its own viruses)')}</label>
      <div class="tiles">${TILES.map((tile, k) => `<button class="tile" data-tile="${k}">
        <strong>${variantName(tile.variant)}</strong><span>${tileClock(tile)}</span></button>`).join('')}</div>
      <p class="error" data-error="quick" role="alert"></p>
    </section>
    <section>
      <form data-form="join" class="row"><input name="code" placeholder="${t('invite code, then Enter')}" aria-label="${t('invite code, then Enter')}" enterkeyhint="go" required></form>
      <p class="error" data-error="join" role="alert"></p>
      <p class="row"><a href="#/" data-settings="local">${t('Play on this device')}</a> · <a href="#/leaderboard">${t('Top players')}</a></p>
    </section>
    <details class="lists" ${wide ? 'open' : ''}><summary>${t('Open games')}</summary><ul class="games" data-open></ul></details>
    <details class="lists" ${wide ? 'open' : ''}><summary>${t('Games to watch')}</summary><ul class="games" data-watch></ul></details>
    <details class="lists" data-followed-box hidden open><summary>${t('Games of players you follow')}</summary><ul class="games" data-followed-games></ul></details>
    <details class="lists" data-online-box hidden ${wide ? 'open' : ''}><summary data-online-count></summary><ul class="online-names" data-online-names></ul></details>
    <dialog data-dialog></dialog>
  </div>`);
}

/**
 * Shows the home page in `root`.
 * @param {HTMLElement} root
 */
export function showHome(root) {
  const page = homePage(window.matchMedia('(min-width: 48rem)').matches);
  root.replaceChildren(page);
  drawBoard(/** @type {HTMLElement} */ (page.querySelector('[data-picture]')), { board: PICTURE, legal: [], last_turn: [] }, () => {});
  /** @param {string} sel */
  const one = (sel) => /** @type {HTMLElement} */ (page.querySelector(sel));

  /**
   * Runs `act` for a control, its error shown in `error` next to it.
   * @param {HTMLButtonElement | null} button
   * @param {HTMLElement} error
   * @param {() => Promise<void>} act
   */
  const run = (button, error, act) => {
    error.textContent = '';
    if (button) button.disabled = true;
    return act()
      .catch((err) => {
        error.textContent = String(err.message || err);
        error.scrollIntoView({ block: 'nearest' });
      })
      .finally(() => { if (button) button.disabled = false; });
  };

  for (const kind of /** @type {import('./newgame.js').Kind[]} */ (['computer', 'friend'])) {
    const card = one(`[data-action="${kind}"]`);
    const hint = /** @type {HTMLElement} */ (card.querySelector('[data-hint]'));
    hint.textContent = summary(kind, remembered(kind));
    const button = /** @type {HTMLButtonElement} */ (card.querySelector('[data-start]'));
    button.addEventListener('click', () => {
      run(button, /** @type {HTMLElement} */ (card.querySelector('[data-error]')), () => start(kind, remembered(kind)));
    });
  }

  // The settings of a kind of game, in a dialog: kept for the next one-tap start.
  const dialog = /** @type {HTMLDialogElement} */ (one('[data-dialog]'));
  page.querySelectorAll('[data-settings]').forEach((b) => b.addEventListener('click', (e) => {
    e.preventDefault();
    const kind = /** @type {import('./newgame.js').Kind} */ (/** @type {HTMLElement} */ (b).dataset.settings);
    dialog.innerHTML = formHtml(kind, remembered(kind));
    const form = /** @type {HTMLFormElement} */ (dialog.querySelector('form'));
    describeVariant(form);
    wireClockTiles(form);
    describeLevel(form);
    /** @type {HTMLElement} */ (form.querySelector('[data-close]')).addEventListener('click', () => { dialog.close(); });
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const v = valuesOf(form);
      run(form.querySelector('button'), /** @type {HTMLElement} */ (form.querySelector('[data-error]')), async () => {
        settings(v);
        keep(kind, v);
        await start(kind, v);
      });
    });
    dialog.showModal();
  }));

  page.querySelectorAll('[data-tile]').forEach((b) => b.addEventListener('click', () => {
    const tile = TILES[Number(/** @type {HTMLElement} */ (b).dataset.tile)];
    run(/** @type {HTMLButtonElement} */ (b), one('[data-error="quick"]'), async () => {
      const rated = /** @type {HTMLInputElement} */ (one('[name="rated-quick"]')).checked;
      const fog = /** @type {HTMLInputElement} */ (one('[name="fog-quick"]')).checked;
      const seat = await call('POST', '/api/quick', named({ ...tileRequest(tile), ...(rated ? { rated: true } : {}), ...(fog ? { fog: true } : {}) }));
      markSearching(seat.id);
      enter(seat);
    });
  }));

  const join = /** @type {HTMLFormElement} */ (one('[data-form="join"]'));
  join.addEventListener('submit', (e) => {
    e.preventDefault();
    run(join.querySelector('button'), one('[data-error="join"]'), async () => {
      // The code, or a whole invite link pasted.
      const text = String(new FormData(join).get('code') || '').trim();
      const code = ((text.match(/#\/join\/([a-z0-9]+)/i) || [])[1] || text).toLowerCase();
      // A game this browser already sits in is opened, not joined again.
      if (seatOf(code)) {
        location.hash = `#/game/${code}`;
        return;
      }
      enter(await call('POST', `/api/games/${encodeURIComponent(code)}/join`, named()));
    });
  });
  listOpen(one('[data-open]'), enter, one('[data-error="join"]'));
  listPlaying(one('[data-watch]'));
  listOnline(page);
  showNextTournament(one('[data-next-tournament]'));
  listMine(page);
}

/**
 * Who is online (`GET /api/online`): how many, and the names of those who
 * let it show, each with its dot and a link to its page; asked again every
 * minute while the page is open.
 * @param {HTMLElement} page
 */
async function listOnline(page) {
  const box = /** @type {HTMLElement} */ (page.querySelector('[data-online-box]'));
  const show = async () => {
    if (!page.isConnected) {
      clearInterval(timer);
      return;
    }
    /** @type {{count: number, names: string[]}} */
    const online = await call('GET', '/api/online').catch(() => ({ count: 0, names: [] }));
    if (!page.isConnected) return;
    box.hidden = online.count === 0;
    /** @type {HTMLElement} */ (box.querySelector('[data-online-count]')).textContent = t('Online now: {n}', { n: online.count });
    /** @type {HTMLElement} */ (box.querySelector('[data-online-names]')).replaceChildren(...online.names.map((name) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = `#/@/${encodeURIComponent(name)}`;
      a.append(onlineDot(), name);
      li.append(a);
      return li;
    }));
  };
  const timer = window.setInterval(() => { if (!document.hidden) show(); }, 60_000);
  await show();
}

/**
 * A logged-in player's games in progress, those waiting for their move
 * first; the tab's title and icon say how many wait.
 * @param {HTMLElement} page
 */
async function listMine(page) {
  const who = await me();
  if (!who) return;
  /** @type {HTMLElement} */ (page.querySelector('[data-rated-quick]')).hidden = false;
  listFollowed(page);
  await myGames(page);
  // Listed again when a notification says a game moved (a turn passed, a
  // game over, a challenge accepted), and every 20 s for real-time games,
  // which raise none: "Their move" turns to "Your move" without a reload.
  const again = (/** @type {Event} */ e) => {
    if (!page.isConnected) {
      window.removeEventListener('vw:notification', again);
      clearInterval(timer);
      return;
    }
    const kind = e instanceof CustomEvent ? e.detail.kind : 'tick';
    if (['your_turn', 'game_over', 'challenge_accepted', 'tick'].includes(kind)) myGames(page);
  };
  window.addEventListener('vw:notification', again);
  const timer = window.setInterval(() => { if (!document.hidden) again(new Event('tick')); }, 20000);
}

/**
 * The player's games in progress, listed (again).
 * @param {HTMLElement} page
 */
async function myGames(page) {
  const mine = await call('GET', '/api/me/games').catch(() => null);
  if (!mine || !page.isConnected) return;
  showWaiting(mine.your_turn);
  const box = /** @type {HTMLElement} */ (page.querySelector('[data-mine]'));
  box.hidden = !mine.games.length;
  if (!mine.games.length) return;
  /** @type {HTMLElement} */ (box.querySelector('[data-my-games]')).replaceChildren(...mine.games.map((/** @type {any} */ g) => {
    const li = gameLine(g);
    if (g.your_turn) {
      li.dataset.yourTurn = '';
      li.querySelector('strong')?.replaceChildren(t('Your move'));
    } else {
      li.querySelector('strong')?.replaceChildren(t('Their move'));
    }
    return li;
  }));
}

/**
 * A game's variant in a few words.
 * @param {{preset: string, options: string, size: string}} v
 */
function describe(v) {
  return `${variantName(v.preset)} ${v.size.replace('x', '×')}`;
}

/**
 * @param {HTMLElement} list
 * @param {(s: import('./api.js').SeatTaken) => void} enter
 * @param {HTMLElement} error
 */
async function listOpen(list, enter, error) {
  try {
    /** @type {{id: string, variant: {preset: string, options: string, size: string}, free_seat: string, clock: unknown, waiting: import('./api.js').PlayerInfo}[]} */
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
      /** @type {HTMLElement} */ (li.querySelector('span')).textContent = `${g.waiting.name ? `${g.waiting.name}: ` : ''}${describe(g.variant)}${g.clock ? `, ${t('timed')}` : ''}`;
      const b = /** @type {HTMLElement} */ (li.querySelector('button'));
      b.textContent = t('Join as {side}', { side: g.free_seat.toUpperCase() });
      b.addEventListener('click', () => {
        call('POST', `/api/games/${g.id}/join`, named()).then(enter, (e) => { error.textContent = e.message; });
      });
      return li;
    }));
  } catch (e) {
    list.textContent = t('The list could not be read: {why}', { why: /** @type {Error} */ (e).message });
  }
}

/**
 * A game to watch: its variant, its players and its step, and Watch.
 * @param {{id: string, variant: {preset: string, options: string, size: string}, players: import('./api.js').Seats, seq: number}} g
 */
function watchLine(g) {
  const li = fragment(`<li class="row"><span></span><a data-watch-game="${encodeURIComponent(g.id)}" href="#/game/${encodeURIComponent(g.id)}"></a></li>`);
  /** @type {HTMLElement} */ (li.querySelector('span')).textContent =
    `${describe(g.variant)}: ${playerName(g.players.x)} – ${playerName(g.players.o)}, ${t('step {n}', { n: g.seq })}`;
  /** @type {HTMLElement} */ (li.querySelector('a')).textContent = t('Watch');
  return li;
}

/**
 * Logged in: the games in progress of players you follow, where there
 * are any.
 * @param {HTMLElement} page
 */
async function listFollowed(page) {
  const games = await call('GET', '/api/me/followed-games').catch(() => []);
  if (!games.length || !page.isConnected) return;
  const box = /** @type {HTMLElement} */ (page.querySelector('[data-followed-box]'));
  /** @type {HTMLElement} */ (box.querySelector('[data-followed-games]')).replaceChildren(...games.map(watchLine));
  box.hidden = false;
}

/** @param {HTMLElement} list */
async function listPlaying(list) {
  try {
    /** @type {{id: string, variant: {preset: string, options: string, size: string}, players: import('./api.js').Seats, seq: number}[]} */
    const games = await call('GET', '/api/watch?limit=20');
    if (!games.length) {
      list.innerHTML = `<li>${t('No listed game is being played now.')}</li>`;
      return;
    }
    list.replaceChildren(...games.map(watchLine));
  } catch (e) {
    list.textContent = t('The list could not be read: {why}', { why: /** @type {Error} */ (e).message });
  }
}
