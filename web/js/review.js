// The engine's review of a finished game of this server (`POST` and `GET
// /api/games/{id}/analysis`): asked for once, followed until it is done,
// and drawn as the win-chance graph (SVG: a column a turn, tapped or
// hovered to go to that turn), each side's accuracy and its inaccuracies,
// mistakes and blunders. Every number and judgement is the server's.

import { call, statusOf } from './api.js';
import { t } from './i18n.js';

/**
 * @typedef {{turn: number, side: string, steps: string[], x_win_before: number,
 *   x_win_after: number, best: string[], judgement: string | null}} TurnJudged
 * @typedef {{status: string, turns: TurnJudged[], accuracy: {x: number, o: number},
 *   judged: number, of: number}} GameAnalysis
 */

/** The marks of the judgements, as chess annotates moves. */
export const MARKS = /** @type {Record<string, string>} */ ({ inaccuracy: '?!', mistake: '?', blunder: '??' });

/** How often a review still running is asked for again. */
const POLL_MS = 1000;

/**
 * Asks for game `id`'s review (once: the server keeps it) and follows it:
 * `onChange` gets each answer, or a sentence when there is none to show.
 * @param {string} id
 * @param {(a: GameAnalysis | null, why?: string) => void} onChange
 * @returns {() => void} stops following
 */
export function followReview(id, onChange) {
  let stopped = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const path = `/api/games/${encodeURIComponent(id)}/analysis`;
  /** @param {GameAnalysis} a */
  const seen = (a) => {
    if (stopped) return;
    onChange(a);
    if (a.status !== 'done') timer = setTimeout(poll, POLL_MS);
  };
  /** @param {unknown} e */
  const failed = (e) => { if (!stopped) onChange(null, /** @type {Error} */ (e).message); };
  const poll = () => call('GET', path).then(seen, failed);
  call('GET', path).then(seen, (e) => {
    // Nobody asked yet: ask (refused while the game is played).
    if (statusOf(e) === 404) call('POST', path).then(seen, failed);
    else failed(e);
  });
  return () => { stopped = true; clearTimeout(timer); };
}

