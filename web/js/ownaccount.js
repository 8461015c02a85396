// Your own account, on your player page: log out (here, everywhere),
// quick play without bots, a new password, deleting the account.

import { call } from './api.js';
import { forgetMe } from './account.js';
import { t } from './i18n.js';

/**
 * @param {HTMLElement} box
 * @param {import('./account.js').Me} mine
 */
export function showOwnAccount(box, mine) {
  box.innerHTML = `<section class="own"><h3>${t('Your account')}</h3>
    <div class="row"><button data-account="logout">${t('Log out')}</button>
      <button data-account="everywhere">${t('Log out everywhere')}</button></div>
    <label><input type="checkbox" data-account="no-bots" ${mine.no_bots ? 'checked' : ''}> ${t('quick play never pairs me with a bot')}</label>
    <form class="column" data-form="password">
      <label class="field">${t('Password now')} <input name="password" type="password" required autocomplete="current-password"></label>
      <label class="field">${t('New password')} <input name="new_password" type="password" required autocomplete="new-password"></label>
      <button>${t('Change the password')}</button>
      <p class="hint">${t('Your other devices are logged out.')}</p></form>
    <details><summary>${t('Delete the account')}</summary>
      <form class="column" data-form="delete">
        <p>${t('Your games stay, under a name like deleted-7f3a; your name becomes free. This cannot be undone.')}</p>
        <label class="field">${t('Password')} <input name="password" type="password" required autocomplete="current-password"></label>
        <button class="danger">${t('Delete my account')}</button></form></details>
    <p class="error" data-error="account" role="alert"></p></section>`;
  const error = /** @type {HTMLElement} */ (box.querySelector('[data-error="account"]'));
  /** @param {() => Promise<unknown>} act @param {string} [then] */
  const run = async (act, then) => {
    error.textContent = '';
    error.classList.remove('success');
    try {
      await act();
      if (then === undefined) return;
      forgetMe();
      location.hash = then;
      location.reload();
    } catch (e) {
      error.textContent = /** @type {Error} */ (e).message;
    }
  };
  box.querySelector('[data-account="logout"]')?.addEventListener('click', () => run(() => call('DELETE', '/api/session'), '#/'));
  box.querySelector('[data-account="everywhere"]')?.addEventListener('click', () => run(() => call('DELETE', '/api/sessions'), '#/'));
  const noBots = /** @type {HTMLInputElement} */ (box.querySelector('[data-account="no-bots"]'));
  noBots.addEventListener('change', () => run(() => call('PATCH', '/api/me', { no_bots: noBots.checked })));
  const password = /** @type {HTMLFormElement} */ (box.querySelector('[data-form="password"]'));
  password.addEventListener('submit', (e) => {
    e.preventDefault();
    const f = new FormData(password);
    run(async () => {
      await call('PUT', '/api/me/password', { password: String(f.get('password')), new_password: String(f.get('new_password')) });
      password.reset();
      error.textContent = t('The password is changed.');
      error.classList.add('success');
    });
  });
  const remove = /** @type {HTMLFormElement} */ (box.querySelector('[data-form="delete"]'));
  remove.addEventListener('submit', (e) => {
    e.preventDefault();
    const f = new FormData(remove);
    run(() => call('DELETE', '/api/me', { password: String(f.get('password')) }), '#/');
  });
}
