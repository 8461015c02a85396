// A game under analysis: its main line as loaded, one variation that
// branches from it, and where the board stands. Trying a step never cuts
// the main line: a step other than the game's starts (or replaces) the
// variation beside it. Frames come from the server (history.js).

/** @typedef {import('./history.js').Frame} Frame */

/**
 * @typedef {{
 *   main: Frame[],
 *   branch: {from: number, frames: Frame[]} | null,
 *   at: {branch: boolean, k: number},
 * }} Lines
 */

/**
 * A loaded game, at frame `k` of its main line.
 * @param {Frame[]} frames  frame 0 the start, frame k after step k
 * @param {number} [k]
 * @returns {Lines}
 */
export function loaded(frames, k = 0) {
  return { main: frames, branch: null, at: { branch: false, k: Math.max(0, Math.min(k, frames.length - 1)) } };
}

/**
 * The frames from the start to the end of the line the board is on.
 * @param {Lines} l
 */
export function path(l) {
  return l.at.branch && l.branch ? l.main.slice(0, l.branch.from + 1).concat(l.branch.frames) : l.main;
}

/**
 * Where the board is along `path(l)`.
 * @param {Lines} l
 */
export function index(l) {
  return l.at.branch && l.branch ? l.branch.from + 1 + l.at.k : l.at.k;
}

/**
 * The frame the board shows.
 * @param {Lines} l
 * @returns {Frame | undefined}
 */
export function current(l) {
  return path(l)[index(l)];
}

/**
 * The board moved to `to` along its line (clamped); back past the
 * variation's start it is on the main line again.
 * @param {Lines} l
 * @param {number} to
 * @returns {Lines}
 */
export function go(l, to) {
  const p = path(l);
  const k = Math.max(0, Math.min(to, p.length - 1));
  if (l.at.branch && l.branch && k > l.branch.from) return { ...l, at: { branch: true, k: k - l.branch.from - 1 } };
  return { ...l, at: { branch: false, k } };
}

/**
 * The step `cell` tried where the board is: along the main line if it is
 * the game's own next step; else `next` (the server's frame after it)
 * starts a variation there, or continues the variation the board is on
 * (what followed in the variation is replaced; the main line never is).
 * With no `next` frame to give (null), only the moves along a line are made
 * (null when the step is on neither line).
 * @param {Lines} l
 * @param {string} cell
 * @param {() => Promise<Frame | null>} next
 * @returns {Promise<Lines | null>}
 */
export async function tryStep(l, cell, next) {
  if (!l.at.branch && l.main[l.at.k + 1]?.step === cell) return go(l, l.at.k + 1);
  // From where the variation leaves the game, its own first step enters it.
  if (!l.at.branch && l.branch && l.branch.from === l.at.k && l.branch.frames[0]?.step === cell) {
    return { ...l, at: { branch: true, k: 0 } };
  }
  if (l.at.branch && l.branch && l.branch.frames[l.at.k + 1]?.step === cell) return go(l, index(l) + 1);
  const here = current(l);
  const frame = await next();
  if (!frame) return null;
  const after = { ...frame, seq: (here ? here.seq : 0) + 1 };
  if (l.at.branch && l.branch) {
    const frames = l.branch.frames.slice(0, l.at.k + 1).concat([after]);
    return { ...l, branch: { from: l.branch.from, frames }, at: { branch: true, k: frames.length - 1 } };
  }
  return { ...l, branch: { from: l.at.k, frames: [after] }, at: { branch: true, k: 0 } };
}
