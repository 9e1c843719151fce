/**
 * Fields checked against their schema (src/shared/schemas/), the rule of every route and of the services
 * that check decoded values (schemaCheck.ts): the TypeBox compiler checks,
 * after a conversion that forms need (every urlencoded or multipart value is text) and that never
 * guesses: "12" becomes 12 for an integer field, "1.5" stays text and fails. A failure becomes the
 * spec's parameter error 10001 naming the field, in `msg` (English) and in `data.field`, with its reason
 * (`fieldRequired`, `fieldInvalid` or the field's upload refusal) in `data.reason`.
 */
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { CODE } from '../../src/shared/domain/codes.js';
import { refusalData, type Reason } from '../../src/shared/domain/reasons.js';
import {
  UPLOAD_REFUSAL,
  UPLOAD_REFUSAL_REASON,
  isUploadRefusal,
  type UploadRefusal,
} from '../../src/shared/domain/uploadRefusals.js';
import { TOKEN_FIELDS } from '../../src/shared/schemas/common.js';
import { ApiError } from '../errors.js';

type Json = Record<string, unknown>;
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;

const typesOf = (s: Json): string[] =>
  Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
const members = (s: Json): Json[] => [...((s.anyOf as Json[]) ?? []), ...((s.oneOf as Json[]) ?? [])];
const enumHas = (s: Json, type: string) => Array.isArray(s.enum) && s.enum.some((v) => typeof v === type);
const numeric = (s: Json): boolean =>
  typesOf(s).some((t) => t === 'integer' || t === 'number') ||
  typeof s.const === 'number' ||
  enumHas(s, 'number') ||
  members(s).some(numeric);
const textual = (s: Json): boolean =>
  typesOf(s).includes('string') || typeof s.const === 'string' || enumHas(s, 'string') || members(s).some(textual);

/**
 * A value as its schema wants it, where a form could only send text: numeric text → number,
 * "true"/"false" → boolean; an empty text for a field that is not text → absent. Objects and arrays are
 * converted member by member. Anything else is left for the check to refuse: a JSON number where text
 * is wanted too (`"uid": 123` is a refused field, not a lookup of upload "123" answering 404).
 */
