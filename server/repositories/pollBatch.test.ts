// The batcher's own rules, with a plain function as the statement (the PostgreSQL read it drives is
// tested in tests/integration/progress-auth.test.ts): positions, the size bound, the in-flight bound,
// and a failure staying inside its batch.
import { describe, expect, it } from 'vitest';
import { Batcher, MAX_BATCH, MAX_IN_FLIGHT } from './pollBatch.js';

/** A statement that records each batch and answers when told to. */
function controlled<V>(answer: (keys: number[]) => V[]) {
  const batches: { keys: number[]; release(fail?: Error): void }[] = [];
  const run = (keys: number[]) =>
    new Promise<V[]>((resolve, reject) =>
      batches.push({ keys, release: (fail) => (fail ? reject(fail) : resolve(answer(keys))) }),
    );
  return { batches, run };
}
const turn = () => new Promise((r) => setImmediate(r));

describe('Batcher', () => {
  it('sends the keys of one turn as one batch and gives each caller the value at its own position, duplicates included', async () => {
    const s = controlled((keys) => keys.map((k) => `v${k}`));
    const b = new Batcher(s.run);
    const asked = [3, 1, 3, 2];
    const got = Promise.all(asked.map((k) => b.load(k)));
    await turn();
    expect(s.batches.map((x) => x.keys)).toEqual([asked]);
    s.batches[0]!.release();
    expect(await got).toEqual(['v3', 'v1', 'v3', 'v2']);
    expect(b.stats).toEqual({ batches: 1, keys: 4, largest: 4 });
  });

  it(`holds at most ${MAX_BATCH} keys per batch and ${MAX_IN_FLIGHT} batches in flight; the rest go when one comes back`, async () => {
    const s = controlled((keys) => keys.map((k) => k * 10));
    const b = new Batcher(s.run);
    const n = MAX_BATCH * (MAX_IN_FLIGHT + 1) + 5;
    const got = Promise.all(Array.from({ length: n }, (_, i) => b.load(i)));
    await turn();
    expect(s.batches.map((x) => x.keys.length)).toEqual(Array(MAX_IN_FLIGHT).fill(MAX_BATCH));
    // polls arriving now wait with the rest
    const late = b.load(-1);
    await turn();
    expect(s.batches).toHaveLength(MAX_IN_FLIGHT);
    s.batches[0]!.release();
    await turn();
    expect(s.batches.map((x) => x.keys.length)).toEqual([...Array(MAX_IN_FLIGHT + 1).fill(MAX_BATCH)]);
    for (let i = 1; i < s.batches.length; i++) s.batches[i]!.release();
    await turn();
    // the last batch: the 5 left over and the late poll, in the order asked
    expect(s.batches.at(-1)!.keys).toEqual([...Array.from({ length: 5 }, (_, i) => n - 5 + i), -1]);
    s.batches.at(-1)!.release();
    expect(await got).toEqual(Array.from({ length: n }, (_, i) => i * 10));
    expect(await late).toBe(-10);
    expect(b.stats.largest).toBe(MAX_BATCH);
  });

  it('a failing statement fails every caller of its batch with the same error, and no other batch', async () => {
    const s = controlled((keys) => keys);
    const b = new Batcher(s.run, 2);
    const got = [1, 2, 3].map((k) =>
      b.load(k).then(
        (v) => ({ v }),
        (e: unknown) => ({ e }),
      ),
    );
    await turn();
    const err = new Error('connection terminated');
    s.batches[0]!.release(err);
    s.batches[1]!.release();
    expect(await Promise.all(got)).toEqual([{ e: err }, { e: err }, { v: 3 }]);
  });

  it('an answer of the wrong length fails its whole batch rather than guess whose value is whose', async () => {
    const s = controlled((keys) => keys.slice(1));
    const b = new Batcher(s.run);
    const got = Promise.allSettled([b.load(1), b.load(2)]);
    await turn();
    s.batches[0]!.release();
    const r = await got;
    expect(r.map((x) => x.status)).toEqual(['rejected', 'rejected']);
    expect(String((r[0] as PromiseRejectedResult).reason)).toMatch(/answered 1 values for 2 keys/);
  });
});
