// The state of the puzzle trainer: the puzzle, the line stepped from its
// position, the board after it, and the server's judgement of each whole
// turn. Every request goes through here (api.js); the page (puzzles.js)
// draws what the store holds and decides no rule: legal cells come from
// the server's replay of the line, judgements from its attempt answers.

import { call, replay } from './api.js';

/**
 * @typedef {import('./history.js').Frame} Frame
 * @typedef {{id: string, variant: string, start: Frame, turns_to_find: number, themes: string[],
 *   rating: number, plays: number, solved: number, tried: boolean,
 *   your_rating: import('./account.js').Rating | null}} PuzzleView
 * @typedef {{correct: boolean, reply: string[], done: boolean, solution: string[][] | null, to_the_end?: string[][] | null,
 *   your_rating: {before: number, after: number, rd: number} | null, puzzle_rating: number,
 *   plays: number, solved: number}} Answer
 * @typedef {{
 *   puzzle: PuzzleView | null,
 *   line: string[],
 *   turnStart: number,
 *   frame: Frame | null,
 *   marked: string[],
 *   solution: string[] | null,
 *   turnsPlayed: number,
 *   verdict: '' | 'right' | 'wrong' | 'solved' | 'shown',
 *   rated: {before: number, after: number} | null,
 *   busy: boolean,
 *   error: string,
 *   missed: boolean,
 *   whole: string[][] | null,
 *   toTheEnd: string[][] | null,
 *   counts: {plays: number, solved: number} | null,
 *   showing: boolean,
 * }} PuzzleSnapshot
 *   `line`: right turns, replies and the turn being stepped, from the
 *   puzzle's position; `turnStart`: where that turn starts in it; `marked`:
 *   the other side's turn just played (or the wrong turn), marked on the
 *   board; `solution`: the winning turn, numbered once missed;
 *   `turnsPlayed`: whole turns in `line` before the turn being stepped;
 *   `missed`: a turn was wrong (the board takes a retry, the rating moved
 *   on the first try only); `whole`: every turn of the solution, once the
 *   server has told it (a miss, or solved); `toTheEnd`: where the solution
 *   leaves the game on, one way on to its end (whole turns after it); verdict `shown`: the solution
 *   was played out on the board; `counts`: the puzzle's figures after a
 *   try the server counted; `showing`: the solution is being played out
 *   (the board takes no step, whatever else fails meanwhile)
 */

/** @param {PuzzleView | null} puzzle @returns {PuzzleSnapshot} */
const fresh = (puzzle) => ({
  puzzle, line: [], turnStart: 0, frame: puzzle ? puzzle.start : null, marked: [], solution: null,
  turnsPlayed: 0, verdict: '', rated: null, busy: false, error: '', missed: false, whole: null, toTheEnd: null, counts: null,
  showing: false,
});

/**
 * Solved, or its solution played out: the board takes no more steps (a
 * miss leaves it open for another try).
 * @param {PuzzleSnapshot} s
 */
export const isOver = (s) => s.verdict === 'solved' || s.verdict === 'shown';

/** How long each step of a solution played out stays on the board. */
const SHOW_STEP_MS = 600;

