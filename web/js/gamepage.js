// The game page's frame: the board between the players' cards and clocks
// (the opponent's above it, this player's below: lichess's phone layout;
// `data-bottom` says whose side is below, the stylesheet places them); then
// the status, the result, and the actions in a bar kept on the screen.
// Each part is found by its `data-` name.

import { t } from './i18n.js';
import { searchingHtml } from './searching.js';

/**
 * The page of game `id`, every part empty.
 * @param {string} id
 * @returns {string}
 */
export function gamePageHtml(id) {
  return `<div class="game">
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
}

/**
 * A finder of `page`'s parts by their `data-` name.
 * @param {HTMLElement} page
 * @returns {(name: string) => HTMLElement}
 */
export function partsOf(page) {
  return (name) => /** @type {HTMLElement} */ (page.querySelector(`[data-${name}]`));
}
