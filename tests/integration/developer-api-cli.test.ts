/**
 * The `pixmill` command (clients/typescript/cli.ts) against a real server, in both run modes: one enlarge
 * to a named file, a background-removal batch that resumes (an existing output is skipped), and the exit
 * codes for a usage error, a refused key and a file that cannot be read.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, run } from '../../clients/typescript/cli.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { fixture, freeApiKey } from './api-helpers.js';

let srv: TestServer;
let dir: string;
beforeAll(async () => {
  srv = await startTestServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-cli-'));
}, 60_000);
afterAll(async () => {
  await srv?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const freeKey = () => freeApiKey(srv.url, 'cli');

/** Runs the command with captured output. */
async function pixmill(args: string[], env: Record<string, string | undefined>) {
  let out = '';
  let err = '';
  const code = await run(args, env, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s), isTTY: false },
  });
  return { code, out, err };
}

describe('pixmill', () => {
  it('enlarge photo.jpg --scale 2 -o out.jpg, and a batch of remove-bg that skips finished outputs', async () => {
    const key = await freeKey();
    const env = { PIXMILL_API_KEY: key };
    const photo = path.join(dir, 'photo.jpg');
    fs.writeFileSync(
      photo,
      await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 200, g: 100, b: 50 } } })
        .jpeg()
        .toBuffer(),
    );
    const out = path.join(dir, 'out.jpg');
    const one = await pixmill(['enlarge', photo, '--scale', '2', '-o', out, '--server', srv.url], env);
    expect(one.err).toContain('→');
    expect(one.code).toBe(EXIT.ok);
    expect(await sharp(out).metadata()).toMatchObject({ width: 96, height: 64, format: 'jpeg' });

    // a batch: b's cut-out exists already (a run stopped halfway), so only a is processed
    const a = path.join(dir, 'a.jpg');
    const b = path.join(dir, 'b.jpg');
    fs.writeFileSync(a, fixture('LadyBird.jpg'));
    fs.writeFileSync(b, fixture('LadyBird.jpg'));
    const cutouts = path.join(dir, 'cutouts');
    fs.mkdirSync(cutouts);
    fs.writeFileSync(path.join(cutouts, 'b.png'), 'done before');
    const batch = await pixmill(
      ['remove-bg', a, b, '-o', cutouts, '--size', 'preview', '--concurrency', '2', '--server', srv.url],
      env,
    );
    expect(batch.code).toBe(EXIT.ok);
    expect(batch.err).toContain(`skipped ${b}`);
    expect((await sharp(path.join(cutouts, 'a.png')).metadata()).hasAlpha).toBe(true);
    expect(fs.readFileSync(path.join(cutouts, 'b.png'), 'utf8')).toBe('done before');
    expect(fs.readdirSync(cutouts).sort()).toEqual(['a.png', 'b.png']);
  });

  it('exit codes: 2 usage (no key, unknown command), 3 a refused key, 1 a file that cannot be read', async () => {
    expect((await pixmill(['enlarge', 'x.jpg', '--server', srv.url], {})).code).toBe(EXIT.usage);
    expect((await pixmill(['sharpen-all', 'x.jpg'], { PIXMILL_API_KEY: 'k' })).code).toBe(EXIT.usage);
    const photo = path.join(dir, 'p.jpg');
    fs.writeFileSync(
      photo,
      await sharp({ create: { width: 20, height: 20, channels: 3, background: '#888' } })
        .jpeg()
        .toBuffer(),
    );
    const refused = await pixmill(['enlarge', photo, '-o', path.join(dir, 'r.jpg'), '--server', srv.url], {
      PIXMILL_API_KEY: `pxm_${'A'.repeat(43)}`,
    });
    expect([refused.code, refused.err]).toEqual([EXIT.key, expect.stringContaining('invalidApiKey')]);
    const missing = await pixmill(['enlarge', path.join(dir, 'nope.jpg'), '--server', srv.url], {
      PIXMILL_API_KEY: await freeKey(),
    });
    expect(missing.code).toBe(EXIT.failed);
  });
});
