// The state of the analysis board: the lines (the game and one variation),
// where the board stands, the engine's answer for a position, the game's
// review and the exercise under way. Every request the page makes goes
// through here (api.js); the page (analysis.js) draws what the store holds
// and decides no rule: frames, legal cells and judgements come from the
// server.

import { call, recordOf, replay } from './api.js';
import { turnEnds } from './history.js';
import { statusWithEnding, t } from './i18n.js';
import { current, go, index, loaded, path, tryStep } from './variation.js';
import { followReview } from './review.js';
import { judgeTried, tried } from './exercises.js';

/**
 * @typedef {import('./history.js').Frame} Frame
 * @typedef {Map<string, {text: string, side: string}>} Labels
 * @typedef {{frame: Frame, text: string, x: number | null, labels: Labels | null}} EngineNote
 *   what the engine box says while `frame` is shown: its words, X's chance in
 *   % (null: none), and its line numbered on the board
 * @typedef {{
 *   lines: import('./variation.js').Lines,
 *   engine: EngineNote | null,
 *   review: import('./review.js').GameAnalysis | null,
 *   reviewWhy: string,
 *   exercise: import('./exercises.js').Exercise | null,
 *   exercisesDone: Map<number, string>,
 *   seenFrom: string,
 *   record: string,
 *   error: string,
 * }} AnalysisSnapshot
 */

/** A store for the analysis board. */
export function analysisStore() {
  /** @type {AnalysisSnapshot} */
  let snap = {
    lines: loaded([]), engine: null, review: null, reviewWhy: '', exercise: null,
    exercisesDone: new Map(), seenFrom: '', record: '', error: '',
  };
  /** Set once the page is left: answers that come later are dropped. */
  let gone = false;
  let stopReview = () => {};
  /** @type {Set<(s: AnalysisSnapshot) => void>} */
  const listeners = new Set();

  /** @param {Partial<AnalysisSnapshot>} patch */
  const set = (patch) => {
    if (gone) return;
    snap = { ...snap, ...patch };
    for (const f of listeners) f(snap);
  };
  /** @param {unknown} e */
  const failed = (e) => set({ error: /** @type {Error} */ (e).message });
  /** The board moved: the error said about the last position is gone. @param {import('./variation.js').Lines} lines */
  const moved = (lines) => set({ lines, error: '' });
  const onMain = () => ({ ...snap.lines, at: { branch: false, k: 0 } });

  /** The judged turn that the frame shown ends (on the game's own line), if any. */
  const judgedTurn = () => judgedTurnOf(snap);

  /**
   * @param {Record<string, unknown>} request
   * @param {boolean} [atEnd] show the last position (a game just played)
   */
  const load = (request, atEnd = false) => loadedFrom(request, atEnd).then(set, failed);

  /** After a step: a whole turn tried from the exercise's start is judged. */
  const checkExercise = async () => {
    const ex = snap.exercise;
    try {
      const outcome = await triedTurn(snap);
      if (!ex || !outcome || snap.exercise !== ex) return;
      const done = new Map(snap.exercisesDone);
      if (outcome !== 'same' && !done.has(ex.turn.turn)) done.set(ex.turn.turn, outcome);
      // Back to the start: the turn played again, or the engine's turn shown there.
      const back = outcome !== 'found' ? go(onMain(), ex.from) : snap.lines;
      set({ exercise: { ...ex, outcome }, exercisesDone: done, lines: back });
    } catch (e) {
      failed(e);
    }
  };

  return {
    /** @param {(s: AnalysisSnapshot) => void} f */
    subscribe(f) { listeners.add(f); f(snap); return () => listeners.delete(f); },
    get: () => snap,
    judgedTurn,
    load,
    /**
     * A game of this server: its record, shown at its end, and the
     * engine's review, followed while it runs.
     * @param {string} id
     */
    async loadGame(id) {
      let record;
      try {
        record = await recordOf(encodeURIComponent(id));
      } catch (e) {
        set({ error: t('This game cannot be shown: {why}', { why: /** @type {Error} */ (e).message }) });
        return;
      }
      if (gone) return;
      set({ record });
      await load({ record }, true);
      // Left meanwhile: no review is asked for a page nobody sees.
      if (gone) return;
      stopReview = followReview(id, (review, why) => {
        if (review) set({ review });
        else set({ reviewWhy: why || '' });
      });
    },
    /** @param {string} view  '' (the whole board), x, o or watchers */
    seeAs(view) {
      const from = snap.seenFrom;
      if (!from) return;
      const at = snap.lines.at.branch ? 0 : snap.lines.at.k;
      replay(view ? { record: from, view } : { record: from })
        .then((r) => moved(loaded(r.frames, at)), failed);
    },
    /** @param {string} where  first, back, next or last */
    move(where) {
      const k = index(snap.lines);
      const to = { first: 0, back: k - 1, next: k + 1, last: path(snap.lines).length - 1 }[where];
      moved(where === 'first' ? go(onMain(), 0) : go(snap.lines, to ?? k));
    },
    /** Step `k` of the game's own line. @param {number} k */
    toMain(k) { moved(go(onMain(), k)); },
    /** Step `k` of the variation. @param {number} k */
    toBranch(k) { moved({ ...snap.lines, at: { branch: true, k } }); },
    /** The end of judged turn `n` of the game. @param {number} n */
    toTurn(n) {
      const end = turnEnds(snap.lines.main)[n - 1];
      if (end !== undefined) moved(go(onMain(), end));
    },
    /**
     * A step tried where the board is (the server plays it off the line).
     * @param {string} step
     */
    async vary(step) {
      const f = current(snap.lines);
      if (!f) return;
      try {
        // The game's own next step, or the variation's, needs no server.
        const along = await tryStep(snap.lines, step, async () => null)
          ?? await offTheLine(f, step, () => snap.lines);
        if (!along) return;
        moved(along);
        checkExercise();
      } catch (e) {
        failed(e);
      }
    },
    /** The engine asked about the position shown. */
    async ask() {
      const f = current(snap.lines);
      if (!f) return;
      set({ engine: { frame: f, text: t('thinking…'), x: null, labels: null } });
      try {
        const note = await engineNote(f);
        // Asked again meanwhile (of another position): that answer stands.
        if (snap.engine?.frame !== f) return;
        set({ engine: note });
      } catch (e) {
        if (snap.engine?.frame !== f) return;
        // No "thinking…" left behind; the error said only while the board
        // still shows the position asked of.
        const error = current(snap.lines) === f ? /** @type {Error} */ (e).message : snap.error;
        set({ engine: null, error });
      }
    },
    /** @param {import('./review.js').TurnJudged} turn */
    startExercise(turn) {
      const from = turn.turn === 1 ? 0 : turnEnds(snap.lines.main)[turn.turn - 2];
      if (from === undefined) return;
      set({ exercise: { turn, from, outcome: '' }, engine: null, lines: go(onMain(), from), error: '' });
    },
    endExercise() { set({ exercise: null }); },
    /** The page is left. */
    stop() { gone = true; stopReview(); listeners.clear(); },
  };
}

