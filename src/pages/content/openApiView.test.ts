// The docs page's reading of the OpenAPI document: groups in tag order, fields with their types and
// whether they are required, the example and the answer — from the committed document the page shows.
import { describe, expect, it } from 'vitest';
import doc from './openapi.json';
import { apiView, typeText } from './openApiView.js';

describe('apiView', () => {
  const view = apiView(doc);
  const call = (method: string, path: string) =>
    view.groups.flatMap((g) => g.calls).find((c) => c.method === method && c.path === path)!;

  it('groups the calls as a developer works, every operation once', () => {
    expect(view.groups.map((g) => g.name).slice(0, 6)).toEqual([
      'authenticate',
      'upload',
      'process',
      'poll',
      'download',
      'account',
    ]);
    const ops = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(view.count).toBe(ops);
    expect(view.groups.reduce((n, g) => n + g.calls.length, 0)).toBe(ops);
  });

  it('reads a GET call: query fields, a query example, a JSON answer', () => {
    const progress = call('GET', '/web_api/v1/progress');
    expect(progress.fields).toEqual([
      expect.objectContaining({ name: 'trans_id', type: 'string ≤ 64', required: true, in: 'query' }),
    ]);
    expect(progress.example).toMatch(/^\?trans_id=/);
    expect(progress.answer).toEqual({
      kind: 'json',
      fields: expect.arrayContaining(['status', 'progress', 'result_w']),
    });
    expect(progress.auth).toContain('user_token');
  });

  it('reads a POST call: body fields, required or not, a JSON example; a file answer', () => {
    const thumbs = call('POST', '/api/v2/thumbsup');
    expect(thumbs.fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ['trans_id', 'string ≤ 64', true],
      ['thumbsup', '1 | -1 | 0', true],
    ]);
    expect(JSON.parse(thumbs.example)).toMatchObject({ thumbsup: 1 });
    expect(call('POST', '/web_api/v1/upload').fields.find((f) => f.name === 'file')).toMatchObject({
      type: 'file',
      required: true,
    });
    expect(call('GET', '/web_api/v1/download/').answer).toEqual({
      kind: 'file',
      types: ['image/png', 'image/jpeg', 'image/webp'],
    });
    expect(call('POST', '/api/v2/guest_token').auth).toEqual([]);
  });

  it('says a type in a few words', () => {
    expect(typeText({ type: 'integer', minimum: 1, maximum: 100 })).toBe('integer 1–100');
    expect(typeText({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] })).toBe(
      'string | string[]',
    );
    expect(typeText({ enum: ['a', 'b'] })).toBe('"a" | "b"');
  });

  it('reads the feature catalogue: every job of JobConfig, its params with type and default, and a working example', () => {
    const jobs = view.features.map((f) => f.job);
    expect(jobs).toEqual(expect.arrayContaining(['enlarge', 'compress', 'se-hd', 'workflow']));
    const enlarge = view.features.find((f) => f.job === 'enlarge')!;
    expect(enlarge.params.find((p) => p.name === 'scale')).toMatchObject({ type: '2 | 4 | 6 | 8', default: '2' });
    expect(enlarge.params.find((p) => p.name === 'suppress_noise')).toMatchObject({
      type: 'integer 0–100',
      default: '75',
    });
    expect(JSON.parse(enlarge.example)).toMatchObject({
      job: 'enlarge',
      config: { module: 'enlarge', module_params: { scale: 2 } },
    });
    expect(view.features.find((f) => f.job === 'se-hd')!.params).toEqual([]);
    // jconfig names the catalogue's schema
    expect(
      view.groups
        .flatMap((g) => g.calls)
        .find((c) => c.path === '/web_api/v1/transform')!
        .fields.find((f) => f.name === 'jconfig')!.type,
    ).toBe('JobConfig | string');
  });
});
