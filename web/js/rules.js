// The rules, illustrated. Every board here is a real position the server
// replays (`POST /api/replay`): its legal cells are the server's, so the
// pictures cannot drift from the rules engine.

import { replay } from './api.js';
import { drawBoard } from './board.js';
import { statusText, t } from './i18n.js';
import { VARIANTS } from './newgame.js';

/**
 * An example: where it starts, the steps played, and which positions to
 * draw (0 the start, k after step k).
 * @typedef {{title: string, text: string, request: Record<string, unknown>, show: number[]}} Example
 */

/** @type {Example[]} */
export const EXAMPLES = [
  {
    title: 'A turn of steps',
    text: 'rules-turn',
    request: { variant: 'classic', size: '6x6', moves: ['a1', 'b2', 'c3'] },
    show: [1, 3],
  },
  {
    title: 'A group cut off from its live viruses',
    text: 'rules-cut',
    request: {
      position: '6x6 steps=3,first=3,start=corner-entry,end=standard 4OO/4OO/3xO1/X1X3/XX4/XXXX2 o 3 6 XO 0',
      moves: ['d3', 'c3', 'f3'],
    },
    show: [0, 3],
  },
  {
    title: 'A zombie chain that keeps a group alive',
    text: 'rules-chain',
    request: {
      position: '6x6 steps=3,first=3,start=corner-entry,end=standard 3OOO/4OO/3x1O/X1x2O/XXX3/XXX3 x 3 7 XO 0',
      moves: ['e5', 'f4', 'f5'],
    },
    show: [0, 3],
  },
];

/**
 * @param {HTMLElement} root
 * @returns {() => void}
 */
export function showRules(root) {
  root.innerHTML = `<article class="rules"><h2>${t('The rules')}</h2>
    <p>${t('rules-intro')}</p>
    <p>${t('rules-access')}</p>
    <div data-examples></div>
    <h3>${t('The variants')}</h3>
    <p>${t('rules-variants')}</p>
    <dl class="variants" data-variants>${VARIANTS.map((v) => `<dt>${t(v.name)}</dt><dd>${t(v.about)}</dd>`).join('')}</dl>
    <p class="error" data-error role="alert"></p>
  </article>`;
  const list = /** @type {HTMLElement} */ (root.querySelector('[data-examples]'));
  const error = /** @type {HTMLElement} */ (root.querySelector('[data-error]'));
  let gone = false;
  EXAMPLES.forEach((ex, n) => {
    const section = document.createElement('section');
    section.dataset.example = String(n + 1);
    const h = document.createElement('h3');
    h.textContent = t(ex.title);
    const p = document.createElement('p');
    p.textContent = t(ex.text);
    const boards = document.createElement('div');
    boards.className = 'examples';
    section.append(h, p, boards);
    list.append(section);
    replay(ex.request).then((r) => {
      if (gone) return;
      /** @type {import('./history.js').Frame[]} */
      const frames = r.frames;
      boards.replaceChildren(...ex.show.map((k) => {
        const f = frames[k];
        const figure = document.createElement('figure');
        figure.dataset.frame = String(k);
        const board = document.createElement('div');
        board.className = 'board';
        const caption = document.createElement('figcaption');
        const when = k === 0 ? t('before') : t('after step {k}', { k });
        caption.textContent = `${when}: ${statusText(f)}`;
        figure.append(board, caption);
        // The steps of the example up to here are marked as the last turn.
        const steps = frames.slice(1, k + 1).map((x) => x.step || '');
        drawBoard(board, { board: f.board, legal: f.legal, last_turn: steps }, () => {}, { label: `${t(ex.title)}, ${when}` });
        return figure;
      }));
    }, (e) => {
      error.textContent = t('The examples could not be loaded: {why}', { why: e.message });
    });
  });
  return () => { gone = true; };
}
