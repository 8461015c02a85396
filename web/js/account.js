// Who is logged in (the server's session cookie, which the page never
// sees): asked once a page load; the page to log in or sign up, after
// which the seats this browser holds are kept by the account.

import { call } from './api.js';
import { t } from './i18n.js';
import { seatsKept } from './stored.js';

/**
 * @typedef {{rating: number, rd: number, volatility: number, games: number, provisional: boolean}} Rating
 * @typedef {{name: string, kind: string, created_ms: number, no_bots: boolean, hide_online: boolean, challenges: string, ratings: Record<string, Rating>}} Me
 */

/** @type {Promise<Me | null> | null} */
let asked = null;

/** The account logged in here, or null (asked of the server once). */
export function me() {
  if (!asked) asked = call('GET', '/api/me').catch(() => null);
  return asked;
}

/** Forgets who is logged in (after logging in or out): asked again next time. */
export function forgetMe() {
  asked = null;
}

/** The seat tokens this browser keeps, for the account to hold. */
function keptTokens() {
  /** @type {string[]} */
  const tokens = [];
  for (const kept of seatsKept()) {
    const v = /** @type {any} */ (kept);
    for (const token of [v?.token, v?.tokens?.x, v?.tokens?.o]) {
      if (typeof token === 'string' && token && !tokens.includes(token)) tokens.push(token);
    }
  }
  return tokens;
}

/** Seat tokens one request may carry (the server's MAX_SEAT_TOKENS). */
const TOKENS_A_REQUEST = 100;

/** A rating as shown: rounded, with "?" while provisional. @param {Rating} r */
export const ratingText = (r) => `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;

/**
 * The page to log in or sign up.
 * @param {HTMLElement} root
 * @param {() => void} redraw  draws the header again
 */
export function showLogin(root, redraw) {
  const form = (/** @type {string} */ kind, /** @type {string} */ title, /** @type {string} */ button, /** @type {string} */ hint) => `
    <section><h2>${title}</h2>
      <form class="column" data-form="${kind}">
        <label class="field">${t('Name')} <input name="name" required autocomplete="username" maxlength="20"></label>
        <label class="field">${t('Password')} <input name="password" type="password" required
          autocomplete="${kind === 'signup' ? 'new-password' : 'current-password'}" maxlength="128"></label>
        <p class="hint">${hint}</p>
        <button class="primary">${button}</button>
        <p class="error" data-error role="alert"></p>
      </form></section>`;
  root.innerHTML = `<div class="account">
    ${form('login', t('Log in'), t('Log in'), '')}
    ${form('signup', t('Sign up'), t('Sign up'), t('A name of 2 to 20 letters A–Z, digits, _ and -; a password of at least 8 characters that is not easy to guess. Playing without an account stays as it is.'))}
  </div>`;
  root.querySelectorAll('form').forEach((f) => f.addEventListener('submit', async (e) => {
    e.preventDefault();
    const fields = new FormData(f);
    const error = /** @type {HTMLElement} */ (f.querySelector('[data-error]'));
    const button = /** @type {HTMLButtonElement} */ (f.querySelector('button'));
    error.textContent = '';
    button.disabled = true;
    try {
      const body = { name: String(fields.get('name') || '').trim(), password: String(fields.get('password') || '') };
      const who = await call('POST', f.dataset.form === 'signup' ? '/api/accounts' : '/api/session', body);
      forgetMe();
      // The games this browser sits in are kept by the account.
      const tokens = keptTokens();
      for (let k = 0; k < tokens.length; k += TOKENS_A_REQUEST) {
        await call('POST', '/api/me/seats', { tokens: tokens.slice(k, k + TOKENS_A_REQUEST) }).catch(() => null);
      }
      redraw();
      location.hash = `#/@/${encodeURIComponent(who.name)}`;
    } catch (err) {
      error.textContent = /** @type {Error} */ (err).message;
    } finally {
      button.disabled = false;
    }
  }));
}
