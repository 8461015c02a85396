// What a new game is: the variants by their human names, the settings
// forms (shown in a dialog), the request each kind of game sends, and the
// settings this browser remembers for the next one-tap start.

import { t } from './i18n.js';
import { formKept, keepForm } from './stored.js';

/** The server's presets by their human names, with where each comes from. */
export const VARIANTS = [
  { id: 'classic', name: 'Classic', about: 'The school-paper game: 10×10, three steps a turn, each side enters at its corner; who cannot step loses.' },
  { id: 'classic-pass', name: 'Classic with passes', about: 'As the classic, but a side may pass: a side with no live virus loses, two passes draw.' },
  { id: 'paper-tactics', name: 'Paper Tactics', about: 'As on paper-tactics.com: both sides start with a virus in their corner.' },
  { id: 'korobkov', name: 'Small board', about: '8×8 with both sides in their corners: a quick game.' },
  { id: 'gcr', name: 'Corners 11×11', about: 'As the gcr engine plays it: 11×11, the first turn is one step.' },
  { id: 'iggamecenter', name: 'igGameCenter', about: 'As on igGameCenter: 11×11, enter anywhere on your edge, five steps a turn.' },
  { id: 'feup', name: 'Edge entry', about: 'From the FEUP report: enter anywhere on your side of the board, three steps a turn.' },
];

/** @param {string} id */
export const variantName = (id) => t((VARIANTS.find((v) => v.id === id) || { name: id }).name);

/** One tap, one game: a variant and a clock for quick play. */
export const TILES = [
  { variant: 'classic', base: 3, inc: 2 },
  { variant: 'classic', base: 10, inc: 5 },
  { variant: 'paper-tactics', base: 5, inc: 3 },
  { variant: 'classic', days: 1 },
];

/**
 * A tile's clock in a few words.
 * @param {{base?: number, inc?: number, days?: number}} tile
 */
export const tileClock = (tile) => (tile.days ? t('{n} day a turn', { n: tile.days }) : `${tile.base}+${tile.inc}`);

/**
 * The quick play request of a tile.
 * @param {{variant: string, base?: number, inc?: number, days?: number}} tile
 */
export function tileRequest(tile) {
  const clock = tile.days ? { days_per_turn: tile.days } : { base_s: (tile.base || 0) * 60, inc_s: tile.inc || 0 };
  return { variant: tile.variant, clock };
}

/** @typedef {'computer' | 'friend' | 'local'} Kind */

/**
 * The clocks offered as tiles (minutes + seconds a step), as lichess's
 * presets; "none" and "custom" (the two fields) beside them.
 */
export const CLOCKS = [
  { id: '3+2', base: 3, inc: 2, kind: 'Blitz' },
  { id: '5+3', base: 5, inc: 3, kind: 'Blitz' },
  { id: '10+5', base: 10, inc: 5, kind: 'Rapid' },
  { id: '15+10', base: 15, inc: 10, kind: 'Rapid' },
  { id: '30+20', base: 30, inc: 20, kind: 'Classical' },
];
/** @typedef {Record<string, string>} Values */

/** What each kind starts with until the player chooses otherwise. */
const DEFAULTS = /** @type {Record<Kind, Values>} */ ({
  computer: { level: 'level:1', side: 'x', variant: 'classic', size: '', steps: '', options: '', listed: '', fog: '' },
  friend: { side: 'random', variant: 'classic', size: '', steps: '', options: '', clock: 'none', base: '0', inc: '0', listed: '', rated: '', fog: '' },
  local: { variant: 'classic', size: '', steps: '', options: '', clock: 'none', base: '0', inc: '0', turn: '' },
});

/**
 * The settings of `kind` last used in this browser, or its defaults.
 * @param {Kind} kind
 * @returns {Values}
 */
