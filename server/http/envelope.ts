/** The success envelope {code, msg, data} of spec §7 (errors: server/errors.ts). */
import { CODE, type Envelope } from '../../src/shared/domain/codes.js';

export function ok<T>(data: T): Envelope<T> {
  return { code: CODE.OK, msg: 'ok', data };
}
