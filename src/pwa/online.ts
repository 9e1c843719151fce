/** Whether the browser has a network, as a React value that follows the 'online' and 'offline' events. */
import { useSyncExternalStore } from 'react';

function subscribeOnline(cb: () => void): () => void {
  window.addEventListener('online', cb);
  window.addEventListener('offline', cb);
  return () => {
    window.removeEventListener('online', cb);
    window.removeEventListener('offline', cb);
  };
}

/** true while navigator.onLine; on the server side of a render there is no answer, so it says online. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
}
