// The game page: the board, the status, clocks, the move list, and what
// a seat may do (steps, resign, draw, rematch). Every change comes from
// the server's live socket; a refused tap shows the server's reason.

import { call, live, remember, rememberBoth, seatOf } from './api.js';
import { drawBoard } from './board.js';

/**
 * @param {number} ms
 */
function clock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/**
 * Shows game `id` in `root`; returns what leaving the page does.
 * @param {HTMLElement} root
 * @param {string} id
 * @returns {() => void}
 */
export function showGame(root, id) {
  root.innerHTML = `<div class="game">
    <div class="board" data-board></div>
    <div>
      <p class="status" data-status aria-live="polite"></p>
      <p data-seat></p>
      <p data-clocks></p>
      <p class="error" data-error role="alert"></p>
      <div class="row" data-actions>
        <button data-act="resign">Resign</button>
        <button data-act="draw">Offer a draw</button>
        <button data-act="rematch">Rematch</button>
        <button data-act="invite">Copy invite link</button>
        <a data-record href="/api/games/${id}/record">Download the record</a>
      </div>
      <ol class="moves" data-moves></ol>
    </div>
  </div>`;
  /** @param {string} name */
  const part = (name) => /** @type {HTMLElement} */ (root.querySelector(`[data-${name}]`));
  const seat = seatOf(id);
  const error = part('error');
  /** @type {import('./api.js').GameState | null} */
  let state = null;
  const socket = live(id, seat ? seat.token : undefined, (s) => {
    state = s;
    error.textContent = '';
    render(s);
  }, (message) => { error.textContent = message; });

  /** @param {import('./api.js').GameState} s */
  function render(s) {
    const mover = s.status.endsWith(' to move') ? s.status[0].toLowerCase() : '';
    const both = Boolean(seat && seat.tokens);
    const mine = Boolean(seat) && (both ? mover !== '' : mover === seat?.seat);
    // Pass-and-play may turn the board so that the side to move sits below.
    const turned = both && mover === 'o' && localStorage.getItem('vw-turn-board') === 'yes';
    part('board').classList.toggle('turned', turned);
    drawBoard(part('board'), { ...s, legal: mine ? s.legal : [] }, (cell) => {
      if (!state) return;
      if (!mine) {
        error.textContent = seat ? 'it is not your turn' : 'you are watching this game';
        return;
      }
      if (seat && seat.tokens) {
        // Both seats here: the mover's token plays.
        const token = mover === 'x' ? seat.tokens.x : seat.tokens.o;
        call('POST', `/api/games/${id}/steps`, { seq: state.seq, steps: [cell] }, token)
          .catch((e) => { error.textContent = e.message; });
      } else {
        socket.send({ type: 'steps', seq: state.seq, steps: [cell] });
      }
    });
    const status = part('status');
    status.textContent = s.status;
    status.dataset.status = s.status;
    const ending = s.ending ? ` (${s.ending})` : '';
    const left = s.status.endsWith('to move') ? `, ${s.steps_left} step(s) left` : ending;
    status.setAttribute('aria-label', `${s.status}${left}`);
    part('seat').textContent = both
      ? `Both seats on this device${mover ? `: ${mover.toUpperCase()} has ${s.steps_left} step(s) left` : ''}.`
      : seat
      ? `You play ${seat.seat.toUpperCase()}${mine ? `: ${s.steps_left} step(s) left in your turn` : ''}.`
      : `X: ${s.players.x}, O: ${s.players.o}. You are watching.`;
    part('clocks').textContent = s.clocks
      ? `X ${clock(s.clocks.x_ms)}   O ${clock(s.clocks.o_ms)}`
      : '';
    const moves = part('moves');
    moves.replaceChildren(...turns(s).map((t) => {
      const li = document.createElement('li');
      li.textContent = t;
      return li;
    }));
    const over = !s.status.endsWith('to move');
    const show = (/** @type {string} */ act, /** @type {boolean} */ on) => {
      /** @type {HTMLElement} */ (root.querySelector(`[data-act="${act}"]`)).hidden = !on;
    };
    show('resign', Boolean(seat) && !over);
    show('draw', Boolean(seat) && !over && s.draws_allowed);
    show('rematch', Boolean(seat) && over);
    show('invite', s.seats_free.x || s.seats_free.o);
    const draw = /** @type {HTMLElement} */ (root.querySelector('[data-act="draw"]'));
    draw.textContent = seat && s.draw_offer && s.draw_offer !== seat.seat ? 'Accept the draw' : 'Offer a draw';
    if (s.rematch && seat) {
      error.textContent = '';
      const a = document.createElement('a');
      a.href = `#/game/${s.rematch}`;
      a.textContent = 'A rematch is waiting: play it';
      a.addEventListener('click', () => {
        const next = /** @type {string} */ (s.rematch);
        if (seat.tokens) rememberBoth(next, { x: seat.tokens.o, o: seat.tokens.x });
        else remember({ id: next, seat: seat.seat === 'x' ? 'o' : 'x', token: seat.token, invite: '', url: '' });
      });
      error.replaceChildren(a);
    }
  }

  /** @param {string} act */
  const act = async (act) => {
    if (!seat) return;
    if (seat.tokens && state) {
      // Pass-and-play: the side to move resigns or offers; a rematch keeps both seats.
      const mover = state.status[0].toLowerCase();
      const token = mover === 'o' ? seat.tokens.o : seat.tokens.x;
      if (act === 'rematch') {
        const taken = await call('POST', `/api/games/${id}/rematch`, undefined, seat.tokens.x);
        rememberBoth(taken.id, { x: seat.tokens.o, o: seat.tokens.x });
        location.hash = `#/game/${taken.id}`;
        return;
      }
      await call('POST', `/api/games/${id}/${act}`, undefined, token);
      return;
    }
    if (act === 'rematch') {
      const taken = await call('POST', `/api/games/${id}/rematch`, undefined, seat.token);
      remember(taken);
      location.hash = `#/game/${taken.id}`;
      return;
    }
    await call('POST', `/api/games/${id}/${act}`, undefined, seat.token);
  };
  root.querySelectorAll('[data-act]').forEach((b) => b.addEventListener('click', () => {
    const name = /** @type {HTMLElement} */ (b).dataset.act || '';
    if (name === 'invite') {
      const link = `${location.origin}/#/join/${id}`;
      navigator.clipboard?.writeText(link).catch(() => {});
      error.textContent = `Invite link ${link} (code ${id}) copied.`;
      return;
    }
    act(name).catch((e) => { error.textContent = e.message; });
  }));
  return () => socket.close();
}

/**
 * The move list, one line a turn, as the server numbers and writes it.
 * @param {import('./api.js').GameState} s
 * @returns {string[]}
 */
function turns(s) {
  return s.turns;
}
