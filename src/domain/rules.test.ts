import { describe, expect, it } from 'vitest';
import {
  canSelect,
  currencyFor,
  inTab,
  jobScale,
  localizedPath,
  normaliseWorkflowName,
  outputSize,
  previewTooLarge,
  pricingUrl,
  selectAllCids,
  selectAllChecked,
  selectAllMixed,
  resultSize,
  shortenFilename,
  splitLanguage,
  statusKey,
  mattingTargetName,
} from './rules.js';
import type { WorkStatus } from './work.js';

describe('tab filters (spec §4)', () => {
  const table: [WorkStatus, boolean, boolean, boolean][] = [
    // status, uploaded, processing, processed
    ['ready', true, false, false],
    ['uploading', true, true, false],
    // issue 31: a failed or refused upload is listed on Uploaded only (with its reason), never under Processing
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

describe('selection caps', () => {
  const works = (n: number, selected: number) =>
    Array.from({ length: n }, (_, i) => ({ cid: `c${i}`, status: 'ready' as WorkStatus, selected: i < selected }));
  it.each([
    ['guest', 0, true],
    ['guest', 1, false],
    ['basic', 4, true],
    ['basic', 5, false],
    ['pro', 9, true],
    ['pro', 10, false],
    ['expired', 1, false],
  ] as const)('%s with %i selected may select one more: %s', (level, sel, expected) => {
    expect(canSelect(works(12, sel), 'c11', level)).toBe(expected);
  });
  it('only ready works are selectable', () => {
    expect(canSelect([{ cid: 'a', status: 'uploading', selected: false }], 'a', 'pro')).toBe(false);
    expect(canSelect([{ cid: 'a', status: 'finished', selected: false }], 'a', 'pro')).toBe(false);
  });
  it.each([
    // issue 31 / spec §2: checked only when every visible selectable work is selected; at the cap with more left it is mixed
    ['basic', 6, 5, false, true],
    ['basic', 6, 4, false, true],
    ['basic', 3, 3, true, false],
    ['guest', 4, 1, false, true],
    ['pro', 0, 0, false, false],
  ] as const)('select-all for %s with %i ready, %i selected: checked %s, mixed %s', (level, n, sel, checked, mixed) => {
    expect(selectAllChecked(works(n, sel), level)).toBe(checked);
    expect(selectAllMixed(works(n, sel))).toBe(mixed);
  });
  it('select-all counts only the selectable: a finished or uploading work beside all-selected ready ones still shows checked', () => {
    expect(selectAllChecked([...works(2, 2), { cid: 'u', status: 'uploading' as WorkStatus, selected: false }])).toBe(true);
  });
  it('select-all stops at the plan limit', () => {
    expect(selectAllCids(works(8, 0), 'basic')).toHaveLength(5);
    expect(selectAllCids(works(8, 0), 'guest')).toEqual(['c0']);
  });
});

describe('filename shortening (20 units, 10 each side)', () => {
  it.each([
    ['short.png', 'short.png'],
    ['abcdefghijklmnopqrs.jpg', 'abcdefghijklmnopqrs.jpg'], // 19 units: kept
    ['abcdefghijklmnopqrst.jpg', 'abcdefghij…klmnopqrst.jpg'], // 20 units: shortened
    ['a-very-long-holiday-photo-from-2024.png', 'a-very-lon…-from-2024.png'],
    ['日本語のとても長いファイル名です.png', '日本語のと…イル名です.png'],
    // Cyrillic and Greek are narrow: 19 units stay whole, as Latin would.
    ['фотографиявотпуске.jpg', 'фотографиявотпуске.jpg'],
    ['φωτογραφίαδιακοπές.png', 'φωτογραφίαδιακοπές.png'],
    ['한국어파일이름입니다길다.png', '한국어파일…입니다길다.png'],
  ])('%s → %s', (input, expected) => {
    expect(shortenFilename(input)).toBe(expected);
  });
});

describe('output size and preview limit', () => {
  it('multiplies by the scale', () => {
    expect(outputSize(1000, 500, 4)).toEqual({ w: 4000, h: 2000 });
  });
  it('scale from a job or workflow', () => {
    expect(jobScale({ job: 'enlarge', config: { module: 'enlarge', module_params: { scale: 4 } } })).toBe(4);
    expect(jobScale({ job: 'denoise', config: { module: 'denoise', module_params: {} } })).toBe(1);
    expect(jobScale({ job: 'workflow', flows: [{ config: { module: 'denoise', module_params: {} } }, { config: { module: 'enlarge', module_params: { scale: 2 } } }] })).toBe(2);
  });
  it.each([
    [2250, 1000, 8, false],
    [2251, 1000, 8, true],
    [1000, 3000, 6, false],
    [1000, 3001, 6, true],
  ])('%i×%i ×%i over 18000: %s', (w, h, s, expected) => {
    expect(previewTooLarge(w, h, s)).toBe(expected);
  });
});

describe('languages, currency, links', () => {
  it.each([
    ['en', 'USD'],
    ['ja', 'USD'],
    ['de', 'EUR'],
    ['fr', 'EUR'],
  ] as const)('%s pays in %s', (lng, cur) => expect(currencyFor(lng)).toBe(cur));
  it('prefixes all but en', () => {
    expect(localizedPath('/pricing/', 'en')).toBe('/pricing/');
    expect(localizedPath('/pricing/', 'ja')).toBe('/ja/pricing/');
    expect(localizedPath('/', 'de')).toBe('/de/');
  });
  it('splits the language', () => {
    expect(splitLanguage('/fr/batch-process/')).toEqual({ lng: 'fr', path: '/batch-process/' });
    expect(splitLanguage('/batch-process/')).toEqual({ lng: 'en', path: '/batch-process/' });
    expect(splitLanguage('/de')).toEqual({ lng: 'de', path: '/' });
  });
  it('pricing links carry source and medium', () => {
    expect(pricingUrl('en', 'workflow', 'upgrade_btn')).toBe('/pricing/?source=workflow&medium=upgrade_btn');
    expect(pricingUrl('de', 'add_credits_popup')).toBe('/de/pricing/?source=add_credits_popup');
  });
});

describe('workflow name', () => {
  it('defaults to workflow_<readable timestamp>', () => {
    const now = new Date(2026, 10, 23, 9, 5, 7).getTime();
    expect(normaliseWorkflowName('  ', 50, now)).toEqual({ ok: true, name: 'workflow_2026-11-23_09-05-07' });
  });
  it('refuses more than 50 characters', () => {
    expect(normaliseWorkflowName('x'.repeat(50), 50, 1)).toEqual({ ok: true, name: 'x'.repeat(50) });
    expect(normaliseWorkflowName('x'.repeat(51), 50, 1).ok).toBe(false);
  });
});

describe('status text and editor name', () => {
  it.each([
    ['uploading', 'status.uploading'],
    ['ready', 'status.ready'],
    ['waiting', 'status.waiting'],
    ['waitingForNetwork', 'status.waitingForNetwork'],
    ['uploadFailed', 'status.uploadFailed'],
    ['processFailed', 'status.processFailed'],
  ] as const)('%s', (s, k) => expect(statusKey(s)).toBe(k));
  it('matting-{basename}.png', () => expect(mattingTargetName('cat.photo.jpg')).toBe('matting-cat.photo.png'));
});

describe('resultSize (issue 31: the preview names the real result size)', () => {
  it('uses the size the server reported when known, else w×h times the job scale', () => {
    const enlarge = { job: 'enlarge', config: { module: 'enlarge', module_params: { scale: 4 } } } as never;
    expect(resultSize({ w: 100, h: 50, params: enlarge })).toEqual({ w: 400, h: 200 });
    // an old-photo repair of 1024² whose server result is 2048²
    expect(resultSize({ w: 1024, h: 1024, zoomW: 2048, zoomH: 2048, params: { job: 'se-old-repair' } })).toEqual({ w: 2048, h: 2048 });
  });
});
