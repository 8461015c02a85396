// The game page: the board, the status, clocks, the move list, and what
// a seat may do (steps, resign, draw, rematch). It draws what its store
// (gamestore.js) holds: the server's newest state, from the live socket
// and from answers; a refused tap shows the server's reason. Its views
// are parts of their own: the frame (gamepage.js), the words beside the
// board (gamestatus.js), the turns and looks back (gamelook.js), the
// buttons (gameactions.js), the stakes and presence (gamefacts.js), the
// cards and the result (gameparts.js), the clocks (gameclock.js).

import { seatOf, takeNotice } from './api.js';
import { gameStore, mayPlay, moverOf } from './gamestore.js';
import { openGame } from './gamelink.js';
import { ARRIVE_MS, liveBoard } from './liveboard.js';
import { showClocks } from './gameclock.js';
import { t } from './i18n.js';
import { showCards, showResult, turnSignal } from './gameparts.js';
import { showSearching, wireSearching } from './searching.js';
import { setting } from './stored.js';
import { showChat } from './chat.js';
import { showGameTournament } from './gametournament.js';
import { toNextGame } from './bell.js';
import { gamePageHtml, partsOf } from './gamepage.js';
import { showStatus } from './gamestatus.js';
import { lookBacks } from './gamelook.js';
import { gameActions } from './gameactions.js';
import { gameFacts, showStakes } from './gamefacts.js';

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
  page.innerHTML = gamePageHtml(id);
  const part = partsOf(page);
  const store = gameStore(seatOf(id));
  const notice = part('notice');
  notice.textContent = takeNotice();
  const signal = turnSignal(notice);
  let gone = false;
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
  const views = { gone: () => gone, redraw: () => { render(store.get()); } };
  const look = lookBacks(part, store, board, id, views);
  const actions = gameActions(page, part, store, id, views);
  const facts = gameFacts(id, { gone: views.gone, changed: views.redraw });
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
    part('error').textContent = snap.error;
    if (!s) return;
    const both = Boolean(seat && seat.tokens);
    // A seat in a game still going on: a tournament's next pairing does
    // not take this page away until the game ends (bell.js), even while
    // its last turn is still landing here.
    const playingNow = Boolean(seat) && Boolean(moverOf(s));
    page.toggleAttribute('data-playing-now', playingNow);
    if (seat && !playingNow) toNextGame(true);
    const lookingAt = look.at();
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
    if (!lookingAt) board.draw(s, mayPlay(s, seat), landing, turned);
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
    const both = Boolean(seat && seat.tokens);
    const waiting = s.seats_free.x || s.seats_free.o;
    const searching = searchOn(s, seat);
    showStatus(part, snap, searching);
    tick();
    showResult(part('result'), s, seat, both);
    showCards(part('cards'), s, seat, both, facts.stakes(), facts.online);
    showStakes(part('stakes'), s, facts);
    facts.ask(s, seat && !both ? seat.seat : null);
    signal(s, mayPlay(s, seat) && !waiting, waiting, Boolean(seat) && !both);
    look.list(s);
    actions.show(s, seat, { searching, lookingAt: look.at() });
  }

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
  const presence = setInterval(() => {
    const { state: s, seat } = store.get();
    if (s) facts.askOnline(s, seat && !seat.tokens ? seat.seat : null);
  }, 60_000);

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
