// The analysis board: load a record or a position string (or a game of
// this server, #/analysis/ID), step through it by turns or with ←/→ and
// Home/End, try steps by tapping legal cells (a variation beside the game,
// never cutting it), and ask the engine: its best turn, a win-chance bar,
// and its line drawn on the board turn by turn. A finished game of this
// server gets the engine's review (review.js): the win-chance graph under
// the board, judgement marks in the turns, and at the end of each judged
// turn the best turn drawn on the board beside the one played; its
// mistakes and blunders are exercises (exercises.js). Positions,
// legal cells, results and judgements all come from the server.

import { call, replay } from './api.js';
import { drawBoard } from './board.js';
import { turnEnds } from './history.js';
import { statusWithEnding, t } from './i18n.js';
import { current, go, index, loaded, path, tryStep } from './variation.js';
import { MARKS, drawReview, followReview, turnWords } from './review.js';
import { drawExercises, exerciseText, exercisesOf, judgeTried, tried } from './exercises.js';

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
    <div>
      <div class="board" data-board></div>
      <div class="review" data-review hidden></div>
    </div>
    <div>
      <p class="status" data-status></p>
      <div class="row">
        <button data-go="first" aria-label="${t('to the start')}">|◀</button>
        <button data-go="back" aria-label="${t('one step back')}">◀</button>
        <button data-go="next" aria-label="${t('one step on')}">▶</button>
        <button data-go="last" aria-label="${t('to the end')}">▶|</button>
        <button data-ask>${t('Ask the engine')}</button>
        <button data-pass hidden>${t('Pass')}</button>
      </div>
      <label class="field" data-seen hidden>${t('Fog of war: show')} <select data-seen-as>
        <option value="">${t('the whole board')}</option>
        <option value="x">${t('what X saw')}</option>
        <option value="o">${t('what O saw')}</option>
        <option value="watchers">${t('what both saw')}</option>
      </select></label>
      <div class="chance" data-chance hidden><span data-chance-x></span></div>
      <p data-engine></p>
      <p class="judged" data-judged hidden></p>
      <p class="exercise" data-exercise-text role="status" hidden></p>
      <button data-exercise-end hidden>${t('End the exercise')}</button>
      <div class="exercises" data-exercises hidden></div>
      <p class="error" data-error role="alert"></p>
      <ol class="turns" data-frames></ol>
      <div class="branch" data-branch hidden></div>
      <details class="more" ${game ? '' : 'open'}><summary>${t('Load a record or a position')}</summary>
        <form data-form="load" class="column">
          <textarea name="text" rows="5" style="width:100%" aria-label="${t('a record or a position string')}"
            placeholder="${t('Paste a game record (.vwr) or a position string')}"></textarea>
          <button>${t('Load')}</button>
        </form></details>
    </div>
  </div>`;
  /** @param {string} name */
  const part = (name) => /** @type {HTMLElement} */ (root.querySelector(`[data-${name}]`));
  const error = part('error');
  let lines = loaded([]);
  /** The engine's line for the frame shown, drawn as turn numbers on its cells. */
  /** @type {{frame: Frame, labels: Map<string, {text: string, side: string}>} | null} */
  let drawnLine = null;
  /** The engine's review of the game, once there is one. */
  /** @type {import('./review.js').GameAnalysis | null} */
  let review = null;
  let stopReview = () => {};
  /** The exercise under way ("find the better turn"), and each one's outcome by turn. */
  /** @type {import('./exercises.js').Exercise | null} */
  let exercise = null;
  /** @type {Map<number, string>} */
  const exercisesDone = new Map();

  /** The judged turn that the frame shown ends (on the game's own line), if any. */
  const judgedTurn = () => {
    if (!review || lines.at.branch) return null;
    const n = turnEnds(lines.main).indexOf(lines.at.k) + 1;
    return review.turns[n - 1] || null;
  };

  /** At the end of a judged turn: the turn played marked, the best turn numbered beside it. */
  const showJudged = () => {
    const turn = judgedTurn();
    const box = part('judged');
    box.hidden = !turn;
    if (!turn) return null;
    const same = turn.best.join('-') === turn.steps.join('-');
    box.textContent = same
      ? t('{turn}. The engine would have played the same.', { turn: turnWords(turn) })
      : t('{turn}. Better: {best} (numbered on the board).', { turn: turnWords(turn), best: turn.best.join('-') });
    box.dataset.judgement = turn.judgement || '';
    const labels = new Map(same ? [] : turn.best.map((cell, k) => [cell, { text: String(k + 1), side: turn.side }]));
    return { labels, played: turn.steps };
  };

  /** The exercise's words; the engine's better turn numbered once missed, at its start. */
  const showExercise = () => {
    const box = part('exercise-text');
    box.hidden = !exercise;
    part('exercise-end').hidden = !exercise;
    if (!exercise) return undefined;
    box.textContent = exerciseText(exercise);
    box.dataset.outcome = exercise.outcome;
    if (exercise.outcome !== 'missed' || lines.at.branch || lines.at.k !== exercise.from) return undefined;
    const side = exercise.turn.side;
    return new Map(exercise.turn.best.map((cell, k) => [cell, { text: String(k + 1), side }]));
  };

  const show = () => {
    const f = current(lines);
    if (!f) return;
    // During an exercise the engine's judged turns stay hidden; so do their
    // cells while a fog game is shown as one side saw it (they would mark
    // cells that side did not see).
    const judged = exercise ? null : showJudged();
    const marks = seenAs.value ? null : judged;
    if (exercise) part('judged').hidden = true;
    const answer = showExercise();
    const labels = answer || (drawnLine && drawnLine.frame === f ? drawnLine.labels : marks?.labels);
    const played = marks ? marks.played : f.step && f.step !== '?' ? [f.step] : [];
    drawBoard(part('board'), { board: f.board, legal: f.legal, last_turn: played }, (cell) => vary(cell), { labels });
    part('pass').hidden = !f.legal.includes('pass');
    const status = part('status');
    status.textContent = t('{status} — step {k} of {n}', { status: statusWithEnding(f), k: f.seq, n: path(lines).length - 1 });
    status.dataset.status = f.status;
    if (!labels) {
      part('engine').textContent = '';
      part('chance').hidden = true;
    }
    error.textContent = '';
    showTurns();
    showBranch();
    showReview();
  };

  /** The review under the board, the turn shown marked on its graph. */
  const showReview = () => {
    if (!review) return;
    const box = part('review');
    box.hidden = false;
    drawReview(box, review, judgedTurn()?.turn || 0, (n) => {
      const end = turnEnds(lines.main)[n - 1];
      if (end === undefined) return;
      lines = go({ ...lines, at: { branch: false, k: 0 } }, end);
      show();
    });
    drawExercises(part('exercises'), exercisesOf(review), exercisesDone, startExercise);
  };

  /** @param {import('./review.js').TurnJudged} turn */
  const startExercise = (turn) => {
    const from = turn.turn === 1 ? 0 : turnEnds(lines.main)[turn.turn - 2];
    if (from === undefined) return;
    exercise = { turn, from, outcome: '' };
    drawnLine = null;
    lines = go({ ...lines, at: { branch: false, k: 0 } }, from);
    show();
    part('board').focus?.();
  };

  /** After a step: a whole turn tried from the exercise's start is judged. */
  const checkExercise = async () => {
    const ex = exercise;
    // Only along a line that passes the exercise's start.
    if (!ex || (lines.at.branch && lines.branch && lines.branch.from < ex.from)) return;
    const line = path(lines);
    const at = index(lines);
    const { steps, whole } = tried(ex, line, at);
    if (!whole) return;
    try {
      const outcome = await judgeTried(ex, line[ex.from], steps, line[at]);
      if (gone || exercise !== ex) return;
      ex.outcome = outcome;
      if (outcome !== 'same' && !exercisesDone.has(ex.turn.turn)) exercisesDone.set(ex.turn.turn, outcome);
      // Back to the start: the turn played again, or the engine's turn shown there.
      if (outcome !== 'found') lines = go({ ...lines, at: { branch: false, k: 0 } }, ex.from);
      show();
    } catch (e) {
      if (!gone) error.textContent = /** @type {Error} */ (e).message;
    }
  };

  /** The main line as turns, each step a button. */
  const showTurns = () => {
    const main = lines.main;
    const ends = turnEnds(main);
    let start = 1;
    part('frames').replaceChildren(...ends.map((end, n) => {
      const li = document.createElement('li');
      const head = document.createElement('span');
      head.className = 'turn-number';
      head.textContent = `${n + 1}. ${(main[start - 1].to_move || '').toUpperCase()}`;
      li.append(head);
      const judgement = review?.turns[n]?.judgement;
      for (let k = start; k <= end; k++) {
        const b = document.createElement('button');
        b.textContent = main[k].step || '';
        b.dataset.frame = String(k);
        if (!lines.at.branch && lines.at.k === k) b.setAttribute('aria-current', 'step');
        b.addEventListener('click', () => { lines = go({ ...lines, at: { branch: false, k: 0 } }, k); show(); });
        li.append(b);
      }
      if (judgement) {
        const mark = document.createElement('span');
        mark.className = `judgement judgement-${judgement}`;
        mark.textContent = MARKS[judgement];
        mark.title = t(judgement);
        mark.dataset.judgement = judgement;
        li.append(mark);
      }
      start = end + 1;
      return li;
    }));
    // The step shown stays in view inside the list, without scrolling the page.
    const list = part('frames');
    const now = /** @type {HTMLElement | null} */ (list.querySelector('[aria-current]'));
    if (now) {
      const top = now.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + now.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    }
  };

  /** The variation beside the game: where it leaves the game and its steps. */
  const showBranch = () => {
    const box = part('branch');
    const b = lines.branch;
    box.hidden = !b;
    if (!b) return;
    const title = document.createElement('p');
    title.textContent = t('A variation from step {k}:', { k: b.from });
    const steps = b.frames.map((f, k) => {
      const button = document.createElement('button');
      button.textContent = f.step || '';
      button.dataset.branchFrame = String(k);
      if (lines.at.branch && lines.at.k === k) button.setAttribute('aria-current', 'step');
      button.addEventListener('click', () => { lines = { ...lines, at: { branch: true, k } }; show(); });
      return button;
    });
    const back = document.createElement('button');
    back.textContent = t('Back to the game');
    back.dataset.backToGame = '';
    back.addEventListener('click', () => { lines = go({ ...lines, at: { branch: false, k: 0 } }, b.from); show(); });
    box.replaceChildren(title, ...steps, back);
  };

  /**
   * A step tried where the board is (the server plays it).
   * @param {string} step
   */
  const vary = async (step) => {
    const f = current(lines);
    if (!f) return;
    const along = await tryStep(lines, step, async () => null);
    if (along) {
      // The game's own next step, or the variation's: no server needed.
      lines = along;
      show();
      checkExercise();
      return;
    }
    try {
      const r = await replay({ position: f.position, moves: [step] });
      // Applied to the lines as they are now, where the board still is.
      if (gone || current(lines) !== f) return;
      lines = /** @type {import('./variation.js').Lines} */ (await tryStep(lines, step, async () => r.frames[1]));
      show();
      checkExercise();
    } catch (e) {
      if (!gone) error.textContent = /** @type {Error} */ (e).message;
    }
  };
  part('pass').addEventListener('click', () => { vary('pass'); });
  part('exercise-end').addEventListener('click', () => { exercise = null; show(); });

  /**
   * @param {Record<string, unknown>} request
   * @param {boolean} [atEnd] show the last position (a game just played)
   */
  const load = (request, atEnd = false) => replay(request).then((r) => {
    if (gone) return;
    lines = loaded(r.frames, atEnd ? r.frames.length - 1 : 0);
    // A fog game's record: each side's view may be shown instead (the server's frames).
    part('seen').hidden = !r.fog;
    seenFrom = r.fog ? /** @type {{record?: string}} */ (request).record || '' : '';
    show();
    if (r.declared) part('engine').textContent = t('The record ends: {how}.', { how: statusWithEnding({ to_move: null, ending: r.declared }) });
  }, (e) => { if (!gone) error.textContent = e.message; });

  /** The fog game's record whose frames are shown ('' for none). */
  let seenFrom = '';
  const seenAs = /** @type {HTMLSelectElement} */ (part('seen-as'));
  seenAs.addEventListener('change', () => {
    if (!seenFrom) return;
    const at = lines.at.branch ? 0 : lines.at.k;
    const view = seenAs.value;
    replay(view ? { record: seenFrom, view } : { record: seenFrom }).then((r) => {
      if (gone) return;
      lines = loaded(r.frames, at);
      show();
    }, (e) => { if (!gone) error.textContent = e.message; });
  });

  const form = /** @type {HTMLFormElement} */ (part('form'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = String(new FormData(form).get('text') || '').trim();
    // A record has tags or numbered turns; anything else is a position string.
    const isRecord = text.startsWith('[') || /(^|\s)1\.\s/.test(text);
    load(isRecord ? { record: text } : { position: text });
  });

  /** @param {string} where  first, back, next or last */
  const move = (where) => {
    const k = index(lines);
    const to = { first: 0, back: k - 1, next: k + 1, last: path(lines).length - 1 }[where];
    lines = where === 'first' ? go({ ...lines, at: { branch: false, k: 0 } }, 0) : go(lines, to ?? k);
    show();
  };
  root.querySelectorAll('[data-go]').forEach((b) => b.addEventListener('click', () => {
    move(/** @type {HTMLElement} */ (b).dataset.go || '');
  }));
  // ←/→ a step, Home/End the ends, wherever the keys are not the board's or a field's.
  const KEYS = /** @type {Record<string, string>} */ ({ ArrowLeft: 'back', ArrowRight: 'next', Home: 'first', End: 'last' });
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    if (e.defaultPrevented || !KEYS[e.key] || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (target.closest('textarea, input, select, [data-board]')) return;
    e.preventDefault();
    move(KEYS[e.key]);
  };
  document.addEventListener('keydown', onKey);

  part('ask').addEventListener('click', () => {
    const f = current(lines);
    if (!f) return;
    part('engine').textContent = t('thinking…');
    call('POST', '/api/analyze', { position: f.position, time_ms: 1000 }).then(async (a) => {
      // The answer is about the position asked of; the board may have moved on.
      if (gone || current(lines) !== f) return;
      const p = a.win_probability === null ? '' : t(', {p} % to win for {side}', { p: Math.round(a.win_probability * 100), side: a.side.toUpperCase() });
      const words = t('Best turn: {turn}{p}. Line: {line}', { turn: a.turn.join('-'), p, line: a.line.slice(0, 12).join(' ') });
      const chance = part('chance');
      chance.hidden = a.win_probability === null;
      if (a.win_probability !== null) {
        const x = Math.round((a.side === 'x' ? a.win_probability : 1 - a.win_probability) * 100);
        const bar = part('chance-x');
        bar.style.width = `${x}%`;
        chance.setAttribute('aria-label', t('X {x} %, O {o} %', { x, o: 100 - x }));
        chance.dataset.x = String(x);
      }
      // The line on the board: its cells numbered by turn, in each side's colour.
      const seen = await replay({ position: f.position, moves: a.line.slice(0, 12) }).catch(() => null);
      if (gone || current(lines) !== f) return;
      drawnLine = { frame: f, labels: seen ? lineLabels(seen.frames) : new Map() };
      show();
      part('engine').textContent = words;
    }, (e) => {
      if (gone || current(lines) !== f) return;
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
      load({ record }, true).then(() => {
        if (gone) return;
        // The engine's review, asked for once the game is over; followed while it runs.
        stopReview = followReview(game, (a, why) => {
          if (gone) return;
          if (a) {
            review = a;
            show();
          } else {
            const box = part('review');
            box.hidden = false;
            box.textContent = why || '';
          }
        });
      });
    }, (e) => { if (!gone) error.textContent = e.message; });
  } else {
    load({});
  }
  return () => { gone = true; stopReview(); document.removeEventListener('keydown', onKey); };
}

/**
 * The cells of a line numbered by turn (1 the side to move's turn, 2 the
 * reply, …), each with the side that steps there; a cell keeps its first number.
 * @param {Frame[]} frames  the server's frames of the line, from the position
 * @returns {Map<string, {text: string, side: string}>}
 */
function lineLabels(frames) {
  /** @type {Map<string, {text: string, side: string}>} */
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
