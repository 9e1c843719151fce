/**
 * The OpenAPI document (written by npm run api-docs from the route schemas, the one the server serves at
 * /api-docs/openapi.json) read into what the docs page shows: groups in the document's tag order, and per
 * call its method, path, auth, fields (name, type, required, description), example and answer.
 */

type Json = Record<string, unknown>;

interface ApiField {
  name: string;
  /** "string", "integer 1–100", "enlarge | compress", "file", … */
  type: string;
  required: boolean;
  description: string;
  /** query, path or body */
  in: string;
}

export interface ApiCall {
  method: string;
  path: string;
  summary: string;
  description: string;
  /** security scheme names; empty: no token needed; `optional`: a token is used when sent */
  auth: string[];
  authOptional: boolean;
  /** body content types (POST) */
  bodyTypes: string[];
  fields: ApiField[];
  /** the request example: a query string (GET) or a JSON body (POST), '' when the call takes no fields */
  example: string;
  /** the answer: the envelope's data fields, or the file types */
  answer: { kind: 'json'; fields: string[] } | { kind: 'file'; types: string[] };
}

interface ApiGroup {
  name: string;
  description: string;
  calls: ApiCall[];
}

interface ApiScheme {
  name: string;
  /** "query user_token", "cookie pixmill_session", "header Authorization: Bearer" */
  where: string;
  description: string;
}

/** One param of a feature (the document's JobConfig): its type, its default and what it does. */
interface ApiFeatureParam {
  name: string;
  type: string;
  /** the default as JSON, '' for a fixed value (a model name) */
  default: string;
  description: string;
}

/** One job a jconfig may name (a feature, a preset or a workflow), with its params and an example. */
export interface ApiFeature {
  job: string;
  description: string;
  params: ApiFeatureParam[];
  /** the example jconfig, as JSON */
  example: string;
}

