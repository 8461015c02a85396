// The service worker: keeps the UI's files so that the page opens with the
// server out of reach (and the app installs). The server serves this file
// at /sw.js with one line before it that sets VW_VERSION (a hash of the
// UI's files, so a new binary's UI replaces the old) and VW_FILES (what to
// keep). The network always comes first: online, the page is the server's
// own; the API is never kept.

/** @type {any} */
const worker = self;
const CACHE = `virus-wars-ui-${worker.VW_VERSION || 'dev'}`;
/** @type {string[]} */
const FILES = worker.VW_FILES || ['/'];

worker.addEventListener('install', (/** @type {any} */ event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => worker.skipWaiting()));
});

worker.addEventListener('activate', (/** @type {any} */ event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener('fetch', (/** @type {any} */ event) => {
  /** @type {Request} */
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== location.origin) return;
  const path = url.pathname;
  if (!FILES.includes(path)) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((c) => c.put(path, copy));
        }
        return response;
      })
      .catch(() => caches.match(path).then((kept) => kept || Response.error())),
  );
});

// Web Push: a challenge, or a turn to play in a game played over days,
// shown when no page of the site is in view (an open page's bell says it
// already); a tap opens the game, or the page.
worker.addEventListener('push', (/** @type {any} */ event) => {
  /** @type {any} */
  let n = {};
  try { n = event.data ? event.data.json() : {}; } catch { n = {}; }
  const body = n.kind === 'challenge'
    ? `${n.from}: ${n.variant || ''} ${n.time_control || ''}`.trim()
    : n.kind === 'your_turn' ? `${n.opponent || ''}` : '';
  const title = n.kind === 'challenge' ? 'Virus Wars: a challenge' : 'Virus Wars: your turn';
  event.waitUntil(
    worker.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((/** @type {any[]} */ open) => {
      if (open.some((c) => c.visibilityState === 'visible')) return undefined;
      return worker.registration.showNotification(title, {
        body,
        tag: n.game ? `vw-game-${n.game}` : `vw-${n.id}`,
        data: { url: n.game ? `/#/game/${n.game}` : '/#/' },
        icon: '/web/icon-192.png',
      });
    }),
  );
});

worker.addEventListener('notificationclick', (/** @type {any} */ event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || '/';
  event.waitUntil(
    worker.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((/** @type {any[]} */ open) => {
      const page = open.find((c) => 'focus' in c);
      if (page) return page.navigate(url).then((/** @type {any} */ c) => (c || page).focus());
      return worker.clients.openWindow(url);
    }),
  );
});
