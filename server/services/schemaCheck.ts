/**
 * Values checked against a schema beyond a route's own fields, with refusals that name the field the
 * way the route schemas do ("jconfig.config.extra is not a field of this call"). Used for the
 * decoded jconfig and the synchronous process call's fields that depend on each other.
 *
 * A decoded jconfig is checked against the document's JobConfig schema (src/shared/schemas/jobConfig.ts,
 * generated from the feature catalogue): what the developer reads in /api-docs/ is what the server
 * takes. parseJobConfig runs first and refuses with the rule's own reason (an unknown param, a value
 * out of range, a plan entitlement); this check then refuses what only the schema says, such as a
 * field no job takes (`{"job": "enlarge", "extra": 1}`), naming it as `jconfig.<path>`.
 */
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Reason } from '../../src/shared/domain/reasons.js';
import { JobConfigSchema } from '../../src/shared/schemas/jobConfig.js';
import { expectation, schemaRefusal, type FieldError } from './fieldCheck.js';

type Json = Record<string, unknown>;

export interface SchemaFailure {
  /** where, from the value's root */
  path: string[];
  reason: Extract<Reason, 'fieldRequired' | 'fieldInvalid' | 'fieldUnknown'>;
  /** the schema the value at `path` fails (for its expectation in words) */
  schema: Json;
}

const compiled = new WeakMap<object, ReturnType<typeof Compile>>();
function passes(schema: Json, value: unknown): boolean {
  let c = compiled.get(schema);
  if (!c) compiled.set(schema, (c = Compile(schema as TSchema)));
  return c.Check(value);
}

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** The property whose constant tells a union's object members apart (`job`, `module`), if there is one. */
function tagOf(members: Json[]): string | undefined {
  const objects = members.filter((m) => m.type === 'object');
  if (objects.length < 2) return undefined;
  const first = (objects[0]!.properties ?? {}) as Record<string, Json>;
  return Object.keys(first).find((k) =>
    objects.every((m) => ((m.properties ?? {}) as Record<string, Json>)[k]?.const !== undefined),
  );
}

/**
 * The first place `value` fails `schema`, walking objects, arrays and the unions a constant property
 * tells apart (so a wrong `scale` is named inside its own feature's params, not as "matches no variant").
 */
export function firstFailure(schema: Json, value: unknown, path: string[] = []): SchemaFailure | null {
  if (passes(schema, value)) return null;
  const members = (schema.anyOf as Json[] | undefined) ?? [];
  if (members.length) {
    const tag = tagOf(members);
    if (tag && isObject(value)) {
      const member = members.find((m) => ((m.properties ?? {}) as Record<string, Json>)[tag]?.const === value[tag]);
      if (member) return firstFailure(member, value, path);
      const choices = members
        .map((m) => ((m.properties ?? {}) as Record<string, Json>)[tag]?.const)
        .filter((c) => c !== undefined);
      return {
        path: [...path, tag],
        reason: tag in value ? 'fieldInvalid' : 'fieldRequired',
        schema: { enum: choices },
      };
    }
    return { path, reason: 'fieldInvalid', schema };
  }
  if (schema.type === 'object' && isObject(value)) {
    const props = (schema.properties ?? {}) as Record<string, Json>;
    for (const name of (schema.required as string[] | undefined) ?? [])
      if (!(name in value)) return { path: [...path, name], reason: 'fieldRequired', schema: props[name] ?? {} };
    if (schema.additionalProperties === false) {
      const extra = Object.keys(value).find((k) => !Object.hasOwn(props, k));
      if (extra !== undefined) return { path: [...path, extra], reason: 'fieldUnknown', schema: {} };
    }
    for (const [name, s] of Object.entries(props)) {
      if (value[name] === undefined) continue;
      const inner = firstFailure(s, value[name], [...path, name]);
      if (inner) return inner;
    }
  }
  if (schema.type === 'array' && Array.isArray(value) && isObject(schema.items)) {
    for (let i = 0; i < value.length; i++) {
      const inner = firstFailure(schema.items, value[i], [...path, String(i)]);
      if (inner) return inner;
    }
  }
  return { path, reason: 'fieldInvalid', schema };
}

/** A refused field: 10001 (HTTP 200) with the text naming it, data.reason and data.field, as a route schema's refusal reads. */
export function fieldRefusal(
  reason: SchemaFailure['reason'],
  field: string,
  want?: string,
  limits?: FieldError['limits'],
) {
  const message =
    reason === 'fieldRequired'
      ? `${field} is required`
      : reason === 'fieldUnknown'
        ? `${field} is not a field of this call`
        : want
          ? `${field} must be ${want}`
          : `${field} is invalid`;
  return schemaRefusal({ field, message, reason, ...(limits ? { limits } : {}) });
}

/** The refusal of a value that fails a schema, its field named from `root` (`jconfig.config.extra`). */
function schemaFailureRefusal(f: SchemaFailure, root: string) {
  const want = f.reason === 'fieldInvalid' ? expectation(f.schema) : undefined;
  return fieldRefusal(
    f.reason,
    [root, ...f.path].join('.'),
    want,
    Array.isArray(f.schema.enum) ? { allowed: f.schema.enum } : undefined,
  );
}

/** Throws the refusal when a decoded jconfig fails the JobConfig schema. */
export function checkJobConfig(value: unknown): void {
  const f = firstFailure(JobConfigSchema as unknown as Json, value);
  if (f) throw schemaFailureRefusal(f, 'jconfig');
}
