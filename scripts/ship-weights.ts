/**
 * Ships a trained net: one command from the file `scripts/train/train.py` wrote to the engines' weights.
 *   npm run ship-weights -- <role> <trained.onnx> [--int8]
 * role: x2, x2Clean, x4, x4Clean, x2Small, denoise or deblur (src/shared/imaging/netFiles.ts, OWN_NETS).
 * 1. checks the file runs as the engines run it (planar RGB 0…255 in, the role's scale out, finite values)
 *    and that its name is new (a retrained net gets a new name: the /models/ answers are immutable);
 * 2. copies it into server/engines/weights/;
 * 3. points the role at it in src/shared/imaging/netFiles.ts (and the on-device download size for x2Small);
 * 4. adds its row to server/engines/weights/README.md: sha256, weights, and the recipe, steps, commit and
 *    start the trainer wrote into the file's metadata;
 * 5. with --int8: calibrates its int8 recipe (scripts/quantize-nets.ts; needs the training photos' Debian
 *    packages). Commit the recipe only when `npm run quality -- int8` shows ≤ 0.05 dB loss.
 * Then: `npm run models`, the engines' tests, `npm run quality -- papers`, and commit (docs/shipping-weights.md).
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as ort from 'onnxruntime-node';
import { readModel } from '../server/engines/convert/onnx.js';
import type { OWN_NETS } from '../src/shared/imaging/netFiles.js';

export type Role = keyof typeof OWN_NETS;
/** How much each role's net enlarges (1: same size out). */
export const ROLE_SCALE: Readonly<Record<Role, number>> = {
  x2: 2,
  x2Clean: 2,
  x4: 4,
  x4Clean: 4,
  x2Small: 2,
  denoise: 1,
  deblur: 1,
};
const NAME = /^pixmill-[a-z0-9]+(-[a-z0-9]+)*\.onnx$/;

export interface Shipped {
  file: string;
  sha256: string;
  /** values in the file's initializers (the trained weights and any fixed constants, e.g. an upsampling kernel) */
  weights: number;
  row: string;
}

/** What the trainer wrote into the file (scripts/train/README.md: recipe, steps, commit, init). */
function metadataOf(bytes: Uint8Array): { weights: number; meta: Record<string, string> } {
  const model = readModel(bytes);
  const weights = model.graph.initializer.reduce((n, t) => n + t.dims.reduce((a, b) => a * b, 1), 0);
  const props = (model.metadataProps as { key?: string; value?: string }[] | undefined) ?? [];
  return { weights, meta: Object.fromEntries(props.map((p) => [p.key ?? '', p.value ?? ''])) };
}

/** Runs the net on one small picture as the engines do; throws unless the output has the role's size. */
async function checkRuns(file: string, scale: number): Promise<void> {
  const session = await ort.InferenceSession.create(file);
  const [h, w] = [24, 32];
  const pixels = Float32Array.from({ length: 3 * h * w }, (_, i) => (i * 37) % 256);
  const out = (await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', pixels, [1, 3, h, w]) }))[
    session.outputNames[0]!
  ]!;
  const want = [1, 3, h * scale, w * scale];
  if (out.dims.join() !== want.join())
    throw new Error(`${path.basename(file)} answers ${out.dims.join('×')} for 1×3×${h}×${w}, not ${want.join('×')}`);
  if (!(out.data as Float32Array).every(Number.isFinite)) throw new Error(`${path.basename(file)} answers NaN`);
}

/** The README row of a shipped file. */
function rowOf(role: Role, name: string, sha256: string, weights: number, meta: Record<string, string>): string {
  let recipe = 'not recorded in the file';
  try {
    const r = JSON.parse(meta.recipe ?? '') as { name?: string; net?: { arch?: string } };
    recipe = `recipe ${r.name ?? '(unnamed)'}${r.net?.arch ? `, ${r.net.arch}` : ''}`;
  } catch {
    // no recipe metadata: said so in the row
  }
  const made = [
    recipe,
    meta.steps && `${meta.steps} steps`,
    meta.init && `from ${meta.init}`,
    meta.commit && `commit ${meta.commit}`,
  ]
    .filter(Boolean)
    .join('; ');
  return `| ${name} | role \`${role}\` (\`OWN_NETS.${role}\`, ${ROLE_SCALE[role] === 1 ? 'same size out' : `×${ROLE_SCALE[role]}`}; ${weights.toLocaleString('en').replace(/,/g, ' ')} initializer values: weights and fixed constants) | \`scripts/train/train.py\`: ${made}; sha256 ${sha256} | see the recipe (scripts/train/data.py's sets) | AGPL-3.0-or-later, like the project |`;
}

export async function shipWeights(opts: { root: string; role: Role; file: string; int8?: boolean }): Promise<Shipped> {
  const { root, role, file } = opts;
  if (!Object.hasOwn(ROLE_SCALE, role))
    throw new Error(`unknown role ${role}: one of ${Object.keys(ROLE_SCALE).join(', ')}`);
  const name = path.basename(file);
  if (!NAME.test(name)) throw new Error(`${name}: a shipped net is named pixmill-<what>-v<n>.onnx`);
  const weightsDir = path.join(root, 'server', 'engines', 'weights');
  const target = path.join(weightsDir, name);
  if (fs.existsSync(target))
    throw new Error(`${name} is already shipped: a retrained net gets a new name (the /models/ answers never change)`);
  await checkRuns(file, ROLE_SCALE[role]);

  const bytes = fs.readFileSync(file);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const { weights, meta } = metadataOf(bytes);
  fs.copyFileSync(file, target);

  const netFiles = path.join(root, 'src', 'shared', 'imaging', 'netFiles.ts');
  let src = fs.readFileSync(netFiles, 'utf8');
  const entry = new RegExp(`(\\n  ${role}: ')[^']*(',)`);
  if (!entry.test(src)) throw new Error(`no ${role} entry in ${netFiles}`);
  src = src.replace(entry, `$1${name.replace(/\.onnx$/, '')}$2`);
  if (role === 'x2Small')
    src = src.replace(
      /(export const OWN_X2_BYTES = )[\d_]+;/,
      `$1${bytes.length.toLocaleString('en').replace(/,/g, '_')};`,
    );
  fs.writeFileSync(netFiles, src);

  const readme = path.join(weightsDir, 'README.md');
  const row = rowOf(role, name, sha256, weights, meta);
  const lines = fs.readFileSync(readme, 'utf8').split('\n');
  const header = lines.findIndex((l) => l.startsWith('| file |'));
  let end = header + 2;
  while (end < lines.length && lines[end]!.startsWith('|')) end++;
  lines.splice(end, 0, row);
  fs.writeFileSync(readme, lines.join('\n'));

  if (opts.int8)
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/quantize-nets.ts', role], {
      cwd: root,
      stdio: 'inherit',
    });
  return { file: target, sha256, weights, row };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const [role, file] = args.filter((a) => !a.startsWith('--'));
  if (!role || !file) {
    console.error('usage: npm run ship-weights -- <role> <trained.onnx> [--int8]');
    process.exit(2);
  }
  const root = path.resolve(import.meta.dirname, '..');
  const shipped = await shipWeights({
    root,
    role: role as Role,
    file: path.resolve(file),
    int8: args.includes('--int8'),
  });
  console.log(`shipped ${path.relative(root, shipped.file)} (sha256 ${shipped.sha256}, ${shipped.weights} weights)`);
  console.log(
    'next: npm run models, npx vitest run server/engines, npm run quality -- papers, then commit (docs/shipping-weights.md)',
  );
}
