#!/usr/bin/env node
/**
 * `pixmill`: the Pixmill API from a shell (clients/typescript/README.md).
 *
 *   pixmill enlarge photo.jpg --scale 2 -o out.jpg
 *   pixmill remove-bg *.jpg -o cutouts/
 *
 * Batches run `--concurrency` calls at once (4), show a progress bar on a terminal (a line per file
 * otherwise), skip inputs whose output already exists (so a stopped batch resumes where it left off;
 * `--force` redoes them) and end with an exit code: 0 every file done or skipped, 1 some failed, 2 a usage
 * error, 3 the key was refused (the batch stops), 4 no credits left (the batch stops). The key is
 * PIXMILL_API_KEY; `--server` (or PIXMILL_SERVER) names a self-hosted Pixmill.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient, PixmillError } from './client.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, key: 3, credits: 4 } as const;
const DEFAULT_SERVER = 'http://localhost:8080';

const USAGE = `usage: pixmill <command> <files…> [options]

commands:
  enlarge <files…>     enlarge (--scale 2|4|6|8, default 2)
  remove-bg <files…>   remove the background (a PNG cut-out; --format, --bg-color, --crop)

options:
  -o, --out <path>     the output file (one input) or folder (several inputs, or a path ending in /)
  --size <s>           auto (default: scaled down to your plan), preview (≤ 0.25 MP, free up to a monthly number), full
  --format <f>         png, jpg or webp
  --bg-color <c>       a colour behind a cut-out (hex)
  --crop               crop a cut-out to the subject
  --concurrency <n>    calls at once (default 4)
  --server <url>       your Pixmill server (default $PIXMILL_SERVER or ${DEFAULT_SERVER})
  --force              redo inputs whose output exists
  -q, --quiet          no progress

The key is read from PIXMILL_API_KEY. Exit codes: 0 done, 1 some failed, 2 usage, 3 key refused, 4 no credits.`;

export interface Io {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  /** another fetch (tests) */
  fetch?: typeof fetch;
}

interface Options {
  command: 'enlarge' | 'remove-bg';
  inputs: string[];
  out?: string;
  scale?: string;
  size?: string;
  format?: string;
  bgColor?: string;
  crop: boolean;
  concurrency: number;
  server: string;
  force: boolean;
  quiet: boolean;
}

class Usage extends Error {}

function parse(argv: string[], env: Record<string, string | undefined>): Options {
  const [command, ...rest] = argv;
  if (command !== 'enlarge' && command !== 'remove-bg') throw new Usage(command ? `unknown command ${command}` : '');
  const o: Options = {
    command,
    inputs: [],
    crop: false,
    concurrency: 4,
    server: env.PIXMILL_SERVER || DEFAULT_SERVER,
    force: false,
    quiet: false,
  };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new Usage(`${a} needs a value`);
      return v;
    };
    if (a === '-o' || a === '--out') o.out = value();
    else if (a === '--scale') o.scale = value();
    else if (a === '--size') o.size = value();
    else if (a === '--format') o.format = value();
    else if (a === '--bg-color') o.bgColor = value();
    else if (a === '--crop') o.crop = true;
    else if (a === '--server') o.server = value();
    else if (a === '--force') o.force = true;
    else if (a === '-q' || a === '--quiet') o.quiet = true;
    else if (a === '--concurrency') {
      o.concurrency = Number(value());
      if (!Number.isInteger(o.concurrency) || o.concurrency < 1 || o.concurrency > 32)
        throw new Usage('--concurrency takes 1 to 32');
    } else if (a.startsWith('-')) throw new Usage(`unknown option ${a}`);
    else o.inputs.push(a);
  }
  if (!o.inputs.length) throw new Usage('no input files');
  if (o.format !== undefined && !['png', 'jpg', 'webp'].includes(o.format))
    throw new Usage('--format takes png, jpg or webp');
  return o;
}

/** The output of an input: the file -o names (one input), or <folder>/<name>.<ext>. */
function outputOf(o: Options, input: string): string {
  const base = path.basename(input, path.extname(input));
  const inputExt = path.extname(input).slice(1).toLowerCase().replace('jpeg', 'jpg') || 'jpg';
  const ext = o.format ?? (o.command === 'remove-bg' ? (o.bgColor ? 'jpg' : 'png') : inputExt);
  const name = o.command === 'remove-bg' ? `${base}.${ext}` : `${base}_enlarged.${ext}`;
  const single = o.inputs.length === 1 && o.out !== undefined && !o.out.endsWith('/') && !o.out.endsWith(path.sep);
  if (single) return o.out!;
  return path.join(o.out ?? path.dirname(input), name);
}

