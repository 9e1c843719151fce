/**
 * The developer quick start, as text: shown on /api-docs/ (ApiQuickStart.tsx) and run as written by
 * tests/integration/api-quickstart.test.ts against a real server, so what a developer copies works.
 *
 * The commands read the host and the API token from the environment (PIXMILL_SERVER, PIXMILL_API_KEY)
 * and send the token as X-Api-Key. The new calls of issue 49 first: a free key and a free cut-out in three
 * calls (register, key, process at preview size), the output options, a completion webhook with its
 * signature check, and the client package with its `pixmill` command. Then the synchronous enlarge (a
 * sample photo every API plan accepts, one POST /api/v1/process that answers the enlarged image) and the
 * same work in four calls (upload, transform, progress, download), for big files and many images. Curl steps
 * name an earlier answer's values as <user_token>, <api_token>, <uid> and <trans_id>, which the reader (and
 * the test) puts in.
 */

import { API_FREE_PREVIEWS_PER_MONTH, API_PREVIEW_MEGAPIXELS } from '../../shared/domain/apiPlans.js';

/** The environment the snippets read. */
const QUICK_START_ENV = { host: 'PIXMILL_SERVER', token: 'PIXMILL_API_KEY' } as const;
/** What a curl step's text leaves for the reader to fill in: an earlier answer's values, their own address and URL. */
export const QUICK_START_SLOTS = {
  userToken: '<user_token>',
  apiToken: '<api_token>',
  uid: '<uid>',
  transId: '<trans_id>',
  email: 'you@example.com',
  webhookUrl: 'https://example.com/hooks/pixmill',
} as const;
/** The photo the snippets upload, and what the results are saved as. */
export const QUICK_START_FILES = {
  photo: 'photo.jpg',
  result: 'enlarged.jpg',
  cutout: 'cutout.png',
  options: 'cutout.jpg',
} as const;

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

/** The cut-out of the three-call start: background removal at preview size (free up to a monthly number). */
const QUICK_START_CUTOUT = { feature: 'background_removal', size: 'preview' } as const;
/** The output options shown: another name of matting, a JPG on a colour, cropped to the subject with a margin. */
export const QUICK_START_OPTIONS = {
  feature: 'remove_background',
  format: 'jpg',
  bg_color: 'ffffff',
  crop: 'true',
  crop_margin: 8,
} as const;

export type QuickStartStep =
  | 'env'
  | 'register'
  | 'key'
  | 'photo'
  | 'cutout'
  | 'options'
  | 'webhook'
  | 'process'
  | 'upload'
  | 'transform'
  | 'progress'
  | 'download';

/** The page's sections in order, each with its curl steps: the new calls (issue 49) first. */
export const QUICK_START_SECTIONS = [
  { section: 'free', steps: ['env', 'register', 'key', 'photo', 'cutout'] },
  { section: 'options', steps: ['options'] },
  { section: 'webhooks', steps: ['webhook'] },
  { section: 'client', steps: [] },
  { section: 'one_call', steps: ['process'] },
  { section: 'async', steps: ['upload', 'transform', 'progress', 'download'] },
] as const satisfies readonly { section: string; steps: readonly QuickStartStep[] }[];
export type QuickStartSection = (typeof QUICK_START_SECTIONS)[number]['section'];

export interface CurlStep {
  step: QuickStartStep;
  /** the shell text, exactly as shown */
  command: string;
  /** what the answer looks like (shown under the command) */
  answer?: string;
}

const KEY = `-H "X-Api-Key: $${QUICK_START_ENV.token}"`;
const HOST = `$${QUICK_START_ENV.host}`;

const PASSWORD = 'a-Long-passw0rd';
const fields = (o: Readonly<Record<string, string | number>>) =>
  Object.entries(o)
    .map(([k, v]) => `-F ${k}=${v}`)
    .join(' ');

const { feature, ...options } = QUICK_START_OPTIONS;

