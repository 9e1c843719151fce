/**
 * The fairness section of `npm run loadtest` (issue 48): 20 guests, each from an address of its own,
 * queue a work each; once they wait, a Pro account starts one. The Pro work must start at the next free
 * slot: its wait at most the longest remaining time of the works running when it arrived, plus 5 s; and
 * every guest work must still finish. Times are read from the jobs table (created, started and finished
 * as the deployment recorded them), not from the client.
 */
import pg from 'pg';
import sharp from 'sharp';
import type { Cluster } from '../tests/support/modesCluster.js';
import { Harness, sleep } from './loadtest.js';

export interface FairnessReport {
  guests: number;
  guestWorksFinished: number;
  guestWorksFailed: number;
  /** works running when the Pro work was stored */
  runningAtProStart: number;
  /** guest works waiting when the Pro work was stored */
  waitingAtProStart: number;
  proQueuePosition: number | null;
  proWaitS: number;
  /** the longest remaining time of the works running when the Pro work arrived, + 5 s */
  proWaitBoundS: number;
  /** guest works that started after the Pro work was stored and before it */
  guestsStartedBeforePro: number;
  guestWaitMaxS: number;
  proFinished: boolean;
  /** HTTP statuses of download_compress (PNG of a 4000×3000 compress result) asked at once by two guests and the Pro account */
  conversions: { guests: number[]; pro: number | null };
  pass: boolean;
}

/** The work each guest starts: a classical sharpen of a 1600×1200 photo-like JPEG (about a second of a slot). */
const GUEST_WORK = JSON.stringify({ job: 'sharpen', config: { module: 'sharpen', module_params: {} } });
const PLAN_ID_PRO = 11043;
const COMPRESS = JSON.stringify({ job: 'compress', config: { module: 'compress', module_params: { quality: 60 } } });

