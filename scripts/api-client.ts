/**
 * The TypeScript client's types and call table, generated from the OpenAPI document (npm run api-docs
 * writes both; `node --import tsx scripts/api-client.ts` this alone): clients/typescript/pixmill.gen.ts
 * holds, per operation (by operationId), the request fields and the answer's type, and the components
 * (JobConfig, ErrorEnvelope) as named types. clients/typescript/client.ts is the thin fetch wrapper
 * over it, written by hand. scripts/api-docs.test.ts fails while the generated file differs from
 * what the committed document generates. No dependencies: a small JSON Schema → TypeScript printer
 * for the schema forms the route schemas use.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = Record<string, unknown>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLIENT_FILE = path.join(root, 'clients', 'typescript', 'pixmill.gen.ts');
const OPENAPI_FILE = path.join(root, 'src', 'pages', 'content', 'openapi.json');

const asObj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const pascal = (s: string) => s.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (k: string) => (IDENT.test(k) ? k : JSON.stringify(k));
/** A description as a one-line doc comment (no comment terminator inside). */
const doc = (s: unknown, pad: string) =>
  typeof s === 'string' && s ? `${pad}/** ${s.replace(/\*\//g, '*∕').replace(/\s+/g, ' ')} */\n` : '';

/** A schema as a TypeScript type (the forms the route schemas use: objects, arrays, unions, enums, consts, refs). */
export function tsType(schemaIn: unknown, pad = ''): string {
  const s = asObj(schemaIn);
  if (typeof s.$ref === 'string') return s.$ref.split('/').pop()!;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const alts = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : []) as unknown[];
  if (alts.length)
    return [...new Set(alts.map((a) => tsType(a, pad)))]
      .map((t) => (t.includes('\n') || !t.includes(' | ') ? t : `(${t})`))
      .join(' | ');
  if (Array.isArray(s.type)) return s.type.map((t) => tsType({ ...s, type: t }, pad)).join(' | ');
  switch (s.type) {
    case 'null':
      return 'null';
    case 'boolean':
      return 'boolean';
    case 'integer':
    case 'number':
      return 'number';
    case 'string':
      return s.format === 'binary' ? 'Blob' : 'string';
    case 'array': {
      const item = tsType(s.items, pad);
      return /^[\w.]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    case 'object':
      return objectType(s, pad);
    default:
      return 'unknown';
  }
}

