/** The image worker: one typed API exposed with Comlink; the UI reaches it through src/worker-bridge. */
import * as Comlink from 'comlink';
import { api } from './api.js';

Comlink.expose(api);

export type ImageWorkerApi = typeof api;