const exists = (p: string) =>
  fs.stat(p).then(
    (s) => s.isFile() && s.size > 0,
    () => false,
  );

function progressBar(io: Io, quiet: boolean, total: number) {
  let done = 0;
  let failed = 0;
  let skipped = 0;
  const tty = !!io.stderr.isTTY;
  const draw = (line?: string) => {
    if (quiet) return;
    if (!tty) {
      if (line) io.stderr.write(`${line}\n`);
      return;
    }
    const n = done + failed + skipped;
    const width = 30;
    const fill = Math.round((n / total) * width);
    if (line) io.stderr.write(`\r\x1b[K${line}\n`);
    io.stderr.write(
      `\r\x1b[K[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${n}/${total}  ${done} done, ${skipped} skipped, ${failed} failed`,
    );
    if (n === total) io.stderr.write('\n');
  };
  return {
    ok: (line: string) => (done++, draw(line)),
    skip: (line: string) => (skipped++, draw(line)),
    fail: (line: string) => (failed++, draw(line)),
    get failed() {
      return failed;
    },
  };
}

/** Runs the command; answers its exit code (never exits the process itself). */
export async function run(argv: string[], env: Record<string, string | undefined>, io: Io): Promise<number> {
  let o: Options;
  try {
    o = parse(argv, env);
  } catch (e) {
    if (!(e instanceof Usage)) throw e;
    io.stderr.write(`${e.message ? `pixmill: ${e.message}\n\n` : ''}${USAGE}\n`);
    return EXIT.usage;
  }
  const apiKey = env.PIXMILL_API_KEY;
  if (!apiKey) {
    io.stderr.write('pixmill: set PIXMILL_API_KEY to your API key (My account → Developer API)\n');
    return EXIT.usage;
  }
  if (o.out !== undefined && (o.inputs.length > 1 || o.out.endsWith('/'))) await fs.mkdir(o.out, { recursive: true });
  const api = createClient({ baseUrl: o.server, apiKey, ...(io.fetch ? { fetch: io.fetch } : {}) });
  const bar = progressBar(io, o.quiet, o.inputs.length);
  let stop: number | undefined;
  const queue = [...o.inputs];

  async function one(input: string) {
    const output = outputOf(o, input);
    if (!o.force && (await exists(output))) return bar.skip(`skipped ${input}: ${output} exists`);
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(input);
    } catch {
      return bar.fail(`failed ${input}: cannot read it`);
    }
    try {
      const answer = await api.call('postProcess', {
        file: new File([new Uint8Array(bytes)], path.basename(input)),
        feature: o.command === 'enlarge' ? 'enlarge' : 'matting',
        ...(o.command === 'enlarge' ? { scale: o.scale ?? '2' } : {}),
        ...(o.size ? { size: o.size as 'auto' | 'preview' | 'full' } : {}),
        ...(o.format ? { format: o.format as 'png' | 'jpg' | 'webp' } : {}),
        ...(o.bgColor ? { bg_color: o.bgColor } : {}),
        ...(o.crop ? { crop: true } : {}),
      });
      if (answer.kind !== 'file') return bar.fail(`failed ${input}: still processing (${answer.status})`);
      // written whole, then renamed: a stopped batch never leaves a half file that a rerun would skip
      await fs.mkdir(path.dirname(output), { recursive: true });
      const part = `${output}.part`;
      await fs.writeFile(part, Buffer.from(answer.bytes));
      await fs.rename(part, output);
      bar.ok(`${input} → ${output}`);
    } catch (e) {
      if (e instanceof PixmillError) {
        if (e.status === 401) stop ??= EXIT.key;
        if (e.status === 402) stop ??= EXIT.credits;
        return bar.fail(`failed ${input}: ${e.reason ?? e.status} (${e.message})`);
      }
      return bar.fail(`failed ${input}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  await Promise.all(
    Array.from({ length: Math.min(o.concurrency, queue.length) }, async () => {
      for (let input = queue.shift(); input !== undefined && stop === undefined; input = queue.shift())
        await one(input);
    }),
  );
  if (stop !== undefined) {
    io.stderr.write(stop === EXIT.key ? 'pixmill: the API key was refused\n' : 'pixmill: no credits left\n');
    return stop;
  }
  return bar.failed ? EXIT.failed : EXIT.ok;
}

// Run as the `pixmill` command (not when imported by a test).
if (
  process.argv[1] &&
  import.meta.url === pathToFileURL(await fs.realpath(process.argv[1]).catch(() => process.argv[1]!)).href
)
  process.exitCode = await run(process.argv.slice(2), process.env, process);
