// The analysis board: load a record or a position string, step through
// it, try variations by tapping legal cells, and ask the engine (the
// server's analysis) for its evaluation and best turn. Positions, legal
// cells and results all come from the server.

import { call } from './api.js';
import { drawBoard } from './board.js';
import { statusWithEnding, t } from './i18n.js';

/** @typedef {import('./history.js').Frame} Frame */

/**
 * @param {HTMLElement} root
 * @param {string} [game] a game's id: its record is loaded, at its end
 * @returns {() => void} what leaving the page does
 */
export function showAnalysis(root, game = '') {
  /** Set when the page is left: answers that come later are dropped. */
  let gone = false;
  root.innerHTML = `<div class="game">
    <div class="board" data-board></div>
    <div>
      <form data-form="load">
        <textarea name="text" rows="5" style="width:100%" aria-label="${t('a record or a position string')}"
          placeholder="${t('Paste a game record (.vwr) or a position string')}"></textarea>
        <button>${t('Load')}</button>
      </form>
      <p class="status" data-status></p>
      <div class="row">
        <button data-go="first" aria-label="${t('to the start')}">|◀</button>
        <button data-go="back" aria-label="${t('one step back')}">◀</button>
        <button data-go="next" aria-label="${t('one step on')}">▶</button>
        <button data-go="last" aria-label="${t('to the end')}">▶|</button>
        <button data-ask>${t('Ask the engine')}</button>
        <button data-pass hidden>${t('Pass')}</button>
      </div>
      <p data-engine></p>
      <p class="error" data-error role="alert"></p>
      <ol class="moves" data-frames></ol>
    </div>
  </div>`;
  /** @param {string} name */
  const part = (name) => /** @type {HTMLElement} */ (root.querySelector(`[data-${name}]`));
  const error = part('error');
  /** @type {Frame[]} */
  let frames = [];
  let at = 0;

  const show = () => {
    const f = frames[at];
    if (!f) return;
    drawBoard(part('board'), { board: f.board, legal: f.legal, last_turn: f.step ? [f.step] : [] }, (cell) => vary(f, cell));
    part('pass').hidden = !f.legal.includes('pass');
    const status = part('status');
    status.textContent = t('{status} — step {k} of {n}', { status: statusWithEnding(f), k: f.seq, n: frames.length - 1 });
    status.dataset.status = f.status;
    part('engine').textContent = '';
    error.textContent = '';
    part('frames').replaceChildren(...frames.slice(1).map((fr, k) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.textContent = `${fr.seq}. ${fr.step}`;
      b.dataset.frame = String(k + 1);
      if (k + 1 === at) b.setAttribute('aria-current', 'step');
      b.addEventListener('click', () => { at = k + 1; show(); });
      li.append(b);
      return li;
    }));
  };

  /**
   * A variation: the server plays `step` from frame `f`.
   * @param {Frame} f
   * @param {string} step
   */
  const vary = (f, step) => {
    call('POST', '/api/replay', { position: f.position, moves: [step] }).then((r) => {
      if (gone) return;
      const next = r.frames[1];
      frames = frames.slice(0, at + 1).concat([{ ...next, seq: f.seq + 1 }]);
      at += 1;
      show();
    }, (e) => { if (!gone) error.textContent = e.message; });
  };
  part('pass').addEventListener('click', () => {
    const f = frames[at];
    if (f) vary(f, 'pass');
  });

  /**
   * @param {unknown} request
   * @param {boolean} [atEnd] show the last position (a game just played)
   */
  const load = (request, atEnd = false) => call('POST', '/api/replay', request).then((r) => {
    if (gone) return;
    frames = r.frames;
    at = atEnd ? frames.length - 1 : 0;
    show();
    if (r.declared) part('engine').textContent = t('The record ends: {how}.', { how: statusWithEnding({ to_move: null, ending: r.declared }) });
  }, (e) => { if (!gone) error.textContent = e.message; });

  const form = /** @type {HTMLFormElement} */ (part('form'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = String(new FormData(form).get('text') || '').trim();
    // A record has tags or numbered turns; anything else is a position string.
    const isRecord = text.startsWith('[') || /(^|\s)1\.\s/.test(text);
    load(isRecord ? { record: text } : { position: text });
  });
  root.querySelectorAll('[data-go]').forEach((b) => b.addEventListener('click', () => {
    const go = /** @type {HTMLElement} */ (b).dataset.go;
    const last = frames.length - 1;
    at = go === 'first' ? 0 : go === 'last' ? last : go === 'back' ? Math.max(0, at - 1) : Math.min(last, at + 1);
    show();
  }));
  part('ask').addEventListener('click', () => {
    const f = frames[at];
    if (!f) return;
    part('engine').textContent = t('thinking…');
    call('POST', '/api/analyze', { position: f.position, time_ms: 1000 }).then((a) => {
      // The answer is about the position asked of; the board may have moved on.
      if (gone || frames[at] !== f) return;
      const p = a.win_probability === null ? '' : t(', {p} % to win for {side}', { p: Math.round(a.win_probability * 100), side: a.side.toUpperCase() });
      part('engine').textContent = t('Best turn: {turn}{p}. Line: {line}', { turn: a.turn.join('-'), p, line: a.line.slice(0, 12).join(' ') });
    }, (e) => {
      if (gone || frames[at] !== f) return;
      part('engine').textContent = '';
      error.textContent = e.message;
    });
  });
  if (game) {
    // A game of this server, opened from its page: no copying of records.
    fetch(`/api/games/${encodeURIComponent(game)}/record`).then((r) => {
      if (!r.ok) throw new Error(t('This game cannot be shown: {why}', { why: `${r.status} ${r.statusText}` }));
      return r.text();
    }).then((record) => {
      if (gone) return;
      /** @type {HTMLTextAreaElement} */ (root.querySelector('textarea')).value = record;
      load({ record }, true);
    }, (e) => { if (!gone) error.textContent = e.message; });
  } else {
    load({});
  }
  return () => { gone = true; };
}
