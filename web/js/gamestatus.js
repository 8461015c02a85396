// What the game page says in words beside the board: whose turn it is,
// who plays which side, the very first step's hint, fog of war. Drawn from
// the server's fields; nothing here works out a rule.

import { mayPlay, moverOf } from './gamestore.js';
import { playerName, statusText, statusWithEnding, t, tn } from './i18n.js';
import { setting } from './stored.js';

/**
 * Says the status, the seat line and the first step's hint, as of `snap`.
 * @param {(name: string) => HTMLElement} part
 * @param {import('./gamestore.js').Snapshot} snap  with a state
 * @param {boolean} searching  this tab's quick play search waits in the game
 */
export function showStatus(part, snap, searching) {
  const { seat } = snap;
  const s = /** @type {import('./api.js').GameState} */ (snap.state);
  const mover = moverOf(s);
  const both = Boolean(seat && seat.tokens);
  const mine = mayPlay(s, seat);
  const waiting = s.seats_free.x || s.seats_free.o;
  // This player's side below the board (in pass-and-play the side the
  // turned board puts below; a watcher has X below).
  const turned = both && mover === 'o' && setting('turn-board') === 'yes';
  part('play').dataset.bottom = seat && !both ? seat.seat : turned ? 'o' : 'x';
  const status = part('status');
  // Whose turn it is, in the player's own words; the result, once the
  // game is over, is said once: on its card.
  const steps = tn('{n} steps', s.steps_left);
  status.textContent = both ? t('{status} · {steps}', { status: statusText(s), steps })
    : seat ? (waiting ? t('Waiting for your opponent') : mine ? t('Your turn · {steps}', { steps }) : t('Their turn'))
    : statusWithEnding(s);
  status.dataset.status = s.status;
  status.hidden = !mover;
  // A player's very first step, where only one cell takes it: why that
  // one (the server's legal cell, named; none of the player's viruses on
  // the board yet).
  const own = seat && !both ? seat.seat.toUpperCase() : '';
  const first = mine && own && s.legal.length === 1 && s.legal[0] !== 'pass'
    && !s.board.some((rank) => rank.includes(own));
  const hint = part('first-hint');
  hint.hidden = !first;
  hint.textContent = first ? t('Your first virus goes on {cell}, your corner: every step after it must touch your viruses.', { cell: s.legal[0] }) : '';
  part('seat').textContent = both ? t('Both seats on this device.')
    : seat ? t('You play {side}.', { side: seat.seat.toUpperCase() })
    : t('X: {x}, O: {o}. You are watching.', {
      x: s.seats_free.x ? t('free seat') : playerName(s.players.x),
      o: s.seats_free.o ? t('free seat') : playerName(s.players.o),
    });
  if (waiting && seat && s.ending?.reason !== 'aborted' && !searching) {
    part('seat').textContent += ` ${t('Waiting for the second player: send them the invite link.')}`;
  }
  // Fog of war: what the server left out, said in words; the record
  // (every cell) waits for the end.
  if (s.fog) {
    part('seat').textContent += ` ${s.fog.viewer === 'watchers'
      ? t('Fog of war: you see only what both players see.')
      : t('Fog of war: {n} cells are hidden from you; faded pieces are where you last saw them.', { n: s.fog.unknown })}`;
  }
  part('record').hidden = Boolean(s.fog);
}
