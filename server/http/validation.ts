/**
 * Fastify's side of the field checks (services/fieldCheck.ts, where schema failures become refusals): the
 * validator compiler every route schema part goes through, and the field error its failures carry.
 */
import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { isReason } from '../../src/shared/domain/reasons.js';
import { UPLOAD_REFUSAL_REASON } from '../../src/shared/domain/uploadRefusals.js';
import { compileCheck, refusalOf, type FieldError } from '../services/fieldCheck.js';

/**
 * Fastify's validator compiler for every route schema part (querystring, body, params): failures reach
 * the error handler as Fastify validation errors whose `validation[0]` carries the field and the text.
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema }) => {
  const check = compileCheck(schema);
  return (raw) => {
    const r = check(raw);
    if ('value' in r) return { value: r.value };
    return {
      error: [
        {
          keyword: 'schema',
          instancePath: `/${r.error.field}`,
          schemaPath: '#',
          params: { field: r.error.field, reason: r.error.reason, limits: r.error.limits, refusal: r.error.refusal },
          message: r.error.message,
        },
      ],
    };
  };
};

/** The field error a Fastify validation error carries (from validatorCompiler), if any. */
export function validationFieldError(err: { validation?: unknown }): FieldError | null {
  const first = Array.isArray(err.validation)
    ? (err.validation[0] as
        | {
            params?: Partial<Pick<FieldError, 'limits'>> & { field?: unknown; reason?: unknown; refusal?: unknown };
            message?: unknown;
          }
        | undefined)
    : undefined;
  if (!first || typeof first.message !== 'string') return null;
  const refusal = refusalOf({ 'x-refusal': first.params?.refusal });
  const reason = refusal
    ? UPLOAD_REFUSAL_REASON[refusal]
    : isReason(first.params?.reason)
      ? first.params.reason
      : 'fieldInvalid';
  const limits = first.params?.limits;
  return {
    field: typeof first.params?.field === 'string' ? first.params.field : '',
    message: first.message,
    reason,
    ...(limits ? { limits } : {}),
    ...(refusal ? { refusal } : {}),
  };
}
