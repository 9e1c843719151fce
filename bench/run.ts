/**
 * `npm run bench`: runs every benchmark section in one process, one after the other, and writes
 * bench/results/latest.json plus a printed table. Figures are only comparable within one run
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
}

type Section = { name: string; module: string; fn: string };
const SECTIONS: Section[] = [
  { name: 'api', module: './api.js', fn: 'benchApi' },
  { name: 'engines', module: './engines.js', fn: 'benchEngines' },
  { name: 'client', module: './client.js', fn: 'benchClient' },
  { name: 'load', module: './load.js', fn: 'benchLoad' },
  { name: 'firstload', module: './firstload.js', fn: 'benchFirstLoad' },
];

const only = process.argv.slice(2);
const root = path.resolve(import.meta.dirname, '..');
const report: { started: string; machine: Record<string, unknown>; sections: Record<string, BenchRow[] | { error: string }> } = {
  started: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, memGiB: Math.round(os.totalmem() / 2 ** 30) },
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
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'latest.json'), JSON.stringify(report, null, 2));

const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3));
for (const [name, rows] of Object.entries(report.sections)) {
  console.log(`\n## ${name}`);
  if (!Array.isArray(rows)) {
    console.log(`  (skipped: ${rows.error})`);
    continue;
  }
  const w = Math.max(...rows.map((r) => r.name.length), 10);
  for (const r of rows) console.log(`  ${r.name.padEnd(w)}  ${fmt(r.value).padStart(10)} ${r.unit}${r.note ? `  (${r.note})` : ''}`);
}
console.log(`\nwritten: bench/results/latest.json`);
