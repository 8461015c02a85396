// What the game page shows beside the board, drawn from the server's
// state alone: the two player cards, the result once the game is over, and
// the signal that the move has come to this page's player.

import { endingText, endingTextFor, playerName, statusText, t } from './i18n.js';
import { chime } from './settings.js';
import { onlineDot } from './following.js';

/** @typedef {import('./api.js').GameState} GameState */
/** @typedef {import('./api.js').Held} Held */
/**
 * A side's rating at stake: before the game, after it once its end moved it.
 * @typedef {{before: number, after: number | null, provisional: boolean}} Stake
 * @typedef {{category: string | null, x: Stake | null, o: Stake | null}} Stakes
 */

/**
 * Who plays each side, as two cards: "You", the computer with its level,
 * a bot's name, a person, or a free seat; the side to move's card marked;
 * in a rated game each account's rating ("1500?" while provisional) and,
 * once the game moved it, by how much ("+12", "−12"); a green dot before
 * a player the server says is online.
 * @param {HTMLElement} cards
 * @param {GameState} s
 * @param {Held | null} seat
 * @param {boolean} both  both seats on this device
 * @param {Stakes | null} [stakes]
 * @param {{x?: boolean, o?: boolean}} [online]  each seat's account online, as `GET /api/players/NAME` says
 */
export function showCards(cards, s, seat, both, stakes = null, online = {}) {
  cards.replaceChildren(...(/** @type {('x' | 'o')[]} */ (['x', 'o'])).map((side) => {
    const card = document.createElement('div');
    card.className = 'card';
    card.dataset.card = side;
    if (s.to_move === side) card.dataset.toMove = '';
    const who = s.players[side];
    const name = both && who.kind === 'human' ? t('On this device')
      : seat && !both && seat.seat === side ? t('You')
      : s.seats_free[side] ? t('free seat')
      : who.kind === 'human' ? who.name ?? (seat ? t('Your opponent') : t('a person'))
      : who.kind === 'computer' ? t('Computer, level {n}', { n: who.level ?? '?' })
      : playerName(who);
    const mark = document.createElement('span');
    mark.className = `mark piece-${side}`;
    mark.textContent = side.toUpperCase();
    // An account's name opens its player page.
    const text = document.createElement(who.account && who.name && !(seat && !both && seat.seat === side) ? 'a' : 'span');
    text.className = 'card-name';
    text.textContent = name;
    if (text instanceof HTMLAnchorElement) text.href = `#/@/${encodeURIComponent(who.name || '')}`;
    if (online[side]) text.prepend(onlineDot());
    card.append(mark, text);
    const stake = stakes?.[side];
    if (stake) {
      const rating = document.createElement('span');
      rating.className = 'card-rating';
      rating.dataset.cardRating = '';
      rating.textContent = `${Math.round(stake.before)}${stake.provisional ? '?' : ''}`;
      card.append(rating);
      if (stake.after != null) {
        const change = Math.round(stake.after - stake.before);
        const moved = document.createElement('span');
        moved.className = `card-change ${change < 0 ? 'down' : 'up'}`;
        moved.dataset.cardChange = '';
        moved.textContent = change < 0 ? `−${-change}` : `+${change}`;
        card.append(moved);
      }
    }
    return card;
  }));
}

/**
 * Once the game is over: what happened, in the player's words, and why
 * (the panel's buttons say what next).
 * @param {HTMLElement} result  the panel, with `[data-result-title]` and `[data-result-why]`
 * @param {GameState} s
 * @param {Held | null} seat
 * @param {boolean} both
 */
export function showResult(result, s, seat, both) {
  result.hidden = Boolean(s.to_move);
  if (s.to_move) return;
  const winner = s.ending?.winner;
  const called = !s.ending || s.ending.reason === 'aborted';
  const watching = !seat || both;
  /** @type {HTMLElement} */ (result.querySelector('[data-result-title]')).textContent = called ? t('The game was called off')
    : watching ? statusText(s)
    : !winner ? t('Drawn')
    : winner === seat.seat ? t('You won') : t('You lost');
  /** @type {HTMLElement} */ (result.querySelector('[data-result-why]')).textContent = !s.ending ? ''
    : watching ? endingText(s.ending) : endingTextFor(s.ending, seat.seat);
  result.dataset.outcome = watching || called ? 'shown' : !winner ? 'draw' : winner === seat.seat ? 'won' : 'lost';
}

/**
 * The signal a player waits for: "Your turn" in the tab's title (and a
 * tone, where the settings allow) when the move comes to them; a notice
 * when the opponent takes the free seat. Returns what each state calls.
 * @param {HTMLElement} notice
 */
export function turnSignal(notice) {
  let first = true;
  let wasMine = false;
  let wasWaiting = false;
  /**
   * @param {GameState} s
   * @param {boolean} mine  this page's player may play now
   * @param {boolean} waiting  a seat is still free
   * @param {boolean} alone  one seat here (not pass-and-play)
   */
  return (s, mine, waiting, alone) => {
    document.title = mine && alone ? `${t('Your turn')} · ${t('Virus Wars')}` : t('Virus Wars');
    if (mine && alone && !wasMine && !first) chime();
    if (wasWaiting && !waiting && alone && s.to_move) {
      notice.textContent = t('Your opponent is here: the game is on.');
      notice.classList.add('success');
      notice.dataset.joined = '';
      if (!mine) chime();
    }
    // Said while the game is on, not after it.
    if (!s.to_move && 'joined' in notice.dataset) {
      notice.textContent = '';
      notice.classList.remove('success');
      delete notice.dataset.joined;
    }
    first = false;
    wasMine = mine;
    wasWaiting = waiting;
  };
}

/** The counts the tab's title shows: unread notifications, games waiting. */
const counts = { unread: 0, waiting: 0 };

/**
 * The tab's title with its count, "(2) Virus Wars": the unread
 * notifications (the bell's number, on every page), else the games that
 * wait for this player's move (on the home page). A page that sets its
 * own title gets the count put back.
 */
export function retitle() {
  const n = counts.unread || counts.waiting;
  const base = document.title.replace(/^\(\d+\) /, '');
  const want = n > 0 ? `(${n}) ${base}` : base;
  if (document.title !== want) document.title = want;
}
const titleTag = document.querySelector('title');
if (titleTag) new MutationObserver(retitle).observe(titleTag, { childList: true });

/** @param {number} n unread notifications */
export function showUnread(n) {
  counts.unread = n;
  retitle();
}

/**
 * How many games wait for this player's move: in the tab's title
 * ("(2) Virus Wars", unless notifications are unread) and as a number on
 * the tab's icon.
 * @param {number} n
 */
export function showWaiting(n) {
  counts.waiting = n;
  retitle();
  const icon = /** @type {HTMLLinkElement | null} */ (document.querySelector('link[rel="icon"]'));
  if (!icon) return;
  if (!n) {
    icon.href = '/web/icon.svg';
    return;
  }
  const badge = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f5fbf"/>
    <text x="16" y="23" font-size="20" font-family="sans-serif" font-weight="700" fill="#fff" text-anchor="middle">${Math.min(n, 99)}</text></svg>`;
  icon.href = `data:image/svg+xml,${encodeURIComponent(badge)}`;
}