/** A store for the puzzle trainer. */
export function puzzleStore() {
  let snap = fresh(null);
  let gone = false;
  /** @type {Set<(s: PuzzleSnapshot) => void>} */
  const listeners = new Set();

  /** @param {Partial<PuzzleSnapshot>} patch */
  const set = (patch) => {
    if (gone) return;
    snap = { ...snap, ...patch };
    for (const f of listeners) f(snap);
  };
  /** @param {unknown} e */
  const fail = (e) => set({ busy: false, error: e instanceof Error ? e.message : String(e) });

  /** The board after `line` (a replay from the puzzle's position). @param {string[]} line */
  const after = async (line) => {
    if (!snap.puzzle) return null;
    const r = await replay({ position: snap.puzzle.start.position, moves: line });
    return /** @type {Frame} */ (r.frames[r.frames.length - 1]);
  };

  /** @param {Promise<PuzzleView>} asked */
  const open = (asked) => asked.then((p) => set(fresh(p)), fail);

  /** The server's judgement of the whole turn ending `line`. @param {Answer} a */
  const judged = async (a) => {
    const s = snap;
    const was = s.puzzle;
    if (!was) return;
    /** @param {Partial<PuzzleSnapshot>} patch  dropped if another puzzle came meanwhile */
    const settle = (patch) => { if (snap.puzzle === was) set(patch); };
    const rated = a.your_rating ? { before: a.your_rating.before, after: a.your_rating.after } : s.rated;
    const counts = { plays: a.plays, solved: a.solved };
    const whole = a.solution || s.whole;
    const toTheEnd = a.to_the_end || s.toTheEnd;
    if (!a.correct) {
      // Back to the position before the wrong turn, which stays marked:
      // the board takes another try; the solution waits to be asked for.
      const line = s.line.slice(0, s.turnStart);
      const frame = await after(line);
      const solution = (whole || [])[s.turnsPlayed] || [];
      settle({ verdict: 'wrong', rated, counts, whole, toTheEnd, missed: true, line, frame, solution, marked: s.line.slice(s.turnStart), turnStart: line.length, busy: false });
      return;
    }
    if (a.done) {
      settle({ verdict: 'solved', rated, counts, whole, toTheEnd, marked: s.line.slice(s.turnStart), turnStart: s.line.length, busy: false });
      return;
    }
    const line = s.line.concat(a.reply);
    const frame = await after(line);
    settle({ verdict: 'right', rated, line, marked: a.reply, turnStart: line.length, turnsPlayed: s.turnsPlayed + 2, frame, busy: false });
  };

  return {
    /** @param {(s: PuzzleSnapshot) => void} f */
    subscribe(f) { listeners.add(f); f(snap); return () => listeners.delete(f); },
    /** @param {string} id */
    open: (id) => open(call('GET', `/api/puzzles/${encodeURIComponent(id)}`)),
    /**
     * The next puzzle of the choice, another than the one shown.
     * @param {{theme: string, variant: string}} choice
     */
    next(choice) {
      const q = new URLSearchParams();
      if (choice.theme) q.set('theme', choice.theme);
      if (choice.variant) q.set('variant', choice.variant);
      if (snap.puzzle) q.set('not', snap.puzzle.id);
      set({ error: '' });
      return open(call('GET', `/api/puzzles/next?${q}`));
    },
    /** A step of the turn being found. @param {string} cell */
    async step(cell) {
      const s = snap;
      if (!s.puzzle || !s.frame || isOver(s) || s.busy || s.showing || !s.frame.legal.includes(cell)) return;
      // Where the board was: back to it if a request fails; an answer that
      // comes after "Next puzzle" is dropped.
      const was = s.puzzle;
      const line = s.line.concat([cell]);
      // A new try after a miss: the miss's words go.
      set({ busy: true, error: '', line, verdict: s.verdict === 'wrong' ? '' : s.verdict });
      try {
        const f = await after(line);
        if (snap.puzzle !== was || !f) return;
        const whole = f.turn_start || f.ending !== null;
        set({ frame: f, busy: whole });
        if (!whole) return;
        /** @type {Answer} */
        const a = await call('POST', `/api/puzzles/${was.id}/attempt`, { steps: line });
        if (snap.puzzle !== was) return;
        await judged(a);
      } catch (e) {
        if (snap.puzzle !== was) return;
        set({ line: s.line, frame: s.frame, marked: s.marked });
        fail(e);
      }
    },
    /**
     * After a miss: the solution played out from the turn being found, a
     * step at a time, to its end; then the board takes no more steps.
     */
    async showSolution() {
      const s = snap;
      const was = s.puzzle;
      if (!was || !s.whole || isOver(s) || s.busy || s.showing) return;
      const start = s.line.slice(0, s.turnStart);
      const rest = s.whole.slice(s.turnsPlayed).flat();
      const line = start.concat(rest);
      set({ busy: true, showing: true, error: '', line: start, marked: [] });
      try {
        const r = await replay({ position: was.start.position, moves: line });
        /** @type {Frame[]} */
        const frames = r.frames;
        for (let k = start.length + 1; k < frames.length; k++) {
          await new Promise((done) => { setTimeout(done, SHOW_STEP_MS); });
          if (snap.puzzle !== was) return;
          set({ frame: frames[k], line: line.slice(0, k), marked: [] });
        }
        if (snap.puzzle !== was) return;
        set({ verdict: 'shown', busy: false, showing: false, turnStart: line.length, marked: rest });
      } catch (e) {
        if (snap.puzzle !== was) return;
        set({ line: s.line, frame: s.frame, marked: s.marked, busy: false, showing: false });
        fail(e);
      }
    },
    /** The turn being stepped, taken back. */
    async again() {
      const s = snap;
      if (isOver(s) || s.busy || s.showing) return;
      const line = s.line.slice(0, s.turnStart);
      try {
        const frame = await after(line);
        if (snap.puzzle === s.puzzle) set({ line, frame });
      } catch (e) {
        fail(e);
      }
    },
    /** The page is left. */
    stop() { gone = true; listeners.clear(); },
  };
}
