import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOC, withSettingsTable } from '../scripts/config-docs.js';
import { engineSettings, loadConfig, pgPoolSettings, readSettings, SETTINGS } from './config.js';

describe('settings', () => {
  it('docs/configuration.md holds the table the definitions give (npm run config-docs writes it)', () => {
    const doc = fs.readFileSync(CONFIG_DOC, 'utf8');
    expect(doc).toBe(withSettingsTable(doc));
    for (const name of Object.keys(SETTINGS)) expect(doc).toContain(`| \`${name}\` |`);
  });

  it('every variable has a type, a default and a meaning', () => {
    for (const [name, s] of Object.entries(SETTINGS)) {
      expect(s.default, name).not.toBe('');
      expect(s.meaning.length, name).toBeGreaterThan(8);
    }
  });

  it('reads defaults from an empty environment', () => {
    const c = loadConfig({});
    expect([c.port, c.host, c.queuePrefix, c.slotNice, c.runJobs, c.paymentProvider, c.contactEmail]).toEqual([
      8080,
      '0.0.0.0',
      'pixmill',
      10,
      true,
      'none',
      'support@pixmill.example',
    ]);
    expect([c.loopWatchMs, c.loopWatchFile]).toEqual([0, `${c.dataDir}/loop-watch.jsonl`]);
    expect(engineSettings({})).toEqual({ spin: 'auto', int8: true, isnetVariant: 'medium' });
  });

  it('clamps integers to their range and falls back to the default on what is not a number', () => {
    const s = readSettings({
      SLOT_NICE: '40',
      REQUEST_TIMEOUT_MS: '5',
      PROCESS_WORKERS: '0',
      PORT: 'eighty',
      RETENTION_DAYS_GUEST: '-3',
      JOB_TIMEOUT_MS: '1500.7',
    });
    expect([
      s.SLOT_NICE,
      s.REQUEST_TIMEOUT_MS,
      s.PROCESS_WORKERS,
      s.PORT,
      s.RETENTION_DAYS_GUEST,
      s.JOB_TIMEOUT_MS,
    ]).toEqual([19, 1000, 1, 8080, 1, 1500]);
    // pool limits: zero or less means the default, not a pool of none
    expect(pgPoolSettings({ PG_POOL_MAX: '0', PG_QUERY_TIMEOUT_MS: '250' })).toMatchObject({
      max: 10,
      queryTimeoutMs: 250,
    });
  });

  it('refuses a choice it does not know, naming the variable', () => {
    expect(() => readSettings({ ISNET_VARIANT: 'large' })).toThrow(/^ISNET_VARIANT: must be one of medium, small/);
    expect(() => engineSettings({ ENGINE_SPIN: 'yes' })).toThrow(/one of auto, 1, 0/);
    expect(engineSettings({ ENGINE_SPIN: '0', ISNET_VARIANT: 'small' })).toEqual({
      spin: 'off',
      int8: true,
      isnetVariant: 'small',
    });
    expect(engineSettings({ ENGINE_INT8: '0' }).int8).toBe(false);
    expect(() => engineSettings({ ENGINE_INT8: '1' })).toThrow(/one of auto, 0/);
  });

  it('machine-dependent defaults give way to a set value', () => {
    const c = loadConfig({
      ENGINE_THREADS: '3',
      ENGINE_RESERVED_CORES: '0',
      LOOP_WATCH_MS: '50',
      LOOP_WATCH_FILE: '/tmp/w.jsonl',
    });
    expect([c.engineThreads, c.engineReservedCores, c.loopWatchMs, c.loopWatchFile]).toEqual([
      3,
      0,
      50,
      '/tmp/w.jsonl',
    ]);
  });

  it('no other server module reads process.env (tests and their helpers aside)', () => {
    const server = import.meta.dirname;
    const helpers = new Set(['config.ts', 'engines/testkit.ts', 'jobs/testing.ts']);
    const readers = (fs.readdirSync(server, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('testing/') && !helpers.has(f))
      .filter((f) => /process\.env\b/.test(fs.readFileSync(path.join(server, f), 'utf8')));
    expect(readers).toEqual([]);
  });
});