function objectType(s: Json, pad: string): string {
  const props = asObj(s.properties);
  const required = new Set((Array.isArray(s.required) ? s.required : []) as string[]);
  const names = Object.keys(props);
  const extra = s.additionalProperties;
  if (!names.length)
    return extra === false
      ? 'Record<string, never>'
      : extra && typeof extra === 'object'
        ? `Record<string, ${tsType(extra, pad)}>`
        : 'Record<string, unknown>';
  const inner = `${pad}  `;
  const lines = names.map(
    (n) =>
      `${doc(asObj(props[n]).description, inner)}${inner}${key(n)}${required.has(n) ? '' : '?'}: ${tsType(props[n], inner)};`,
  );
  if (extra && typeof extra === 'object') lines.push(`${inner}[name: string]: unknown;`);
  return `{\n${lines.join('\n')}\n${pad}}`;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** How the client reads a declared response header: the TypeScript type of its schema (integer and number as a number). */
type HeaderType = 'number' | 'boolean' | 'string';
const headerType = (schema: unknown): HeaderType => {
  const t = asObj(schema).type;
  return t === 'integer' || t === 'number' ? 'number' : t === 'boolean' ? 'boolean' : 'string';
};

/** A response's declared headers as an object type, each optional (an answer may leave one out). */
function headersType(headers: Json): string {
  const names = Object.keys(headers);
  if (!names.length) return 'Record<never, never>';
  const lines = names.map(
    (n) => `${doc(asObj(headers[n]).description, '  ')}  ${key(n)}?: ${headerType(asObj(headers[n]).schema)};`,
  );
  return `{\n${lines.join('\n')}\n}`;
}

/** The success envelope of a 200's schema: the spec answers refusals with HTTP 200 too (anyOf the success and ErrorEnvelope). */
function successOf(schema: Json): Json | undefined {
  const code = (s: Json) => asObj(asObj(s.properties).code);
  const members = [schema, ...(Array.isArray(schema.anyOf) ? schema.anyOf : []).map(asObj)];
  return members.find((s) => {
    const c = code(s);
    return c.const === 200 || (Array.isArray(c.enum) && c.enum.includes(200));
  });
}

interface Operation {
  id: string;
  method: string;
  path: string;
  summary: string;
  /** where the fields go: the query string, or the body types the call reads (first: the one used for files) */
  body: 'query' | 'multipart' | 'form';
  /** the call also reads JSON bodies */
  json: boolean;
  fields: string;
  answer: 'file' | 'json';
  data: string;
  /** JSON answers besides 200 with a 2xx status (the synchronous call's 202), by status */
  accepted: Record<string, string>;
  /** the headers each 2xx answer declares, by status */
  headers: Record<string, Json>;
  /** the call takes an API token (X-Api-Key): the others refuse a request that carries one */
  apiKey: boolean;
}

function operationsOf(docIn: Json): Operation[] {
  const out: Operation[] = [];
  for (const [p, itemIn] of Object.entries(asObj(docIn.paths))) {
    for (const method of METHODS) {
      const op = asObj(asObj(itemIn)[method]);
      if (!Object.keys(op).length) continue;
      const id = String(op.operationId);
      const content = asObj(asObj(op.requestBody).content);
      const types = Object.keys(content);
      let fields: string;
      if (method === 'get') {
        const params = (Array.isArray(op.parameters) ? op.parameters : []).map(asObj).filter((x) => x.in === 'query');
        fields = objectType(
          {
            type: 'object',
            properties: Object.fromEntries(
              params.map((x) => [
                x.name,
                { ...asObj(x.schema), description: x.description ?? asObj(x.schema).description },
              ]),
            ),
            required: params.filter((x) => x.required).map((x) => x.name),
          },
          '',
        );
      } else {
        const body = asObj(asObj(content[types[0] ?? '']).schema);
        fields = Object.keys(asObj(body.properties)).length ? tsType(body) : 'Record<string, never>';
      }
      const responses = asObj(op.responses);
      const ok = asObj(asObj(responses['200']).content);
      const answer = Object.keys(ok).some((t) => t !== 'application/json') ? 'file' : 'json';
      const data =
        answer === 'json'
          ? tsType(asObj(asObj(successOf(asObj(asObj(ok['application/json']).schema))).properties).data)
          : 'never';
      const accepted: Record<string, string> = {};
      const headers: Record<string, Json> = {};
      for (const [status, r] of Object.entries(responses)) {
        if (!/^2\d\d$/.test(status)) continue;
        headers[status] = asObj(asObj(r).headers);
        if (status === '200') continue;
        const schema = asObj(asObj(asObj(asObj(r).content)['application/json']).schema);
        accepted[status] = tsType(asObj(schema.properties).data);
      }
      out.push({
        id,
        method: method.toUpperCase(),
        path: p,
        summary: String(op.summary ?? ''),
        body: method === 'get' ? 'query' : types.includes('multipart/form-data') ? 'multipart' : 'form',
        json: types.includes('application/json'),
        fields,
        answer,
        data,
        accepted,
        headers,
        apiKey: (Array.isArray(op.security) ? op.security : []).some((r) => 'api_key' in asObj(r)),
      });
    }
  }
  return out;
}

/**
 * Every response header the document declares, by name: how it is read (one type per name, or the document
 * contradicts itself), and those of refusals (non-2xx and default answers) with their descriptions.
 */
function declaredHeaders(docIn: Json): { types: Record<string, HeaderType>; refusals: Json } {
  const types: Record<string, HeaderType> = {};
  const refusals: Json = {};
  for (const item of Object.values(asObj(docIn.paths)))
    for (const method of METHODS)
      for (const [status, r] of Object.entries(asObj(asObj(asObj(item)[method]).responses)))
        for (const [name, h] of Object.entries(asObj(asObj(r).headers))) {
          const t = headerType(asObj(h).schema);
          if (types[name] !== undefined && types[name] !== t)
            throw new Error(`response header ${name} is declared both ${types[name]} and ${t}`);
          types[name] = t;
          if (!/^2\d\d$/.test(status)) refusals[name] ??= h;
        }
  return { types, refusals };
}

/** The generated module's text for an OpenAPI document. */
export function renderClient(docIn: unknown): string {
  const d = asObj(docIn);
  const ops = operationsOf(d);
  const declared = declaredHeaders(d);
  const parts: string[] = [
    '// Generated from the OpenAPI document (src/pages/content/openapi.json) by scripts/api-client.ts: do not edit.',
    '// `npm run api-docs` writes it again; clients/typescript/client.ts is the fetch wrapper over it.',
    '',
    `/** ${String(asObj(d.info).title)} ${String(asObj(d.info).version)}: the OpenAPI document's version this file was made from. */`,
    `export const API_VERSION = ${JSON.stringify(String(asObj(d.info).version))};`,
    '',
  ];
  for (const [name, schema] of Object.entries(asObj(asObj(d.components).schemas))) {
    parts.push(`${doc(asObj(schema).description, '')}export type ${name} = ${tsType(schema)};`, '');
  }
  for (const op of ops) {
    const P = pascal(op.id);
    parts.push(`${doc(`${op.method} ${op.path}: ${op.summary}`, '')}export type ${P}Fields = ${op.fields};`);
    parts.push(`export type ${P}Data = ${op.data};`);
    for (const [status, t] of Object.entries(op.accepted)) parts.push(`export type ${P}Data${status} = ${t};`);
    parts.push(`export type ${P}Headers = ${headersType(op.headers['200'] ?? {})};`);
    for (const status of Object.keys(op.accepted))
      parts.push(`export type ${P}Headers${status} = ${headersType(op.headers[status] ?? {})};`);
    parts.push('');
  }
  const answerOf = (op: Operation) => {
    const P = pascal(op.id);
    const main = op.answer === 'file' ? `FileAnswer<${P}Headers>` : `JsonAnswer<${P}Data, 200, ${P}Headers>`;
    return [main, ...Object.keys(op.accepted).map((s) => `JsonAnswer<${P}Data${s}, ${s}, ${P}Headers${s}>`)].join(
      ' | ',
    );
  };
  parts.push(
    "/** The headers a refusal may carry (any operation's non-2xx answers), as PixmillError.header reads them. */",
    `export type RefusalHeaders = ${headersType(declared.refusals)};`,
    '',
    '/** Every response header the document declares, by name: the type its value is read as. */',
    'export const RESPONSE_HEADERS = {',
    ...Object.entries(declared.types).map(([n, t]) => `  ${key(n)}: ${JSON.stringify(t)},`),
    '} as const;',
    '',
    '/** A declared header of an answer, read as its type: a number, a boolean or the text; undefined when the answer has none. */',
    'export type HeaderOf<H> = <N extends keyof H & string>(name: N) => H[N] | undefined;',
    '',
    '/** A call that answers a file: its bytes, type and name, the HTTP status and headers (H: those the document declares). */',
    'export interface FileAnswer<H = Record<never, never>> {',
    "  kind: 'file';",
    '  status: 200;',
    '  bytes: ArrayBuffer;',
    '  type: string;',
    '  /** from Content-Disposition, when the answer names one */',
    '  filename?: string;',
    '  headers: Headers;',
    "  /** a header the document declares for this answer, typed: `out.header('X-Credits-Left')` is a number */",
    '  header: HeaderOf<H>;',
    '}',
    "/** A JSON answer: the envelope's data (code 200), the HTTP status and headers (H: those the document declares). */",
    'export interface JsonAnswer<T, S extends number = 200, H = Record<never, never>> {',
    "  kind: 'json';",
    '  status: S;',
    '  data: T;',
    '  headers: Headers;',
    "  /** a header the document declares for this answer, typed: `out.header('X-RateLimit-Remaining')` is a number */",
    '  header: HeaderOf<H>;',
    '}',
    '',
    '/** Every operation by its operationId: method, path, where its fields go, what it answers, whether it takes the API key. */',
    'export const OPERATIONS = {',
    ...ops.map(
      (op) =>
        `  ${key(op.id)}: { method: ${JSON.stringify(op.method)}, path: ${JSON.stringify(op.path)}, body: ${JSON.stringify(op.body)}, json: ${op.json}, answer: ${JSON.stringify(op.answer)}, apiKey: ${op.apiKey} },`,
    ),
    '} as const;',
    'export type OperationId = keyof typeof OPERATIONS;',
    '',
    "/** Each operation's request fields and answer. */",
    'export interface Operations {',
    ...ops.map((op) => `  ${key(op.id)}: { fields: ${pascal(op.id)}Fields; answer: ${answerOf(op)} };`),
    '}',
    '',
  );
  return parts.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const text = renderClient(JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')));
  fs.mkdirSync(path.dirname(CLIENT_FILE), { recursive: true });
  fs.writeFileSync(CLIENT_FILE, text);
  console.log(`api-client: ${path.relative(root, CLIENT_FILE)}`);
}
