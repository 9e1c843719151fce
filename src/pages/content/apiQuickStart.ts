/**
 * The developer quick start, as text: shown on /api-docs/ (ApiQuickStart.tsx) and run as written by
 * tests/integration/api-quickstart.test.ts against a real server, so what a developer copies works.
 *
 * The commands read the host and the API token from the environment (PIXMILL_HOST, PIXMILL_API_TOKEN);
 * the curl steps name the previous answer's values as <uid> and <trans_id>, which the reader (and the
 * test) puts in. `photo.jpg` is the photo to enlarge, in the current directory.
 */

/** The environment the snippets read. */
export const QUICK_START_ENV = { host: 'PIXMILL_HOST', token: 'PIXMILL_API_TOKEN' } as const;
/** What a curl step's text leaves for the reader to fill in from an earlier answer. */
export const QUICK_START_SLOTS = { uid: '<uid>', transId: '<trans_id>' } as const;
/** The photo the snippets upload, and what the download is saved as. */
export const QUICK_START_FILES = { photo: 'photo.jpg', result: 'enlarged.jpg' } as const;

/** The work the quick start runs: enlarge 2x (every plan may use this scale). */
export const QUICK_START_JCONFIG = JSON.stringify({ job: 'enlarge', config: { module: 'enlarge', module_params: { scale: 2 } } });

export type QuickStartStep = 'env' | 'upload' | 'transform' | 'progress' | 'download';

export interface CurlStep {
  step: QuickStartStep;
  /** the shell text, exactly as shown */
  command: string;
  /** what the answer looks like (shown under the command) */
  answer?: string;
}

const AUTH = `-H "Authorization: Bearer $${QUICK_START_ENV.token}"`;
const HOST = `$${QUICK_START_ENV.host}`;

export const CURL_STEPS: readonly CurlStep[] = [
  {
    step: 'env',
    command: `export ${QUICK_START_ENV.host}=https://pixmill.example\nexport ${QUICK_START_ENV.token}=pxm_your_token_from_my_account`,
  },
  {
    step: 'upload',
    command: `curl -s ${AUTH} -F job=enlarge -F file=@${QUICK_START_FILES.photo} "${HOST}/web_api/v1/upload"`,
    answer: '{"code":200,"msg":"ok","data":{"data":{"uid":"…","w":640,"h":480,…}}}',
  },
  {
    step: 'transform',
    command: `curl -s ${AUTH} --data-urlencode "uid=${QUICK_START_SLOTS.uid}" --data-urlencode 'jconfig=${QUICK_START_JCONFIG}' "${HOST}/web_api/v1/transform"`,
    answer: '{"code":200,"msg":"ok","data":{"trans_id":"…"}}',
  },
  {
    step: 'progress',
    command: `curl -s ${AUTH} "${HOST}/web_api/v1/progress?trans_id=${QUICK_START_SLOTS.transId}"`,
    answer: '{"code":200,"msg":"ok","data":{"status":"finish",…}}',
  },
  {
    step: 'download',
    command: `curl -s ${AUTH} -o ${QUICK_START_FILES.result} "${HOST}/web_api/v1/download/?trans_id=${QUICK_START_SLOTS.transId}"`,
  },
];

/** The same calls from Node 18+ (built-in fetch), as one script: `node quickstart.mjs photo.jpg`. */
export const NODE_SCRIPT = `// quickstart.mjs — node quickstart.mjs ${QUICK_START_FILES.photo}
import { readFile, writeFile } from 'node:fs/promises';

const host = process.env.${QUICK_START_ENV.host};
const headers = { Authorization: \`Bearer \${process.env.${QUICK_START_ENV.token}}\` };
const file = process.argv[2] ?? '${QUICK_START_FILES.photo}';

async function call(path, init = {}) {
  const res = await fetch(host + path, { ...init, headers });
  const body = await res.json();
  if (body.code !== 200) throw new Error(\`\${path}: \${body.code} \${body.msg}\`);
  return body.data;
}

// 1. upload the photo
const form = new FormData();
form.set('job', 'enlarge');
form.set('file', new Blob([await readFile(file)]), file);
const { uid } = (await call('/web_api/v1/upload', { method: 'POST', body: form })).data;

// 2. start the work: enlarge 2x (one credit)
const jconfig = '${QUICK_START_JCONFIG}';
const { trans_id } = await call('/web_api/v1/transform', { method: 'POST', body: new URLSearchParams({ uid, jconfig }) });

// 3. poll every 2 seconds until it is done
let status = 'progress';
while (status === 'progress') {
  await new Promise((r) => setTimeout(r, 2000));
  ({ status } = await call(\`/web_api/v1/progress?trans_id=\${trans_id}\`));
}
if (status !== 'finish') throw new Error(\`the work ended with \${status}\`);

// 4. download the result
const res = await fetch(\`\${host}/web_api/v1/download/?trans_id=\${trans_id}\`, { headers });
await writeFile('${QUICK_START_FILES.result}', Buffer.from(await res.arrayBuffer()));
console.log('saved ${QUICK_START_FILES.result}');
`;