export function remembered(kind) {
  const v = { ...DEFAULTS[kind] };
  const kept = formKept(kind);
  if (!kept || typeof kept !== 'object') return v;
  // Only the known settings, as text, and each a value the form offers.
  const allowed = /** @type {Record<string, (x: string) => boolean>} */ ({
    level: (x) => /^level:[1-9]$/.test(x),
    side: (x) => ['x', 'o', 'random'].includes(x),
    variant: (x) => VARIANTS.some((w) => w.id === x),
    size: (x) => x === '' || /^(5|6|7|8|9|10|11|12|15|19)x\1$/.test(x),
    steps: (x) => /^[1-5]?$/.test(x),
    base: (x) => /^\d{1,5}$/.test(x) && Number(x) <= 10080,
    inc: (x) => /^\d{1,5}$/.test(x) && Number(x) <= 86400,
    listed: (x) => x === '' || x === 'on',
    rated: (x) => x === '' || x === 'on',
    fog: (x) => x === '' || x === 'on',
    turn: (x) => x === '' || x === 'on',
    clock: (x) => x === 'none' || x === 'custom' || CLOCKS.some((c) => c.id === x),
    options: (x) => x.length <= 500,
  });
  for (const [key, value] of Object.entries(kept)) {
    const text = typeof value === 'string' ? value : String(value);
    // Own keys only: a kept `__proto__` or `toString` is none of them.
    if (Object.hasOwn(v, key) && Object.hasOwn(allowed, key) && allowed[key](text)) v[key] = text;
  }
  return v;
}

/** @param {string} text */
const attr = (text = '') => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * @param {Kind} kind
 * @param {Values} values
 */
export const keep = (kind, values) => { keepForm(kind, values); };

/**
 * A form's values, checkboxes as `on` or ''.
 * @param {HTMLFormElement} form
 * @returns {Values}
 */
export function valuesOf(form) {
  /** @type {Values} */
  const v = {};
  form.querySelectorAll('input[type="checkbox"]').forEach((b) => { v[/** @type {HTMLInputElement} */ (b).name] = ''; });
  new FormData(form).forEach((value, name) => { v[name] = String(value); });
  return v;
}

/**
 * The game settings in `v`: the variant, its size, steps and other options
 * (`key=value` pairs the server checks), and the clock.
 * @param {Values} v
 */
