// The game page: the board, the status, clocks, the move list, and what
// a seat may do (steps, resign, draw, rematch). It draws what its store
// (gamestore.js) holds: the server's newest state, from the live socket
// and from answers; a refused tap shows the server's reason.

import { call, rememberSeats, seatOf, takeNotice } from './api.js';
import { categoryName } from './leaderboard.js';
import { gameStore, mayPlay, moverOf } from './gamestore.js';
import { act, framesOf, openGame } from './gamelink.js';
import { ARRIVE_MS, liveBoard } from './liveboard.js';
import { showClocks } from './gameclock.js';
import { playerName, statusText, statusWithEnding, t, tn } from './i18n.js';
import { turnEnds } from './history.js';
import { showCards, showResult, turnSignal } from './gameparts.js';
import { searchingHtml, showSearching, wireSearching } from './searching.js';
import { setting } from './stored.js';
import { showChat } from './chat.js';
import { showGameTournament } from './gametournament.js';
import { toNextGame } from './bell.js';

/**
 * Shows game `id` in `root`; returns what leaving the page does.
 * @param {HTMLElement} root
 * @param {string} id
 * @returns {() => void}
 */
export function showGame(root, id) {
  // The page's own element: a late answer after the page was left finds
  // nothing of the next page here.
  const page = document.createElement('div');
  root.replaceChildren(page);
  // The board between the players' cards and clocks: the opponent's above
  // it, this player's below (lichess's phone layout; `data-bottom` says
  // whose side is below, the stylesheet places them); then the status,
  // the result, and the actions in a bar kept on the screen.
  page.innerHTML = `<div class="game">
    <div class="play" data-play data-bottom="x">
      <div class="cards" data-cards></div>
      <p class="clocks" data-clocks hidden>
        <span class="clock" data-clock="x"></span>
        <span class="clock" data-clock="o"></span></p>
      <div class="board" data-board></div>
      <p class="confirm" data-confirm aria-live="polite"></p>
      <p class="row looking" data-looking hidden><span data-looking-at></span>
        <button data-back>${t('Back to the game')}</button></p>
    </div>
    <div class="beside">
      <p class="row tournament-part" data-tournament-part hidden></p>
      <p class="status" data-status aria-live="polite" tabindex="-1"></p>
      <p class="stakes" data-stakes hidden></p>
      <p class="hint" data-first-hint hidden></p>
      <div class="invite" data-invite hidden>
        <label class="column">${t('Send this link to the friend you play:')}
          <input readonly data-invite-link></label>
        <div class="row"><button data-act="invite">${t('Copy invite link')}</button>
          <button data-act="share" hidden>${t('Share…')}</button>
          <button data-act="qr" aria-expanded="false">${t('QR code')}</button></div>
        <img class="qr" data-invite-qr hidden width="200" height="200" alt="${t('The invite link as a QR code: scan it with the other phone\'s camera.')}">
      </div>
      ${searchingHtml()}
      <div class="result" data-result hidden>
        <p class="result-title" data-result-title tabindex="-1"></p>
        <p data-result-why></p>
        <p class="offer-text" data-rematch-offer hidden></p>
        <div class="row">
          <button data-act="rematch" hidden>${t('Rematch')}</button>
          <button data-act="decline" hidden>${t('Decline')}</button>
          <a class="button" href="#/" data-new-game>${t('New game')}</a>
          <a class="button" href="#/analysis/${id}" data-analyse>${t('Analyse')}</a>
        </div>
      </div>
      <p class="first-step" data-first-step hidden></p>
      <p class="error" data-error role="alert"></p>
      <p class="notice" data-notice role="status"></p>
      <div class="row game-actions" data-actions>
        <button data-act="pass" hidden>${t('Pass')}</button>
        <button data-act="abort" hidden>${t('Abort the game')}</button>
        <button data-act="resign" hidden>${t('Resign')}</button>
        <button data-act="draw" hidden>${t('Offer a draw')}</button>
        <a data-record href="/api/games/${id}/record" download="${id}.vwr">${t('Download the record')}</a>
      </div>
      <p class="seat" data-seat></p>
      <section class="chat" data-chat></section>
      <h2 class="moves-title">${t('Moves')}</h2>
      <ol class="moves" data-moves></ol>
    </div>
  </div>`;
  /** @param {string} name */
  const part = (name) => /** @type {HTMLElement} */ (page.querySelector(`[data-${name}]`));
  const store = gameStore(seatOf(id));
  const error = part('error');
  const notice = part('notice');
  notice.textContent = takeNotice();
  const signal = turnSignal(notice);
  /** The turn being looked back at (1-based), or 0 for the game as it is. */
  let lookingAt = 0;
  /** The game's positions step by step, fetched when first looked back at. */
  /** @type {{seq: number, frames: import('./history.js').Frame[]} | null} */
  let history = null;
  let gone = false;
  /** Counts the looks back asked for: only the newest answer is shown. */
  let looks = 0;
  /** What the page said before the last state came: kept while its steps land. */
  let settled = /** @type {import('./gamestore.js').Snapshot | null} */ (null);
  let settleTimer = 0;
  /** @type {{close: () => void} | null} */
  let socket = null;
  const board = liveBoard(part('board'), part('confirm'), {
    refusal() {
      const { state: now, seat } = store.get();
      if (!now) return null;
      if (!mayPlay(now, seat)) return seat ? t('it is not your turn') : t('you are watching this game');
      // Not while the opponent's turn is still landing: said until it has
      // (then the page says whose turn it is).
      if (settled?.state !== now) return t('Their steps are still landing: a moment.');
      return '';
    },
    play: store.tap,
    say: store.say,
  });
  const unsubscribe = store.subscribe(render);
  const leaveTournament = showGameTournament(part('tournament-part'), id, (onState) => {
    store.subscribe((snap) => { if (snap.state) onState(snap.state.seq); });
  });

  // The game must exist, and the seat kept here must be this game's.
  openGame(store, id, {
    gone: () => gone,
    notice: (text) => { notice.textContent = text; },
  }).then((open) => {
    if (gone) open?.close();
    else {
      socket = open;
      if (open) showChat(part('chat'), id, open, store.get);
    }
  });

  /** @param {import('./gamestore.js').Snapshot} snap */
  function render(snap) {
    if (gone) return;
    const { state: s, seat } = snap;
    error.textContent = snap.error;
    if (!s) return;
    const both = Boolean(seat && seat.tokens);
    // A seat in a game still going on: a tournament's next pairing does
    // not take this page away until the game ends (bell.js), even while
    // its last turn is still landing here.
    const playingNow = Boolean(seat) && Boolean(moverOf(s));
    page.toggleAttribute('data-playing-now', playingNow);
    if (seat && !playingNow) toNextGame(true);
    const landing = lookingAt ? { cells: [], since: 0 } : board.landing(s, seat);
    const left = landing.cells.length * ARRIVE_MS - landing.since;
    // Pass-and-play may turn the board so that the side to move sits below.
    const turned = both && moverOf(s) === 'o' && setting('turn-board') === 'yes';
    clearTimeout(settleTimer);
    if (left > 0) {
      // The opponent's steps land one by one: the board shows them, and
      // the page says it is this player's turn once the last has landed.
      board.draw(s, false, landing, turned);
      settleTimer = window.setTimeout(() => { render(store.get()); }, left);
      if (settled?.state) sayAround(settled);
      return;
    }
    settled = snap;
    // A tap made while the steps landed was told to wait: said no more.
    if (snap.error === t('Their steps are still landing: a moment.')) {
      store.say('');
      return;
    }
    const mover = moverOf(s);
    const mine = mayPlay(s, seat);
    if (!lookingAt) board.draw(s, mine, landing, turned);
    else part('looking-at').textContent = t('Turn {k} of {n}', { k: lookingAt, n: s.turns.length });
    sayAround(snap);
  }

  /**
   * Everything the page says beside the board, as of `snap`.
   * @param {import('./gamestore.js').Snapshot} snap
   */
  function sayAround(snap) {
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
    const searching = searchOn(s, seat);
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
    tick();
    showResult(part('result'), s, seat, both);
    showCards(part('cards'), s, seat, both, stakes, online);
    askOnline(s, seat && !both ? seat.seat : null);
    showStakes(s);
    signal(s, mine && !waiting, waiting, Boolean(seat) && !both);
    const moves = part('moves');
    moves.replaceChildren(...s.turns.map((text, k) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.className = 'turn';
      b.textContent = text;
      b.dataset.turn = String(k + 1);
      if (k + 1 === lookingAt) b.setAttribute('aria-current', 'step');
      b.addEventListener('click', () => { lookBack(k + 1); });
      li.append(b);
      return li;
    }));
    // The list follows the game (where it is a box of its own).
    if (!lookingAt) moves.scrollTop = moves.scrollHeight;
    const over = !mover;
    const show = (/** @type {string} */ act, /** @type {boolean} */ on) => {
      /** @type {HTMLElement} */ (page.querySelector(`[data-act="${act}"]`)).hidden = !on;
    };
    show('resign', Boolean(seat) && !over && !waiting);
    show('abort', Boolean(seat) && !over && s.abortable && !searching);
    show('pass', mine && s.legal.includes('pass') && !lookingAt);
    show('draw', Boolean(seat) && !over && s.draws_allowed);
    show('rematch', Boolean(seat) && over && s.ending?.reason !== 'aborted');
    // The invite: the link itself in a field, copied or shared (the
    // system's share sheet where the browser has one).
    part('invite').hidden = !(waiting && !over && !searching);
    show('share', typeof navigator.share === 'function');
    const draw = /** @type {HTMLElement} */ (page.querySelector('[data-act="draw"]'));
    draw.textContent = seat && s.draw_offer && s.draw_offer !== seat.seat && !both ? t('Accept the draw') : t('Offer a draw');
    if (both && s.draw_offer && s.draw_offer !== mover) draw.textContent = t('Accept the draw');
    // A rematch the opponent asked for (whoever asks goes to it at once):
    // offered on the result card, the Rematch button lit as "Accept"
    // (lichess's way), beside a Decline; a declined one says so.
    const rematch = /** @type {HTMLButtonElement} */ (page.querySelector('[data-act="rematch"]'));
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
  }

  /**
   * Shows the board after turn `k` (the server replays the record), or
   * the game as it stands for 0.
   * @param {number} k
   */
  async function lookBack(k) {
    const now = store.get().state;
    if (!now) return;
    const look = ++looks;
    if (k === 0 || k > now.turns.length) {
      lookingAt = 0;
      // Back to the game as it is: drawn at once, nothing replayed.
      board.afresh();
      part('looking').hidden = true;
      render(store.get());
      part('board').querySelector('svg')?.setAttribute('aria-label', t('board'));
      return;
    }
    if (now.fog) {
      // The record, which would show every cell, waits for the end.
      store.say(t('In fog of war the turns can be looked back at once the game is over.'));
      return;
    }
    try {
      if (!history || history.seq !== now.seq) {
        history = { seq: now.seq, frames: await framesOf(id) };
      }
      // The page may have been left, the game moved on, or another turn
      // been asked for meanwhile.
      const state = store.get().state;
      if (gone || !state || look !== looks) return;
      const ends = turnEnds(history.frames);
      const frame = history.frames[ends[k - 1]];
      if (!frame) return;
      lookingAt = k;
      const start = k > 1 ? ends[k - 2] + 1 : 1;
      const steps = history.frames.slice(start, ends[k - 1] + 1).map((f) => f.step || '');
      const label = t('Turn {k} of {n}', { k, n: state.turns.length });
      board.drawPast(frame.board, steps, label);
      part('looking-at').textContent = label;
      part('looking').hidden = false;
      render(store.get());
    } catch (e) {
      if (!gone) store.say(/** @type {Error} */ (e).message);
    }
  }
  part('back').addEventListener('click', () => { lookBack(0); });

  /**
   * Whether this tab's quick play search waits in this game (its panel shown).
   * @param {import('./api.js').GameState} s
   * @param {import('./api.js').Held | null} seat
   */
  function searchOn(s, seat) {
    const waiting = (s.seats_free.x || s.seats_free.o) && Boolean(s.to_move);
    return showSearching(part('searching'), id, waiting && Boolean(seat && !seat.tokens));
  }
  wireSearching(part('searching'), id, () => {
    const { state, seat } = store.get();
    return state && seat && !seat.tokens ? { token: seat.token, variant: state.variant.preset } : null;
  }, store.say);

  /** The clocks (counting down between the server's states) and the search's time. */
  function tick() {
    const snap = store.get();
    if (snap.state) searchOn(snap.state, snap.seat);
    showClocks(part('clocks'), part('first-step'), snap);
  }
  const ticking = setInterval(tick, 250);

  /**
   * A rated game's stakes (`GET /api/games/ID/stakes`): asked for once the
   * game is known to be rated, and again once it is over (what its end did).
   * @type {import('./gameparts.js').Stakes | null}
   */
  let stakes = null;
  /**
   * What the stakes were last asked for: '' none, else the game's phase
   * ('on', 'over') and which seats were held ('xo', 'x-'): asked again once
   * a player sits down (their rating was not known before).
   */
  let stakesAsked = '';

  /**
   * "Rated · Classic, blitz · 3+2" for a rated game; the stakes asked for.
   * @param {import('./api.js').GameState} s
   */
  function showStakes(s) {
    const line = part('stakes');
    line.hidden = !s.rated;
    if (!s.rated) return;
    const c = s.clocks;
    const clock = !c ? '' : c.days_per_turn ? t('{n} day a turn', { n: c.days_per_turn }) : `${c.base_s / 60}+${c.inc_s}`;
    line.textContent = [t('Rated'), stakes?.category ? categoryName(stakes.category) : '', clock].filter(Boolean).join(' · ');
    // Over, and neither rating moved: a rated game counts once each side
    // has played a whole turn.
    const unmoved = !s.to_move && s.ending?.reason !== 'aborted' && stakes && stakesAsked.startsWith('over')
      && [stakes.x, stakes.o].every((k) => k && k.after == null);
    if (unmoved) line.textContent += ` · ${t('Not rated: the game ended before each side had played a turn.')}`;
    const want = `${s.to_move ? 'on' : 'over'} ${s.seats_free.x ? '-' : 'x'}${s.seats_free.o ? '-' : 'o'}`;
    if (stakesAsked === want) return;
    stakesAsked = want;
    call('GET', `/api/games/${id}/stakes`).then((got) => {
      if (gone) return;
      stakes = got;
      render(store.get());
    }, () => { stakesAsked = ''; });
  }

  /**
   * Which seats' accounts are online (`GET /api/players/NAME`'s `online`),
   * asked when a seat's holder is first known and then once a minute.
   * @type {{x?: boolean, o?: boolean}}
   */
  const online = {};
  /** Whom presence was last asked for ('x:NAME o:NAME'), and when. */
  let onlineAsked = { who: '', at: 0 };
  /**
   * @param {import('./api.js').GameState} s
   * @param {string | null} mine  this page's player's own seat ('x', 'o'): not asked
   */
  function askOnline(s, mine) {
    const sides = /** @type {('x' | 'o')[]} */ (['x', 'o'])
      .filter((side) => side !== mine && s.players[side].account && s.players[side].name && !s.seats_free[side]);
    const who = sides.map((side) => `${side}:${s.players[side].name}`).join(' ');
    if (who === onlineAsked.who && Date.now() - onlineAsked.at < 60_000) return;
    onlineAsked = { who, at: Date.now() };
    for (const side of sides) {
      call('GET', `/api/players/${encodeURIComponent(s.players[side].name || '')}`).then((p) => {
        if (gone || online[side] === Boolean(p.online)) return;
        online[side] = Boolean(p.online);
        render(store.get());
      }, () => {});
    }
  }
  const presence = setInterval(() => {
    const { state: s, seat } = store.get();
    if (s) askOnline(s, seat && !seat.tokens ? seat.seat : null);
  }, 60_000);

  /** Whether this player declined the rematch the opponent asked for. */
  let declined = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let unconfirm;
  const inviteLink = /** @type {HTMLInputElement} */ (part('invite-link'));
  inviteLink.value = `${location.origin}/#/join/${id}`;
  inviteLink.addEventListener('focus', () => { inviteLink.select(); });
  page.querySelectorAll('[data-act]').forEach((b) => b.addEventListener('click', () => {
    const button = /** @type {HTMLButtonElement} */ (b);
    const name = button.dataset.act || '';
    if (name === 'share') {
      navigator.share({ title: t('Virus Wars'), text: t('Play Virus Wars with me'), url: inviteLink.value })
        .catch(() => {});
      return;
    }
    if (name === 'qr') {
      // Drawn by the server from this page's own address (behind a proxy,
      // only the page knows the address players use).
      const qr = /** @type {HTMLImageElement} */ (part('invite-qr'));
      if (!qr.src) qr.src = `/api/games/${encodeURIComponent(id)}/invite.svg?origin=${encodeURIComponent(location.origin)}`;
      qr.hidden = !qr.hidden;
      button.setAttribute('aria-expanded', String(!qr.hidden));
      // On a phone the code falls below the fold: brought into view whole.
      if (!qr.hidden) {
        const seen = () => { qr.scrollIntoView({ block: 'nearest' }); };
        if (qr.complete) seen();
        else qr.addEventListener('load', seen, { once: true });
      }
      return;
    }
    if (name === 'invite') {
      const link = inviteLink.value;
      const say = (/** @type {boolean} */ copied) => {
        notice.textContent = copied
          ? t('Invite link {link} (code {id}) copied.', { link, id })
          : t('Send this invite link: {link} (code {id}).', { link, id });
        notice.classList.toggle('success', copied);
      };
      if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => say(true), () => say(false));
      else say(false);
      return;
    }
    if (name === 'decline') {
      // The rematch is a game already made: declining calls it off through
      // this player's seat in it (the asker's page says it was called off).
      const { state, seat } = store.get();
      const next = state?.rematch;
      if (!next || !seat) return;
      button.disabled = true;
      rememberSeats(next, seat)
        .then(() => act(gameStore(seatOf(next)), next, 'abort'))
        .then(() => { declined = true; render(store.get()); })
        .catch((e) => { store.say(e.message); })
        .finally(() => { button.disabled = false; });
      return;
    }
    if (name === 'pass') {
      store.play(['pass']);
      // The button goes away with the turn: keep the keyboard on the page.
      part('status').focus();
      return;
    }
    if (name === 'resign' && button.dataset.confirm !== 'yes') {
      // Resigning asks twice.
      button.dataset.confirm = 'yes';
      button.textContent = t('Really resign?');
      clearTimeout(unconfirm);
      unconfirm = setTimeout(() => { button.dataset.confirm = ''; button.textContent = t('Resign'); }, 4000);
      return;
    }
    button.disabled = true;
    act(store, id, name)
      .then((rematch) => { if (rematch && !gone) location.hash = `#/game/${rematch}`; })
      .catch((e) => { store.say(e.message); })
      .finally(() => {
        button.disabled = false;
        if (name === 'resign') { button.dataset.confirm = ''; button.textContent = t('Resign'); }
        if (button.hidden && !gone) (part('status').hidden ? part('result-title') : part('status')).focus();
      });
  }));

  return () => {
    gone = true;
    unsubscribe();
    leaveTournament();
    toNextGame(false);
    clearInterval(ticking);
    clearInterval(presence);
    socket?.close();
    document.title = t('Virus Wars');
  };
}
