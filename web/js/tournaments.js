// The tournaments (#/tournaments): those starting soon with their
// countdowns, those running, the latest finished; and, signed in, a form
// that makes an arena.

import { call } from './api.js';
import { t, tn } from './i18n.js';
import { me } from './account.js';
import { VARIANTS } from './newgame.js';
import { about, runningText, span } from './tournament.js';

/** @param {unknown} text */
const esc = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A tournament's line in a list.
 * @param {any} c
 * @param {number} now  the server's time
 */
export function cardHtml(c, now) {
  const when = c.state === 'soon'
    ? t('starts in {time}', { time: span(c.starts_ms - now) })
    : c.state === 'running' ? runningText(c, now) : t('finished');
  return `<li data-tournament="${esc(c.id)}"><a href="#/tournament/${encodeURIComponent(c.id)}"><strong>${esc(c.name)}</strong></a>
    <span class="hint">${about(c)} · ${tn('{n} players', c.players)} · <span data-when data-starts="${c.starts_ms}" data-ends="${c.ends_ms}" data-state="${c.state}" data-kind="${esc(c.kind)}">${when}</span></span></li>`;
}

/**
 * Moves the countdowns in `box` on.
 * @param {HTMLElement} box
 * @param {number} skew  the server's clock less ours
 */
function tickWhen(box, skew) {
  box.querySelectorAll('[data-when]').forEach((el) => {
    const w = /** @type {HTMLElement} */ (el);
    const now = Date.now() + skew;
    if (w.dataset.state === 'soon') w.textContent = t('starts in {time}', { time: span(Number(w.dataset.starts) - now) });
    else if (w.dataset.state === 'running' && w.dataset.kind === 'arena') w.textContent = runningText({ kind: 'arena', ends_ms: Number(w.dataset.ends) }, now);
  });
}

