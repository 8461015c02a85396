// The bell: on every page a signed-in player sees, the number of unread
// notifications (also in the tab's title); a tap opens them, a challenge
// with its answers. One user socket a page (GET /api/me/live) brings each
// notification the moment it is stored, on whichever server it was made;
// it reconnects by itself and misses none (?after=). With the tab hidden
// the browser's own notification says it, once the player allowed it
// (asked on their first correspondence challenge, never at page load).
// A real-time challenge accepted takes its challenger to the game, and a
// tournament's pairing its player.

import { call, socketTo } from './api.js';
import { t } from './i18n.js';
import { showUnread } from './gameparts.js';
import { variantName } from './newgame.js';

/**
 * @typedef {{id: number, kind: string, at: number, read: boolean, unread?: number, [field: string]: any}} Note
 */

/** @type {{name: string, socket: WebSocket | null, last: number, unread: number, retry: number, timer: number, ping: number} | null} */
let bell = null;

/** A tournament's game heard while the page played another: gone to when that one ends. @type {string | null} */
let nextGame = null;

/**
 * The game page's own game has ended (or the page is left, `go` false):
 * a tournament game heard meanwhile is gone to, once.
 * @param {boolean} go
 */
export function toNextGame(go) {
  const game = nextGame;
  nextGame = null;
  if (go && game) location.hash = `#/game/${game}`;
}

const part = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

/** @param {string} text */
const esc = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A decline's reason in the page's words. @type {Record<string, string>} */
const REASONS = {
  generic: '',
  later: 'not now',
  too_fast: 'too fast',
  too_slow: 'too slow',
  casual: 'casual games only',
  rated: 'rated games only',
  variant: 'not this variant',
};

/**
 * What a notification says, as HTML, and where it leads.
 * @param {Note} n
 * @param {string} me
 */
export function noteWords(n, me) {
  const game = n.game ? ` <a href="#/game/${encodeURIComponent(n.game)}" data-note-game>${t('Open the game')}</a>` : '';
  switch (n.kind) {
    case 'challenge':
      return `${t('{name} challenges you', { name: esc(n.from) })}: ${esc(variantName(n.variant))}${n.time_control ? ` · ${esc(n.time_control)}` : ''}${n.rated ? ` · ${t('rated')}` : ''}`;
    case 'challenge_accepted':
      return (n.by === me ? t('You accepted the challenge of {name}', { name: esc(n.from) }) : t('{name} accepted your challenge', { name: esc(n.by) })) + game;
    case 'challenge_declined': {
      const why = REASONS[n.reason] ? ` (${t(REASONS[n.reason])})` : '';
      return `${t('{name} declined your challenge', { name: esc(n.by) })}${why}`;
    }
    case 'your_turn':
      // An anonymous opponent without a chosen name: `null`.
      return t('Your turn against {name}', { name: n.opponent ? esc(n.opponent) : t('a person') }) + game;
    case 'message':
      return `${esc(n.from)}: ${esc(n.text)}${game}`;
    case 'tournament_game':
      return `${t('{tournament}: your game against {name}', { tournament: `<a href="#/tournament/${encodeURIComponent(n.tournament)}">${esc(n.name)}</a>`, name: esc(n.opponent) })}${game}`;
    case 'game_over':
      return `${t('Game over against {name}: {result}', { name: n.opponent ? esc(n.opponent) : t('a person'), result: t(n.result) })}${game}`;
    default:
      return esc(n.kind);
  }
}

/** Shows the count on the bell and in the title. @param {number} n */
function count(n) {
  if (!bell) return;
  bell.unread = n;
  const badge = part('[data-bell-count]');
  badge.textContent = n > 0 ? String(Math.min(n, 99)) : '';
  part('[data-bell]').setAttribute('aria-label', `${t('Notifications')}: ${n}`);
  showUnread(n);
}

/**
 * The bell for the player `name` (from the header, on every page): made
 * once, kept across pages.
 * @param {string} name
 */
