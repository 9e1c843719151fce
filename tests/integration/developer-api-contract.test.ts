/**
 * The document is the server (issue 49 point 5), in both run modes: for every operation of the served OpenAPI
 * document, requests are generated from the document itself by json-schema-faker (its examples and defaults
 * where it has them; a small JPEG where a binary field is) and sent as a developer sends them: the fields it
 * requires with an API key and with a site token, and every field faked (seeded, so a failure repeats); every live answer must use a status the operation lists, match the schema the
 * document gives that status and media type (ajv, JSON Schema 2020-12), carry the headers the document names
 * for it, and never be a 5xx.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { generateSync } from 'json-schema-faker';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { Caller } from './api-helpers.js';

type Json = Record<string, any>;
let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ runJobs: false });
}, 60_000);
afterAll(async () => {
  await srv?.stop();
});

function inline(s: unknown, components: Json): unknown {
  if (Array.isArray(s)) return s.map((x) => inline(x, components));
  if (!s || typeof s !== 'object') return s;
  const o = s as Json;
  if (typeof o.$ref === 'string') return inline(components[o.$ref.split('/').pop()!], components);
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, inline(v, components)]));
}

let seed = 49;
/** A value the schema takes, made by json-schema-faker (examples and defaults first; seeded). */
function fake(s: Json | undefined): unknown {
  if (!s) return 'x';
  if (s.format === 'binary') return 'binary';
  return generateSync(s as never, { seed: seed++, useExamplesValue: true, useDefaultValue: true });
}
/** The headers the API sends that a generated client should know. */
const API_HEADERS = [
  'x-credits-charged',
  'x-credits-left',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'location',
  'x-trans-id',
  'x-input-downscaled',
  'x-width',
  'x-height',
  'x-free-previews-left',
];
const text = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

describe('every operation of the served document, with requests generated from it', () => {
  it('answers only documented statuses, bodies and headers, and never a 5xx', async () => {
    const doc = (await (await fetch(`${srv.url}/api-docs/openapi.json`)).json()) as Json;
    const components = doc.components.schemas as Json;
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    const photo = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#468' } })
      .jpeg()
      .toBuffer();
    const pro = await Caller.user(srv, `contract-${Date.now()}@example.com`, 'pro');
    const key = (await pro.form('/api/v2/api_token/get')).body.data.api_token as string;
    const problems: string[] = [];
    let answers = 0;

    for (const [p, ops] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(ops as Json)) {
        if (p.includes('{')) continue; // path parameters: the model files, checked by their own tests
        for (const who of ['apiKey', 'siteToken', 'faked'] as const) {
          const headers: Record<string, string> = who === 'siteToken' ? {} : { 'x-api-key': key };
          const fields: Record<string, unknown> = who === 'siteToken' ? { user_token: pro.token } : {};
          const url = new URL(p, srv.url);
          let body: FormData | URLSearchParams | undefined;
          if (method === 'get') {
            for (const prm of (op.parameters ?? []) as Json[])
              if (prm.in === 'query' && (who === 'faked' || prm.required || prm.example !== undefined))
                url.searchParams.set(
                  prm.name,
                  text(
                    who !== 'faked' && prm.example !== undefined
                      ? prm.example
                      : fake(inline(prm.schema, components) as Json),
                  ),
                );
            for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, text(v));
          } else {
            const content = (op.requestBody?.content ?? {}) as Json;
            const multipart = content['multipart/form-data'];
            const media = multipart ?? content['application/x-www-form-urlencoded'] ?? content['application/json'];
            const schema = (media ? inline(media.schema, components) : {}) as Json;
            const example = (media?.example ?? {}) as Json;
            const props = (schema.properties ?? {}) as Json;
            for (const [k, s] of Object.entries(props)) {
              // the synchronous call waits as little as it may (no runner here: the work stays queued)
              if (k === 'wait') fields[k] = (s as Json).minimum ?? 1;
              else if (who === 'faked') fields[k] = fake(s as Json);
              else if (k in example) fields[k] = example[k];
              else if ((schema.required ?? []).includes(k)) fields[k] = fake(s as Json);
            }
            if (multipart) {
              const fd = new FormData();
              for (const [k, v] of Object.entries(fields))
                if (v !== 'binary' && (props[k] as Json | undefined)?.format !== 'binary') fd.set(k, text(v));
              for (const [k, s] of Object.entries(props))
                if ((s as Json).format === 'binary') fd.set(k, new Blob([photo]), 'photo.jpg');
              body = fd;
            } else body = new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, text(v)]));
          }
          const r = await fetch(url, {
            method: method.toUpperCase(),
            headers,
            body,
            redirect: 'manual',
            signal: AbortSignal.timeout(20_000),
          }).catch((e: unknown) => e as Error);
          if (r instanceof Error) {
            problems.push(`${method.toUpperCase()} ${p} (${who}): no answer (${r.message})`);
            continue;
          }
          answers++;
          const where = `${method.toUpperCase()} ${p} (${who}) → ${r.status}`;
          if (r.status >= 500) problems.push(`${where}: a server error`);
          const answer = (op.responses as Json)[String(r.status)] as Json | undefined;
          if (!answer) {
            problems.push(`${where}: status not documented (${await r.text().then((t) => t.slice(0, 160))})`);
            continue;
          }
          // every header of the API's own the answer carries is one the document names for this status
          const named = new Set(Object.keys((answer.headers ?? {}) as Json).map((h) => h.toLowerCase()));
          for (const h of API_HEADERS)
            if (r.headers.has(h) && !named.has(h)) problems.push(`${where}: header ${h} not documented`);
          const type = (r.headers.get('content-type') ?? '').split(';')[0]!;
          const content = (answer.content ?? {}) as Json;
          if (!content[type]) {
            problems.push(`${where}: media type ${type} not documented (${Object.keys(content).join(', ')})`);
            continue;
          }
          if (type !== 'application/json') continue;
          const data = await r.json();
          const validate = ajv.compile(inline(content[type].schema, components) as object);
          if (!validate(data))
            problems.push(`${where}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(data).slice(0, 200)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(answers).toBeGreaterThan(100);
  });
});
