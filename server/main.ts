/** `npm start`: one process serving the PWA and the API, with the embedded job runner. */
import { loadConfig } from './config.js';
import { createContext } from './bootstrap.js';
import { buildApp } from './app.js';

const config = loadConfig();
const ctx = await createContext(config);
const app = await buildApp(ctx);
await app.listen({ port: config.port, host: config.host });

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
