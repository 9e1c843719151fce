/**
 * The training code (scripts/train, Python) through its own tests (test_train.py: every recipe builds the
 * net of the file it names, trains 2 steps shrunk, resumes, starts from a base or a file), then the files it
 * wrote run in onnxruntime as the engines run them: planar RGB 0…255 in and out at any side (the defect net:
 * image in, one logit plane out). Needs Debian's python3-torch and python3-onnx (.ci/run installs them).
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// Debian's python3 (a pyenv python3 ahead of it on PATH has no torch)
const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

describe('training (scripts/train)', () => {
  it('recipes fit the shipped files; each trains, resumes and writes files the engines can run', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pixmill-train-'));
    try {
      const r = spawnSync(python, ['scripts/train/test_train.py'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, TRAIN_TEST_OUT: dir },
      });
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(r.stderr).toMatch(/Ran 6 tests/);

      const cases: [file: string, inName: string, outName: string, h: number, w: number, outShape: number[]][] = [
        ['pixmill-sr-x2-v2.onnx', 'input', 'output', 20, 28, [1, 3, 40, 56]],
        ['pixmill-sr-x4-v2-clean.onnx', 'input', 'output', 12, 20, [1, 3, 48, 80]],
        ['pixmill-denoise-v2.onnx', 'input', 'output', 24, 40, [1, 3, 24, 40]],
        ['scratch-repair.onnx', 'image', 'logit', 32, 16, [1, 1, 32, 16]],
      ];
      for (const [file, inName, outName, h, w, outShape] of cases) {
        const session = await ort.InferenceSession.create(path.join(dir, 'two', file));
        const pixels = Float32Array.from({ length: 3 * h * w }, (_, i) => (i * 37) % 256);
        const out = (await session.run({ [inName]: new ort.Tensor('float32', pixels, [1, 3, h, w]) }))[outName]!;
        expect(out.dims, file).toEqual(outShape);
        expect((out.data as Float32Array).every(Number.isFinite), file).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
