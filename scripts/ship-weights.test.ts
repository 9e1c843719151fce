// scripts/ship-weights.ts on a copy of the files it changes: a trained file becomes the role's shipped net
// (copied, named in netFiles.ts, its README row with the sha256), and what it must refuse.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shipWeights } from './ship-weights.js';

const root = path.resolve(import.meta.dirname, '..');
const WEIGHTS = 'server/engines/weights';
const NET_FILES = 'src/shared/imaging/netFiles.ts';
let tmp: string;
let trained: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-ship-'));
  for (const f of [`${WEIGHTS}/README.md`, `${WEIGHTS}/pixmill-sr-x2-small-v2.onnx`, NET_FILES]) {
    fs.mkdirSync(path.dirname(path.join(tmp, f)), { recursive: true });
    fs.copyFileSync(path.join(root, f), path.join(tmp, f));
  }
  // "the trainer's output": the small x2 net under a new name
  fs.mkdirSync(path.join(tmp, 'out'));
  trained = path.join(tmp, 'out', 'pixmill-sr-x2-small-v3.onnx');
  fs.copyFileSync(path.join(root, WEIGHTS, 'pixmill-sr-x2-small-v2.onnx'), trained);
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('ship-weights', () => {
  it('copies the file, points its role at it and adds its README row', async () => {
    const bytes = fs.readFileSync(trained);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const shipped = await shipWeights({ root: tmp, role: 'x2Small', file: trained });
    expect(fs.readFileSync(path.join(tmp, WEIGHTS, 'pixmill-sr-x2-small-v3.onnx')).equals(bytes)).toBe(true);
    expect(shipped).toMatchObject({ sha256: sha, weights: 359_976 });
    const netFiles = fs.readFileSync(path.join(tmp, NET_FILES), 'utf8');
    expect(netFiles).toContain("x2Small: 'pixmill-sr-x2-small-v3',");
    expect(netFiles).toContain(`OWN_X2_BYTES = ${bytes.length.toLocaleString('en').replace(/,/g, '_')};`);
    const readme = fs.readFileSync(path.join(tmp, WEIGHTS, 'README.md'), 'utf8').split('\n');
    const row = readme.findIndex((l) => l.startsWith('| pixmill-sr-x2-small-v3.onnx |'));
    expect(readme[row]).toContain(`sha256 ${sha}`);
    // inside the table: the row before it is a row too
    expect(readme[row - 1]!.startsWith('|')).toBe(true);
  });

  it('refuses a name already shipped, a bad name and a net of another scale', async () => {
    const again = path.join(tmp, 'out', 'pixmill-sr-x2-small-v2.onnx');
    fs.copyFileSync(trained, again);
    await expect(shipWeights({ root: tmp, role: 'x2Small', file: again })).rejects.toThrow(/already shipped/);
    const odd = path.join(tmp, 'out', 'net.onnx');
    fs.copyFileSync(trained, odd);
    await expect(shipWeights({ root: tmp, role: 'x2Small', file: odd })).rejects.toThrow(/named pixmill-/);
    await expect(shipWeights({ root: tmp, role: 'x4', file: trained })).rejects.toThrow(/not 1×3×96×128/);
    expect(fs.existsSync(path.join(tmp, WEIGHTS, 'pixmill-sr-x2-small-v3.onnx'))).toBe(false);
    expect(fs.readFileSync(path.join(tmp, NET_FILES), 'utf8')).toContain("x2Small: 'pixmill-sr-x2-small-v2',");
  });
});
