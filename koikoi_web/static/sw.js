// The service worker: keeps every file of this build (listed below by the build) so the app,
// practice included, opens without the network once it has been opened; a new build has a
// new cache name, and the old cache is removed when the new worker activates.
const CACHE = 'koikoi-cb324177b3d0f50c';
const FILES = ["./","app-f30797ad46a5.js","apple-touch-icon.png","icon-192.png","icon-512.png","icon.svg","index.html","manifest.webmanifest","styles-ddb89a12d6b1.css","weights-ca79828ced32.js","worker-3ab1019676dd.js"];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('koikoi-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  const path = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (!FILES.includes(name)) return;
  event.respondWith(caches.open(CACHE).then((c) => c.match(name).then((hit) => hit ?? fetch(event.request))));
});
