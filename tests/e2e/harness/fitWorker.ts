/** The harness's own worker (harness.tsx starts it): `fit` (./fit.ts) off the page's thread, exposed with Comlink. */
import * as Comlink from 'comlink';
import { fit } from './fit.js';

const api = { fit };
export type FitWorkerApi = typeof api;

Comlink.expose(api);
