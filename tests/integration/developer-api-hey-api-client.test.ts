/**
 * A client generated from the served document by @hey-api/openapi-ts compiles and calls the API, in both run
 * modes (issue 49 point 5, beside developer-api-generated-client.test.ts's openapi-typescript + openapi-fetch):
 * its fetch client, types and SDK functions, type-checked strictly by tsc, then run against a real server — an
 * enlarge with a file and a cut-out from a URL, no cast, no edit of what it generated.
 *
 * The generator picks a JSON body for POST /api/v1/process (the document lists multipart, form and JSON; it
 * prefers JSON): the URL call is its generated call as it stands; the file call sends multipart through the
 * SDK's own per-call options (bodySerializer, the Content-Type dropped so fetch sets the boundary).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createClient as generateClient } from '@hey-api/openapi-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUICK_START_PHOTO_PATH } from '../../src/pages/content/apiQuickStart.js';
import { freeApiKey } from './api-helpers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { strictTypeErrors, writeCaller } from './generatedClients.js';

const root = path.resolve(import.meta.dirname, '../..');
let srv: TestServer;
let dir: string;
beforeAll(async () => {
  // the cut-out's url is this server's own sample, on loopback (ALLOW_PRIVATE_URLS, tests only)
  srv = await startTestServer({ allowPrivateUrls: true });
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  dir = fs.mkdtempSync(path.join(root, '.tmp', 'hey-api-client-'));
}, 60_000);
afterAll(async () => {
  await srv?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const SCRIPT = `import { readFile, writeFile } from 'node:fs/promises';
import { client } from './gen/client.gen.js';
import { getPoint, postProcess } from './gen/sdk.gen.js';

client.setConfig({ baseUrl: process.env.PIXMILL_SERVER, headers: { 'x-api-key': process.env.PIXMILL_API_KEY } });
const photo = new Blob([await readFile(process.argv[2] ?? 'photo.jpg')]);
/** The fields as multipart, with the photo (the SDK's bodySerializer takes the body as unknown). */
const withPhoto = (fields: unknown) => {
  const form = new FormData();
  if (typeof fields === 'object' && fields !== null)
    for (const [k, v] of Object.entries(fields)) form.set(k, String(v));
  form.set('file', photo, 'photo.jpg');
  return form;
};

const enlarge = await postProcess({
  body: { feature: 'enlarge', scale: 2 },
  bodySerializer: withPhoto,
  headers: { 'Content-Type': null },
  parseAs: 'blob',
});
// 200 is the image (or, as the spec answers some refusals, the envelope): the Blob is the image
if (enlarge.data instanceof Blob) await writeFile('enlarged.jpg', Buffer.from(await enlarge.data.arrayBuffer()));
const cutOut = await postProcess({
  body: { url: process.env.PHOTO_URL!, feature: 'background_removal', size: 'preview', format: 'png' },
  parseAs: 'blob',
});
if (cutOut.data instanceof Blob) await writeFile('cutout.png', Buffer.from(await cutOut.data.arrayBuffer()));
const point = await getPoint();
console.log(JSON.stringify({
  enlarge: enlarge.response.status,
  cutOut: cutOut.response.status,
  charged: cutOut.response.headers.get('x-credits-charged'),
  point: point.data?.code,
}));
`;

const freeKey = () => freeApiKey(srv.url, 'hey-api');

describe('a third-party generated client (@hey-api/openapi-ts)', () => {
  it('compiles strictly and runs an enlarge with a file and a cut-out from a URL against the server', async () => {
    await generateClient({
      input: `${srv.url}/api-docs/openapi.json`,
      output: { path: path.join(dir, 'gen'), importFileExtension: '.js' },
      plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
      logs: { level: 'silent' },
    });
    await writeCaller(dir, SCRIPT);
    expect(strictTypeErrors(dir)).toEqual([]);

    // asynchronously: the test server answers from this very process
    const { stdout: out } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'call.ts', 'photo.jpg'], {
      cwd: dir,
      env: {
        ...process.env,
        PIXMILL_SERVER: srv.url,
        PIXMILL_API_KEY: await freeKey(),
        PHOTO_URL: `${srv.url}${QUICK_START_PHOTO_PATH}`,
      },
      encoding: 'utf8',
    });
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({ enlarge: 200, cutOut: 200, charged: '0', point: 200 });
    expect(await sharp(path.join(dir, 'enlarged.jpg')).metadata()).toMatchObject({ width: 240, height: 180 });
    expect((await sharp(path.join(dir, 'cutout.png')).metadata()).hasAlpha).toBe(true);
  });
});
