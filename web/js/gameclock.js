// The game page's clocks: each side's time, counting down between the
// server's states from when the state came, and the first step a
// real-time game waits for.

import { t } from './i18n.js';

/**
 * A time left as a clock shows it: `m:ss`, `h:mm:ss`, or days and hours.
 * @param {number} ms
 */
export function clockText(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, '0');
  if (d) return `${t('{d}d', { d })} ${h}:${pad(m)}`;
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/**
 * The clocks in `box` and the first step awaited in `first`, as of now.
 * @param {HTMLElement} box
 * @param {HTMLElement} first
 * @param {import('./gamestore.js').Snapshot} snap
 */
export function showClocks(box, first, snap) {
  const { state: s, received, seat: held } = snap;
  if (!s || !s.clocks) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const c = s.clocks;
  const gone = c.running ? Date.now() - received : 0;
  for (const side of ['x', 'o']) {
    const el = /** @type {HTMLElement} */ (box.querySelector(`[data-clock="${side}"]`));
    const ms = (side === 'x' ? c.x_ms : c.o_ms) - (c.running === side ? gone : 0);
    el.textContent = `${side.toUpperCase()} ${clockText(ms)}`;
    el.classList.toggle('running', c.running === side);
    el.dataset.ms = String(Math.max(0, ms));
  }
  // Before the clocks run: the first step is awaited for a short time only.
  first.hidden = c.first_step_ms == null;
  if (c.first_step_ms != null && s.to_move) {
    const n = Math.max(0, Math.ceil((c.first_step_ms - (Date.now() - received)) / 1000));
    first.textContent = held && !held.tokens && held.seat === s.to_move
      ? t('Make your first step within {n} s, or the game is called off.', { n })
      : t('{side} has {n} s to make a first step, or the game is called off.', { side: s.to_move.toUpperCase(), n });
  }
}
