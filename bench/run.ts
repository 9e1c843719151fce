/**
 * `npm run bench`: runs every benchmark section in one process, one after the other, and writes
 * bench/results/latest.json, one dated JSON per run in bench/results/history/ (local, git-ignored) and
 * a printed table with the change against the previous run. Figures are only comparable within one run
 * (the machine is shared); each section reports its own baseline measured in the same run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  note?: string;
  /** a headline figure: bench/readme.ts puts it in docs/benchmarks.md */
  key?: boolean;
}

type Section = { name: string; module: string; fn: string };
const SECTIONS: Section[] = [
  { name: 'api', module: './api.js', fn: 'benchApi' },
  { name: 'tiling', module: './tiling.js', fn: 'benchTiling' },
  { name: 'repair', module: './repair.js', fn: 'benchRepair' },
  { name: 'engines', module: './engines.js', fn: 'benchEngines' },
  { name: 'int8', module: './int8.js', fn: 'benchInt8' },
  { name: 'today', module: './today.js', fn: 'benchToday' },
  { name: 'nets', module: './engines.js', fn: 'benchNets' },
  { name: 'maxim', module: './maxim.js', fn: 'benchMaxim' },
  { name: 'client', module: './client.js', fn: 'benchClient' },
  { name: 'load', module: './load.js', fn: 'benchLoad' },
  { name: 'ondevice', module: './ondevice.js', fn: 'benchOnDevice' },
  { name: 'firstload', module: './firstload.js', fn: 'benchFirstLoad' },
];

const only = process.argv.slice(2);
const root = path.resolve(import.meta.dirname, '..');
const report: {
  started: string;
  machine: Record<string, unknown>;
  sections: Record<string, BenchRow[] | { error: string }>;
} = {
  started: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model,
    node: process.version,
    memGiB: Math.round(os.totalmem() / 2 ** 30),
  },
  sections: {},
};

for (const s of SECTIONS) {
  if (only.length && !only.includes(s.name)) continue;
  const file = path.join(import.meta.dirname, s.module.replace(/\.js$/, '.ts'));
  if (!fs.existsSync(file)) {
    report.sections[s.name] = { error: 'not built yet' };
    continue;
  }
  process.stdout.write(`bench: ${s.name} …\n`);
  try {
    const mod = (await import(s.module)) as Record<string, () => Promise<BenchRow[]>>;
    report.sections[s.name] = await mod[s.fn]();
  } catch (e) {
    report.sections[s.name] = { error: e instanceof Error ? e.message : String(e) };
  }
}

const outDir = path.join(root, 'bench', 'results');
const historyDir = path.join(outDir, 'history');
fs.mkdirSync(historyDir, { recursive: true });
// One JSON per run, named by its start time: a regression shows against the previous run of a section.
const previous = previousRows(historyDir);
fs.writeFileSync(
  path.join(historyDir, `${report.started.replace(/[:.]/g, '-')}.json`),
  JSON.stringify(report, null, 2),
);
// latest.json: this run's sections plus, for sections not run now, the last run of each (with its own start time).
const latestFile = path.join(outDir, 'latest.json');
const latest = mergeLatest(latestFile, report);
fs.writeFileSync(latestFile, JSON.stringify(latest, null, 2));

const fmt = (v: number) =>
  !Number.isFinite(v)
    ? String(v)
    : Math.abs(v) >= 100
      ? v.toFixed(0)
      : Math.abs(v) >= 1
        ? v.toFixed(2)
        : v.toPrecision(3);
for (const [name, rows] of Object.entries(report.sections)) {
  console.log(`\n## ${name}`);
  if (!Array.isArray(rows)) {
    console.log(`  (skipped: ${rows.error})`);
    continue;
  }
  const w = Math.max(...rows.map((r) => r.name.length), 10);
  for (const r of rows) {
    const before = previous.get(`${name}\u0000${r.name}`);
    // the change against the previous stored run; a ratio across runs is only a hint on a shared machine
    const delta =
      before !== undefined && before.value !== 0 && Number.isFinite(before.value)
        ? `  [prev ${fmt(before.value)}, ${r.value >= before.value ? '+' : ''}${(((r.value - before.value) / Math.abs(before.value)) * 100).toFixed(0)} %]`
        : '';
    console.log(
      `  ${r.name.padEnd(w)}  ${fmt(r.value).padStart(10)} ${r.unit}${r.note ? `  (${r.note})` : ''}${delta}`,
    );
  }
}
console.log(
  `\nwritten: bench/results/latest.json and bench/results/history/; docs/benchmarks.md table: node --import tsx bench/readme.ts`,
);

/** Rows of the newest earlier run per section (history files sort by their ISO names). */
function previousRows(dir: string): Map<string, BenchRow> {
  const out = new Map<string, BenchRow>();
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .reverse();
  const seen = new Set<string>();
  for (const f of files) {
    let run: typeof report;
    try {
      run = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as typeof report;
    } catch {
      continue;
    }
    for (const [section, rows] of Object.entries(run.sections ?? {})) {
      if (seen.has(section) || !Array.isArray(rows)) continue;
      seen.add(section);
      for (const r of rows) out.set(`${section}\u0000${r.name}`, r);
    }
  }
  return out;
}

function mergeLatest(file: string, run: typeof report) {
  let old: { sections?: Record<string, unknown>; sectionStarted?: Record<string, string>; started?: string } = {};
  try {
    old = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    // first run
  }
  const sectionStarted: Record<string, string> = {};
  const sections: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(old.sections ?? {})) {
    if (!Array.isArray(v)) continue;
    sections[k] = v;
    sectionStarted[k] = old.sectionStarted?.[k] ?? old.started ?? '';
  }
  for (const [k, v] of Object.entries(run.sections)) {
    sections[k] = v;
    sectionStarted[k] = run.started;
  }
  return { ...run, sections, sectionStarted };
}
