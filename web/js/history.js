// A game's positions step by step (the server's `POST /api/replay`
// frames), and where its turns end. Which side is to move and where a
// turn ends come from the server's `to_move` and `turn_start`; no rule is
// decided here.

/**
 * @typedef {{seq: number, step: string | null, position: string, board: string[],
 *   legal: string[], to_move: string | null, status: string,
 *   ending: import('./api.js').EndingState | null, steps_left: number,
 *   turn: number, turn_start: boolean}} Frame
 */

/**
 * The index of the frame that ends each turn: each frame where a turn
 * ended (the server's `turn_start`) or the game did, and the last frame.
 * @param {Frame[]} frames  frame 0 is the start, frame k follows step k
 * @returns {number[]}
 */
export function turnEnds(frames) {
  /** @type {number[]} */
  const ends = [];
  for (let k = 1; k < frames.length; k++) {
    const f = frames[k];
    if (k === frames.length - 1 || f.turn_start || f.ending !== null) ends.push(k);
  }
  return ends;
}
