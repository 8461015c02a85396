// A game's positions step by step (the server's `POST /api/replay`
// frames), and where its turns end. Which side is to move comes from the
// server's `to_move`; no rule is decided here.

/**
 * @typedef {{seq: number, step: string | null, position: string, board: string[],
 *   legal: string[], to_move: string | null, status: string,
 *   ending: import('./api.js').EndingState | null, steps_left: number}} Frame
 */

/**
 * The index of the frame that ends each turn: the last frame before the
 * side to move changes (or the game ends), and the last frame.
 * @param {Frame[]} frames  frame 0 is the start, frame k follows step k
 * @returns {number[]}
 */
export function turnEnds(frames) {
  /** @param {Frame} f */
  const mover = (f) => f.to_move ?? '';
  /** @type {number[]} */
  const ends = [];
  for (let k = 1; k < frames.length; k++) {
    const last = k === frames.length - 1;
    if (last || mover(frames[k]) !== mover(frames[k - 1])) ends.push(k);
  }
  return ends;
}
