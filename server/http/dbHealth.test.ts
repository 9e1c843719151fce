import { describe, expect, it } from 'vitest';
import { isServiceUnavailable } from './dbHealth.js';

const err = (message: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), extra);

describe('isServiceUnavailable', () => {
  it.each([
    ['pg: connection refused', err('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' })],
    ['pg: connection lost mid-query', err('Connection terminated unexpectedly')],
    ['pg: pool connect timeout', err('timeout exceeded when trying to connect')],
    ['pg: admin shutdown', err('terminating connection due to administrator command', { code: '57P01' })],
    ['pg: starting up', err('the database system is starting up', { code: '57P03' })],
    ['pg: too many connections', err('sorry, too many clients already', { code: '53300' })],
    ['ioredis: offline', err("Stream isn't writeable and enableOfflineQueue options is false")],
    [
      'ioredis: retries exhausted',
      err(
        'Reached the max retries per request limit (which is 1). Refer to "maxRetriesPerRequest" option for details.',
      ),
    ],
    ['wrapped cause', err('query failed', { cause: err('x', { code: 'ECONNRESET' }) })],
    [
      'aggregate (happy eyeballs)',
      Object.assign(new AggregateError([err('a', { code: 'ECONNREFUSED' })], 'connect failed')),
    ],
  ])('%s → 503', (_name, e) => {
    expect(isServiceUnavailable(e)).toBe(true);
  });

  it.each([
    ['unique violation', err('duplicate key value violates unique constraint', { code: '23505' })],
    ['syntax error', err('syntax error at or near "x"', { code: '42601' })],
    ['sharp decode', err('VipsJpeg: premature end of JPEG image')],
    ['not an error', 'ECONNREFUSED'],
    ['null', null],
  ])('%s → not 503', (_name, e) => {
    expect(isServiceUnavailable(e)).toBe(false);
  });
});