export function startBell(name) {
  if (bell && bell.name === name) {
    count(bell.unread);
    return;
  }
  stopBell();
  bell = { name, socket: null, last: -1, unread: 0, retry: 1000, timer: 0, ping: 0 };
  part('[data-bell]').hidden = false;
  connect();
  // Allowed before: this browser's subscription is given again (it may
  // have changed, or been made under another account).
  if ('Notification' in window && Notification.permission === 'granted') subscribePush();
}

/** No one signed in: no bell. */
export function stopBell() {
  if (!bell) return;
  const b = bell;
  bell = null;
  clearTimeout(b.timer);
  clearInterval(b.ping);
  if (b.socket) { b.socket.onclose = null; b.socket.close(); }
  part('[data-bell]').hidden = true;
  part('[data-bell-panel]').hidden = true;
  showUnread(0);
}

function connect() {
  const b = bell;
  if (!b) return;
  const after = b.last >= 0 ? `?after=${b.last}` : '';
  const socket = socketTo(`/api/me/live${after}`);
  b.socket = socket;
  socket.onmessage = (e) => {
    /** @type {any} */
    let m;
    try { m = JSON.parse(e.data); } catch { return; }
    if (bell !== b) return;
    if (m.type === 'hello') {
      b.retry = 1000;
      if (b.last < 0) b.last = m.last;
      count(m.unread);
    } else if (m.type === 'unread') {
      count(m.unread);
    } else if (m.type === 'notification') {
      b.last = Math.max(b.last, m.id);
      count(m.unread);
      heard(/** @type {Note} */ (m), b.name);
    }
  };
  socket.onclose = (e) => {
    clearInterval(b.ping);
    if (bell !== b) return;
    // Logged out elsewhere: no bell until the next page says who is in.
    if (e.code === 4401) { stopBell(); return; }
    b.timer = window.setTimeout(connect, b.retry);
    b.retry = Math.min(b.retry * 2, 30000);
  };
  // The page's ping keeps its player online, and the socket open.
  b.ping = window.setInterval(() => {
    if (socket.readyState === WebSocket.OPEN) socket.send('{"type":"ping"}');
  }, 30000);
}

/**
 * A notification heard: the open panel shows it, a hidden tab's browser
 * says it, the page is told (home refreshes its games), and a real-time
 * challenge accepted takes its challenger to the game.
 * @param {Note} n
 * @param {string} me
 */
function heard(n, me) {
  const panel = part('[data-bell-panel]');
  if (!panel.hidden) openPanel();
  window.dispatchEvent(new CustomEvent('vw:notification', { detail: n }));
  if (n.kind === 'challenge_accepted' && n.real_time && n.by !== me) {
    location.hash = `#/game/${n.game}`;
    return;
  }
  // A tournament paired this player: to the game; a page that plays
  // another game still going on (or still shows its last turn landing)
  // goes there once that game ends (game.js calls toNextGame).
  // (A round robin's games come all at once, to be played in their time.)
  if (n.kind === 'tournament_game' && n.round_robin !== true) {
    if (document.querySelector('[data-playing-now]')) nextGame = n.game;
    else location.hash = `#/game/${n.game}`;
    return;
  }
  if (document.hidden && 'Notification' in window && Notification.permission === 'granted') {
    const text = noteWords(n, me).replace(/<[^>]*>/g, '').replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)));
    const shown = new Notification(t('Virus Wars'), { body: text, tag: `vw-${n.id}` });
    shown.onclick = () => {
      window.focus();
      if (n.game) location.hash = `#/game/${n.game}`;
      shown.close();
    };
  }
}

/**
 * Asks once whether the browser may show notifications: called from a
 * tap that starts a game played over days.
 */
export function askToNotify() {
  if (!('Notification' in window)) return;
  const asked = Notification.permission === 'default' ? Notification.requestPermission() : Promise.resolve(Notification.permission);
  asked.then((p) => { if (p === 'granted') subscribePush(); }).catch(() => {});
}

/**
 * Subscribes this browser to Web Push (its service worker shows a
 * challenge or a turn when no page is open): with the server's key, the
 * subscription sent to the server. A browser without a push service says
 * nothing: the bell still works while a page is open.
 */
