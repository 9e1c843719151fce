// `node --import ./tests/support/loadedModules.mjs …`: writes the URL of every module the process loads
// through the ESM loader (tsx's .ts files and the packages they import) to PIXMILL_LOADED_MODULES, one a
// line, so a test can say what a process never loaded (server/apiProcess.test.ts).
import { register } from 'node:module';

register('./loadedModulesHooks.mjs', import.meta.url, { data: { out: process.env.PIXMILL_LOADED_MODULES } });
