/**
 * Preloaded by bench/load.ts into the API processes it starts (NODE_OPTIONS=--import, with
 * PIXMILL_BENCH_PROBE=1); never part of the product. It answers SIGUSR2 with one stderr line
 * `PIXMILL_PROBE {json}` about the time since the previous signal, then starts over:
 * - the event-loop delay (monitorEventLoopDelay) of this process;
 * - the server-side time of progress polls (first byte parsed → response finished, from Node's own
 *   http diagnostics channels), which excludes the load generator's waiting and the network;
 * - CPU used, and the time this process's threads spent runnable but waiting for a core
 *   (/proc/self/task/N/schedstat, field 2): the direct measure of CPU starvation.
 */
import dc from 'node:diagnostics_channel';
import fs from 'node:fs';
import { createHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

if (process.env.PIXMILL_BENCH_PROBE === '1' && process.env.RUN_JOBS === '0') {
  const eld = monitorEventLoopDelay({ resolution: 5 });
  eld.enable();
  let server = createHistogram();
  const started = new WeakMap();
  dc.subscribe('http.server.request.start', ({ request }) => {
    if (request.url?.startsWith('/web_api/v1/progress')) started.set(request, process.hrtime.bigint());
  });
  dc.subscribe('http.server.response.finish', ({ request }) => {
    const t0 = started.get(request);
    if (t0 !== undefined) server.record(Math.max(1, Number(process.hrtime.bigint() - t0)));
  });
  const schedstat = () => {
    let run = 0;
    let wait = 0;
    for (const tid of fs.readdirSync('/proc/self/task')) {
      try {
        const [r, w] = fs.readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
        run += r;
        wait += w;
      } catch {
        // thread ended
      }
    }
    return { run, wait };
  };
  let since = { t: process.hrtime.bigint(), sched: schedstat() };
  process.on('SIGUSR2', () => {
    const now = { t: process.hrtime.bigint(), sched: schedstat() };
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    const report = {
      pid: process.pid,
      wallMs: ms(Number(now.t - since.t)),
      eldP50: ms(eld.percentile(50)),
      eldP99: ms(eld.percentile(99)),
      eldMax: ms(eld.max),
      polls: server.count,
      srvP50: server.count ? ms(server.percentile(50)) : null,
      srvP99: server.count ? ms(server.percentile(99)) : null,
      cpuMs: ms(now.sched.run - since.sched.run),
      runqWaitMs: ms(now.sched.wait - since.sched.wait),
    };
    process.stderr.write(`PIXMILL_PROBE ${JSON.stringify(report)}\n`);
    eld.reset();
    server = createHistogram();
    since = now;
  });
}
