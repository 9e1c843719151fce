// The API document as a developer's tools read it (docs/api.md): Redocly's recommended lint passes with
// no problem (redocly.yaml allows the spec's two trailing-slash paths), every operation has an id, its
// 4xx answers and the servers to call; ids are bounded; refusals document their codes and reasons as
// enums; the feature catalogue (JobConfig) has a variant and a working example per job; and the
// generated TypeScript client is the one this document makes.
import fs from 'node:fs';
import path from 'node:path';
import { createConfig, lintFromString, loadConfig } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { CODE } from '../src/shared/domain/codes.js';
import { parseJobConfig } from '../src/shared/domain/modules.js';
import { REASON_CODES } from '../src/shared/domain/reasons.js';
import { MAX_ID } from '../src/shared/schemas/common.js';
import { JOB_NAMES } from '../src/shared/schemas/jobConfig.js';
import { checkJobConfig } from '../server/services/schemaCheck.js';
import { API_TOKEN_ROUTES } from '../server/http/auth.js';
import { CLIENT_FILE, renderClient } from './api-client.js';
import { OPENAPI_FILE } from './api-docs.js';

type Json = Record<string, any>;
const doc = JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')) as Json;
const source = fs.readFileSync(OPENAPI_FILE, 'utf8');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const operations = Object.entries(doc.paths as Json).flatMap(([p, item]) =>
  METHODS.filter((m) => item[m]).map((m) => ({ key: `${m.toUpperCase()} ${p}`, op: item[m] as Json })),
);

describe('the API document', () => {
  it('passes Redocly’s recommended lint with no error and no warning (redocly.yaml: the trailing-slash rule off, and why)', async () => {
    const config = await loadConfig({ configPath: path.resolve(import.meta.dirname, '..', 'redocly.yaml') });
    const problems = await lintFromString({ source, absoluteRef: OPENAPI_FILE, config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} ${p.location[0]?.pointer ?? ''}`)).toEqual([]);
    // without the exception, the spec's two trailing-slash paths are its only errors
    const plain = await lintFromString({
      source,
      absoluteRef: OPENAPI_FILE,
      config: await createConfig({ extends: ['recommended'] }),
    });
    expect(plain.filter((p) => p.severity === 'error').map((p) => p.ruleId)).toEqual([
      'no-path-trailing-slash',
      'no-path-trailing-slash',
    ]);
  }, 60_000);

  it('has servers, an operationId on every operation (unique) and its 4xx answers; calls an API token makes document 429', () => {
    expect(doc.servers?.length).toBeGreaterThan(0);
    const ids = operations.map((o) => o.op.operationId as string);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { key, op } of operations) {
      const statuses = Object.keys(op.responses);
      expect(statuses.filter((s) => /^4\d\d$/.test(s)).length, key).toBeGreaterThan(0);
      expect(statuses, key).toContain('400');
    }
    for (const route of API_TOKEN_ROUTES) {
      const [method, p] = route.split(' ') as [string, string];
      expect(Object.keys(doc.paths[p][method.toLowerCase()].responses), route).toContain('429');
    }
  });

  it('bounds every integer a request may carry (ids at most 2^31−1: PostgreSQL answered 500 past it)', () => {
    const loose: string[] = [];
    const walk = (s: unknown, at: string) => {
      if (!s || typeof s !== 'object') return;
      const o = s as Json;
      if (
        o.type === 'integer' &&
        !(
          typeof o.maximum === 'number' &&
          o.maximum <= MAX_ID &&
          typeof o.minimum === 'number' &&
          o.minimum >= -MAX_ID - 1
        )
      )
        loose.push(at);
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
    };
    for (const { key, op } of operations) {
      walk(op.parameters, `${key} parameters`);
      walk(op.requestBody, `${key} body`);
    }
    walk(doc.components.schemas.JobConfig, 'JobConfig');
    expect(loose).toEqual([]);
  });

  it('documents refusals once: the envelope codes and every reason code as enums', () => {
    const error = doc.components.schemas.ErrorEnvelope as Json;
    expect(error.properties.code.enum).toEqual(
      expect.arrayContaining([
        CODE.COMMON_PARAMETER_ERROR,
        CODE.VERIFICATION_FAILED,
        CODE.PARAM_ERROR,
        CODE.INSUFFICIENT_CREDITS,
        CODE.NOT_ENOUGH_POINTS,
        500,
      ]),
    );
    const data = (error.properties.data.anyOf as Json[]).find((d) => d.type === 'object')!;
    expect(data.properties.reason.enum).toEqual(REASON_CODES);
    const process = doc.paths['/api/v1/process'].post.responses;
    expect(process['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
  });

  it('carries the feature catalogue: jconfig is JobConfig, one variant per job, each with an example the server takes', () => {
    const variants = doc.components.schemas.JobConfig.anyOf as Json[];
    // @fastify/swagger writes a const as a one-value enum
    expect(variants.map((v) => v.properties.job.enum[0])).toEqual([...JOB_NAMES]);
    const transform =
      doc.paths['/web_api/v1/transform'].post.requestBody.content['application/json'].schema.properties.jconfig;
    expect(transform.anyOf[0]).toEqual({ $ref: '#/components/schemas/JobConfig' });
    for (const v of variants) {
      const example = v.examples[0];
      expect(() => checkJobConfig(example), v.title).not.toThrow();
      const parsed = parseJobConfig(example, 'pro');
      expect(parsed.ok, `${v.title}: ${JSON.stringify(parsed)}`).toBe(true);
    }
    const enlarge = variants.find((v) => v.title === 'enlarge')!.properties.config.properties.module_params.properties;
    expect(enlarge.scale.default).toBe(2);
    expect(enlarge.suppress_noise.anyOf[0]).toMatchObject({ type: 'integer', minimum: 0, maximum: 100 });
  });

  it('makes the committed TypeScript client (npm run api-docs writes both)', () => {
    expect(fs.readFileSync(CLIENT_FILE, 'utf8')).toBe(renderClient(doc));
  });
});
