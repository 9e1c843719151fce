// Request fields against their schema: forms send text, so numbers are converted, strictly; a failure
// names the first failing field with what it must be; an upload refusal keeps its translated code.
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { compileCheck, convert, schemaRefusal } from './fieldCheck.js';

const S = Type.Object({
  uid: Type.String({ minLength: 1, maxLength: 64 }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  thumbsup: Type.Optional(Type.Enum([1, -1, 0])),
  ids: Type.Optional(Type.Union([Type.String(), Type.Array(Type.Integer({ minimum: 1 }))])),
  flag: Type.Optional(Type.Boolean()),
  blob_num: Type.Optional(Type.Integer({ minimum: 1, 'x-refusal': 'slicesNumbers' })),
});
const check = compileCheck(S);

describe('convert', () => {
  it('turns form text into numbers and booleans only where the schema wants them, and never guesses', () => {
    // a JSON number is not text: left for the check to refuse (uid: 123 was looked up as upload "123")
    expect(convert(S, { uid: 7, limit: '12', thumbsup: '-1', flag: 'true', other: '5' })).toEqual({
      uid: 7,
      limit: 12,
      thumbsup: -1,
      flag: true,
      other: '5',
    });
    expect(check({ uid: 7 })).toMatchObject({ error: { field: 'uid', reason: 'fieldInvalid' } });
    expect(convert(S, { uid: 'a', limit: '1.5' })).toEqual({ uid: 'a', limit: 1.5 });
    expect(convert(S, { uid: 'a', limit: '12abc', ids: ['3', '4'] })).toEqual({
      uid: 'a',
      limit: '12abc',
      ids: [3, 4],
    });
    expect(convert(S, { uid: 'a', limit: '' })).toEqual({ uid: 'a' });
    expect(convert(S, { uid: '', ids: '1,2' })).toEqual({ uid: '', ids: '1,2' });
  });
});

describe('compileCheck', () => {
  it('passes converted fields on', () => {
    expect(check({ uid: 'u1', limit: '3', extra: 'kept' })).toEqual({ value: { uid: 'u1', limit: 3, extra: 'kept' } });
  });

  it('names a missing or empty required field', () => {
    expect(check({})).toEqual({ error: { field: 'uid', message: 'uid is required', reason: 'fieldRequired' } });
    expect(check({ uid: '' })).toEqual({
      error: { field: 'uid', message: 'uid is required', reason: 'fieldRequired' },
    });
  });

  it('says what a field must be', () => {
    const limit = {
      field: 'limit',
      message: 'limit must be an integer from 1 to 100',
      reason: 'fieldInvalid',
      limits: { min: 1, max: 100 },
    };
    expect(check({ uid: 'u', limit: '1.5' })).toEqual({ error: limit });
    expect(check({ uid: 'u', limit: '0' })).toEqual({ error: limit });
    expect(check({ uid: 'u', thumbsup: '5' })).toEqual({
      error: {
        field: 'thumbsup',
        message: 'thumbsup must be one of 1, -1, 0',
        reason: 'fieldInvalid',
        limits: { allowed: [1, -1, 0] },
      },
    });
    expect(check({ uid: 'x'.repeat(65) })).toMatchObject({
      error: { field: 'uid', message: 'uid must be text of at most 64 characters', reason: 'fieldInvalid' },
    });
    expect(check({ uid: 'u', ids: ['1', 'x'] })).toMatchObject({ error: { field: expect.stringMatching(/^ids/) } });
  });

  it('keeps an upload refusal the client translates', () => {
    const r = check({ uid: 'u', blob_num: 'zero' });
    expect(r).toEqual({
      error: {
        field: 'blob_num',
        message: expect.stringContaining('blob_num and total_blob_num must be integers'),
        reason: 'slicesNumbers',
        refusal: 'slicesNumbers',
      },
    });
    if ('error' in r)
      expect(schemaRefusal(r.error)).toMatchObject({
        code: 10001,
        httpStatus: 200,
        data: { field: 'blob_num', refusal: 'slicesNumbers' },
      });
  });

  it('refuses a field a strict schema does not take, and still takes the token fields beside it', () => {
    const strict = compileCheck(Type.Object({ uid: Type.String() }, { additionalProperties: false }));
    expect(strict({ uid: 'u', user_token: 't', api_token: 'k' })).toEqual({
      value: { uid: 'u', user_token: 't', api_token: 'k' },
    });
    expect(strict({ uid: 'u', colour: 'red' })).toEqual({
      error: { field: 'colour', message: 'colour is not a field of this call', reason: 'fieldUnknown' },
    });
  });
});
