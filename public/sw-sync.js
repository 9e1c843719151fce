// Imported by the generated service worker (vite.config.ts workbox.importScripts). Background Sync:
// when the browser sees the network again it fires 'pixmill-uploads'; the open pages' upload queue
// (src/worker-bridge) then sends the works stored offline. The uploads themselves run in the page.
self.addEventListener('sync', (event) => {
  if (event.tag !== 'pixmill-uploads') return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((pages) => {
      for (const page of pages) page.postMessage({ type: 'pixmill-uploads' });
    }),
  );
});
