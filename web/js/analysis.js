// The analysis board: load a record or a position string (or a game of
// this server, #/analysis/ID), step through it by turns or with ←/→ and
// Home/End, try steps by tapping legal cells (a variation beside the game,
// never cutting it), and ask the engine: its best turn, a win-chance bar,
// and its line drawn on the board turn by turn. A finished game of this
// server gets the engine's review (review.js): the win-chance graph under
// the board, judgement marks in the turns, and at the end of each judged
// turn the best turn drawn on the board beside the one played; its
// mistakes and blunders are exercises (exercises.js). Positions,
// legal cells, results and judgements all come from the server; the
// state and every request are the store's (analysisstore.js), this file
// draws it.

import { analysisStore } from './analysisstore.js';
import { drawBoard } from './board.js';
import { turnEnds } from './history.js';
import { statusWithEnding, t } from './i18n.js';
import { current, path } from './variation.js';
import { MARKS, drawReview, turnWords } from './review.js';
import { drawExercises, exerciseText, exercisesOf } from './exercises.js';

/** The mover's chance to win at or over which a turn "keeps the win". */
const KEPT_WIN = 0.9;

/** @typedef {import('./history.js').Frame} Frame */

/**
 * The analysis board's page, its parts empty; the load form open unless
 * it shows a game of this server.
 * @param {string} game
 * @returns {string}
 */
function analysisPageHtml(game) {
  return `<div class="game">
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
          <textarea name="text" rows="5" class="wide" aria-label="${t('a record or a position string')}"
            placeholder="${t('Paste a game record (.vwr) or a position string')}"></textarea>
          <button>${t('Load')}</button>
        </form></details>
    </div>
  </div>`;
}

/** @typedef {(name: string) => HTMLElement} Part */
/** @typedef {ReturnType<typeof analysisStore>} Store */

/**
 * The engine's answer, where it is about the position shown.
 * @param {Part} part
 * @param {import('./analysisstore.js').EngineNote | null} note
 */
function showEngine(part, note) {
  part('engine').textContent = note?.text || '';
  const chance = part('chance');
  chance.hidden = note?.x == null;
  if (note?.x == null) return;
  const x = note.x;
  part('chance-x').style.width = `${x}%`;
  chance.setAttribute('aria-label', t('X {x} %, O {o} %', { x, o: 100 - x }));
  chance.dataset.x = String(x);
}

/**
 * The main line as turns, each step a button.
 * @param {Part} part
 * @param {Store} store
 * @param {import('./analysisstore.js').AnalysisSnapshot} s
 */
