/**
 * `node --import tsx bench/pollRatio.ts`: only the autocannon pair of `npm run bench load` — progress
 * polls against the bare /api/health route of the same scale-out processes (2 API + 2 workers,
 * PostgreSQL + BullMQ) — in ROUNDS interleaved rounds, so a change to the poll path can be measured in
 * a minute instead of the whole load section. Prints each round's ratio and the best of each side.
 */
import os from 'node:os';
import { startLoadCluster, type Envelope } from '../scripts/loadtest.js';
import { pollWork, saturationPair } from './load.js';

const ROUNDS = Number(process.env.POLL_ROUNDS ?? 3);
const SECONDS = Number(process.env.POLL_SECONDS ?? 6);

const c = await startLoadCluster(2, 2);
try {
  const { progressUrls: progress } = await pollWork(c.apiUrls);
  for (let i = 0; i < 100; i++) {
    const r = (await (await fetch(progress[0]!)).json()) as Envelope<{ status: string }>;
    if (r.data.status === 'finish') break;
    await new Promise((res) => setTimeout(res, 100));
  }
  const { sat, bare, ratios, errors } = await saturationPair(
    progress,
    c.apiUrls.map((u) => `${u}/api/health`),
    ROUNDS,
    SECONDS,
  );
  console.log(
    `rounds: ${ratios.map((r) => r.toFixed(3)).join(', ')}; errors progress ${errors.progress}, bare ${errors.bare}; load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  console.log(`best: progress ${sat.rps} / bare ${bare.rps} = ${(sat.rps / bare.rps).toFixed(3)}`);
} finally {
  await c.stop();
}
