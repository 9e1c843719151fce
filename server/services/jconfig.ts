/**
 * Bounds on a job configuration (`jconfig`) before anything walks it recursively: a text over
 * JCONFIG_MAX_BYTES or a structure deeper than JCONFIG_MAX_DEPTH is refused with 10001, so a hostile
 * body (100,000 nested arrays) cannot overflow JSON.stringify/parse's stack and answer 500.
 */
import { paramError } from '../errors.js';
import { fieldRefusal } from './schemaCheck.js';

const JCONFIG_MAX_BYTES = 16 * 1024;
/** A workflow is root → flows → step → config → module_params → value: 5 levels; 8 leaves room. */
const JCONFIG_MAX_DEPTH = 8;

const tooLarge = () => paramError('jconfigTooLarge', { max: JCONFIG_MAX_BYTES / 1024 });

/**
 * Walks a JSON-like value without recursion: 'deep' past `maxDepth` levels, 'large' past `maxNodes`
 * values (each costs at least a byte of JSON text), else null.
 */
export function shapeError(value: unknown, maxDepth: number, maxNodes: number): 'deep' | 'large' | null {
  const stack: Array<[unknown, number]> = [[value, 1]];
  let nodes = 0;
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (++nodes > maxNodes) return 'large';
    if (v === null || typeof v !== 'object') continue;
    if (d > maxDepth) return 'deep';
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return null;
}

/** The decoded jconfig from a form field (JSON text) or a JSON body (already an object), within the bounds. */
export function decodeJconfig(raw: unknown): unknown {
  if (raw === undefined || raw === null || raw === '') throw paramError('fieldRequired', { field: 'jconfig' });
  let value: unknown = raw;
  if (typeof raw === 'string') {
    if (Buffer.byteLength(raw) > JCONFIG_MAX_BYTES) throw tooLarge();
    try {
      value = JSON.parse(raw);
    } catch {
      throw paramError('jconfigNotJson');
    }
  }
  const shape = shapeError(value, JCONFIG_MAX_DEPTH, JCONFIG_MAX_BYTES);
  if (shape) throw shape === 'deep' ? paramError('jconfigTooDeep', { max: JCONFIG_MAX_DEPTH }) : tooLarge();
  if (typeof raw !== 'string' && Buffer.byteLength(JSON.stringify(value)) > JCONFIG_MAX_BYTES) throw tooLarge();
  return withCompressShorthand(value);
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The spec's compress job (§3, "compress job: quality 50"; its client sends `{"job":"compress","quality":50}`):
 * `quality` beside `job` is compress's `config.module_params.quality`. The longer form is what the rules
 * read, so the shorthand is put there; naming two different qualities is refused.
 */
function withCompressShorthand(value: unknown): unknown {
  if (!isObject(value) || value.job !== 'compress' || !('quality' in value)) return value;
  const { quality, ...rest } = value;
  const config = isObject(rest.config) ? rest.config : {};
  const params = isObject(config.module_params) ? config.module_params : {};
  if ('quality' in params && params.quality !== quality)
    throw fieldRefusal('fieldInvalid', 'jconfig.quality', 'left out when config.module_params.quality is sent');
  if (rest.config !== undefined && !isObject(rest.config)) return value;
  return { ...rest, config: { ...config, module_params: { ...params, quality } } };
}