function showTurns(part, store, s) {
  const main = s.lines.main;
  const ends = turnEnds(main);
  let start = 1;
  part('frames').replaceChildren(...ends.map((end, n) => {
    const li = document.createElement('li');
    const head = document.createElement('span');
    head.className = 'turn-number';
    head.textContent = `${n + 1}. ${(main[start - 1].to_move || '').toUpperCase()}`;
    li.append(head);
    const judgement = s.review?.status === 'done' ? s.review.turns[n]?.judgement : null;
    for (let k = start; k <= end; k++) {
      const b = document.createElement('button');
      b.textContent = main[k].step || '';
      b.dataset.frame = String(k);
      if (!s.lines.at.branch && s.lines.at.k === k) b.setAttribute('aria-current', 'step');
      b.addEventListener('click', () => store.toMain(k));
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
}

/**
 * The variation beside the game: where it leaves the game and its steps.
 * @param {Part} part
 * @param {Store} store
 * @param {import('./analysisstore.js').AnalysisSnapshot} s
 */
function showBranch(part, store, s) {
  const box = part('branch');
  const b = s.lines.branch;
  box.hidden = !b;
  if (!b) return;
  const title = document.createElement('p');
  title.textContent = t('A variation from step {k}:', { k: b.from });
  const steps = b.frames.map((f, k) => {
    const button = document.createElement('button');
    button.textContent = f.step || '';
    button.dataset.branchFrame = String(k);
    if (s.lines.at.branch && s.lines.at.k === k) button.setAttribute('aria-current', 'step');
    button.addEventListener('click', () => store.toBranch(k));
    return button;
  });
  const back = document.createElement('button');
  back.textContent = t('Back to the game');
  back.dataset.backToGame = '';
  back.addEventListener('click', () => store.toMain(b.from));
  box.replaceChildren(title, ...steps, back);
}

/**
 * @param {HTMLElement} root
 * @param {string} [game] a game's id: its record is loaded, at its end
 * @returns {() => void} what leaving the page does
 */
export function showAnalysis(root, game = '') {
  root.innerHTML = analysisPageHtml(game);
  /** @param {string} name */
  const part = (name) => /** @type {HTMLElement} */ (root.querySelector(`[data-${name}]`));
  const store = analysisStore();
  const seenAs = /** @type {HTMLSelectElement} */ (part('seen-as'));
  const textarea = /** @type {HTMLTextAreaElement} */ (root.querySelector('textarea'));

  /**
   * At the end of a judged turn: the turn played marked, the best turn numbered beside it.
   * @param {import('./analysisstore.js').AnalysisSnapshot} s
   */
  const showJudged = (s) => {
    // Nothing of the review until every turn is judged (a figure would
    // change under the player's eyes).
    const turn = s.exercise || s.review?.status !== 'done' ? null : store.judgedTurn();
    const box = part('judged');
    box.hidden = !turn;
    if (!turn) return null;
    const same = turn.best.join('-') === turn.steps.join('-');
    // A turn that keeps a won game won needs no "better" one.
    const mine = turn.side === 'x' ? turn.x_win_after : 1 - turn.x_win_after;
    const kept = !same && !turn.judgement && mine >= KEPT_WIN;
    box.textContent = same
      ? t('{turn}. The engine would have played the same.', { turn: turnWords(turn) })
      : kept
        ? t('{turn}. It keeps the win.', { turn: turnWords(turn) })
        : t('{turn}. Better: {best} (numbered on the board).', { turn: turnWords(turn), best: turn.best.join('-') });
    box.dataset.judgement = turn.judgement || '';
    const labels = new Map(same || kept ? [] : turn.best.map((cell, k) => [cell, { text: String(k + 1), side: turn.side }]));
    return { labels, played: turn.steps };
  };

  /**
   * The exercise's words; the engine's better turn numbered once missed, at its start.
   * @param {import('./analysisstore.js').AnalysisSnapshot} s
   */
  const showExercise = (s) => {
    const { exercise, lines } = s;
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

  /** @type {import('./analysisstore.js').AnalysisSnapshot | null} */
  let drawn = null;
  /** @param {import('./analysisstore.js').AnalysisSnapshot} s */
  const show = (s) => {
    if (s.record !== drawn?.record) textarea.value = s.record;
    drawn = s;
    part('seen').hidden = !s.seenFrom;
    part('error').textContent = s.error;
    showReview(s);
    const f = current(s.lines);
    if (!f) return;
    // During an exercise the engine's judged turns stay hidden; so do their
    // cells while a fog game is shown as one side saw it (they would mark
    // cells that side did not see).
    const judged = showJudged(s);
    const marks = seenAs.value ? null : judged;
    const answer = showExercise(s);
    const note = s.engine && s.engine.frame === f ? s.engine : null;
    const labels = answer || note?.labels || marks?.labels;
    const played = marks ? marks.played : f.step && f.step !== '?' ? [f.step] : [];
    drawBoard(part('board'), { board: f.board, legal: f.legal, last_turn: played }, (cell) => { store.vary(cell); }, { labels: labels || undefined });
    part('pass').hidden = !f.legal.includes('pass');
    const status = part('status');
    status.textContent = t('{status} — step {k} of {n}', { status: statusWithEnding(f), k: f.seq, n: path(s.lines).length - 1 });
    status.dataset.status = f.status;
    showEngine(part, note);
    showTurns(part, store, s);
    showBranch(part, store, s);
  };

  /** The review under the board, the turn shown marked on its graph. @param {import('./analysisstore.js').AnalysisSnapshot} s */
  const showReview = (s) => {
    const box = part('review');
    if (!s.review) {
      box.hidden = !s.reviewWhy;
      box.textContent = s.reviewWhy;
      return;
    }
    box.hidden = false;
    drawReview(box, s.review, store.judgedTurn()?.turn || 0, (n) => store.toTurn(n));
    drawExercises(part('exercises'), s.review.status === 'done' ? exercisesOf(s.review) : [], s.exercisesDone, (turn) => {
      store.startExercise(turn);
      part('board').focus?.();
    });
  };

  part('pass').addEventListener('click', () => { store.vary('pass'); });
  part('exercise-end').addEventListener('click', () => store.endExercise());
  part('ask').addEventListener('click', () => { store.ask(); });
  seenAs.addEventListener('change', () => store.seeAs(seenAs.value));
  const form = /** @type {HTMLFormElement} */ (part('form'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = String(new FormData(form).get('text') || '').trim();
    // A record has tags or numbered turns; anything else is a position string.
    const isRecord = text.startsWith('[') || /(^|\s)1\.\s/.test(text);
    store.load(isRecord ? { record: text } : { position: text });
  });
  root.querySelectorAll('[data-go]').forEach((b) => b.addEventListener('click', () => {
    store.move(/** @type {HTMLElement} */ (b).dataset.go || '');
  }));
  // ←/→ a step, Home/End the ends, wherever the keys are not the board's or a field's.
  const KEYS = /** @type {Record<string, string>} */ ({ ArrowLeft: 'back', ArrowRight: 'next', Home: 'first', End: 'last' });
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    if (e.defaultPrevented || !KEYS[e.key] || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (target.closest('textarea, input, select, [data-board]')) return;
    e.preventDefault();
    store.move(KEYS[e.key]);
  };
  document.addEventListener('keydown', onKey);
  store.subscribe(show);
  // A game of this server, opened from its page: no copying of records.
  if (game) store.loadGame(game);
  else store.load({});
  return () => { store.stop(); document.removeEventListener('keydown', onKey); };
}
