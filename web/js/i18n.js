// The page's words in English, Russian (ru.js), Ukrainian (uk.js) and
// Czech (cs.js). The English text is the key; `tests/i18n.test.js` checks that
// every text given to t() in web/js has its Russian, Ukrainian and Czech.
// The server's own messages (a refused step's reason) stay as it sends them;
// its status words are translated here, its data-status keeps them as sent.

import { CS, CS_PLURAL } from './cs.js';
import { RU, RU_PLURAL } from './ru.js';
import { UK, UK_PLURAL } from './uk.js';

export { RU };

/** The languages the page speaks besides English, with their words. */
export const LANGUAGES = /** @type {Record<string, Record<string, string>>} */ ({ ru: RU, uk: UK, cs: CS });

/** The page's language: `ru`, `uk`, `cs` or `en`. */
export function lang() {
  const l = document.documentElement.lang;
  return Object.hasOwn(LANGUAGES, l) ? l : 'en';
}

/**
 * The text in the page's language, with `{name}` filled from `vars`.
 * Keys that are not English text (`rules-intro`) have their English in EN.
 * @param {string} text
 * @param {Record<string, string | number>} [vars]
 */
export function t(text, vars) {
  const l = lang();
  const words = (l !== 'en' && LANGUAGES[l][text]) || EN[text] || text;
  return words.replace(/\{(\w+)\}/g, (all, name) => (vars && name in vars ? String(vars[name]) : all));
}

/** English for the keys that are names rather than text. */
/** @type {Record<string, string>} */
export const EN = {
  forfeit_won: 'won by forfeit',
  forfeit_lost: 'lost by forfeit',
  'rules-intro': 'Two players take turns growing colonies of viruses on a grid. X moves first. A turn is several steps in a row (three in most variants). A step puts your virus on an empty accessible cell, or kills an accessible enemy virus: it becomes your zombie, for good. Whoever cannot step loses.',
  'rules-access': 'A cell is accessible when it touches (side or corner) one of your live groups: a connected group of your viruses and zombies with at least one live virus of yours. The boards below come from the server: the marked cells are where the side to move may step.',
  'rules-turn': "X's first turn on a 6×6 board: three steps, a1, b2, c3. Each step opens new cells for the next. Then O moves, from its own corner.",
  'rules-cut': "O steps to d3 and kills c3. X's zombie on d4 now touches no live X virus: its group is dead, and the cells around it (c4, c5, d5, e3) are out of X's reach.",
  'rules-chain': "X's zombies on c3 and d4 are joined to X's live viruses on b2 and c2, so X reaches far through them: it kills e5, then f4 and f5.",
  'rules-variants': 'A game is played in one of these variants; the board size, the steps a turn and other options (trenches, obstacles, the pass rule) are chosen in a game\'s settings on the home page.',
};

/**
 * Who plays a side (the API's `players.x`, `players.o`), in the page's language.
 * @param {import('./api.js').PlayerInfo} who
 */
export function playerName(who) {
  if (who.kind === 'computer') return t('computer, level {n}', { n: who.level ?? '?' });
  if (who.kind === 'bot') return t('bot {name}', { name: who.name ?? '' });
  return who.name ?? t('human');
}

/**
 * Whose move it is, or how the game ended, in the page's language: from
 * the API's fields `to_move` and `ending` (never from its English words).
 * @param {{to_move: string | null, ending: import('./api.js').EndingState | null}} s
 */
export function statusText(s) {
  if (s.to_move) return t(`${s.to_move.toUpperCase()} to move`);
  if (!s.ending || s.ending.reason === 'aborted') return t('aborted');
  return s.ending.winner ? t(`${s.ending.winner.toUpperCase()} wins`) : t('draw');
}

/** The words of each ending code; {side} is the side the ending is about (the loser). */
export const ENDING_WORDS = {
  no_legal_step: '{side} has no legal step',
  annihilation: '{side} has no live virus left',
  resignation: '{side} resigned',
  time: '{side} ran out of time',
  two_passes: 'both passed',
  agreement: 'draw agreed',
};

/** The words of an ending said to a player: [when it is about them, when about their opponent]. */
export const ENDING_YOURS = {
  no_legal_step: ['You have no legal step', 'Your opponent has no legal step'],
  annihilation: ['You have no live virus left', 'Your opponent has no live virus left'],
  resignation: ['You resigned', 'Your opponent resigned'],
  time: ['You ran out of time', 'Your opponent ran out of time'],
};

/** Every ending's words (each must have its translation). */
export const ENDINGS = [...Object.values(ENDING_WORDS), ...Object.values(ENDING_YOURS).flat()];