export interface ApiView {
  title: string;
  description: string;
  groups: ApiGroup[];
  schemes: ApiScheme[];
  /** the feature catalogue: the variants of components.schemas.JobConfig */
  features: ApiFeature[];
  count: number;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const asObj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const asArr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A schema in a few words: its type with its bounds, its choices, or its alternatives. */
export function typeText(schemaIn: unknown): string {
  const s = asObj(schemaIn);
  if (typeof s.$ref === 'string') return s.$ref.split('/').pop() ?? 'any';
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  const alts = asArr(s.anyOf).length ? asArr(s.anyOf) : asArr(s.oneOf);
  if (alts.length) return [...new Set(alts.map(typeText))].join(' | ');
  const type = Array.isArray(s.type) ? s.type.join(' | ') : text(s.type);
  if (type === 'string' && s.format === 'binary') return 'file';
  if (type === 'array') return `${typeText(s.items)}[]`;
  if (type === 'integer' || type === 'number') {
    const [min, max] = [s.minimum, s.maximum];
    if (typeof min === 'number' && typeof max === 'number') return `${type} ${min}–${max}`;
    if (typeof min === 'number') return `${type} ≥ ${min}`;
    if (typeof max === 'number') return `${type} ≤ ${max}`;
    return type;
  }
  // A pattern stays in the document; the field's description says it in words.
  if (type === 'string') return typeof s.maxLength === 'number' ? `string ≤ ${s.maxLength}` : 'string';
  return type || 'any';
}

function fieldsOf(op: Json): { fields: ApiField[]; bodyTypes: string[]; example: string } {
  const fields: ApiField[] = [];
  const query: string[] = [];
  for (const p of asArr(op.parameters).map(asObj)) {
    const name = text(p.name);
    fields.push({
      name,
      type: typeText(p.schema),
      required: p.required === true,
      description: text(p.description) || text(asObj(p.schema).description),
      in: text(p.in),
    });
    if (p.example !== undefined && p.in === 'query')
      query.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(p.example))}`);
  }
  const content = asObj(asObj(op.requestBody).content);
  const bodyTypes = Object.keys(content);
  const media = asObj(content[bodyTypes[0] ?? '']);
  const body = asObj(media.schema);
  const required = new Set(asArr(body.required).map(text));
  for (const [name, ps] of Object.entries(asObj(body.properties))) {
    fields.push({
      name,
      type: typeText(ps),
      required: required.has(name),
      description: text(asObj(ps).description),
      in: 'body',
    });
  }
  const example =
    media.example !== undefined ? JSON.stringify(media.example, null, 2) : query.length ? `?${query.join('&')}` : '';
  return { fields, bodyTypes, example };
}

/** The success envelope among a 200's schemas (the spec answers refusals with HTTP 200 too, as their own envelope). */
function successOf(schema: Json): Json | undefined {
  const code = (s: Json) => asObj(asObj(s.properties).code);
  return [schema, ...asArr(schema.anyOf).map(asObj)].find(
    (s) => code(s).const === 200 || asArr(code(s).enum).includes(200),
  );
}

function answerOf(op: Json): ApiCall['answer'] {
  const ok = asObj(asObj(op.responses)['200']);
  const content = asObj(ok.content);
  const files = Object.keys(content).filter((t) => t !== 'application/json');
  if (files.length) return { kind: 'file', types: files };
  const success = successOf(asObj(asObj(content['application/json']).schema));
  return { kind: 'json', fields: Object.keys(asObj(asObj(asObj(success?.properties).data).properties)) };
}

/** A param's type as the catalogue shows it: its first form (the others, texts for forms, are in its description). */
const paramType = (schema: Json) => typeText(asArr(schema.anyOf)[0] ?? schema);

/** The feature catalogue: every variant of JobConfig, its job, params and example. */
function featuresOf(docIn: unknown): ApiFeature[] {
  const jobConfig = asObj(asObj(asObj(asObj(docIn).components).schemas).JobConfig);
  return asArr(jobConfig.anyOf).map((v) => {
    const variant = asObj(v);
    const props = asObj(variant.properties);
    const job = asObj(props.job);
    const params = asObj(asObj(asObj(asObj(props.config).properties).module_params).properties);
    return {
      job: text(asArr(job.enum)[0] ?? job.const ?? variant.title),
      description: text(variant.description),
      params: Object.entries(params).map(([name, raw]) => {
        const p = asObj(raw);
        return {
          name,
          type: paramType(p),
          default: p.default === undefined ? '' : JSON.stringify(p.default),
          description: text(p.description),
        };
      }),
      example: asArr(variant.examples).length ? JSON.stringify(asArr(variant.examples)[0], null, 2) : '',
    };
  });
}

/** The page's view of an OpenAPI 3 document. */
export function apiView(docIn: unknown): ApiView {
  const doc = asObj(docIn);
  const info = asObj(doc.info);
  const tags = asArr(doc.tags).map(asObj);
  const groups: ApiGroup[] = tags.map((t) => ({ name: text(t.name), description: text(t.description), calls: [] }));
  const byName = new Map(groups.map((g) => [g.name, g]));
  let count = 0;
  for (const [path, item] of Object.entries(asObj(doc.paths))) {
    for (const method of METHODS) {
      const op = asObj(asObj(item)[method]);
      if (!Object.keys(op).length) continue;
      const tag = text(asArr(op.tags)[0]) || 'misc';
      let group = byName.get(tag);
      if (!group) {
        group = { name: tag, description: '', calls: [] };
        byName.set(tag, group);
        groups.push(group);
      }
      const security = asArr(op.security).map(asObj);
      const { fields, bodyTypes, example } = fieldsOf(op);
      group.calls.push({
        method: method.toUpperCase(),
        path,
        summary: text(op.summary),
        description: text(op.description),
        auth: security.flatMap((r) => Object.keys(r)),
        authOptional: security.some((r) => Object.keys(r).length === 0),
        bodyTypes,
        fields,
        example,
        answer: answerOf(op),
      });
      count++;
    }
  }
  const schemes = Object.entries(asObj(asObj(doc.components).securitySchemes)).map(([name, raw]) => {
    const s = asObj(raw);
    const where =
      s.type === 'http'
        ? `header Authorization: ${text(s.scheme) === 'bearer' ? 'Bearer …' : text(s.scheme)}`
        : `${text(s.in)} ${text(s.name)}`;
    return { name, where, description: text(s.description) };
  });
  return {
    title: text(info.title),
    description: text(info.description),
    groups: groups.filter((g) => g.calls.length),
    schemes,
    features: featuresOf(doc),
    count,
  };
}
