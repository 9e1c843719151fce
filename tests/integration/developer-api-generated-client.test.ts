/**
 * A client generated from the served document by third-party tools compiles and calls the API, in both run
 * modes (issue 49 point 5): openapi-typescript writes the types (a binary field as Blob, its documented option),
 * openapi-fetch calls POST /api/v1/process for an enlarge and a cut-out — no cast, no hand-written type — and
 * the script is type-checked strictly by tsc before it runs against a real server.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { freeApiKey } from './api-helpers.js';
import { strictTypeErrors, writeCaller } from './generatedClients.js';

const root = path.resolve(import.meta.dirname, '../..');
let srv: TestServer;
let dir: string;
beforeAll(async () => {
  srv = await startTestServer();
  // inside the repository, so the script finds openapi-fetch in its node_modules
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  dir = fs.mkdtempSync(path.join(root, '.tmp', 'generated-client-'));
}, 60_000);
afterAll(async () => {
  await srv?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const SCRIPT = `import { readFile, writeFile } from 'node:fs/promises';
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const api = createClient<paths>({
  baseUrl: process.env.PIXMILL_SERVER,
  headers: { 'x-api-key': process.env.PIXMILL_API_KEY },
});
const photo = new Blob([await readFile(process.argv[2] ?? 'photo.jpg')]);
/** The fields as multipart, with the photo. */
const withPhoto = (fields: Record<string, unknown>) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, String(v));
  form.set('file', photo, 'photo.jpg');
  return form;
};

const enlarge = await api.POST('/api/v1/process', {
  body: { feature: 'enlarge', scale: 2 },
  bodySerializer: withPhoto,
  parseAs: 'blob',
});
// 200 is the image (or, as the spec answers some refusals, the envelope): the Blob is the image
if (enlarge.data instanceof Blob) await writeFile('enlarged.jpg', Buffer.from(await enlarge.data.arrayBuffer()));
const cutOut = await api.POST('/api/v1/process', {
  body: { feature: 'background_removal', size: 'preview', format: 'png' },
  bodySerializer: withPhoto,
  parseAs: 'blob',
});
if (cutOut.data instanceof Blob) await writeFile('cutout.png', Buffer.from(await cutOut.data.arrayBuffer()));
const point = await api.GET('/api/v2/point');
console.log(JSON.stringify({
  enlarge: enlarge.response.status,
  cutOut: cutOut.response.status,
  charged: cutOut.response.headers.get('x-credits-charged'),
  point: point.data?.code,
}));
`;

describe('a third-party generated client (openapi-typescript + openapi-fetch)', () => {
  it('compiles strictly and runs an enlarge and a cut-out against the server', async () => {
    const doc = (await (await fetch(`${srv.url}/api-docs/openapi.json`)).json()) as Parameters<typeof openapiTS>[0];
    const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));
    const ast = await openapiTS(doc, {
      transform: (schema) => (schema.format === 'binary' ? BLOB : undefined),
    });
    fs.writeFileSync(path.join(dir, 'schema.d.ts'), astToString(ast));
    await writeCaller(dir, SCRIPT);
    expect(strictTypeErrors(dir)).toEqual([]);

    const key = await freeApiKey(srv.url, 'gen');
    // asynchronously: the test server answers from this very process
    const { stdout: out } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'call.ts', 'photo.jpg'], {
      cwd: dir,
      env: { ...process.env, PIXMILL_SERVER: srv.url, PIXMILL_API_KEY: key },
      encoding: 'utf8',
    });
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({ enlarge: 200, cutOut: 200, charged: '0', point: 200 });
    expect(await sharp(path.join(dir, 'enlarged.jpg')).metadata()).toMatchObject({ width: 240, height: 180 });
    expect((await sharp(path.join(dir, 'cutout.png')).metadata()).hasAlpha).toBe(true);
  });
});