export function convert(schema: unknown, value: unknown): unknown {
  const s = (schema ?? {}) as Json;
  if (typeof value === 'string') {
    if (textual(s)) return value;
    if (value === '') return undefined;
    if (numeric(s) && NUMBER.test(value)) return Number(value);
    if (typesOf(s).includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
    return value;
  }
  if (Array.isArray(value)) {
    const item = (s.items as Json | undefined) ?? members(s).find((m) => typesOf(m).includes('array'))?.items;
    return item ? value.map((v) => convert(item, v)) : value;
  }
  if (value && typeof value === 'object' && !Buffer.isBuffer(value) && s.properties) {
    const props = s.properties as Record<string, unknown>;
    const out: Json = {};
    for (const [k, v] of Object.entries(value as Json)) {
      const c = Object.hasOwn(props, k) ? convert(props[k], v) : v;
      if (c !== undefined) out[k] = c;
    }
    return out;
  }
  return value;
}

/** The schema of the value at a JSON pointer inside `schema` (properties and items only). */
function schemaAt(schema: Json, pointer: string[]): Json | undefined {
  let s: Json | undefined = schema;
  for (const key of pointer) {
    if (!s) return undefined;
    if (s.properties && Object.hasOwn(s.properties as Json, key)) s = (s.properties as Record<string, Json>)[key];
    else if (s.items) s = s.items as Json;
    else
      s = members(s)
        .map((m) => schemaAt(m, [key]))
        .find(Boolean);
  }
  return s;
}

const list = (xs: unknown[]) => xs.map((x) => String(x)).join(', ');

/** What a field must be, in words, from its schema ("an integer from 1 to 100", "one of 1, -1, 0"). */
export function expectation(s: Json): string | undefined {
  if (Array.isArray(s.enum)) return `one of ${list(s.enum)}`;
  if (s.const !== undefined) return String(s.const);
  const alts = members(s);
  if (alts.length && alts.every((m) => m.const !== undefined)) return `one of ${list(alts.map((m) => m.const))}`;
  const t = typesOf(s);
  if (t.includes('integer') || t.includes('number')) {
    const what = t.includes('integer') ? 'an integer' : 'a number';
    const [min, max] = [s.minimum, s.maximum] as [number | undefined, number | undefined];
    return min !== undefined && max !== undefined
      ? `${what} from ${min} to ${max}`
      : min !== undefined
        ? `${what} ≥ ${min}`
        : max !== undefined
          ? `${what} ≤ ${max}`
          : what;
  }
  if (t.includes('string')) {
    if (s.format === 'email') return 'an email address';
    if (s.format === 'uri') return 'a URL';
    if (s.maxLength !== undefined) return `text of at most ${String(s.maxLength)} characters`;
    return 'text';
  }
  if (t.includes('boolean')) return 'true or false';
  if (t.includes('array')) return 'a list';
  if (t.includes('object')) return 'an object';
  return typeof s.description === 'string' && s.description ? s.description : undefined;
}

export interface FieldError {
  field: string;
  message: string;
  /** why: `fieldRequired`, `fieldInvalid`, or the reason of the field's upload refusal */
  reason: Reason;
  /** what the schema allows, where it says: min and max, or the choices */
  limits?: { min?: number; max?: number; allowed?: unknown[] };
  /** an upload refusal the client translates (the field's `x-refusal` in its schema) */
  refusal?: UploadRefusal;
}

/** The upload refusal a field's schema names for its failures, if any. */
export function refusalOf(s: Json | undefined): UploadRefusal | undefined {
  const r = s?.['x-refusal'];
  return isUploadRefusal(r) ? r : undefined;
}
const refused = (field: string, refusal: UploadRefusal): FieldError => ({
  field,
  message: UPLOAD_REFUSAL[refusal],
  reason: UPLOAD_REFUSAL_REASON[refusal],
  refusal,
});

/** The limits a field's schema states (range or choices), for `data`: the client can name them in its own words. */
function limitsOf(s: Json): FieldError['limits'] {
  const choices = Array.isArray(s.enum)
    ? s.enum
    : members(s).length && members(s).every((m) => m.const !== undefined)
      ? members(s).map((m) => m.const)
      : undefined;
  if (choices) return { allowed: choices };
  const [min, max] = [s.minimum ?? s.minLength, s.maximum ?? s.maxLength] as [number | undefined, number | undefined];
  return min === undefined && max === undefined
    ? undefined
    : { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

interface CheckError {
  keyword: string;
  instancePath: string;
  params: { requiredProperties?: string[] } & Json;
}

/** The refusal text for the first failing field: "uid is required", "limit must be an integer ≥ 1". */
function fieldError(schema: unknown, value: unknown, errors: readonly CheckError[]): FieldError {
  const required = errors.find((e) => e.keyword === 'required');
  const first = [...errors].sort((a, b) => a.instancePath.split('/').length - b.instancePath.split('/').length)[0];
  const chosen =
    required && (!first || required.instancePath.split('/').length <= first.instancePath.split('/').length)
      ? required
      : first;
  const pointer = (chosen?.instancePath ?? '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (chosen?.keyword === 'additionalProperties') {
    const extra = (chosen.params.additionalProperties as string[] | undefined)?.[0] ?? '';
    const field = [...pointer, extra].filter(Boolean).join('.');
    return { field, message: `${field} is not a field of this call`, reason: 'fieldUnknown' };
  }
  if (chosen?.keyword === 'required') {
    const name = chosen.params.requiredProperties?.[0] ?? '';
    const field = [...pointer, name].filter(Boolean).join('.');
    const refusal = refusalOf(schemaAt(schema as Json, [...pointer, name]));
    return refusal ? refused(field, refusal) : { field, message: `${field} is required`, reason: 'fieldRequired' };
  }
  const field = pointer.join('.') || 'body';
  const s = schemaAt(schema as Json, pointer) ?? {};
  const refusal = refusalOf(s);
  if (refusal) return refused(field, refusal);
  let v: unknown = value;
  for (const k of pointer) v = v && typeof v === 'object' ? (v as Json)[k] : undefined;
  if (v === '' && typeof s.minLength === 'number' && s.minLength > 0)
    return { field, message: `${field} is required`, reason: 'fieldRequired' };
  const want = expectation(s);
  const limits = limitsOf(s);
  return {
    field,
    message: want ? `${field} must be ${want}` : `${field} is invalid`,
    reason: 'fieldInvalid',
    ...(limits ? { limits } : {}),
  };
}

/** The refusal of a field that fails its schema: 10001 (HTTP 200), the text naming the field, data.reason and data.field (and what the field allows). */
export const schemaRefusal = (e: FieldError) =>
  new ApiError(CODE.PARAM_ERROR, e.message, 200, {
    ...refusalData(e.reason, { field: e.field, ...e.limits }),
    ...(e.refusal ? { refusal: e.refusal } : {}),
  });

export type Checker = (value: unknown) => { value: unknown } | { error: FieldError };

/**
 * A schema that refuses fields it does not take (`additionalProperties: false`, the calls that spend
 * credits) still takes the token fields: they are the call's auth, not its fields (TOKEN_FIELDS).
 */
function withTokenFields(schema: TSchema): TSchema {
  const s = schema as unknown as Json;
  if (s.additionalProperties !== false || !s.properties) return schema;
  const tokens = Object.fromEntries(TOKEN_FIELDS.map((n) => [n, { type: 'string' }]));
  return { ...s, properties: { ...tokens, ...(s.properties as Json) } } as unknown as TSchema;
}

/** A compiled check of one schema: converts, checks, and names the first failing field. */
export function compileCheck(schema: TSchema): Checker {
  const check = Compile(withTokenFields(schema));
  return (raw) => {
    const value = convert(schema, raw ?? {});
    if (check.Check(value)) return { value };
    return { error: fieldError(schema, value, check.Errors(value) as CheckError[]) };
  };
}