/**
 * Why a game ended, said to the player of `side`: "You resigned", "Your
 * opponent ran out of time", "both passed".
 * @param {import('./api.js').EndingState} ending
 * @param {string} side
 */
export function endingTextFor(ending, side) {
  const yours = /** @type {Record<string, string[]>} */ (ENDING_YOURS)[ending.reason];
  if (!yours || !ending.winner) return endingText(ending);
  return t(ending.winner === side ? yours[1] : yours[0]);
}

/**
 * Words that change with a number, by the page's language's plural rules:
 * English one and other, Russian and Ukrainian one, few and many, Czech
 * one, few (2–4) and other.
 * @type {Record<string, {en: string[], ru: string[], uk: string[], cs: string[]}>}
 */
export const PLURAL = {
  '{n} steps': { en: ['{n} step', '{n} steps'], ru: RU_PLURAL['{n} steps'], uk: UK_PLURAL['{n} steps'], cs: CS_PLURAL['{n} steps'] },
  '{n} games': { en: ['{n} game', '{n} games'], ru: RU_PLURAL['{n} games'], uk: UK_PLURAL['{n} games'], cs: CS_PLURAL['{n} games'] },
  '{n} players': { en: ['{n} player', '{n} players'], ru: RU_PLURAL['{n} players'], uk: UK_PLURAL['{n} players'], cs: CS_PLURAL['{n} players'] },
  '{n} points': { en: ['{n} point', '{n} points'], ru: RU_PLURAL['{n} points'], uk: UK_PLURAL['{n} points'], cs: CS_PLURAL['{n} points'] },
};

/**
 * `key`'s words for the number `n`, in the page's language.
 * @param {keyof typeof PLURAL} key
 * @param {number} n
 */
export function tn(key, n) {
  const forms = PLURAL[key];
  const l = lang();
  const rule = new Intl.PluralRules(l).select(n);
  const form = l === 'ru' || l === 'uk' || l === 'cs'
    ? forms[l][rule === 'one' ? 0 : rule === 'few' ? 1 : 2]
    : forms.en[rule === 'one' ? 0 : 1];
  return form.replace('{n}', String(n));
}

/**
 * Why a game ended (the API's `ending`), in the page's language; '' for
 * an aborted game (its status says so) or a code this page does not know.
 * @param {import('./api.js').EndingState} ending
 */
export function endingText(ending) {
  const words = /** @type {Record<string, string>} */ (ENDING_WORDS)[ending.reason];
  if (!words) return '';
  const loser = ending.winner === 'x' ? 'O' : ending.winner === 'o' ? 'X' : '';
  return t(words, { side: loser });
}

/** The words of a refused step's reason (the API's `detail.reason`). */
export const REFUSED_STEP = {
  not_accessible: 'You can\'t reach {cell}: it touches none of your live viruses, nor a zombie chain from them.',
  not_entry: 'Your first step must be on {entry}.',
  no_live_group: 'You have no live virus left to step from.',
  own_virus: '{cell} is already yours.',
  zombie: '{cell} holds a zombie: zombies are never taken again.',
  obstacle: '{cell} is an obstacle.',
  off_board: '{cell} is off the board.',
  turn_over: 'Your turn ended before {cell}.',
  pass_not_allowed: 'Passing is not allowed in this variant.',
  pass_mid_turn: 'You can pass only before the first step of your turn.',
  game_over: 'The game is over.',
};

/** The words of a refusal's code, where they need no more than the code. */
export const REFUSED = {
  not_your_turn: 'It is not your turn.',
  stale_seq: 'The game moved on meanwhile: look at the board again.',
  muted: 'A moderator muted you: you cannot chat for now.',
  not_your_room: 'You cannot write in this room.',
};

/**
 * A refusal of the server (`{code, message, detail}`) in the page's
 * language: from its code and detail, or its message where the page has no
 * words of its own for it.
 * @param {{code: string, message: string, detail?: {cell: string, reason: string, entry: string | null} | null}} error
 */
export function refusalText(error) {
  const d = error.detail;
  const step = d ? /** @type {Record<string, string>} */ (REFUSED_STEP)[d.reason] : undefined;
  if (d && step) return t(step, { cell: d.cell, entry: d.entry || '' });
  const words = /** @type {Record<string, string>} */ (REFUSED)[error.code];
  return words ? t(words) : error.message;
}

/**
 * A state's status and, once over, why: "O wins (X resigned)".
 * @param {{to_move: string | null, ending: import('./api.js').EndingState | null}} s
 */
export function statusWithEnding(s) {
  const why = s.ending ? endingText(s.ending) : '';
  return statusText(s) + (why ? ` (${why})` : '');
}
