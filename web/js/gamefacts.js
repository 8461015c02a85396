// What the game page knows beside the game's state, asked of the server
// when the state says it is needed: a rated game's stakes, and whether
// the seats' players are online. A small store: it holds the answers,
// asks again when they may have changed, and says when one came.

import { call } from './api.js';
import { categoryName } from './leaderboard.js';
import { t } from './i18n.js';

/**
 * The stakes and presence of game `id`.
 * @param {string} id
 * @param {{gone: () => boolean, changed: () => void}} page
 */
export function gameFacts(id, page) {
  /**
   * A rated game's stakes (`GET /api/games/ID/stakes`): asked for once the
   * game is known to be rated, and again once it is over (what its end did).
   * @type {import('./gameparts.js').Stakes | null}
   */
  let stakes = null;
  /**
   * What the stakes were last asked for: '' none, else the game's phase
   * ('on', 'over') and which seats were held ('xo', 'x-'): asked again once
   * a player sits down (their rating was not known before).
   */
  let stakesAsked = '';
  /**
   * Which seats' accounts are online (`GET /api/players/NAME`'s `online`),
   * asked when a seat's holder is first known and then once a minute.
   * @type {{x?: boolean, o?: boolean}}
   */
  const online = {};
  /** Whom presence was last asked for ('x:NAME o:NAME'), and when. */
  let onlineAsked = { who: '', at: 0 };

  return {
    online,
    stakes: () => stakes,
    /** Whether the stakes were asked for since the game ended. */
    overAsked: () => stakesAsked.startsWith('over'),
    /**
     * Asks for what `s` needs and was not asked for yet.
     * @param {import('./api.js').GameState} s
     * @param {string | null} mine  this page's player's own seat ('x', 'o'): not asked
     */
    ask(s, mine) {
      if (s.rated) {
        const want = `${s.to_move ? 'on' : 'over'} ${s.seats_free.x ? '-' : 'x'}${s.seats_free.o ? '-' : 'o'}`;
        if (stakesAsked !== want) {
          stakesAsked = want;
          call('GET', `/api/games/${id}/stakes`).then((got) => {
            if (page.gone()) return;
            stakes = got;
            page.changed();
          }, () => { stakesAsked = ''; });
        }
      }
      this.askOnline(s, mine);
    },
    /**
     * Asks whether the other seats' players are online, at most once a
     * minute for the same players.
     * @param {import('./api.js').GameState} s
     * @param {string | null} mine
     */
    askOnline(s, mine) {
      const sides = /** @type {('x' | 'o')[]} */ (['x', 'o'])
        .filter((side) => side !== mine && s.players[side].account && s.players[side].name && !s.seats_free[side]);
      const who = sides.map((side) => `${side}:${s.players[side].name}`).join(' ');
      if (who === onlineAsked.who && Date.now() - onlineAsked.at < 60_000) return;
      onlineAsked = { who, at: Date.now() };
      for (const side of sides) {
        call('GET', `/api/players/${encodeURIComponent(s.players[side].name || '')}`).then((p) => {
          if (page.gone() || online[side] === Boolean(p.online)) return;
          online[side] = Boolean(p.online);
          page.changed();
        }, () => {});
      }
    },
  };
}

/**
 * "Rated · Classic, blitz · 3+2" for a rated game, and whether its end
 * moved no rating.
 * @param {HTMLElement} line
 * @param {import('./api.js').GameState} s
 * @param {ReturnType<typeof gameFacts>} facts
 */
export function showStakes(line, s, facts) {
  line.hidden = !s.rated;
  if (!s.rated) return;
  const stakes = facts.stakes();
  const c = s.clocks;
  const clock = !c ? '' : c.days_per_turn ? t('{n} day a turn', { n: c.days_per_turn }) : `${c.base_s / 60}+${c.inc_s}`;
  line.textContent = [t('Rated'), stakes?.category ? categoryName(stakes.category) : '', clock].filter(Boolean).join(' · ');
  // Over, and neither rating moved: a rated game counts once each side
  // has played a whole turn.
  const unmoved = !s.to_move && s.ending?.reason !== 'aborted' && stakes && facts.overAsked()
    && [stakes.x, stakes.o].every((k) => k && k.after == null);
  if (unmoved) line.textContent += ` · ${t('Not rated: the game ended before each side had played a turn.')}`;
}
