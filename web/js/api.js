// The server's API, as the browser uses it (docs/api.md). No rule is
// decided here: the server's state says what may be played.

import { refusalText, t } from './i18n.js';
import { chosenName } from './settings.js';
import { forgetSeat, keepSeat, seatKept } from './stored.js';

/**
 * @typedef {{kind: string, level: number | null, name: string | null, account?: boolean}} PlayerInfo
 * @typedef {{reason: string, winner: string | null, text: string}} EndingState
 * @typedef {{x: PlayerInfo, o: PlayerInfo}} Seats
 * @typedef {{x_ms: number, o_ms: number, running: string | null, base_s: number, inc_s: number, days_per_turn: number | null, first_step_ms: number | null}} Clocks
 * @typedef {{id: string, seq: number, version: number, to_move: string | null, status: string, ending: EndingState | null,
 *   legal: string[], board: string[], steps: string[], steps_left: number,
 *   last_turn: string[], previous_turn: string[], abortable: boolean, turns: string[], players: Seats, seats_free: {x: boolean, o: boolean},
 *   clocks: Clocks | null, draws_allowed: boolean, draw_offer: string | null, rated: boolean,
 *   rematch: string | null, variant: {preset: string, options: string, size: string}, fog?: FogState | null}} GameState
 * @typedef {{viewer: string, unknown: number, remembered: string[]}} FogState
 * @typedef {{id: string, seat: string, token: string, url: string, invite: string}} SeatTaken
 */

/** A refused or failed request: `status` is the HTTP status, 0 when the
 * server could not be reached. */
export class RequestError extends Error {
  /** @param {string} message @param {number} status */
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** @param {unknown} e */
export const statusOf = (e) => (e instanceof RequestError ? e.status : 0);

/**
 * One request; the JSON answer, or a RequestError with the server's message.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string} [token]
 * @returns {Promise<any>}
 */
export async function call(method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  let r;
  try {
    r = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new RequestError(t('the server cannot be reached: check the connection'), 0);
  }
  const data = await r.json().catch(() => null);
  if (!r.ok) {
    throw new RequestError(data && data.error ? refusalText(data.error) : `${r.status} ${r.statusText}`, r.status);
  }
  return data;
}

/**
 * A game's record, the text of its `.vwr`; or a RequestError.
 * @param {string} id
 * @returns {Promise<string>}
 */
export async function recordOf(id) {
  let r;
  try {
    r = await fetch(`/api/games/${id}/record`);
  } catch {
    throw new RequestError(t('the server cannot be reached: check the connection'), 0);
  }
  if (!r.ok) {
    const data = await r.json().catch(() => null);
    throw new RequestError(data && data.error ? refusalText(data.error) : `${r.status} ${r.statusText}`, r.status);
  }
  return r.text();
}

/**
 * `POST /api/replay` whole: a long game's frames come in several answers,
 * each naming where the next starts (`next`); they are asked for in turn
 * and joined.
 * @param {Record<string, unknown>} request
 * @returns {Promise<any>}
 */
export async function replay(request) {
  const first = await call('POST', '/api/replay', request);
  let next = first.next;
  while (next !== null && next !== undefined) {
    const more = await call('POST', '/api/replay', { ...request, from: next });
    first.frames.push(...more.frames);
    next = more.next;
  }
  first.next = null;
  return first;
}

/**
 * A request that takes a seat, with the name this player chose, if any.
 * @param {object} [body]
 */
export function named(body) {
  const name = chosenName();
  return name ? { ...body, name } : body;
}

/**
 * The seat this browser holds in a game, if any. Pass-and-play holds both:
 * `seat` is `both` and `tokens` has each side's.
 * @typedef {{seat: string, token: string, tokens?: {x: string, o: string}}} Held
 * @param {string} id
 * @returns {Held | null}
 */
export function seatOf(id) {
  try {
    const v = /** @type {any} */ (seatKept(id));
    if (!v || typeof v.token !== 'string' || !v.token) return null;
    if (v.seat === 'x' || v.seat === 'o') return { seat: v.seat, token: v.token };
    const both = v.tokens;
    if (v.seat === 'both' && both && typeof both.x === 'string' && typeof both.o === 'string' && both.x && both.o) {
      return { seat: 'both', token: both.x, tokens: { x: both.x, o: both.o } };
    }
    return null;
  } catch {
    return null;
  }
}

/** @param {string} id */
export function forget(id) {
  forgetSeat(id);
}

/** A message for the next page shown (a refused link, a failed join). */
let notice = '';

/** @param {string} text */
export function setNotice(text) {
  notice = text;
}

/** The message left for this page, once. */
export function takeNotice() {
  const text = notice;
  notice = '';
  return text;
}

/** @param {SeatTaken} s */
export function remember(s) {
  keepSeat(s.id, { seat: s.seat, token: s.token });
}

/**
 * Pass-and-play: this device holds both seats.
 * @param {string} id
 * @param {{x: string, o: string}} tokens
 */
export function rememberBoth(id, tokens) {
  keepSeat(id, { seat: 'both', token: tokens.x, tokens });
}

/**
 * Keeps the seats this device's tokens hold in game `id` as the server
 * says (a rematch's colours are the server's to choose, never worked out
 * here).
 * @param {string} id
 * @param {{token: string, tokens?: {x: string, o: string}}} held  the token, or both of pass-and-play
 */
export async function rememberSeats(id, held) {
  /** @param {string} token */
  const holds = async (token) => /** @type {{seat: string}} */ (await call('GET', `/api/games/${id}/seat`, undefined, token)).seat;
  if (held.tokens) {
    const { x, o } = held.tokens;
    rememberBoth(id, await holds(x) === 'x' ? { x, o } : { x: o, o: x });
  } else {
    remember({ id, seat: await holds(held.token), token: held.token, invite: '', url: '' });
  }
}

/**
 * A WebSocket to the server's `path` (`/api/…`): wss where the page came
 * over https. Every socket the page opens is opened here.
 * @param {string} path
 * @returns {WebSocket}
 */
export function socketTo(path) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return new WebSocket(`${scheme}://${location.host}${path}`);
}

