// A game's chat on its page: the lines of the rooms this viewer may read
// (the players' room for the two seats; the watchers' room for the rest,
// and for the players once the game is over), as the server sends them on
// the game's socket; a line written goes out on that socket. The server
// decides who reads what: the page shows what it is sent.

import { call } from './api.js';
import { me } from './account.js';
import { t } from './i18n.js';

/** Longest line, in characters (the server's bound). */
const MAX = 140;

/**
 * @param {HTMLElement} box
 * @param {string} id  the game
 * @param {{send: (m: unknown) => void}} socket  the game's socket
 * @param {() => import('./gamestore.js').Snapshot} get  the store's snapshot
 */
export async function showChat(box, id, socket, get) {
  const who = await me();
  box.innerHTML = `<h2 class="moves-title">${t('Chat')}</h2><ul class="chat-lines" data-chat-lines aria-live="polite"></ul>`;
  const list = /** @type {HTMLElement} */ (box.querySelector('[data-chat-lines]'));
  /** @param {{room: string, from: string, text: string}} line */
  const add = (line) => {
    const li = document.createElement('li');
    li.dataset.room = line.room;
    // Each in its own direction: a line's text cannot turn the name's.
    const from = document.createElement('strong');
    from.append(Object.assign(document.createElement('bdi'), { textContent: line.from }));
    li.append(from, ' ', Object.assign(document.createElement('bdi'), { textContent: line.text }));
    list.append(li);
    while (list.children.length > 200) list.firstElementChild?.remove();
    list.scrollTop = list.scrollHeight;
  };
  const { seat } = get();
  const token = seat && !seat.tokens && seat.token ? seat.token : undefined;
  // The seat's room, or the watchers' (an account may hold a seat that
  // this browser keeps no token for: the players' room answers then).
  let room = seat ? 'players' : 'watchers';
  let lines = await call('GET', `/api/games/${id}/chat?room=${room}`, undefined, token).catch(() => null);
  if (!lines && room === 'watchers' && who) {
    room = 'players';
    lines = await call('GET', `/api/games/${id}/chat?room=players`).catch(() => null);
    if (!lines) room = 'watchers';
  }
  (lines || []).forEach(add);
  const heard = (/** @type {Event} */ e) => {
    if (!box.isConnected) { window.removeEventListener('vw:chat', heard); return; }
    const m = /** @type {CustomEvent} */ (e).detail;
    if (m.game === id) add(m);
  };
  window.addEventListener('vw:chat', heard);
  if (!who) {
    box.append(Object.assign(document.createElement('p'), { className: 'hint', innerHTML: `<a href="#/login">${t('Log in to chat.')}</a>` }));
    return;
  }
  const form = document.createElement('form');
  form.className = 'row chat-form';
  form.innerHTML = `<input data-chat-text maxlength="${MAX}" autocomplete="off" aria-label="${t(room === 'players' ? 'Write to your opponent' : 'Write to the watchers')}" placeholder="${t(room === 'players' ? 'Write to your opponent' : 'Write to the watchers')}">
    <button data-chat-send>${t('Send')}</button>`;
  box.append(form);
  const input = /** @type {HTMLInputElement} */ (form.querySelector('[data-chat-text]'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    socket.send({ type: 'chat', room, text });
    input.value = '';
  });
}
