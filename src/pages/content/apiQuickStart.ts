/**
 * The developer quick start, as text: shown on /api-docs/ (ApiQuickStart.tsx) and run as written by
 * tests/integration/api-quickstart.test.ts against a real server, so what a developer copies works.
 *
 * The commands read the host and the API token from the environment (PIXMILL_HOST, PIXMILL_API_TOKEN)
 * and send the token as X-Api-Key. First the synchronous call: a sample photo every API plan accepts,
 * then one POST /api/v1/process that answers the enlarged image. Then the same work in four calls
 * (upload, transform, progress, download), for big files and many images; those curl steps name the
 * previous answer's values as <uid> and <trans_id>, which the reader (and the test) puts in.
 */

/** The environment the snippets read. */
const QUICK_START_ENV = { host: 'PIXMILL_HOST', token: 'PIXMILL_API_TOKEN' } as const;
/** What a curl step's text leaves for the reader to fill in from an earlier answer. */
export const QUICK_START_SLOTS = { uid: '<uid>', transId: '<trans_id>' } as const;
/** The photo the snippets upload, and what the result is saved as. */
export const QUICK_START_FILES = { photo: 'photo.jpg', result: 'enlarged.jpg' } as const;

/**
 * Where the quick start gets a photo every API plan accepts: the enlarge sample (200×150 JPG). The
 * smallest API plan (an API pack without a subscription) takes JPG or PNG up to 5 MB and 2000×2000 px.
 */
export const QUICK_START_PHOTO_PATH = '/api/v2/sample/download?job=enlarge&type=original';

/** The work the quick start runs: enlarge 2x (every plan may use this scale). */
export const QUICK_START_FEATURE = { feature: 'enlarge', scale: 2 } as const;
export const QUICK_START_JCONFIG = JSON.stringify({
  job: 'enlarge',
  config: { module: 'enlarge', module_params: { scale: 2 } },
});

export type QuickStartStep = 'env' | 'photo' | 'process' | 'upload' | 'transform' | 'progress' | 'download';
/** The synchronous steps come first; the four-call way after them (the page heads it). */
export const ASYNC_STEPS: readonly QuickStartStep[] = ['upload', 'transform', 'progress', 'download'];

export interface CurlStep {
  step: QuickStartStep;
  /** the shell text, exactly as shown */
  command: string;
  /** what the answer looks like (shown under the command) */
  answer?: string;
}

const KEY = `-H "X-Api-Key: $${QUICK_START_ENV.token}"`;
const HOST = `$${QUICK_START_ENV.host}`;

export const CURL_STEPS: readonly CurlStep[] = [
  {
    step: 'env',
    command: `export ${QUICK_START_ENV.host}=https://pixmill.example\nexport ${QUICK_START_ENV.token}=pxm_your_token_from_my_account`,
  },
  {
    step: 'photo',
    command: `curl -s -o ${QUICK_START_FILES.photo} "${HOST}${QUICK_START_PHOTO_PATH}"`,
  },
  {
    step: 'process',
    command: `curl -s ${KEY} \\\n  -F file=@${QUICK_START_FILES.photo} -F feature=${QUICK_START_FEATURE.feature} -F scale=${QUICK_START_FEATURE.scale} \\\n  -o ${QUICK_START_FILES.result} -w '%{http_code}\\n' "${HOST}/api/v1/process"`,
    answer: `200\n(${QUICK_START_FILES.result}: the photo, twice the size. Another status: ${QUICK_START_FILES.result} holds\nthe refusal, {"code":…,"msg":…,"data":{"reason":…}})`,
  },
  {
    step: 'upload',
    command: `curl -s ${KEY} \\\n  -F job=enlarge -F file=@${QUICK_START_FILES.photo} "${HOST}/web_api/v1/upload"`,
    answer: '{"code":200,"msg":"ok","data":{"data":{"uid":"…","w":200,"h":150,…}}}',
  },
  {
    step: 'transform',
    command: `curl -s ${KEY} \\\n  --data-urlencode "uid=${QUICK_START_SLOTS.uid}" \\\n  --data-urlencode 'jconfig=${QUICK_START_JCONFIG}' \\\n  "${HOST}/web_api/v1/transform"`,
    answer: '{"code":200,"msg":"ok","data":{"trans_id":"…","credits_left":…}}',
  },
  {
    step: 'progress',
    command: `curl -s ${KEY} \\\n  "${HOST}/web_api/v1/progress?trans_id=${QUICK_START_SLOTS.transId}"`,
    answer: '{"code":200,"msg":"ok","data":{"status":"finish",…}}',
  },
  {
    step: 'download',
    command: `curl -s ${KEY} -o ${QUICK_START_FILES.result} \\\n  "${HOST}/web_api/v1/download/?trans_id=${QUICK_START_SLOTS.transId}"`,
  },
];

/** The synchronous call from Node 18+ (built-in fetch), as one script: `node quickstart.mjs photo.jpg`. */
export const NODE_SCRIPT = `// quickstart.mjs — node quickstart.mjs ${QUICK_START_FILES.photo}
import { readFile, writeFile } from 'node:fs/promises';

const host = process.env.${QUICK_START_ENV.host};
const file = process.argv[2] ?? '${QUICK_START_FILES.photo}';

// the photo and the work: enlarge 2x (one credit); the answer is the enlarged image itself
const form = new FormData();
form.set('feature', '${QUICK_START_FEATURE.feature}');
form.set('scale', '${QUICK_START_FEATURE.scale}');
form.set('file', new Blob([await readFile(file)]), file);
const res = await fetch(\`\${host}/api/v1/process\`, {
  method: 'POST',
  headers: { 'X-Api-Key': process.env.${QUICK_START_ENV.token} },
  body: form,
});

// a refusal (or a work still running after 5 minutes: 202) answers JSON; data.reason says why
if (res.status !== 200) {
  const body = await res.json();
  throw new Error(\`\${res.status} \${body.data?.reason}: \${body.msg}\`);
}
await writeFile('${QUICK_START_FILES.result}', Buffer.from(await res.arrayBuffer()));
console.log(\`saved ${QUICK_START_FILES.result}; \${res.headers.get('x-credits-left')} credits left\`);
`;

/** The same with the TypeScript client generated from the API document (clients/typescript in the repository). */
export const CLIENT_SCRIPT = `// quickstart.mts — npx tsx quickstart.mts, beside clients/typescript (generated from /api-docs/openapi.json)
import { readFile, writeFile } from 'node:fs/promises';
import { createClient } from './clients/typescript/client.js';

const api = createClient({ baseUrl: process.env.${QUICK_START_ENV.host}!, apiKey: process.env.${QUICK_START_ENV.token} });
const photo = new Blob([await readFile('${QUICK_START_FILES.photo}')]);
const out = await api.call('postProcess', { file: photo, feature: '${QUICK_START_FEATURE.feature}', scale: ${QUICK_START_FEATURE.scale} });
if (out.kind === 'file') await writeFile('${QUICK_START_FILES.result}', Buffer.from(out.bytes));
`;
