import { describe, expect, it } from 'vitest';
import { inTab, statusKey } from './tabs.js';
import type { WorkStatus } from './work.js';

describe('tab filters (spec §4)', () => {
  const table: [WorkStatus, boolean, boolean, boolean][] = [
    // status, uploaded, processing, processed
    ['ready', true, false, false],
    ['uploading', true, true, false],
    // a failed or refused upload is listed on Uploaded only (with its reason), never under Processing
    ['uploadFailed', true, false, false],
    ['imageTooLarge', true, false, false],
    ['waiting', false, true, false],
    ['processing', false, true, false],
    ['resizing', false, true, false],
    ['finished', false, false, true],
    ['processFailed', false, false, true],
  ];
  it.each(table)('%s', (status, up, pr, done) => {
    expect(inTab(status, 'uploaded')).toBe(up);
    expect(inTab(status, 'processing')).toBe(pr);
    expect(inTab(status, 'processed')).toBe(done);
  });
});

describe('status text', () => {
  it.each([
    ['uploading', 'status.uploading'],
    ['ready', 'status.ready'],
    ['waiting', 'status.waiting'],
    ['waitingForNetwork', 'status.waitingForNetwork'],
    ['uploadFailed', 'status.uploadFailed'],
    ['processFailed', 'status.processFailed'],
  ] as const)('%s', (s, k) => expect(statusKey(s)).toBe(k));
});
