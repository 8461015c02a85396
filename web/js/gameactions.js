// What a seat may do on the game page, as buttons the server's fields
// light: pass, abort, resign (asked twice), a draw, a rematch (offered,
// accepted, declined), and the invite (the link copied, shared or shown
// as a QR code).

import { rememberSeats, seatOf } from './api.js';
import { gameStore, mayPlay, moverOf } from './gamestore.js';
import { act } from './gamelink.js';
import { t } from './i18n.js';

/**
 * The actions of game `id`'s page.
 * @param {HTMLElement} root  the page
 * @param {(name: string) => HTMLElement} part
 * @param {ReturnType<typeof gameStore>} store
 * @param {string} id
 * @param {{gone: () => boolean, redraw: () => void}} page
 */
export function gameActions(root, part, store, id, page) {
  /** Whether this player declined the rematch the opponent asked for. */
  let declined = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let unconfirm;
  const notice = part('notice');
  const inviteLink = /** @type {HTMLInputElement} */ (part('invite-link'));
  inviteLink.value = `${location.origin}/#/join/${id}`;
  inviteLink.addEventListener('focus', () => { inviteLink.select(); });
  /** @param {string} name */
  const button = (name) => /** @type {HTMLButtonElement} */ (root.querySelector(`[data-act="${name}"]`));

  /** @type {Record<string, (b: HTMLButtonElement) => boolean>} */
  const local = {
    share() {
      navigator.share({ title: t('Virus Wars'), text: t('Play Virus Wars with me'), url: inviteLink.value })
        .catch(() => {});
      return true;
    },
    qr(b) {
      // Drawn by the server from this page's own address (behind a proxy,
      // only the page knows the address players use).
      const qr = /** @type {HTMLImageElement} */ (part('invite-qr'));
      if (!qr.src) qr.src = `/api/games/${encodeURIComponent(id)}/invite.svg?origin=${encodeURIComponent(location.origin)}`;
      qr.hidden = !qr.hidden;
      b.setAttribute('aria-expanded', String(!qr.hidden));
      // On a phone the code falls below the fold: brought into view whole.
      if (!qr.hidden) {
        const seen = () => { qr.scrollIntoView({ block: 'nearest' }); };
        if (qr.complete) seen();
        else qr.addEventListener('load', seen, { once: true });
      }
      return true;
    },
    invite() {
      const link = inviteLink.value;
      const say = (/** @type {boolean} */ copied) => {
        notice.textContent = copied
          ? t('Invite link {link} (code {id}) copied.', { link, id })
          : t('Send this invite link: {link} (code {id}).', { link, id });
        notice.classList.toggle('success', copied);
      };
      if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => say(true), () => say(false));
      else say(false);
      return true;
    },
    decline(b) {
      // The rematch is a game already made: declining calls it off through
      // this player's seat in it (the asker's page says it was called off).
      const { state, seat } = store.get();
      const next = state?.rematch;
      if (!next || !seat) return true;
      b.disabled = true;
      rememberSeats(next, seat)
        .then(() => act(gameStore(seatOf(next)), next, 'abort'))
        .then(() => { declined = true; page.redraw(); })
        .catch((e) => { store.say(e.message); })
        .finally(() => { b.disabled = false; });
      return true;
    },
    pass() {
      store.play(['pass']);
      // The button goes away with the turn: keep the keyboard on the page.
      part('status').focus();
      return true;
    },
    resign(b) {
      if (b.dataset.confirm === 'yes') return false;
      // Resigning asks twice.
      b.dataset.confirm = 'yes';
      b.textContent = t('Really resign?');
      clearTimeout(unconfirm);
      unconfirm = setTimeout(() => { b.dataset.confirm = ''; b.textContent = t('Resign'); }, 4000);
      return true;
    },
  };

  root.querySelectorAll('[data-act]').forEach((el) => el.addEventListener('click', () => {
    const b = /** @type {HTMLButtonElement} */ (el);
    const name = b.dataset.act || '';
    if (local[name]?.(b)) return;
    // The rest is asked of the server: resign, abort, draw, rematch.
    b.disabled = true;
    act(store, id, name)
      .then((rematch) => { if (rematch && !page.gone()) location.hash = `#/game/${rematch}`; })
      .catch((e) => { store.say(e.message); })
      .finally(() => {
        b.disabled = false;
        if (name === 'resign') { b.dataset.confirm = ''; b.textContent = t('Resign'); }
        if (b.hidden && !page.gone()) (part('status').hidden ? part('result-title') : part('status')).focus();
      });
  }));

  return {
    /**
     * Shows the buttons `s` allows this page's seat.
     * @param {import('./api.js').GameState} s
     * @param {import('./api.js').Held | null} seat
     * @param {{searching: boolean, lookingAt: number}} now
     */
    show(s, seat, now) {
      const mover = moverOf(s);
      const both = Boolean(seat && seat.tokens);
      const mine = mayPlay(s, seat);
      const waiting = s.seats_free.x || s.seats_free.o;
      const over = !mover;
      const show = (/** @type {string} */ name, /** @type {boolean} */ on) => { button(name).hidden = !on; };
      show('resign', Boolean(seat) && !over && !waiting);
      show('abort', Boolean(seat) && !over && s.abortable && !now.searching);
      show('pass', mine && s.legal.includes('pass') && !now.lookingAt);
      show('draw', Boolean(seat) && !over && s.draws_allowed);
      show('rematch', Boolean(seat) && over && s.ending?.reason !== 'aborted');
      // The invite: the link itself in a field, copied or shared (the
      // system's share sheet where the browser has one).
      part('invite').hidden = !(waiting && !over && !now.searching);
      show('share', typeof navigator.share === 'function');
      const draw = button('draw');
      draw.textContent = seat && s.draw_offer && s.draw_offer !== seat.seat && !both ? t('Accept the draw') : t('Offer a draw');
      if (both && s.draw_offer && s.draw_offer !== mover) draw.textContent = t('Accept the draw');
      // A rematch the opponent asked for (whoever asks goes to it at once):
      // offered on the result card, the Rematch button lit as "Accept"
      // (lichess's way), beside a Decline; a declined one says so.
      const rematch = button('rematch');
      // Offered to the one who did not ask: this browser holds no seat in the
      // rematch yet (the asker's is kept when asking, a decline keeps one to
      // call it off with, an accept goes to it).
      const offered = Boolean(s.rematch && seat && !both && !declined && !seatOf(s.rematch));
      const offer = part('rematch-offer');
      offer.hidden = !offered && !declined;
      offer.textContent = declined ? t('You declined the rematch.') : offered ? t('Your opponent wants a rematch.') : '';
      rematch.textContent = offered ? t('Accept the rematch') : t('Rematch');
      rematch.classList.toggle('lit', offered);
      if (s.rematch) rematch.dataset.rematch = s.rematch;
      show('decline', offered);
      if (declined) show('rematch', false);
    },
  };
}