/** A 4000×3000 gradient: small as JPEG, seconds of work to quantize as PNG (download_compress). */
async function gradient(): Promise<Buffer> {
  const w = 4000;
  const h = 3000;
  const raw = Buffer.alloc(w * h * 3);
  for (let i = 0; i < w * h; i++) {
    raw[i * 3] = (i % w) & 255;
    raw[i * 3 + 1] = Math.floor(i / w) & 255;
    raw[i * 3 + 2] = ((i % w) ^ Math.floor(i / w)) & 255;
  }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** download_compress as PNG: the HTTP status. */
async function convert(base: string, who: Person, transId: string): Promise<number> {
  const r = await fetch(`${base}/api/job/download_compress`, {
    method: 'POST',
    headers: who.headers,
    body: new URLSearchParams({ user_token: who.token, trans_id: transId, extra_type: 'png' }),
    signal: AbortSignal.timeout(300_000),
  }).catch(() => null);
  if (r) await r.arrayBuffer();
  return r?.status ?? 0;
}

async function photo(w: number, h: number, seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 3;
      raw[o] = (Math.sin((x + seed) / 17) * 60 + 128 + ((x * y) % 23)) & 255;
      raw[o + 1] = (Math.cos((y - seed) / 11) * 60 + 128) & 255;
      raw[o + 2] = ((x ^ y) + seed * 13) & 255;
    }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

interface Person {
  token: string;
  headers: Record<string, string>;
}

async function start(
  h: Harness,
  who: Person,
  image: Buffer,
  name: string,
  jconfig = GUEST_WORK,
): Promise<string | null> {
  const job = (JSON.parse(jconfig) as { job: string }).job;
  const fd = new FormData();
  fd.set('user_token', who.token);
  fd.set('job', job);
  fd.set('file', new Blob([image]), name);
  const up = await h.call<{ data: { uid: string } }>('fair:upload', '/web_api/v1/upload', {
    method: 'POST',
    body: fd,
    headers: who.headers,
  });
  if (!up) return null;
  const tr = await h.call<{ trans_id: string }>('fair:transform', '/web_api/v1/transform', {
    method: 'POST',
    body: new URLSearchParams({ user_token: who.token, uid: up.data.data.uid, jconfig }),
    headers: who.headers,
  });
  return tr?.data.trans_id ?? null;
}

export async function runFairness(c: Cluster, limitMs = 240_000): Promise<FairnessReport> {
  const h = new Harness(c.apiUrls);
  const db = new pg.Client({ connectionString: c.db.url });
  await db.connect();
  try {
    const guests = 20;
    const images = await Promise.all(Array.from({ length: guests }, (_, i) => photo(1600, 1200, i)));
    const people: Person[] = [];
    for (let i = 0; i < guests; i++) {
      const headers = { 'x-forwarded-for': `203.0.113.${i + 1}` };
      const g = await h.call<{ token: string }>('fair:guest_token', '/api/v2/guest_token', { method: 'POST', headers });
      if (g) people.push({ token: g.data.token, headers });
    }
    const guestWorks = (await Promise.all(people.map((p, i) => start(h, p, images[i]!, `guest-${i}.jpg`)))).filter(
      (t): t is string => !!t,
    );
    // two more guests compress a big picture: their conversions are asked at the end, beside the Pro's
    const big = await gradient();
    const converters: { who: Person; work: string | null }[] = [];
    for (const i of [101, 102]) {
      const headers = { 'x-forwarded-for': `203.0.113.${i}` };
      const g = await h.call<{ token: string }>('fair:guest_token', '/api/v2/guest_token', { method: 'POST', headers });
      if (!g) continue;
      const who = { token: g.data.token, headers };
      converters.push({ who, work: await start(h, who, big, `big-${i}.jpg`, COMPRESS) });
    }

    // A Pro account, registered like anyone and given the plan in the database (as `npm run admin` would).
    const proHeaders = { 'x-forwarded-for': '203.0.113.200' };
    const reg = await h.call<{ user_token: string; id: number }>('fair:register', '/api/account/register', {
      method: 'POST',
      headers: proHeaders,
      body: new URLSearchParams({
        email: 'fair-pro@example.com',
        password: 'passw0rdA1',
        confirm_password: 'passw0rdA1',
      }),
    });
    if (!reg) throw new Error('fairness: the Pro account could not register');
    await db.query('UPDATE accounts SET pid = $1, plan_expires_at = $2, max_num = max_num + 500 WHERE id = $3', [
      PLAN_ID_PRO,
      Date.now() + 30 * 86_400_000,
      reg.data.id,
    ]);
    const pro: Person = { token: reg.data.user_token, headers: proHeaders };
    const proImage = await photo(64, 64, 99);
    // the guests' works are queued and some run: now the Pro work arrives
    const deadline = Date.now() + limitMs;
    while (Date.now() < deadline) {
      const { rows } = await db.query<{ n: string }>("SELECT count(*) AS n FROM jobs WHERE status = 'running'");
      if (Number(rows[0]!.n) > 0) break;
      await sleep(100);
    }
    const proWork = await start(h, pro, proImage, 'pro.jpg');
    if (!proWork) throw new Error('fairness: the Pro work could not start');
    const place = await h.call<{ queue_position?: number }>(
      'fair:progress',
      `/web_api/v1/progress?${new URLSearchParams({ user_token: pro.token, trans_id: proWork })}`,
    );

    const proCompress = await start(h, pro, big, 'pro-big.jpg', COMPRESS);
    const all = [
      ...guestWorks,
      proWork,
      ...converters.map((x) => x.work).filter((t): t is string => !!t),
      ...(proCompress ? [proCompress] : []),
    ];
    while (Date.now() < deadline) {
      const { rows } = await db.query<{ n: string }>(
        "SELECT count(*) AS n FROM jobs WHERE trans_id = ANY($1) AND status IN ('finished', 'failed')",
        [all],
      );
      if (Number(rows[0]!.n) === all.length) break;
      await sleep(500);
    }
    const { rows } = await db.query<{
      trans_id: string;
      status: string;
      created_at: string;
      started_at: string | null;
      finished_at: string | null;
    }>('SELECT trans_id, status, created_at, started_at, finished_at FROM jobs WHERE trans_id = ANY($1)', [all]);
    const byId = new Map(rows.map((r) => [r.trans_id, r]));
    const p = byId.get(proWork)!;
    const proCreated = Number(p.created_at);
    const proStarted = p.started_at === null ? Infinity : Number(p.started_at);
    const guestRows = guestWorks.map((t) => byId.get(t)!).filter(Boolean);
    const runningAt = guestRows.filter(
      (r) =>
        r.started_at !== null &&
        Number(r.started_at) <= proCreated &&
        (r.finished_at === null || Number(r.finished_at) > proCreated),
    );
    const remaining = runningAt.map((r) => (r.finished_at === null ? Infinity : Number(r.finished_at) - proCreated));
    const bound = (remaining.length ? Math.max(...remaining) : 0) + 5000;
    const wait = proStarted - proCreated;
    const between = guestRows.filter(
      (r) => r.started_at !== null && Number(r.started_at) > proCreated && Number(r.started_at) < proStarted,
    ).length;
    const finished = guestRows.filter((r) => r.status === 'finished').length;
    // the conversions: both guests and the Pro account at once (guests hold one of the two slots together)
    const [g1, g2, proConv] = await Promise.all([
      ...converters.map((x) => (x.work ? convert(c.apiUrls[0]!, x.who, x.work) : Promise.resolve(0))),
      proCompress ? convert(c.apiUrls[1] ?? c.apiUrls[0]!, pro, proCompress) : Promise.resolve(null),
    ]);
    const s = (ms: number) => Math.round(ms / 100) / 10;
    return {
      guests: people.length,
      guestWorksFinished: finished,
      guestWorksFailed: guestRows.filter((r) => r.status === 'failed').length,
      runningAtProStart: runningAt.length,
      waitingAtProStart: guestRows.filter((r) => r.started_at === null || Number(r.started_at) > proCreated).length,
      proQueuePosition: place?.data.queue_position ?? null,
      proWaitS: s(wait),
      proWaitBoundS: s(bound),
      guestsStartedBeforePro: between,
      guestWaitMaxS: s(
        Math.max(
          ...guestRows.map((r) => (r.started_at === null ? Infinity : Number(r.started_at) - Number(r.created_at))),
        ),
      ),
      proFinished: p.status === 'finished',
      conversions: { guests: [g1 ?? 0, g2 ?? 0], pro: proConv ?? null },
      pass: wait <= bound && finished === guests && guestRows.length === guests && p.status === 'finished',
    };
  } finally {
    await db.end();
  }
}
