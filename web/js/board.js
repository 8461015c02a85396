// The board view: draws a state's board as SVG and reports clicks and
// keys on cells. It knows no rule: legal cells come from the server.
// Keyboard: the board is one stop in the tab order; the arrow keys (and
// Home/End) move between all cells, Enter or Space plays the focused one.

import { t } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';

/** The data-content word of each board letter (docs/api.md, `board`). */
const CONTENT = /** @type {Record<string, string>} */ ({
  '.': 'empty', X: 'x', O: 'o', x: 'x-zombie', o: 'o-zombie', '#': 'trench', '*': 'obstacle',
  '?': 'unknown',
});

/** What a screen reader says a cell holds. */
const SPOKEN = /** @type {Record<string, () => string>} */ ({
  empty: () => t('empty'), x: () => t('X virus'), o: () => t('O virus'),
  'x-zombie': () => t('zombie of X'), 'o-zombie': () => t('zombie of O'),
  trench: () => t('trench'), obstacle: () => t('obstacle'),
  unknown: () => t('not seen (fog)'),
});

/** The cell that has (or last had) the keyboard's focus, by board. */
const focused = new WeakMap();

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElement}
 */
function el(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/**
 * The name of the cell at a column and a row counted from the top.
 * @param {number} file
 * @param {number} fromTop
 * @param {number} height
 */
export function cellName(file, fromTop, height) {
  return String.fromCharCode(97 + file) + String(height - fromTop);
}

/**
 * Draws `board` (top rank first) into `parent`. With `turned`, the board
 * is drawn rotated (pass-and-play) and the arrow keys follow the screen.
 * The turn to mark is `previous_turn` where the state has it (the other
 * side's whole turn stays marked while a side plays its own), else
 * `last_turn`. The cells of `view.arrive` appear one after another, in
 * that order (an opponent's turn played out; the stylesheet animates it,
 * and the e-ink theme and reduced motion show it at once).
 * @param {HTMLElement} parent
 * In a fog game (docs/api.md, Fog of war) `?` cells are drawn as fog and
 * the enemy pieces of `fog.remembered` (seen before, out of sight now) are
 * marked as remembered.
 * @param {{board: string[], legal: string[], last_turn: string[], previous_turn?: string[], fog?: {remembered: string[]} | null}} state
 * @param {(cell: string, how: 'tap' | 'key') => void} onCell  a click or tap, or Enter or Space, on a cell
 * `view.labels` writes a short text on cells (the engine's line: its turn
 * numbers, in the colour of the side that steps there).
 * `view.arrived` is how long ago (ms) the arrival began: a board drawn again
 * while its cells arrive carries on where it was instead of starting over.
 * @param {{turned?: boolean, label?: string, arrive?: string[], arrived?: number, labels?: Map<string, {text: string, side: string}>}} [view]
 */
export function drawBoard(parent, state, onCell, view = {}) {
  const height = state.board.length;
  const width = height ? state.board[0].length : 0;
  const legal = new Set(state.legal);
  const last = new Set(state.previous_turn || state.last_turn);
  const remembered = new Set(state.fog?.remembered || []);
  const arrive = view.arrive || [];
  const hadFocus = parent.contains(document.activeElement);
  // Coordinates at least about 11.5 px tall where the board is small on the
  // screen (a 19×19 board on a phone), in a margin that grows with them.
  const across = parent.clientWidth || 0;
  const font = across ? Math.min(0.62, Math.max(0.38, 11.5 / (across / (width + 0.8)))) : 0.38;
  const side = Math.max(0.7, font * 1.55);
  const foot = Math.max(0.75, font * 1.75);
  const svg = el('svg', { viewBox: `${-side} -0.1 ${width + side + 0.1} ${height + foot}`, role: 'grid' });
  svg.style.setProperty('--coord', `${font}px`);
  svg.setAttribute('aria-label', view.label || t('board'));
  if (view.arrived) svg.style.setProperty('--arrived', `${Math.round(view.arrived)}ms`);
  /** @type {Map<string, SVGElement>} */
  const cells = new Map();
  state.board.forEach((row, y) => {
    const label = el('text', { x: -side * 0.54, y: y + 0.5 + font * 0.37, class: 'coord', 'text-anchor': 'middle', 'aria-hidden': 'true' });
    label.textContent = String(height - y);
    svg.append(label);
    const line = el('g', { role: 'row' });
    [...row].forEach((letter, x) => {
      const name = cellName(x, y, height);
      const content = CONTENT[letter] || 'empty';
      const g = el('g', { class: 'cell', 'data-cell': name, 'data-content': content, role: 'gridcell', tabindex: -1 });
      let spoken = `${name}, ${(SPOKEN[content] || SPOKEN.empty)()}`;
      if (legal.has(name)) {
        g.setAttribute('data-legal', '');
        spoken += `, ${t('you may step here')}`;
      }
      if (last.has(name)) g.classList.add('last');
      if (remembered.has(name)) {
        g.classList.add('remembered');
        g.setAttribute('data-remembered', '');
        spoken += `, ${t('remembered: out of sight now')}`;
      }
      g.setAttribute('aria-label', spoken);
      g.append(el('rect', { x, y, width: 1, height: 1, class: 'ground' }));
      g.append(...piece(content, x, y));
      // Where a step may go: on an empty cell a dot over its middle third;
      // on an enemy virus it would take, four corners around the piece
      // (a dot inside a ring would read as a third kind of piece).
      const mark = view.labels?.get(name);
      if (legal.has(name) && !mark) {
        if (content === 'empty') g.append(el('circle', { cx: x + 0.5, cy: y + 0.5, r: 0.2, class: 'dot' }));
        else g.append(...corners(x, y));
      }
      if (mark) {
        // On a badge of the page's own ground, ringed in the side's colour,
        // so that the number reads over any piece (a zombie, a virus).
        g.append(el('circle', { cx: x + 0.5, cy: y + 0.5, r: 0.32, class: `label-badge label-badge-${mark.side}` }));
        const text = el('text', { x: x + 0.5, y: y + 0.5 + 0.15, class: `label label-${mark.side}`, 'text-anchor': 'middle' });
        text.textContent = mark.text;
        g.append(text);
        g.dataset.label = mark.text;
      }
      const order = arrive.indexOf(name);
      if (order >= 0) {
        g.classList.add('arrive');
        g.style.setProperty('--arrive', String(order));
      }
      g.addEventListener('click', () => { focused.set(parent, name); onCell(name, 'tap'); });
      g.addEventListener('focus', () => { focused.set(parent, name); });
      g.addEventListener('keydown', (e) => {
        const key = /** @type {KeyboardEvent} */ (e).key;
        if (key === 'Enter' || key === ' ') {
          e.preventDefault();
          onCell(name, 'key');
          return;
        }
        const next = neighbour(x, y, key, width, height, Boolean(view.turned));
        if (next) {
          e.preventDefault();
          const to = cells.get(cellName(next[0], next[1], height));
          if (to) move(to);
        }
      });
      cells.set(name, g);
      line.append(g);
    });
    svg.append(line);
  });
  for (let x = 0; x < width; x++) {
    const label = el('text', { x: x + 0.5, y: height + 0.12 + font, class: 'coord', 'text-anchor': 'middle', 'aria-hidden': 'true' });
    label.textContent = String.fromCharCode(97 + x);
    svg.append(label);
  }
  // One cell is the board's stop in the tab order: the one last focused,
  // else the first legal one, else the first cell.
  /** @param {SVGElement} to */
  const move = (to) => {
    cells.forEach((c) => c.setAttribute('tabindex', '-1'));
    to.setAttribute('tabindex', '0');
    to.focus();
  };
  const stop = cells.get(focused.get(parent)) || cells.get(state.legal[0]) || cells.values().next().value;
  if (stop) stop.setAttribute('tabindex', '0');
  parent.replaceChildren(svg);
  if (hadFocus && stop) stop.focus();
}

/**
 * The four corner marks of a cell whose piece a step may take.
 * @param {number} x
 * @param {number} y
 * @returns {SVGElement[]}
 */
function corners(x, y) {
  const k = 0.26;
  return [[0, 0, 1, 1], [1, 0, -1, 1], [0, 1, 1, -1], [1, 1, -1, -1]].map(([cx, cy, dx, dy]) => el('path', {
    d: `M${x + cx} ${y + cy}h${dx * k}L${x + cx} ${y + cy + dy * k}Z`,
    class: 'take',
  }));
}

/**
 * The cell an arrow key leads to from (x, y), counted from the top left
 * as drawn; `turned` boards are drawn rotated, so the keys turn too.
 * @param {number} x
 * @param {number} y
 * @param {string} key
 * @param {number} width
 * @param {number} height
 * @param {boolean} turned
 * @returns {[number, number] | null}
 */
function neighbour(x, y, key, width, height, turned) {
  const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  // Home and End go to the rank's ends as the screen shows them.
  if (key === 'Home') return [turned ? width - 1 : 0, y];
  if (key === 'End') return [turned ? 0 : width - 1, y];
  if (!d) return null;
  const [dx, dy] = turned ? [-d[0], -d[1]] : d;
  const nx = x + dx;
  const ny = y + dy;
  return nx >= 0 && nx < width && ny >= 0 && ny < height ? [nx, ny] : null;
}

/**
 * The shapes of a cell's content: X a cross, O a ring, zombies the same
 * shape filled pale inside a square, a trench hatched, an obstacle solid.
 * @param {string} content
 * @param {number} x
 * @param {number} y
 * @returns {SVGElement[]}
 */
function piece(content, x, y) {
  const cx = x + 0.5;
  const cy = y + 0.5;
  const cross = (/** @type {string} */ cls) => el('path', {
    d: `M${x + 0.22} ${y + 0.22}L${x + 0.78} ${y + 0.78}M${x + 0.78} ${y + 0.22}L${x + 0.22} ${y + 0.78}`,
    class: cls, 'stroke-width': 0.12, fill: 'none',
  });
  const ring = (/** @type {string} */ cls) => el('circle', { cx, cy, r: 0.28, class: cls, 'stroke-width': 0.1, fill: 'none' });
  const block = (/** @type {string} */ cls) => el('rect', { x: x + 0.12, y: y + 0.12, width: 0.76, height: 0.76, class: `${cls} zombie` });
  switch (content) {
    case 'x': return [cross('piece-x')];
    case 'o': return [ring('piece-o')];
    case 'x-zombie': return [block('piece-x'), ring('piece-o')];
    case 'o-zombie': return [block('piece-o'), cross('piece-x')];
    case 'trench': return [el('path', { d: `M${x} ${y + 1}L${x + 1} ${y}M${x} ${y + 0.5}L${x + 0.5} ${y}M${x + 0.5} ${y + 1}L${x + 1} ${y + 0.5}`, class: 'trench', 'stroke-width': 0.05 })];
    case 'obstacle': return [el('rect', { x: x + 0.1, y: y + 0.1, width: 0.8, height: 0.8, class: 'obstacle' })];
    // Fog of war: a cell this side does not see (docs/api.md, Fog of war).
    case 'unknown': return [
      el('rect', { x, y, width: 1, height: 1, class: 'fog' }),
      ...[[0.3, 0.3], [0.7, 0.3], [0.5, 0.5], [0.3, 0.7], [0.7, 0.7]].map(([dx, dy]) => el('circle', { cx: x + dx, cy: y + dy, r: 0.05, class: 'fog-dot' })),
    ];
    default: return [];
  }
}
