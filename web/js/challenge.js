// On a player's page, for a signed-in visitor: challenge them (a variant,
// a clock, a side, rated or not), see the challenge wait and withdraw it;
// and block or unblock them.

import { call } from './api.js';
import { t } from './i18n.js';
import { tileClock, VARIANTS } from './newgame.js';
import { askToNotify } from './bell.js';

/** The clocks a challenge offers: minutes + seconds, or days a turn. */
const CLOCKS = [
  { id: '3+2', base: 3, inc: 2 }, { id: '5+3', base: 5, inc: 3 }, { id: '10+5', base: 10, inc: 5 },
  { id: '15+10', base: 15, inc: 10 }, { id: '1d', days: 1 }, { id: '3d', days: 3 }, { id: 'none' },
];

/**
 * @param {HTMLElement | null} box
 * @param {{name: string, kind: string}} p the player whose page it is
 */
export function showChallenge(box, p) {
  if (!box) return;
  const opt = (/** @type {string} */ value, /** @type {string} */ label) => `<option value="${value}">${label}</option>`;
  box.innerHTML = `<p class="row"><button data-challenge-open>${t('Challenge')}</button> <button data-block></button></p>
    <form class="challenge-form" data-challenge-form hidden>
      <label class="field">${t('variant')} <select name="variant">${VARIANTS.map((v) => opt(v.id, t(v.name))).join('')}</select></label>
      <label class="field">${t('clock')} <select name="clock">${CLOCKS.map((c) => opt(c.id, c.id === 'none' ? t('no clock') : tileClock(c))).join('')}</select></label>
      <label class="field">${t('your side')} <select name="side">${opt('random', t('random side'))}${opt('x', t('you are X (first)'))}${opt('o', t('you are O'))}</select></label>
      <label><input type="checkbox" name="rated"> ${t('rated')}</label>
      <button data-challenge-send>${t('Send the challenge')}</button></form>
    <p data-challenge-sent hidden><span></span> <button data-withdraw>${t('Withdraw')}</button></p>
    <p class="error" data-error="challenge" role="alert"></p>`;
  const part = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (box.querySelector(sel));
  const form = /** @type {HTMLFormElement} */ (part('[data-challenge-form]'));
  const error = part('[data-error="challenge"]');
  const sent = part('[data-challenge-sent]');
  /** @type {string} */
  let challenge = '';
  part('[data-challenge-open]').addEventListener('click', () => { form.hidden = !form.hidden; });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const v = new FormData(form);
    const clock = CLOCKS.find((c) => c.id === v.get('clock')) || CLOCKS[0];
    /** @type {Record<string, any>} */
    const body = { to: p.name, variant: v.get('variant'), side: v.get('side'), rated: v.get('rated') === 'on' };
    if (clock.days) body.clock = { days_per_turn: clock.days };
    else if (clock.base) body.clock = { base_s: clock.base * 60, inc_s: clock.inc };
    // A game over days: the browser may be asked to tell of its turns.
    if (!body.clock || clock.days) askToNotify();
    try {
      const answer = await call('POST', '/api/challenges', body);
      error.textContent = '';
      if (answer.game) {
        location.hash = `#/game/${answer.game}`;
        return;
      }
      challenge = answer.id;
      form.hidden = true;
      sent.hidden = false;
      /** @type {HTMLElement} */ (sent.querySelector('span')).textContent = t('Challenge sent to {name}: waiting for an answer.', { name: p.name });
    } catch (err) {
      error.textContent = /** @type {Error} */ (err).message;
    }
  });
  part('[data-withdraw]').addEventListener('click', async () => {
    try {
      await call('DELETE', `/api/challenges/${challenge}`);
      sent.hidden = true;
    } catch (err) {
      error.textContent = /** @type {Error} */ (err).message;
    }
  });
  // A real-time challenge accepted takes its challenger to the game (the
  // bell does); one over days says so here.
  const heard = (/** @type {Event} */ e) => {
    const n = /** @type {CustomEvent} */ (e).detail;
    if (!box.isConnected) { window.removeEventListener('vw:notification', heard); return; }
    if (n.challenge !== challenge) return;
    /** @type {HTMLElement} */ (sent.querySelector('span')).innerHTML = n.kind === 'challenge_accepted'
      ? `${t('{name} accepted your challenge', { name: p.name })} <a href="#/game/${n.game}">${t('Open the game')}</a>`
      : t('{name} declined your challenge', { name: p.name });
    /** @type {HTMLElement} */ (part('[data-withdraw]')).hidden = true;
  };
  window.addEventListener('vw:notification', heard);
  blockButton(/** @type {HTMLButtonElement} */ (part('[data-block]')), p.name, error);
}

/**
 * Block and unblock: it says what a tap does.
 * @param {HTMLButtonElement} button
 * @param {string} name
 * @param {HTMLElement} error
 */
async function blockButton(button, name, error) {
  let blocking = false;
  try {
    const list = await call('GET', '/api/me/blocks');
    blocking = list.players.some((/** @type {string} */ n) => n.toLowerCase() === name.toLowerCase());
  } catch {
    // Shown as not blocked; a tap says what went wrong.
  }
  const show = () => {
    button.textContent = blocking ? t('Unblock') : t('Block');
    button.setAttribute('aria-pressed', String(blocking));
  };
  show();
  button.addEventListener('click', async () => {
    try {
      await call(blocking ? 'DELETE' : 'PUT', `/api/me/blocks/${encodeURIComponent(name)}`);
      blocking = !blocking;
      show();
      error.textContent = blocking ? t('You block this player: neither of you can challenge the other.') : '';
    } catch (e) {
      error.textContent = /** @type {Error} */ (e).message;
    }
  });
}
