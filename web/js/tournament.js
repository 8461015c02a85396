// A tournament's page (#/tournament/ID): the countdown, join or pause,
// your game one tap away, the standings moving live (GET
// /api/tournaments/ID/live), the games being played, and the podium at
// the end. It draws what the server says: ranks, points, who is on fire,
// whose game is whose.

import { call, socketTo } from './api.js';
import { t, tn } from './i18n.js';
import { me } from './account.js';
import { variantName } from './newgame.js';

/** @param {unknown} text */
const esc = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** @param {number} ms  a span, shown as h:mm:ss or m:ss */
export function span(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** What a tournament is, in a line: kind, variant, clock, rated. @param {any} c */
export function about(c) {
  const kind = c.kind === 'swiss' ? t('Swiss, rounds: {n}', { n: c.rounds }) : c.kind === 'round-robin' ? t('Round robin') : t('Arena');
  return [kind, variantName(c.variant.preset), c.time_control, c.rated ? t('rated') : t('casual')].filter(Boolean).map(esc).join(' · ');
}

/**
 * Where a running tournament is: an arena's time left, a Swiss's round,
 * a round robin's games.
 * @param {any} c  a tournament (kind, round, rounds, ends_ms)
 * @param {number} now  the server's time
 */
export function runningText(c, now) {
  if (c.kind === 'swiss') return t('round {n} of {m}', { n: c.round, m: c.rounds });
  if (c.kind === 'round-robin') return t('all games being played');
  return now < c.ends_ms ? t('ends in {time}', { time: span(c.ends_ms - now) }) : t('Last games are being played');
}

/** Points as the sheets say them: 2, 1½, ½. @param {number} n */
export function pointsText(n) {
  const whole = Math.floor(n);
  return n === whole ? String(n) : `${whole || ''}½`;
}

/** A sheet's game as a mark. @type {Record<string, string>} */
const MARKS = { won: '2', drawn: '½', lost: '0', aborted: '–', playing: '…', bye: '1', forfeit_won: '+', forfeit_lost: '−' };

/**
 * @param {HTMLElement} root
 * @param {string} id
 * @returns {() => void}
 */
export function showTournament(root, id) {
  const page = document.createElement('section');
  page.className = 'tournament';
  root.replaceChildren(page);
  page.innerHTML = `<h2 data-name></h2>
    <p class="hint" data-about></p>
    <p class="countdown" data-countdown aria-live="off"></p>
    <div class="row" data-entry></div>
    <p class="your-game" data-your-game hidden></p>
    <ol class="podium" data-podium hidden></ol>
    <p class="error" data-error role="alert"></p>
    <h3>${t('Standings')}</h3>
    <div class="standings-box"><table class="standings"><thead data-head></thead>
    <tbody data-standings></tbody></table></div>
    <p data-trf hidden><a href="/api/tournaments/${encodeURIComponent(id)}/trf" download="${esc(id)}.trf">${t('The rounds as a TRF file, for pairing programs')}</a></p>
    <h3>${t('Games being played')}</h3>
    <ul class="pairings" data-games></ul>
    <p><a href="#/tournaments">${t('All tournaments')}</a></p>`;
  const part = (/** @type {string} */ name) => /** @type {HTMLElement} */ (page.querySelector(`[data-${name}]`));
  let gone = false;
  /** @type {any} */
  let shown = null;
  /** The server's clock less ours. */
  let skew = 0;
  /** @type {string | null} */
  let myName = null;
  me().then((who) => { myName = who ? who.name : ''; if (shown) draw(shown); });

  /** @param {any} s */
  function draw(s) {
    // Paired while looking: the page goes to the game (the bell says it
    // on any other page).
    // (A round robin's games are all paired at once: no going.)
    const game = s.you && s.you.game;
    if (shown && game && s.kind !== 'round-robin' && game !== (shown.you && shown.you.game)) {
      location.hash = `#/game/${encodeURIComponent(game)}`;
      return;
    }
    shown = s;
    skew = s.now_ms - Date.now();
    part('name').textContent = s.name;
    part('about').innerHTML = `${about(s)} · ${tn('{n} players', s.players)}${s.bots ? '' : ` · ${t('people only')}`}`;
    const entry = part('entry');
    if (s.state === 'finished') {
      entry.innerHTML = '';
    } else if (myName === '') {
      entry.innerHTML = `<a class="button" href="#/login">${t('Log in to join')}</a>`;
    } else if (myName !== null) {
      const inIt = s.you && s.you.state === 'in';
      entry.innerHTML = inIt && s.kind === 'round-robin' && s.state === 'running' ? ''
        : inIt ? `<button data-withdraw>${s.state === 'soon' || s.kind === 'swiss' ? t('Withdraw') : t('Pause')}</button>`
        : `<button class="primary" data-join>${s.you ? t('Come back') : t('Join')}</button>`;
    }
    const yours = part('your-game');
    yours.hidden = !(s.you && s.you.game);
    if (s.you && s.you.game) {
      yours.innerHTML = `<a class="button primary" href="#/game/${encodeURIComponent(s.you.game)}" data-your-game-link>${t('Your game is on: play it')}</a>`;
    }
    const podium = part('podium');
    podium.hidden = s.podium.length === 0;
    podium.innerHTML = s.podium.map((/** @type {string} */ n, /** @type {number} */ k) => `<li class="place-${k + 1}" data-place="${k + 1}"><a href="#/@/${encodeURIComponent(n)}">${esc(n)}</a></li>`).join('');
    // An arena's second column is the performance; a Swiss's its
    // tiebreaks, Buchholz then Sonneborn-Berger; a round robin's
    // Sonneborn-Berger.
    const arena = s.kind === 'arena';
    // (The tiebreaks by their short names, as chess tables give them, so
    // that a phone's table fits; the whole name is the title.)
    const bh = `<abbr title="${t('Buchholz')}" data-tiebreak="buchholz">BH</abbr>`;
    const sb = `<abbr title="${t('Sonneborn-Berger')}" data-tiebreak="sonneborn-berger">SB</abbr>`;
    const extra = arena ? [t('Performance')] : s.kind === 'swiss' ? [bh, sb] : [sb];
    part('head').innerHTML = `<tr><th>#</th><th>${t('Player')}</th><th>${t('Points')}</th>${extra.map((h) => `<th>${h}</th>`).join('')}<th>${t('Games')}</th></tr>`;
    const columns = (/** @type {any} */ l) => arena ? [l.performance === null ? '' : Math.round(l.performance)]
      : s.kind === 'swiss' ? [pointsText(l.buchholz), pointsText(l.sonneborn_berger)] : [String(l.sonneborn_berger)];
    const mark = (/** @type {any} */ g) => {
      const text = g.result === 'won' || g.result === 'drawn' ? pointsText(g.points) : MARKS[g.result] || '';
      const title = esc(t(g.result));
      return g.game ? `<a href="#/game/${encodeURIComponent(g.game)}" class="mark ${g.result}" title="${title}">${text}${g.berserk ? '⚡' : ''}</a>`
        : `<span class="mark ${g.result}" title="${title}">${text}</span>`;
    };
    part('standings').innerHTML = s.standings.map((/** @type {any} */ l) => `<tr data-line="${esc(l.name)}" class="${l.name === myName ? 'me' : ''}">
      <td>${l.rank}</td>
      <td><a href="#/@/${encodeURIComponent(l.name)}">${esc(l.name)}</a>${l.on_fire ? ` <span class="fire" title="${t('On fire: the next game counts double')}">🔥</span>` : ''}${l.state === 'paused' ? ` <span class="hint">${t('paused')}</span>` : ''}</td>
      <td data-points>${pointsText(l.points)}</td>
      ${columns(l).map((v) => `<td>${v}</td>`).join('')}
      <td class="sheet">${l.sheet.map(mark).join('')}</td></tr>`).join('')
      || `<tr><td colspan="${4 + extra.length}" class="hint">${t('Nobody has joined yet.')}</td></tr>`;
    part('trf').hidden = s.kind !== 'swiss' || s.round === 0;
    part('games').innerHTML = s.games.map((/** @type {any} */ g) => `<li><a href="#/game/${encodeURIComponent(g.game)}">${esc(g.x)}${g.berserk[0] ? '⚡' : ''} – ${esc(g.o)}${g.berserk[1] ? '⚡' : ''}</a></li>`).join('')
      || `<li class="hint">${s.state === 'running' ? t('None right now.') : '—'}</li>`;
    tick();
  }

  function tick() {
    if (!shown) return;
    const now = Date.now() + skew;
    const c = part('countdown');
    if (shown.state === 'soon') c.textContent = t('Starts in {time}', { time: span(shown.starts_ms - now) });
    else if (shown.state === 'running' && shown.kind === 'arena') c.textContent = now < shown.ends_ms ? t('Ends in {time}', { time: span(shown.ends_ms - now) }) : t('Last games are being played');
    else if (shown.state === 'running') c.textContent = runningText(shown, now);
    else c.textContent = t('Finished');
  }

  page.addEventListener('click', (e) => {
    const button = /** @type {HTMLElement} */ (e.target).closest('button');
    if (!button) return;
    const action = button.hasAttribute('data-join') ? 'join' : button.hasAttribute('data-withdraw') ? 'withdraw' : '';
    if (!action) return;
    button.setAttribute('disabled', '');
    call('POST', `/api/tournaments/${id}/${action}`).then(() => call('GET', `/api/tournaments/${id}`)).then((s) => {
      if (!gone) draw(s);
    }, (err) => {
      if (!gone) { part('error').textContent = err.message; button.removeAttribute('disabled'); }
    });
  });

  /** @type {WebSocket | null} */
  let socket = null;
  let retry = 1000;
  let retryTimer = 0;
  function connect() {
    const ws = socketTo(`/api/tournaments/${encodeURIComponent(id)}/live`);
    socket = ws;
    ws.onmessage = (e) => {
      /** @type {any} */
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      if (m.type === 'tournament' && !gone) { retry = 1000; part('error').textContent = ''; draw(m); }
    };
    ws.onclose = () => {
      if (gone) return;
      retryTimer = window.setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    };
  }
  call('GET', `/api/tournaments/${id}`).then((s) => { if (!gone) { draw(s); connect(); } }, (e) => {
    if (!gone) part('error').textContent = e.message;
  });
  const timer = window.setInterval(tick, 1000);
  const ping = window.setInterval(() => { if (socket && socket.readyState === 1) socket.send('{"type":"ping"}'); }, 30000);
  return () => {
    gone = true;
    clearInterval(timer);
    clearInterval(ping);
    clearTimeout(retryTimer);
    if (socket) { socket.onclose = null; socket.close(); }
  };
}
