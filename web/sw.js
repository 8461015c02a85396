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
