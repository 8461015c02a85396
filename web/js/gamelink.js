// What the game page asks the server, all through api.js: whether the
// game exists and the seat kept here is its own (then the live socket),
// what a seat does (resign, draw, abort, rematch), and the game's turns
// replayed to look back at. Answers go into the page's store
// (gamestore.js); nothing here draws.

import { call, forget, live, recordOf, remember, rememberSeats, replay, statusOf } from './api.js';
import { moverOf, tokenFor } from './gamestore.js';
import { me } from './account.js';
import { t } from './i18n.js';

/**
 * @typedef {ReturnType<typeof import('./gamestore.js').gameStore>} Store
 */

/**
 * Opens game `id` for `store`: once the game answers (tried again while
 * the server is out of reach), the seat kept here is checked (a refused
 * token is dropped and the game watched), and the live socket opened.
 * @param {Store} store
 * @param {string} id
 * @param {{gone: () => boolean, notice: (text: string) => void}} page
 * @returns {Promise<{close: () => void, send: (message: unknown) => void} | null>}  the socket, or null if the page was left or the game cannot be shown
 */
export async function openGame(store, id, page) {
  for (let wait = 500; ; wait = Math.min(wait * 2, 8000)) {
    try {
      await call('GET', `/api/games/${id}`);
      break;
    } catch (e) {
      if (page.gone()) return null;
      if (statusOf(e) !== 0) {
        store.say(t('This game cannot be shown: {why}', { why: /** @type {Error} */ (e).message }));
        return null;
      }
      store.say(t('connection lost: reconnecting…'));
      await new Promise((r) => { setTimeout(r, wait); });
      if (page.gone()) return null;
    }
  }
  const seat = store.get().seat;
  if (!seat && await me()) {
    // No token here, but the account may hold a seat (on another device).
    const held = await call('GET', `/api/games/${id}/seat`).catch(() => null);
    if (held && !page.gone()) store.hold({ seat: held.seat, token: '' });
  } else if (seat && !seat.tokens) {
    try {
      const held = await call('GET', `/api/games/${id}/seat`, undefined, seat.token);
      if (held.seat !== seat.seat) {
        store.hold({ seat: held.seat, token: seat.token });
        remember({ id, seat: held.seat, token: seat.token, invite: '', url: '' });
      }
    } catch (e) {
      if (statusOf(e) === 401 || statusOf(e) === 403) {
        forget(id);
        store.hold(null);
        page.notice(t('The seat kept in this browser is not in this game: you are watching.'));
      }
    }
  }
  if (page.gone()) return null;
  // Steps go out on this socket, each with its seat's token (gamestore.js).
  const kept = store.get().seat;
  const open = live(id, store.receive, store.fail,
    { lost: t('connection lost: reconnecting…'), notConnected: t('not connected: trying again') },
    kept && !kept.tokens ? kept.token : undefined);
  store.attach(open);
  return open;
}

/**
 * What the seat held here does in game `id`: `resign`, `draw`, `abort`
 * or `rematch` (then the rematch's seats are kept, and its id answered).
 * With both seats here the side to move acts.
 * @param {Store} store
 * @param {string} id
 * @param {string} name
 * @returns {Promise<string>}  the rematch's id ('' for the others)
 */
export async function act(store, id, name) {
  const { seat, state } = store.get();
  if (!seat) return '';
  const both = seat.tokens;
  if (name === 'rematch') {
    const taken = await call('POST', `/api/games/${id}/rematch`, undefined, both ? both.x : seat.token);
    if (both) await rememberSeats(taken.id, seat);
    else remember(taken);
    return taken.id;
  }
  const token = !both ? seat.token : name === 'abort' || !state ? both.x : tokenFor(seat, moverOf(state));
  await call('POST', `/api/games/${id}/${name}`, undefined, token);
  return '';
}

/**
 * Game `id` replayed from its record, step by step.
 * @param {string} id
 * @returns {Promise<import('./history.js').Frame[]>}
 */
export async function framesOf(id) {
  const r = await replay({ record: await recordOf(id) });
  return r.frames;
}
