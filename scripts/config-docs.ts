/**
 * `npm run config-docs`: writes the settings table of docs/configuration.md from server/config.ts
 * (SETTINGS and SETTING_PATTERNS), between the two marker comments. server/config.test.ts fails when
 * the file and the definitions differ.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SETTING_PATTERNS, SETTINGS, type Setting } from '../server/config.js';

export const CONFIG_DOC = path.resolve(import.meta.dirname, '..', 'docs', 'configuration.md');
const BEGIN = '<!-- settings table: written by `npm run config-docs` from server/config.ts -->';
const END = '<!-- end of settings table -->';

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The table, one row per variable in the order server/config.ts defines them. */
export function settingsTable(): string {
  const rows = [
    ...Object.entries(SETTINGS).map(([name, s]: [string, Setting<unknown>]) => [
      `\`${name}\``,
      s.choices ? s.choices.join(' / ') : s.type,
      s.default,
      s.meaning,
    ]),
    ...Object.entries(SETTING_PATTERNS).map(([name, s]) => [`\`${name}\``, s.type, s.default, s.meaning]),
  ];
  return [
    '| variable | type | default | meaning |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

/** The document with its table replaced by the one the definitions give. */
export function withSettingsTable(doc: string): string {
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${CONFIG_DOC} lacks the table markers (${BEGIN} … ${END})`);
  return `${doc.slice(0, a + BEGIN.length)}\n${settingsTable()}\n${doc.slice(b)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const doc = fs.readFileSync(CONFIG_DOC, 'utf8');
  const next = withSettingsTable(doc);
  if (next !== doc) fs.writeFileSync(CONFIG_DOC, next);
  console.log(next === doc ? 'docs/configuration.md: up to date' : 'docs/configuration.md: table written');
}