/**
 * The judged turn that the frame `snap` shows ends (on the game's own
 * line), if any.
 * @param {AnalysisSnapshot} snap
 */
function judgedTurnOf(snap) {
  const { review, lines } = snap;
  if (!review || lines.at.branch) return null;
  const n = turnEnds(lines.main).indexOf(lines.at.k) + 1;
  return review.turns[n - 1] || null;
}

/**
 * What the board shows once `request` (a record, a position) is replayed:
 * the lines at the start (`atEnd`: at the end), a fog record kept to be
 * seen as each side saw it, and how a record that declares its end ended.
 * @param {Record<string, unknown>} request
 * @param {boolean} atEnd
 * @returns {Promise<Partial<AnalysisSnapshot>>}
 */
async function loadedFrom(request, atEnd) {
  const r = await replay(request);
  const lines = loaded(r.frames, atEnd ? r.frames.length - 1 : 0);
  // A fog game's record: each side's view may be shown instead (the server's frames).
  const seenFrom = r.fog ? /** @type {{record?: string}} */ (request).record || '' : '';
  const f = current(lines);
  const engine = r.declared && f
    ? { frame: f, text: t('The record ends: {how}.', { how: statusWithEnding({ to_move: null, ending: r.declared }) }), x: null, labels: null }
    : null;
  return { lines, seenFrom, engine, error: '' };
}

/**
 * Step `step` tried off the lines at frame `f` (the server plays it): the
 * lines with it, as they are once it is played (`now`); null where the
 * board moved meanwhile.
 * @param {Frame} f
 * @param {string} step
 * @param {() => import('./variation.js').Lines} now
 * @returns {Promise<import('./variation.js').Lines | null>}
 */
async function offTheLine(f, step, now) {
  const r = await replay({ position: f.position, moves: [step] });
  // Applied to the lines as they are now, where the board still is.
  if (current(now()) !== f) return null;
  return tryStep(now(), step, async () => r.frames[1]);
}

/**
 * What the engine says of frame `f`: its best turn and line in words, X's
 * chance in %, and the line's cells numbered on the board.
 * @param {Frame} f
 * @returns {Promise<EngineNote>}
 */
async function engineNote(f) {
  const a = await call('POST', '/api/analyze', { position: f.position, time_ms: 1000 });
  const p = a.win_probability === null ? '' : t(', {p} % to win for {side}', { p: Math.round(a.win_probability * 100), side: a.side.toUpperCase() });
  const text = t('Best turn: {turn}{p}. Line: {line}', { turn: a.turn.join('-'), p, line: a.line.slice(0, 12).join(' ') });
  const x = a.win_probability === null ? null : Math.round((a.side === 'x' ? a.win_probability : 1 - a.win_probability) * 100);
  // The line on the board: its cells numbered by turn, in each side's colour.
  const seen = await replay({ position: f.position, moves: a.line.slice(0, 12) }).catch(() => null);
  return { frame: f, text, x, labels: seen ? lineLabels(seen.frames) : new Map() };
}

/**
 * The exercise's outcome once a whole turn was tried from its start along
 * a line that passes it (the server judges it); null before.
 * @param {AnalysisSnapshot} snap
 * @returns {Promise<'found' | 'missed' | 'same' | null>}
 */
async function triedTurn(snap) {
  const { exercise: ex, lines } = snap;
  // Only along a line that passes the exercise's start.
  if (!ex || (lines.at.branch && lines.branch && lines.branch.from < ex.from)) return null;
  const line = path(lines);
  const at = index(lines);
  const { steps, whole } = tried(ex, line, at);
  if (!whole) return null;
  return judgeTried(ex, line[ex.from], steps, line[at]);
}

/**
 * The cells of a line numbered by turn (1 the side to move's turn, 2 the
 * reply, …), each with the side that steps there; a cell keeps its first number.
 * @param {Frame[]} frames  the server's frames of the line, from the position
 * @returns {Labels}
 */
function lineLabels(frames) {
  /** @type {Labels} */
  const labels = new Map();
  let turn = 0;
  for (let k = 1; k < frames.length; k++) {
    const side = frames[k - 1].to_move || '';
    if (k === 1 || frames[k - 1].turn_start) turn += 1;
    const cell = frames[k].step || '';
    if (cell !== 'pass' && !labels.has(cell)) labels.set(cell, { text: String(turn), side });
  }
  return labels;
}
