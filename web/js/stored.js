// What this page keeps in the browser, each key named here and nowhere
// else: the settings (theme, language, coordinates, sound, the name, the
// turned board of pass-and-play, a tap to choose a cell before it plays), the seats this browser holds, the
// new-game forms last used, the puzzles chosen, and this tab's quick play
// search. A value that does not read (an old or corrupt one) reads as
// none; writing never throws (storage full or refused: the page goes on).

/**
 * The settings, each a text.
 * @typedef {'theme' | 'lang' | 'coords' | 'sound' | 'name' | 'turn-board' | 'confirm-steps'} Setting
 */

/** @param {Storage} store @param {string} key @param {string} value */
function write(store, key, value) {
  try {
    store.setItem(key, value);
  } catch {
    // Full or refused: kept for this page only.
  }
}

/**
 * A setting as kept ('' for none).
 * @param {Setting} name
 */
export function setting(name) {
  return localStorage.getItem(`vw-${name}`) || '';
}

/**
 * @param {Setting} name
 * @param {string} value
 */
export function keepSetting(name, value) {
  write(localStorage, `vw-${name}`, value);
}

/**
 * A value kept as JSON under `key`, or null where there is none or it
 * does not read.
 * @param {Storage} store
 * @param {string} key
 * @returns {unknown}
 */
function readJson(store, key) {
  try {
    return JSON.parse(store.getItem(key) || 'null');
  } catch {
    return null;
  }
}

const SEAT = 'vw-seat-';

/**
 * What is kept of this browser's seat in game `id` (checked by its reader,
 * api.js's seatOf).
 * @param {string} id
 */
export const seatKept = (id) => readJson(localStorage, `${SEAT}${id}`);

/**
 * @param {string} id
 * @param {{seat: string, token: string, tokens?: {x: string, o: string}}} held
 */
export function keepSeat(id, held) {
  write(localStorage, `${SEAT}${id}`, JSON.stringify(held));
}

/** @param {string} id */
export function forgetSeat(id) {
  localStorage.removeItem(`${SEAT}${id}`);
}

/** Every seat kept in this browser, as kept (each checked by its reader). */
export function seatsKept() {
  /** @type {unknown[]} */
  const all = [];
  for (let k = 0; k < localStorage.length; k++) {
    const key = localStorage.key(k) || '';
    if (key.startsWith(SEAT)) all.push(readJson(localStorage, key));
  }
  return all;
}

/**
 * The new-game form of `kind` as last used (checked by newgame.js).
 * @param {string} kind
 */
export const formKept = (kind) => readJson(localStorage, `vw-new-${kind}`);

/**
 * @param {string} kind
 * @param {Record<string, string>} values
 */
export function keepForm(kind, values) {
  write(localStorage, `vw-new-${kind}`, JSON.stringify(values));
}

const PUZZLES = 'vw-puzzle-choice';

/** The puzzles chosen (theme and variant), as kept. */
export const puzzleChoiceKept = () => readJson(localStorage, PUZZLES);

/** @param {{theme: string, variant: string}} choice */
export function keepPuzzleChoice(choice) {
  write(localStorage, PUZZLES, JSON.stringify(choice));
}

const SEARCH = 'vw-quick';

/** This tab's quick play search, as kept (for this tab only). */
export const searchKept = () => readJson(sessionStorage, SEARCH);

/** @param {{id: string, since: number}} search */
export function keepSearch(search) {
  write(sessionStorage, SEARCH, JSON.stringify(search));
}

export function forgetSearch() {
  sessionStorage.removeItem(SEARCH);
}
