/** History and feedback: the account's works, newest first, and thumbs up/down on a result. */
import { Type } from 'typebox';
import { AUTH, MAX_ID, Nullable, Page, Paged, TransId, routeGroup } from './common.js';
import { EnlargePathField, FailureReason } from './processing.js';

/** Works a history page holds unless `limit` asks otherwise, and the most it answers. */
export const HISTORY_DEFAULT_LIMIT = 10;
export const HISTORY_MAX_LIMIT = 100;

export const WorkStatus = Type.Enum(['queued', 'running', 'finished', 'failed']);

export const HistoryRecord = Type.Object({
  trans_id: TransId(),
  uid: Type.String({ description: 'the upload it was made from' }),
  job: Type.String({ description: 'the feature (or "workflow")', examples: ['enlarge'] }),
  status: WorkStatus,
  filename: Nullable(Type.String()),
  w: Nullable(Type.Integer({ description: 'source width in px' })),
  h: Nullable(Type.Integer({ description: 'source height in px' })),
  result_w: Nullable(Type.Integer()),
  result_h: Nullable(Type.Integer()),
  created_at: Type.Integer({ description: 'ms since 1970' }),
  finished_at: Nullable(Type.Integer()),
  thumbsup: Nullable(Type.Integer({ description: '1 like, -1 dislike, 0 or null no opinion' })),
  expired: Type.Boolean({ description: 'the result is no longer kept' }),
  scale: Type.Integer({
    description: 'how many times larger than the source the result is (enlarge steps; 1 for the rest)',
  }),
  reason: Type.Optional(FailureReason),
  enlarge_path: Type.Optional(EnlargePathField),
});

const poll = routeGroup('poll', AUTH.token);

export const JobRecord = poll.get('/api/job/record', 'The caller’s works, newest first', {
  fields: Type.Object({
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_ID,
        default: HISTORY_DEFAULT_LIMIT,
        description: `works per page (at most ${HISTORY_MAX_LIMIT} are answered)`,
      }),
    ),
    page: Type.Optional(Page),
  }),
  data: Paged(HistoryRecord),
  example: { limit: 10, page: 1 },
});

export const Thumbsup = poll.post('/api/v2/thumbsup', 'Rates a result', {
  fields: Type.Object({
    trans_id: TransId(),
    thumbsup: Type.Enum([1, -1, 0], { description: '1 like, -1 dislike, 0 no opinion' }),
  }),
  data: Type.Object({ trans_id: TransId(), thumbsup: Type.Integer() }),
  example: { trans_id: '7b1e0c52-93aa-4f6e-b0d2-5c4e8f9a1d30', thumbsup: 1 },
});