/**
 * The game live: `onState` hears every state; reconnects by itself after
 * a drop (saying so through `onError`) until closed.
 * (Steps go out on it with their own seat token: gamestore.js.) With
 * `token` (the one seat this browser holds) the socket names its seat
 * once open, so that a fog game shows that seat's view (docs/api.md).
 * @param {string} id
 * @param {(s: GameState) => void} onState
 * @param {(message: string) => void} onError
 * @param {{lost: string, notConnected: string}} words  the messages, in the page's language
 * @param {string} [token]
 */
export function live(id, onState, onError, words, token) {
  /** @type {WebSocket | null} */
  let ws = null;
  let closed = false;
  let wait = 500;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const open = () => {
    if (closed) return;
    const socket = socketTo(`/api/games/${id}/live`);
    ws = socket;
    socket.onopen = () => {
      wait = 500;
      if (token) socket.send(JSON.stringify({ type: 'seat', token }));
    };
    // Until the seat is named, a fog game's state is the watchers' view:
    // not shown to a seat holder (its own view follows at once), unless
    // the server refused the seat.
    let refused = false;
    socket.onmessage = (e) => {
      if (closed || ws !== socket) return;
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      if (m.type === 'state') {
        if (token && !refused && m.fog && m.fog.viewer === 'watchers') return;
        onState(m);
      } else if (m.type === 'chat') {
        // The page's chat (chat.js) shows it.
        window.dispatchEvent(new CustomEvent('vw:chat', { detail: { ...m, game: id } }));
      } else if (m.type === 'error') {
        if (m.error?.code === 'wrong_token') refused = true;
        onError(refusalText(m.error));
      }
    };
    socket.onclose = (e) => {
      if (closed || ws !== socket) return;
      onError(words.lost);
      // A server restarting (1012) is back at once, or another process
      // answers: connect again soon, spread over half a second so that a
      // restart's sockets do not all come back at the same moment.
      const restart = e.code === 1012;
      timer = setTimeout(open, restart ? 100 + Math.random() * 500 : wait);
      if (!restart) wait = Math.min(wait * 2, 8000);
    };
  };
  open();
  return {
    /** @param {unknown} message */
    send(message) {
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
      else onError(words.notConnected);
    },
    close() {
      closed = true;
      clearTimeout(timer);
      if (ws) ws.close();
      ws = null;
    },
  };
}