export async function subscribePush() {
  try {
    if (!('serviceWorker' in navigator) || !('PushManager' in window)) return;
    const registration = await navigator.serviceWorker.ready;
    let subscription = await registration.pushManager.getSubscription();
    if (!subscription) {
      const { key } = await call('GET', '/api/push/key');
      const raw = Uint8Array.from(atob(key.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
      subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: raw });
    }
    await call('POST', '/api/me/push', subscription.toJSON());
  } catch {
    // No push service (or refused): notifications reach open pages only.
  }
}

/** Opens the panel: the newest notifications, answers to open challenges; all read. */
async function openPanel() {
  const b = bell;
  const panel = part('[data-bell-panel]');
  if (!b) return;
  panel.hidden = false;
  part('[data-bell]').setAttribute('aria-expanded', 'true');
  try {
    const [notes, challenges] = await Promise.all([
      call('GET', '/api/me/notifications?limit=20'),
      call('GET', '/api/me/challenges'),
    ]);
    if (bell !== b) return;
    const open = new Set(challenges.incoming.map((/** @type {{id: string}} */ c) => c.id));
    panel.innerHTML = `<h3>${t('Notifications')}</h3><ul class="notes" data-notes></ul><p class="error" data-error="bell" role="alert"></p>`;
    const list = /** @type {HTMLElement} */ (panel.querySelector('[data-notes]'));
    for (const n of /** @type {Note[]} */ (notes.items)) {
      const li = document.createElement('li');
      li.dataset.note = String(n.id);
      li.dataset.kind = n.kind;
      if (!n.read) li.classList.add('unread');
      li.innerHTML = `<span>${noteWords(n, b.name)}</span>`;
      if (n.kind === 'challenge' && open.has(n.challenge)) li.append(answers(n, li));
      list.append(li);
    }
    if (!notes.items.length) list.innerHTML = `<li>${t('No notifications yet.')}</li>`;
    const newest = notes.items[0];
    if (newest && notes.unread > 0) {
      const read = await call('POST', '/api/me/notifications/read', { up_to: newest.id });
      count(read.unread);
    }
  } catch (e) {
    panel.innerHTML = `<p class="error" data-error="bell" role="alert">${esc(/** @type {Error} */ (e).message)}</p>`;
  }
}

/**
 * Accept, Decline and Not now for an open challenge.
 * @param {Note} n
 * @param {HTMLElement} li
 */
function answers(n, li) {
  const box = document.createElement('span');
  box.className = 'row answers';
  const button = (/** @type {string} */ label, /** @type {string} */ key, /** @type {() => Promise<void>} */ act) => {
    const b = document.createElement('button');
    b.textContent = label;
    b.dataset[key] = n.challenge;
    b.addEventListener('click', async () => {
      box.querySelectorAll('button').forEach((x) => { x.disabled = true; });
      try {
        await act();
        box.remove();
      } catch (e) {
        box.querySelectorAll('button').forEach((x) => { x.disabled = false; });
        li.append(Object.assign(document.createElement('p'), { className: 'error', textContent: /** @type {Error} */ (e).message }));
      }
    });
    return b;
  };
  box.append(
    button(t('Accept'), 'accept', async () => {
      if (/d/.test(n.time_control || '') || !n.time_control) askToNotify();
      const seat = await call('POST', `/api/challenges/${n.challenge}/accept`);
      part('[data-bell-panel]').hidden = true;
      location.hash = `#/game/${seat.id}`;
    }),
    button(t('Decline'), 'decline', async () => { await call('POST', `/api/challenges/${n.challenge}/decline`, { reason: 'generic' }); }),
    button(t('Not now'), 'later', async () => { await call('POST', `/api/challenges/${n.challenge}/decline`, { reason: 'later' }); }),
  );
  return box;
}

/** The bell's button opens and closes its panel. */
function wire() {
  const button = part('[data-bell]');
  button.addEventListener('click', () => {
    const panel = part('[data-bell-panel]');
    if (panel.hidden) openPanel();
    else {
      panel.hidden = true;
      button.setAttribute('aria-expanded', 'false');
    }
  });
}
wire();