const SVG = 'http://www.w3.org/2000/svg';

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 */
function el(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** @param {number} p */
const percent = (p) => Math.round(p * 100);

/**
 * A turn in words: who, the judgement, X's chance before and after.
 * @param {TurnJudged} turn
 */
export function turnWords(turn) {
  const words = t('Turn {n}, {side}: X {before} % → {after} %', {
    n: turn.turn, side: turn.side.toUpperCase(), before: percent(turn.x_win_before), after: percent(turn.x_win_after),
  });
  return turn.judgement ? `${words}, ${t(turn.judgement)}` : words;
}

/**
 * Draws review `a` into `box`: the accuracy, the judgements counted, and
 * the graph with the turn `shown` (0: none) marked; `onTurn(n)` goes to
 * the end of turn n.
 * @param {HTMLElement} box
 * @param {GameAnalysis} a
 * @param {number} shown
 * @param {(n: number) => void} onTurn
 */
export function drawReview(box, a, shown, onTurn) {
  // The same review again (the turn shown moved): the graph stays, so a
  // finger sliding along it keeps its hold; only the marker and the line
  // under it follow.
  const kept = drawn.get(box);
  if (kept && kept.review === a && box.contains(kept.chart)) {
    kept.show(shown);
    return;
  }
  drawn.delete(box);
  const n = a.turns.length;
  const title = document.createElement('h2');
  title.textContent = t('The engine\'s review');
  const progress = document.createElement('p');
  progress.dataset.reviewStatus = a.status;
  if (a.status !== 'done') {
    // No figure before it is known: a bar while the engine judges.
    const bar = document.createElement('progress');
    bar.max = Math.max(1, a.of);
    bar.value = a.judged;
    bar.dataset.reviewProgress = '';
    progress.append(t('The engine is judging the game: {k} of {n} turns…', { k: a.judged, n: a.of }), ' ', bar);
    box.replaceChildren(title, progress);
    return;
  }
  progress.textContent = t('Every turn judged: level 9\'s search, 0.3 s a position.');
  const sides = document.createElement('p');
  sides.className = 'accuracy';
  sides.dataset.accuracy = '';
  sides.replaceChildren(...['x', 'o'].map((side) => {
    const span = document.createElement('span');
    const mine = a.turns.filter((turn) => turn.side === side);
    const count = (/** @type {string} */ j) => mine.filter((turn) => turn.judgement === j).length;
    span.dataset.side = side;
    span.textContent = t('{side}: accuracy {a} % · inaccuracies {i}, mistakes {m}, blunders {b}', {
      side: side.toUpperCase(), a: Math.round(a.accuracy[/** @type {'x' | 'o'} */ (side)]),
      i: count('inaccuracy'), m: count('mistake'), b: count('blunder'),
    });
    return span;
  }));
  box.replaceChildren(title, progress, sides);
  if (!n) return;
  const chart = graph(a, shown, onTurn);
  box.append(chart.figure);
  drawn.set(box, { review: a, chart: chart.figure, show: chart.show });
}

/** The graph drawn in each box, by the review it shows. @type {WeakMap<HTMLElement, {review: GameAnalysis, chart: Element, show: (n: number) => void}>} */
const drawn = new WeakMap();

/**
 * The win-chance graph: X's chance after each turn (X's side above the
 * middle), the judged turns marked, one column a turn to tap or hover,
 * with its axes (X ahead above, O below; the turns along the bottom) and
 * a line that says the turn under the finger. A finger pressed and slid
 * along it goes through the turns, as a mouse over it does.
 * @param {GameAnalysis} a
 * @param {number} shown
 * @param {(n: number) => void} onTurn
 * @returns {{figure: HTMLElement, show: (n: number) => void}}
 */
function graph(a, shown, onTurn) {
  const n = a.turns.length;
  const svg = el('svg', { viewBox: `0 0 ${n} 1`, preserveAspectRatio: 'none', class: 'review-graph', role: 'group' });
  svg.setAttribute('aria-label', t('X\'s chance to win, turn by turn'));
  const points = [[0, 1 - a.turns[0].x_win_before], ...a.turns.map((turn, k) => [k + 1, 1 - turn.x_win_after])];
  const line = points.map(([x, y]) => `${x},${y}`).join(' ');
  svg.append(
    el('polygon', { points: `0,1 ${line} ${n},1`, class: 'review-x' }),
    el('line', { x1: 0, y1: 0.5, x2: n, y2: 0.5, class: 'review-middle' }),
    el('polyline', { points: line, class: 'review-line' }),
  );
  a.turns.forEach((turn, k) => {
    if (turn.judgement) {
      svg.append(el('line', { x1: k + 1, y1: 0, x2: k + 1, y2: 1, class: `review-mark review-${turn.judgement}` }));
    }
  });
  const marker = el('line', { x1: 0, y1: 0, x2: 0, y2: 1, class: 'review-shown' });
  svg.append(marker);
  // A column a turn for the keyboard and screen readers; a tap or the
  // mouse anywhere over the graph goes to the turn under it.
  a.turns.forEach((turn, k) => {
    const column = el('rect', { x: k, y: 0, width: 1, height: 1, class: 'review-turn', tabindex: 0, role: 'button' });
    column.setAttribute('aria-label', turnWords(turn));
    column.dataset.turn = String(turn.turn);
    const tip = el('title', {});
    tip.textContent = turnWords(turn);
    column.append(tip);
    column.addEventListener('keydown', (e) => {
      const key = /** @type {KeyboardEvent} */ (e).key;
      if (key === 'Enter' || key === ' ') { e.preventDefault(); onTurn(turn.turn); }
    });
    svg.append(column);
  });
  const under = document.createElement('p');
  under.className = 'review-under';
  under.dataset.reviewUnder = '';
  under.setAttribute('aria-live', 'polite');
  let now = 0;
  /** @param {number} k the turn shown, 0: none */
  const show = (k) => {
    now = k;
    const turn = a.turns[k - 1];
    marker.setAttribute('visibility', turn ? 'visible' : 'hidden');
    marker.setAttribute('x1', String(k));
    marker.setAttribute('x2', String(k));
    under.textContent = turn ? turnWords(turn) : t('Tap the graph, or slide a finger along it, to see a turn.');
    if (turn?.judgement) under.dataset.judgement = turn.judgement;
    else delete under.dataset.judgement;
  };
  show(shown);
  /** @param {PointerEvent} e */
  const at = (e) => {
    const box = svg.getBoundingClientRect();
    return Math.min(n, Math.max(1, Math.ceil(((e.clientX - box.left) / box.width) * n)));
  };
  /** @param {PointerEvent} e */
  const go = (e) => {
    const k = at(e);
    if (k === now) return;
    show(k);
    onTurn(k);
  };
  // A mouse goes at once, and hovering goes too. A finger waits to be
  // read: sideways it slides through the turns (held from then on, also
  // off the graph), lifted where it landed it is a tap, and up or down it
  // is the page's scroll (the browser then cancels it) and changes nothing.
  /** @type {{id: number, x: number, y: number, sliding: boolean} | null} */
  let finger = null;
  svg.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse') { go(e); return; }
    finger = { id: e.pointerId, x: e.clientX, y: e.clientY, sliding: false };
  });
  svg.addEventListener('pointermove', (e) => {
    if (e.pointerType === 'mouse') { go(e); return; }
    if (!finger || finger.id !== e.pointerId) return;
    if (!finger.sliding) {
      const dx = Math.abs(e.clientX - finger.x);
      const dy = Math.abs(e.clientY - finger.y);
      if (dx < 6 || dx < dy) return;
      finger.sliding = true;
      try { svg.setPointerCapture(e.pointerId); } catch { /* not a live pointer */ }
    }
    go(e);
  });
  svg.addEventListener('pointerup', (e) => {
    const still = finger && Math.hypot(e.clientX - finger.x, e.clientY - finger.y) < 10;
    if (finger && finger.id === e.pointerId && !finger.sliding && still) go(e);
    finger = null;
  });
  svg.addEventListener('pointercancel', () => { finger = null; });
  // The axes: who is ahead up and down, the turns along the bottom.
  const axis = (/** @type {string} */ cls, /** @type {string[]} */ words) => {
    const box = document.createElement('div');
    box.className = cls;
    box.setAttribute('aria-hidden', 'true');
    box.replaceChildren(...words.map((w) => {
      const span = document.createElement('span');
      span.textContent = w;
      return span;
    }));
    return box;
  };
  const figure = document.createElement('figure');
  figure.className = 'review-chart';
  figure.dataset.reviewChart = '';
  // The first, middle and last turns, each once (a short game has fewer).
  const marks = [...new Set([1, Math.ceil(n / 2), n])];
  const turnsAxis = axis('review-axis-turns', marks.map((k) => t('turn {n}', { n: k })));
  turnsAxis.dataset.axis = 'turns';
  const sidesAxis = axis('review-axis-sides', [t('X ahead'), '50 %', t('O ahead')]);
  sidesAxis.dataset.axis = 'sides';
  figure.append(sidesAxis, svg, document.createElement('span'), turnsAxis, under);
  return { figure, show };
}