export const CURL_STEPS: readonly CurlStep[] = [
  {
    step: 'env',
    command: `export ${QUICK_START_ENV.host}=https://pixmill.example`,
  },
  {
    step: 'register',
    command: `curl -s -d email=${QUICK_START_SLOTS.email} \\\n  -d password='${PASSWORD}' -d confirm_password='${PASSWORD}' \\\n  "${HOST}/api/account/register"`,
    answer: '{"code":200,"msg":"ok","data":{"user_token":"…",…}}',
  },
  {
    step: 'key',
    command: `curl -s -d user_token=${QUICK_START_SLOTS.userToken} "${HOST}/api/v2/api_token/get"`,
    answer: `{"code":200,"msg":"ok","data":{"api_token":"pxm_…","webhook_secret":"whsec_…","free_previews_left":${API_FREE_PREVIEWS_PER_MONTH},…}}`,
  },
  {
    step: 'photo',
    command: `curl -s -o ${QUICK_START_FILES.photo} "${HOST}${QUICK_START_PHOTO_PATH}"`,
  },
  {
    step: 'cutout',
    command: `export ${QUICK_START_ENV.token}=${QUICK_START_SLOTS.apiToken}\ncurl -s ${KEY} \\\n  -F file=@${QUICK_START_FILES.photo} ${fields(QUICK_START_CUTOUT)} \\\n  -o ${QUICK_START_FILES.cutout} -D - "${HOST}/api/v1/process"`,
    answer: `HTTP/1.1 200 OK\ncontent-type: image/png\nx-credits-charged: 0\nx-free-previews-left: ${API_FREE_PREVIEWS_PER_MONTH - 1}\n…\n(${QUICK_START_FILES.cutout}: the subject on a transparent background, at most ${API_PREVIEW_MEGAPIXELS} MP)`,
  },
  {
    step: 'options',
    command: `curl -s ${KEY} \\\n  -F file=@${QUICK_START_FILES.photo} -F feature=${feature} \\\n  ${fields(options)} \\\n  -o ${QUICK_START_FILES.options} -D - "${HOST}/api/v1/process"`,
    answer: `HTTP/1.1 200 OK\ncontent-type: image/jpeg\nx-input-downscaled: false\nx-width: …\nx-height: …\nx-credits-charged: 1\n…`,
  },
  {
    step: 'webhook',
    command: `curl -s ${KEY} \\\n  -F file=@${QUICK_START_FILES.photo} -F feature=${QUICK_START_FEATURE.feature} -F scale=${QUICK_START_FEATURE.scale} \\\n  -F webhook_url=${QUICK_START_SLOTS.webhookUrl} \\\n  -o ${QUICK_START_FILES.result} -w '%{http_code}\\n' "${HOST}/api/v1/process"`,
    answer: `200\n(then a POST to webhook_url, signed in its header Pixmill-Signature: t=<unix seconds>,v1=<hex>:\n{"event":"work.finished","trans_id":"…","status":"finish",…,"download_url":"…"})`,
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

/**
 * How a receiver checks a webhook: the HMAC-SHA256 of `<t>.<raw body>` with the key's webhook secret, in
 * constant time, and a timestamp at most 5 minutes old (an old body sent again is refused).
 */
export const WEBHOOK_VERIFY_SCRIPT = `// verify.mjs — is this POST from Pixmill?
// rawBody: the request's body as text, before any JSON parsing
import { createHmac, timingSafeEqual } from 'node:crypto';

export function verify(rawBody, signatureHeader, secret, toleranceS = 300) {
  const { t, v1 = '' } = Object.fromEntries(signatureHeader.split(',').map((kv) => kv.split('=')));
  const mac = createHmac('sha256', secret).update(\`\${t}.\${rawBody}\`).digest('hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(t)) <= toleranceS;
  return fresh && mac.length === v1.length && timingSafeEqual(Buffer.from(mac), Buffer.from(v1));
}
`;

/** The client package and its command, from a checkout of the repository (the package's README has more). */
export const CLI_COMMANDS = `(cd clients/typescript && npm pack)
npm install -g ./clients/typescript/pixmill-client-*.tgz
pixmill remove-bg ${QUICK_START_FILES.photo} -o cutouts/ --size preview
pixmill enlarge ${QUICK_START_FILES.photo} --scale ${QUICK_START_FEATURE.scale} -o big.jpg
`;
