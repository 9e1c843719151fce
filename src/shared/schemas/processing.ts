/** Processing: start a work (a feature or a workflow on an upload) and poll its progress. */
import { Type } from 'typebox';
import { WORK_FAILURES } from '../domain/work.js';
import { AUTH, TransId, Uid, routeGroup } from './common.js';

export const Transform = routeGroup('process', AUTH.tokenOrApi).post('/web_api/v1/transform', 'Starts a work on an upload (one credit)', {
  description:
    'jconfig names the feature and its parameters, `{"job": "enlarge", "config": {"module": "enlarge", "module_params": {"scale": 2}}}`, or a workflow of steps. The answer’s trans_id is polled with progress.',
  fields: Type.Object({
    uid: Uid(),
    jconfig: Type.Union([Type.String({ description: 'the job as JSON text (at most 16 KB, nested at most 8 deep)' }), Type.Object({}, { description: 'the job as an object (JSON bodies)' })], {
      description: 'the job: feature, module and module_params (JSON text in forms)',
    }),
    zoom_type: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{0,32}$', description: 'a label the client keeps with the work' })),
  }),
  data: Type.Object({ trans_id: TransId() }),
  example: { uid: '3f2c9a4e-8d1b-4c7e-9f00-1a2b3c4d5e6f', jconfig: '{"job":"enlarge","config":{"module":"enlarge","module_params":{"scale":2}}}' },
});

/** Why a work failed, as a reason code (src/shared/domain/reasons.ts); the client translates it. */
export const FailureReason = Type.Enum([...WORK_FAILURES], {
  description: 'why it failed, when fatal: outputTooLarge (the result would pass the largest side; the upload’s size times the scale), processTimeout, processFailed',
});

export const ProgressData = Type.Object({
  trans_id: TransId(),
  status: Type.Enum(['finish', 'fatal', 'progress'], { description: 'finish: done; fatal: failed; progress: queued or running' }),
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  step: Type.Integer({ description: '1-based step being run (workflows)' }),
  steps: Type.Integer(),
  queue_position: Type.Optional(Type.Integer({ description: '1-based place among queued works, while waiting' })),
  error: Type.Optional(Type.String({ description: '"timeout" or "Process failed", when fatal' })),
  reason: Type.Optional(FailureReason),
  result_w: Type.Optional(Type.Integer({ description: 'the result’s width, once finished' })),
  result_h: Type.Optional(Type.Integer()),
});

export const Progress = routeGroup('poll', AUTH.tokenOrApi).get('/web_api/v1/progress', 'A work’s progress (poll every few seconds until finish or fatal)', {
  fields: Type.Object({ trans_id: TransId() }),
  data: ProgressData,
  example: { trans_id: '7b1e0c52-93aa-4f6e-b0d2-5c4e8f9a1d30' },
});
