// Settings: the theme (light, dark, e-ink), the language, the board's
// coordinates, the sound, confirming each step and the name this player goes by, kept in this browser and applied to the whole page.

import { t } from './i18n.js';
import { keepSetting, setting } from './stored.js';

const THEMES = ['light', 'dark', 'eink'];

/** The languages the page speaks. */
const LANGS = ['en', 'ru', 'uk', 'cs'];

/** The language: the one chosen here, else the browser's if the page speaks it, else English. */
function language() {
  const chosen = setting('lang');
  if (chosen && LANGS.includes(chosen)) return chosen;
  const browser = (navigator.language || '').toLowerCase().slice(0, 2);
  return LANGS.includes(browser) ? browser : 'en';
}

/** Applies the stored settings to the page. */
export function applySettings() {
  const theme = setting('theme') || 'light';
  const root = document.documentElement;
  root.dataset.theme = THEMES.includes(theme) ? theme : 'light';
  root.dataset.coords = setting('coords') === 'off' ? 'off' : 'on';
  root.lang = language();
  document.title = t('Virus Wars');
}

/** The name this player goes by in new games ('' for none). */
export function chosenName() {
  return setting('name').trim();
}

/**
 * What is wrong with a name, or '' when the server will take it: up to 20
 * letters, digits, spaces and _ - . ' (the server checks it again).
 * @param {string} name
 */
export function nameProblem(name) {
  const chars = [...name.trim()];
  if (chars.length > 20) return t('At most 20 characters.');
  if (chars.some((c) => !/[\p{L}\p{N} _.'-]/u.test(c))) return t('Use letters, digits, spaces and _ - . \' only.');
  if (name.includes('  ')) return t('No two spaces in a row.');
  return '';
}

/** Whether a turn is announced by a sound: on unless turned off, and off by default in e-ink. */
export function soundOn() {
  const chosen = setting('sound');
  if (chosen === 'on' || chosen === 'off') return chosen === 'on';
  return document.documentElement.dataset.theme !== 'eink';
}

/** A short soft tone, where the browser lets the page make one. */
export function chime() {
  if (!soundOn()) return;
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
    tone.addEventListener('ended', () => { audio.close(); });
  } catch {
    // No audio here: the title still says it.
  }
}

/**
 * @param {HTMLElement} root
 * @param {() => void} redraw  draws the page again in a new language
 */
export function showSettings(root, redraw) {
  const theme = document.documentElement.dataset.theme || 'light';
  root.innerHTML = `<section><h2>${t('Settings')}</h2>
    <form data-form="settings" class="column">
      <label>${t('Theme')} <select name="theme">
        <option value="light">${t('light')}</option>
        <option value="dark">${t('dark')}</option>
        <option value="eink">${t('e-ink (black and white, no animation)')}</option>
      </select></label>
      <label>${t('Language')} <select name="lang">
        <option value="en">English</option>
        <option value="ru">Русский</option>
        <option value="uk">Українська</option>
        <option value="cs">Čeština</option>
      </select></label>
      <label>${t('Your name (shown to your opponent; none: a person)')}
        <input name="name" maxlength="20" autocomplete="nickname" aria-describedby="name-problem"></label>
      <p class="error" id="name-problem" data-error="name" aria-live="polite"></p>
      <label><input type="checkbox" name="coords"> ${t('coordinates on the board')}</label>
      <label><input type="checkbox" name="sound"> ${t('a sound when it is your turn')}</label>
      <label><input type="checkbox" name="confirm"> ${t('confirm each step (a first tap chooses the cell, a second plays it)')}</label>
    </form>
    <p><a href="#/">${t('Back')}</a></p></section>`;
  const form = /** @type {HTMLFormElement} */ (root.querySelector('form'));
  const select = /** @type {HTMLSelectElement} */ (form.elements.namedItem('theme'));
  const lang = /** @type {HTMLSelectElement} */ (form.elements.namedItem('lang'));
  const coords = /** @type {HTMLInputElement} */ (form.elements.namedItem('coords'));
  select.value = theme;
  lang.value = LANGS.includes(document.documentElement.lang) ? document.documentElement.lang : 'en';
  coords.checked = document.documentElement.dataset.coords !== 'off';
  const sound = /** @type {HTMLInputElement} */ (form.elements.namedItem('sound'));
  sound.checked = soundOn();
  const confirm = /** @type {HTMLInputElement} */ (form.elements.namedItem('confirm'));
  confirm.checked = setting('confirm-steps') === 'yes';
  const name = /** @type {HTMLInputElement} */ (form.elements.namedItem('name'));
  const problem = /** @type {HTMLElement} */ (form.querySelector('[data-error="name"]'));
  name.value = chosenName();
  name.addEventListener('input', () => {
    problem.textContent = nameProblem(name.value);
    if (!problem.textContent) keepSetting('name', name.value.trim());
  });
  form.addEventListener('submit', (e) => { e.preventDefault(); });
  form.addEventListener('change', () => {
    const relabel = lang.value !== document.documentElement.lang;
    keepSetting('theme', select.value);
    keepSetting('lang', lang.value);
    keepSetting('coords', coords.checked ? 'on' : 'off');
    keepSetting('sound', sound.checked ? 'on' : 'off');
    keepSetting('confirm-steps', confirm.checked ? 'yes' : 'no');
    applySettings();
    if (relabel) redraw();
  });
}
