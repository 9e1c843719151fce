/**
 * `npm run models`: copies our own trained nets (server/engines/weights), converts the TF.js models that
 * engines use from npm packages (BlazeFace, facemesh, MAXIM) to ONNX and reassembles IS-Net into MODELS_DIR
 * (default ./models). ESRGAN, which no engine uses any more, is converted only when bench / quality ask.
 * Skips outputs already up to date.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertAll } from '../server/engines/models.js';

export function modelsDir(): string {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  return path.resolve(process.env.MODELS_DIR || path.join(root, 'models'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = modelsDir();
  const t0 = Date.now();
  const { built, skipped } = convertAll(dir, (s) => console.log(s));
  console.log(`models in ${dir}: ${built.length} built, ${skipped.length} up to date (${Date.now() - t0} ms)`);
}