export function settings(v) {
  /** @type {Record<string, unknown>} */
  const s = { variant: v.variant || 'classic' };
  /** @type {Record<string, string>} */
  const options = {};
  for (const part of String(v.options || '').split(/[,;]/)) {
    if (!part.trim()) continue;
    const eq = part.indexOf('=');
    if (eq < 1) {
      const shown = part.trim();
      throw new Error(t('an option is written key=value, not "{part}"', { part: shown.length > 40 ? `${shown.slice(0, 40)}…` : shown }));
    }
    options[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  if (v.size) options.size = v.size;
  if (v.steps) options.steps = v.steps;
  Object.assign(s, options);
  const { base, inc } = clockOf(v);
  if (base <= 0 && inc > 0) throw new Error(t('A clock needs its minutes: give them, or choose no clock.'));
  if (base > 0) s.clock = { base_s: base * 60, inc_s: inc };
  return s;
}

/**
 * The clock chosen in `v`: a tile's, the two fields' (custom; also a form
 * kept before the tiles), or none.
 * @param {Values} v
 */
export function clockOf(v) {
  const tile = CLOCKS.find((c) => c.id === v.clock);
  if (tile) return { base: tile.base, inc: tile.inc };
  if (v.clock === 'none') return { base: 0, inc: 0 };
  return { base: Number(v.base || 0), inc: Number(v.inc || 0) };
}

/**
 * The request that creates a game of `kind` with `v`.
 * @param {Kind} kind
 * @param {Values} v
 */
export function request(kind, v) {
  const fog = v.fog === 'on' ? { fog: true } : {};
  if (kind === 'computer') return { ...settings(v), opponent: v.level, side: v.side, listed: v.listed === 'on', ...fog };
  if (kind === 'friend') {
    return { ...settings(v), side: v.side || 'random', listed: v.listed === 'on', ...(v.rated === 'on' ? { rated: true } : {}), ...fog };
  }
  return { ...settings(v), side: 'x' };
}

/**
 * What a one-tap start of `kind` plays, in a few words.
 * @param {Kind} kind
 * @param {Values} v
 */
export function summary(kind, v) {
  const parts = [variantName(v.variant)];
  if (v.size) parts.push(v.size.replace('x', '×'));
  if (kind === 'computer') {
    parts.push(t('level {n}', { n: v.level.replace('level:', '') }));
    parts.push(v.side === 'o' ? t('you play O') : v.side === 'random' ? t('a random side') : t('you play X'));
  }
  if (kind === 'friend') parts.push(v.side === 'x' ? t('you play X') : v.side === 'o' ? t('you play O') : t('a random side'));
  const { base, inc } = clockOf(v);
  if (kind !== 'computer') parts.push(base > 0 ? `${base}+${inc}` : t('no clock'));
  if (kind !== 'local' && v.fog === 'on') parts.push(t('fog of war'));
  return parts.join(' · ');
}

/**
 * What to expect of each level, from the measured ladder (docs/ai.md,
 * Measured ladder: each level against the one below it, classic 10×10, 40
 * games a step, 20 for level 8's; level 9 with the built-in net, 20 games):
 * its name, a line in words, its score against the level below, and its
 * rating on the ladder (level 1 = 0).
 */
export const LEVEL_LADDER = [
  { name: 'Novice', about: 'Plays to win, but 3 steps in 10 go astray: for learning the rules.', beat: '', elo: 0 },
  { name: 'Beginner', about: 'Takes what it sees; misses threats.', beat: '29–11', elo: 168 },
  { name: 'Careful', about: 'Looks a little ahead; punishes loose groups.', beat: '32–8', elo: 409 },
  { name: 'Planner', about: 'Plans its turn; a steady opponent for a new player.', beat: '28–12', elo: 556 },
  { name: 'Schemer', about: 'Builds chains and cuts them; for players who know the game.', beat: '30–10', elo: 747 },
  { name: 'Tactician', about: 'Sees most kills a turn ahead; hard for a club player.', beat: '32–8', elo: 987 },
  { name: 'Strategist', about: 'Thinks half a second on two threads.', beat: '35–5', elo: 1325 },
  { name: 'Master', about: 'Full strength: two seconds on two threads.', beat: '15–5', elo: 1516 },
  { name: 'Grandmaster', about: 'Full strength guided by the learned net: the strongest there is.', beat: '28–12', elo: 1663 },
];

/**
 * Level `n`'s line: its name, what to expect, and how it measured.
 * @param {number} n 1–9
 */
export function levelText(n) {
  const l = LEVEL_LADDER[n - 1];
  if (!l) return '';
  const measured = l.beat
    ? t('Beat level {below} {score} on the ladder; rated {elo} above level 1.', { below: n - 1, score: l.beat, elo: l.elo })
    : t('The ladder starts here (rated 0).');
  return `${t(l.name)}: ${t(l.about)} ${measured}`;
}

/**
 * Keeps a computer form's line about its level in step with the choice.
 * @param {HTMLFormElement} form
 */
export function describeLevel(form) {
  const select = /** @type {HTMLSelectElement | null} */ (form.elements.namedItem('level'));
  const about = /** @type {HTMLElement | null} */ (form.querySelector('[data-level-about]'));
  if (!select || !about) return;
  const show = () => { about.textContent = levelText(Number(select.value.replace('level:', ''))); };
  select.addEventListener('change', show);
  show();
}

/**
 * The settings form of `kind`, filled with `v`.
 * @param {Kind} kind
 * @param {Values} v
 */
export function formHtml(kind, v) {
  const opt = (/** @type {string} */ value, /** @type {string} */ label, /** @type {string} */ now) =>
    `<option value="${value}" ${value === now ? 'selected' : ''}>${label}</option>`;
  const variant = `<label class="field">${t('variant')} <select name="variant">${VARIANTS.map((x) => opt(x.id, t(x.name), v.variant)).join('')}</select></label>
    <p class="about" data-about></p>`;
  const size = `<label class="field">${t('board size')} <select name="size">${opt('', t('its size'), v.size)}${[5, 6, 7, 8, 9, 10, 11, 12, 15, 19].map((n) => opt(`${n}x${n}`, `${n}×${n}`, v.size)).join('')}</select></label>`;
  const more = `<details class="more"><summary>${t('more settings')}</summary><div class="column">
    <label class="field">${t('steps per turn')} <select name="steps">${opt('', t('its steps'), v.steps)}${[1, 2, 3, 4, 5].map((n) => opt(String(n), t('{n} steps a turn', { n }), v.steps)).join('')}</select></label>
    <input name="options" class="options" value="${attr(v.options)}" aria-label="${t('more options, e.g. trenches=10, end=pass')}" placeholder="${t('more options, e.g. trenches=10, end=pass')}">
    </div></details>`;
  // The clock as tiles (a preset a tap), the two fields for a custom one.
  const chosen = v.clock || (Number(v.base) > 0 ? 'custom' : 'none');
  const tile = (/** @type {string} */ id, /** @type {string} */ label, /** @type {string} */ about) =>
    `<label class="clock-tile"><input type="radio" name="clock" value="${id}" ${id === chosen ? 'checked' : ''}><span><strong>${label}</strong>${about ? `<small>${about}</small>` : ''}</span></label>`;
  const clock = `<fieldset class="clock-tiles"><legend>${t('clock')}</legend>
    ${tile('none', t('none'), '')}${CLOCKS.map((c) => tile(c.id, c.id, t(c.kind))).join('')}${tile('custom', t('custom'), '')}
    <div class="row" data-custom-clock><label class="field">${t('minutes')} <input name="base" type="number" min="0" max="10080" value="${attr(v.base)}" class="short"></label>
    <label class="field">${t('+ seconds')} <input name="inc" type="number" min="0" max="86400" value="${attr(v.inc)}" class="short"></label></div></fieldset>`;
  const side = `<label class="field">${t('your side')} <select name="side">${opt('random', t('random side'), v.side)}${opt('x', t('you are X (first)'), v.side)}${opt('o', t('you are O'), v.side)}</select></label>`;
  const box = (/** @type {string} */ name, /** @type {string} */ label) =>
    `<label class="check"><input type="checkbox" name="${name}" ${v[name] === 'on' ? 'checked' : ''}> ${label}</label>`;
  const fields = {
    computer: `<label class="field">${t('level')} <select name="level">${[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => opt(`level:${n}`, `${t('level {n}', { n })} · ${t(LEVEL_LADDER[n - 1].name)}`, v.level)).join('')}</select></label>
      <p class="about" data-level-about></p>
      <label class="field">${t('your side')} <select name="side">${opt('x', t('you are X (first)'), v.side)}${opt('o', t('you are O'), v.side)}${opt('random', t('random side'), v.side)}</select></label>
      ${variant}${size}${more}${box('fog', t('fog of war (each side sees only near its own viruses)'))}${box('listed', t('let others watch'))}`,
    friend: `${side}${variant}${size}${more}${clock}${box('fog', t('fog of war (each side sees only near its own viruses)'))}${box('listed', t('list it for anyone'))}${box('rated', t('rated (both logged in, with a clock)'))}`,
    local: `${variant}${size}${more}${clock}${box('turn', t('turn the board for the side to move'))}`,
  }[kind];
  const title = { computer: t('Play the computer'), friend: t('Play a friend'), local: t('Play on this device') }[kind];
  const go = { computer: t('Play'), friend: t('Create a game'), local: t('Start') }[kind];
  return `<form data-form="${kind}" class="column">
    <h2>${title}</h2>${fields}
    <div class="row"><button class="primary">${go}</button><button type="button" data-close>${t('Cancel')}</button></div>
    <p class="error" data-error role="alert"></p>
  </form>`;
}

/**
 * Keeps a form's one-line description of its variant in step with the choice.
 * @param {HTMLFormElement} form
 */
export function describeVariant(form) {
  const select = /** @type {HTMLSelectElement} */ (form.elements.namedItem('variant'));
  const about = /** @type {HTMLElement} */ (form.querySelector('[data-about]'));
  const show = () => { about.textContent = t((VARIANTS.find((x) => x.id === select.value) || { about: '' }).about); };
  select.addEventListener('change', show);
  show();
}

/**
 * Shows the custom clock's two fields only while "custom" is the tile chosen.
 * @param {HTMLFormElement} form
 */
export function wireClockTiles(form) {
  const custom = /** @type {HTMLElement | null} */ (form.querySelector('[data-custom-clock]'));
  if (!custom) return;
  const show = () => {
    const picked = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="clock"]:checked'));
    custom.hidden = picked?.value !== 'custom';
  };
  form.addEventListener('change', show);
  show();
}
