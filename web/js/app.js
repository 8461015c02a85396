// The page's router: #/ home, #/game/ID a game, #/join/ID an invite,
// #/rules, #/analysis (#/analysis/ID: a game on it), #/settings, #/login,
// #/@/NAME a player, #/leaderboard/CATEGORY, #/puzzles (#/puzzles/ID),
// #/tournaments, #/tournament/ID.

import { call, named, remember, seatOf, setNotice, statusOf } from './api.js';
import { showHome } from './home.js';
import { showGame } from './game.js';
import { applySettings, showSettings } from './settings.js';
import { showAnalysis } from './analysis.js';
import { showRules } from './rules.js';
import { t } from './i18n.js';
import { forgetMe, me, showLogin } from './account.js';
import { showPlayer } from './player.js';
import { showLeaderboard } from './leaderboard.js';
import { showPuzzles } from './puzzles.js';
import { startBell, stopBell } from './bell.js';
import { showTournament } from './tournament.js';
import { showTournaments } from './tournaments.js';

const root = /** @type {HTMLElement} */ (document.getElementById('app'));
/** @type {(() => void) | null} */
let leave = null;

/**
 * The header, one line on a phone: the menu button (the pages behind it;
 * inline on a wider screen), the name, and the player's own link, in the
 * page's language.
 */
function header() {
  const top = /** @type {HTMLElement} */ (document.querySelector('[data-top]'));
  const nav = /** @type {HTMLElement} */ (document.querySelector('[data-nav]'));
  const menu = /** @type {HTMLButtonElement} */ (document.querySelector('[data-menu]'));
  nav.innerHTML = `<a href="#/rules">${t('Rules')}</a> <a href="#/analysis">${t('Analysis board')}</a> <a href="#/puzzles">${t('Puzzles')}</a> <a href="#/tournaments">${t('Tournaments')}</a> <a href="#/settings">${t('Settings')}</a>`;
  /** @type {HTMLElement} */ (document.querySelector('[data-brand]')).textContent = t('Virus Wars');
  menu.setAttribute('aria-label', t('Menu'));
  /** @type {HTMLElement} */ (document.querySelector('[data-bell]')).setAttribute('aria-label', t('Notifications'));
  // A new page closes the menu.
  top.classList.remove('open');
  menu.setAttribute('aria-expanded', 'false');
  const link = /** @type {HTMLAnchorElement} */ (document.querySelector('[data-me]'));
  link.textContent = t('Log in');
  link.href = '#/login';
  // Logged in: the link goes to the player's own page.
  me().then((who) => {
    if (!who) { stopBell(); return; }
    startBell(who.name);
    link.textContent = who.name;
    link.href = `#/@/${encodeURIComponent(who.name)}`;
  });
}

/** The menu button opens and closes the pages' links (on a phone). */
function wireMenu() {
  const top = /** @type {HTMLElement} */ (document.querySelector('[data-top]'));
  const menu = /** @type {HTMLButtonElement} */ (document.querySelector('[data-menu]'));
  menu.addEventListener('click', () => {
    const open = top.classList.toggle('open');
    menu.setAttribute('aria-expanded', String(open));
  });
}
wireMenu();

function route() {
  if (leave) { leave(); leave = null; }
  /** @type {HTMLElement} */ (document.querySelector('[data-bell-panel]')).hidden = true;
  header();
  const hash = location.hash;
  const held = location.hash.match(/^#\/game\/([a-z0-9]{1,64})\/seat\/([xo])\/([A-Za-z0-9-]{1,128})$/);
  if (held) {
    // A game's link with its seat token: the server says which seat the
    // token holds; a good one is kept here, a wrong one never replaces
    // what is kept. Either way the token leaves the address bar.
    const [, id, , token] = held;
    const go = () => { location.replace(`#/game/${id}`); };
    call('GET', `/api/games/${id}/seat`, undefined, token).then((s) => {
      remember({ id, seat: s.seat, token, invite: '', url: '' });
      go();
    }, (e) => {
      const status = statusOf(e);
      if (status === 401 || status === 403) {
        setNotice(t("This link's seat token does not hold a seat in this game ({why}).", { why: e.message }));
        go();
        return;
      }
      // Not checked (no connection, too many requests, a server error):
      // the link stays in the address bar, and a reload tries again.
      setNotice(t('This link could not be checked: {why} Reload the page to try again.', { why: e.message }));
      // Only if the player has not gone elsewhere meanwhile.
      if (location.hash === hash) leave = showGame(root, id);
    });
    return;
  }
  const join = location.hash.match(/^#\/join\/([a-z0-9]{1,64})$/);
  if (join) {
    // An invite: take the free seat (or keep ours), then show the game;
    // with no seat free, watch it.
    const id = join[1];
    const go = () => { location.replace(`#/game/${id}`); };
    if (seatOf(id)) go();
    else {
      call('POST', `/api/games/${id}/join`, named()).then((s) => { remember(s); go(); }, (e) => {
        setNotice(t('The seat could not be taken: {why}', { why: e.message }));
        if (statusOf(e) === 409 || statusOf(e) === 404) {
          go();
        } else {
          // Worth another try: the invite stays in the address bar.
          setNotice(t('The seat could not be taken: {why} Reload the page to try again.', { why: e.message }));
          if (location.hash === hash) leave = showGame(root, id);
        }
      });
    }
    return;
  }
  if (location.hash === '#/settings') {
    showSettings(root, route);
    return;
  }
  if (location.hash === '#/login') {
    showLogin(root, () => { forgetMe(); header(); });
    return;
  }
  const player = location.hash.match(/^#\/@\/([A-Za-z0-9_-]{1,40})$/);
  if (player) {
    leave = showPlayer(root, player[1]);
    return;
  }
  const board = location.hash.match(/^#\/leaderboard(?:\/([a-z-]{1,40}))?$/);
  if (board) {
    leave = showLeaderboard(root, board[1] || '');
    return;
  }
  if (location.hash === '#/analysis' || location.hash.startsWith('#/analysis/')) {
    let game = '';
    try {
      game = decodeURIComponent(location.hash.slice('#/analysis/'.length));
    } catch {
      // Not an id: the board opens empty.
    }
    leave = showAnalysis(root, game);
    return;
  }
  const puzzle = location.hash.match(/^#\/puzzles(?:\/([0-9a-f]{16}))?$/);
  if (puzzle) {
    leave = showPuzzles(root, puzzle[1] || '');
    return;
  }
  if (location.hash === '#/tournaments') {
    leave = showTournaments(root);
    return;
  }
  const tournament = location.hash.match(/^#\/tournament\/([a-z0-9]{1,64})$/);
  if (tournament) {
    leave = showTournament(root, tournament[1]);
    return;
  }
  if (location.hash === '#/rules') {
    leave = showRules(root);
    return;
  }
  const game = location.hash.match(/^#\/game\/([a-z0-9]{1,64})$/);
  if (game) {
    leave = showGame(root, game[1]);
  } else {
    showHome(root);
  }
}

applySettings();
window.addEventListener('hashchange', route);
route();
// Installable: the service worker keeps the UI's files for offline use.
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js').catch(() => {});
}