/** @param {HTMLElement} root @returns {() => void} */
export function showTournaments(root) {
  const page = document.createElement('section');
  page.className = 'tournaments';
  root.replaceChildren(page);
  page.innerHTML = `<h2>${t('Tournaments')}</h2>
    <h3>${t('Starting soon')}</h3><ul class="tournament-list" data-soon></ul><button data-more-soon hidden>${t('More')}</button>
    <h3>${t('Running')}</h3><ul class="tournament-list" data-running></ul><button data-more-running hidden>${t('More')}</button>
    <h3>${t('Finished')}</h3><ul class="tournament-list" data-finished></ul><button data-more-finished hidden>${t('More')}</button>
    <details class="make" data-make hidden><summary>${t('Make a tournament')}</summary>
      <form class="column" data-form>
        <label class="field">${t('Kind')} <select name="kind">
          <option value="arena">${t('Arena: a fixed time, paired again at once')}</option>
          <option value="swiss">${t('Swiss: rounds, each paired at once')}</option>
          <option value="round-robin">${t('Round robin: everyone plays everyone twice, all at once')}</option></select></label>
        <label class="field">${t('Name')} <input name="name" maxlength="40" placeholder="${t('e.g. Friday arena')}"></label>
        <label class="field">${t('variant')} <select name="variant">${VARIANTS.map((v) => `<option value="${v.id}">${t(v.name)}</option>`).join('')}</select></label>
        <div class="row" data-for="arena swiss"><label class="field">${t('minutes')} <input name="base" type="number" min="1" max="60" value="3" class="short"></label>
          <label class="field">${t('+ seconds')} <input name="inc" type="number" min="0" max="60" value="2" class="short"></label></div>
        <div class="row" data-for="round-robin" hidden><label class="field">${t('Days a turn')} <input name="days" type="number" min="1" max="30" value="2" class="short"></label></div>
        <div class="row"><label class="field" data-for="arena">${t('Lasts (minutes)')} <input name="minutes" type="number" min="1" max="720" value="45" class="short"></label>
          <label class="field" data-for="swiss" hidden>${t('Rounds')} <input name="rounds" type="number" min="1" max="20" value="5" class="short"></label>
          <label class="field">${t('Starts in (minutes)')} <input name="starts" type="number" min="0" max="10080" value="5" class="short"></label></div>
        <label class="check"><input type="checkbox" name="rated" checked> ${t('rated')}</label>
        <label class="check"><input type="checkbox" name="bots" checked> ${t('bots may join')}</label>
        <label class="field" data-bots-most>${t('Most bots (empty: half the places)')} <input name="max_bots" type="number" min="1" max="500" class="short"></label>
        <button class="primary">${t('Make it')}</button>
      </form></details>
    <p class="error" data-error role="alert"></p>`;
  const part = (/** @type {string} */ name) => /** @type {HTMLElement} */ (page.querySelector(`[data-${name}]`));
  let gone = false;
  let skew = 0;
  // Each list's next page: the query that asks for the page after its
  // last card (the server's cursor: a start and an id).
  /** @type {Record<string, string>} */
  const cursorOf = { soon: 'soon_after', running: 'running_before', finished: 'finished_before' };
  /** @type {Record<string, any>} */
  const lastOf = {};
  /**
   * Draws a page of list `state`, after what it shows (`more`) or afresh.
   * @param {any} list @param {string} state @param {boolean} more
   */
  function draw(list, state, more) {
    const cards = list[state].map((/** @type {any} */ c) => cardHtml(c, list.now_ms)).join('');
    if (more) part(state).insertAdjacentHTML('beforeend', cards);
    else part(state).innerHTML = cards || `<li class="hint">${t('None.')}</li>`;
    if (list[state].length) lastOf[state] = list[state][list[state].length - 1];
    part(`more-${state}`).hidden = !list[`${state}_more`];
  }
  function load() {
    call('GET', '/api/tournaments').then((/** @type {any} */ list) => {
      if (gone) return;
      skew = list.now_ms - Date.now();
      for (const state of ['soon', 'running', 'finished']) draw(list, state, false);
    }, (e) => { if (!gone) part('error').textContent = e.message; });
  }
  for (const state of ['soon', 'running', 'finished']) {
    part(`more-${state}`).addEventListener('click', () => {
      const last = lastOf[state];
      if (!last) return;
      const q = `${cursorOf[state]}=${last.starts_ms}&${cursorOf[state]}_id=${encodeURIComponent(last.id)}`;
      call('GET', `/api/tournaments?${q}`).then((/** @type {any} */ list) => {
        if (!gone) draw(list, state, true);
      }, (e) => { if (!gone) part('error').textContent = e.message; });
    });
  }
  me().then((who) => { if (!gone && who) part('make').hidden = false; });
  const form = /** @type {HTMLFormElement} */ (part('form'));
  // The form's own fields, by name: never a card's (a card's `data-kind`
  // span was once taken for the Kind select).
  const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
  // The fields of the kind chosen, the others hidden.
  const kindChosen = () => {
    const kind = field('kind').value;
    form.querySelectorAll('[data-for]').forEach((el) => {
      /** @type {HTMLElement} */ (el).hidden = !(/** @type {HTMLElement} */ (el).dataset.for || '').split(' ').includes(kind);
    });
  };
  field('kind').addEventListener('change', kindChosen);
  const botsChosen = () => { /** @type {HTMLElement} */ (form.querySelector('[data-bots-most]')).hidden = !field('bots').checked; };
  field('bots').addEventListener('change', botsChosen);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const kind = String(f.get('kind'));
    /** @type {Record<string, unknown>} */
    const body = {
      kind,
      variant: f.get('variant'),
      clock: kind === 'round-robin' ? { days_per_turn: Number(f.get('days')) } : { base_s: Number(f.get('base')) * 60, inc_s: Number(f.get('inc')) },
      starts_in_s: Number(f.get('starts')) * 60,
      rated: f.get('rated') === 'on',
      bots: f.get('bots') === 'on',
    };
    if (body.bots && f.get('max_bots')) body.max_bots = Number(f.get('max_bots'));
    if (kind === 'arena') body.minutes = Number(f.get('minutes'));
    if (kind === 'swiss') body.rounds = Number(f.get('rounds'));
    const name = String(f.get('name') || '').trim();
    if (name) body.name = name;
    call('POST', '/api/tournaments', body).then((made) => {
      location.hash = `#/tournament/${encodeURIComponent(made.id)}`;
    }, (err) => { if (!gone) part('error').textContent = err.message; });
  });
  load();
  // The countdowns tick; the lists are read again every half minute.
  const timer = window.setInterval(() => tickWhen(page, skew), 1000);
  const reload = window.setInterval(load, 30000);
  return () => { gone = true; clearInterval(timer); clearInterval(reload); };
}

/**
 * The home page's next tournament: the running one started last, else the
 * one starting soonest, with its countdown (read again each minute).
 * @param {HTMLElement} box
 */
export function showNextTournament(box) {
  let skew = 0;
  /** @type {any} */
  let shown = null;
  const draw = () => {
    if (!box.isConnected) { clearInterval(timer); clearInterval(reload); return; }
    if (!shown) { box.hidden = true; return; }
    box.hidden = false;
    box.innerHTML = `<h2>${shown.state === 'running' ? t('Tournament now') : t('Next tournament')}</h2><ul class="tournament-list">${cardHtml(shown, Date.now() + skew)}</ul>
      <p><a href="#/tournaments">${t('All tournaments')}</a></p>`;
  };
  const load = () => call('GET', '/api/tournaments').then((/** @type {any} */ list) => {
    skew = list.now_ms - Date.now();
    shown = list.running[0] || list.soon[0] || null;
    draw();
  }, () => {});
  const timer = window.setInterval(() => {
    if (!box.isConnected) { clearInterval(timer); clearInterval(reload); return; }
    tickWhen(box, skew);
  }, 1000);
  const reload = window.setInterval(() => { if (!document.hidden && box.isConnected) load(); }, 60_000);
  load();
}
