/** Uploads: whole files, 5 MB slices with resume, by URL; list, delete, source and thumbnail; retention and quota. */
import { Type, type Static } from 'typebox';
import { UPLOAD_LIST_LIMIT } from '../domain/constants.js';
import type { UploadHistoryEntry } from '../domain/work.js';
import { LEVELS } from '../domain/plans.js';
import { AUTH, Deleted, IdList, MAX_ID, Uid, routeGroup, type Same } from './common.js';

const UID = '3f2c9a4e-8d1b-4c7e-9f00-1a2b3c4d5e6f';
/** The feature the upload is for (its limits apply): enlarge, compress, …; empty for none. */
const Job = (description = 'the feature the image is for (its plan limits apply), e.g. enlarge, compress') =>
  Type.String({ pattern: '^[a-z0-9_-]{0,40}$', description, examples: ['enlarge'], 'x-refusal': 'badJob' });
/** Slice numbers: refused as the upload refusal the client translates. */
const SliceNumber = (description: string) =>
  Type.Integer({ minimum: 1, maximum: MAX_ID, description, 'x-refusal': 'slicesNumbers' });

export const UploadView = Type.Object({
  uid: Uid(),
  filename: Type.String(),
  filesize: Type.Integer({ description: 'bytes' }),
  w: Type.Integer(),
  h: Type.Integer(),
  format: Type.Enum(['jpeg', 'png'], { description: 'the working copy’s format' }),
  job: Type.String(),
  thumbnail: Type.String({ description: 'URL of the 80×80 thumbnail' }),
  sha256: Type.String(),
});

const upload = routeGroup('upload', AUTH.token);
/** An upload's answer: its view, under `data` as the spec's envelope has it. */
const Uploaded = Type.Object({ data: UploadView });

export const Upload = upload.post('/web_api/v1/upload', 'Uploads a whole image (multipart)', {
  description:
    'Send the token field first: the file is refused unread without a valid token. Files over 5 MB are better sent in slices (upload_slice). Idempotency-Key (header, up to 255 printable characters, optional): the same file sent again with the same key — a reloaded page resending it, or two racing — answers the first’s upload (same uid) and stores nothing twice; the key sent again with other bytes is refused (HTTP 422, reason idempotencyKeyReused).',
  auth: AUTH.tokenOrApi,
  from: 'multipart',
  fields: Type.Object({
    job: Type.Optional(Job()),
    name: Type.Optional(Type.String({ maxLength: 1000, description: 'the file name, when the file part has none' })),
  }),
  files: {
    file: { description: 'the image: JPG, JPEG or PNG (other formats are refused)', required: true },
    thumbnail: { description: 'an optional 80×80 preview made by the client' },
  },
  data: Uploaded,
  example: { job: 'enlarge' },
});

export const SliceView = Type.Object({
  ...Type.Partial(UploadView).properties,
  uid: Uid(),
  blob_num: Type.Integer(),
  total_blob_num: Type.Integer(),
  received: Type.Array(Type.Integer(), { description: 'slice numbers received so far' }),
  done: Type.Boolean({ description: 'the last slice arrived: the upload is assembled' }),
});

export const UploadSlice = upload.post(
  '/api/v2/upload_slice',
  'Uploads one slice (at most 5 MB) of a large image; the last one completes it',
  {
    description:
      'The first slice (blob_num 1) without uid starts the upload and answers its uid; later slices send that uid. Safe to repeat.',
    auth: AUTH.tokenOrApi,
    from: 'multipart',
    fields: Type.Object({
      uid: Type.Optional(Uid({ description: 'the upload’s id, from the first slice’s answer' })),
      blob_num: SliceNumber('this slice’s number, from 1'),
      total_blob_num: SliceNumber('how many slices the file has'),
      name: Type.Optional(Type.String({ maxLength: 1000, description: 'the file name (first slice)' })),
      job: Type.Optional(Job('the feature the image is for (first slice)')),
    }),
    files: {
      file: { description: 'the slice’s bytes', required: true },
      thumbnail: { description: 'an optional preview (first slice)' },
    },
    data: SliceView,
    example: { blob_num: 1, total_blob_num: 3, name: 'photo.jpg', job: 'enlarge' },
  },
);

export const SliceStatus = upload.post('/api/v2/upload_slice/status', 'Which slices of an upload arrived (to resume)', {
  auth: AUTH.tokenOrApi,
  fields: Type.Object({ uid: Uid() }),
  data: Type.Object({
    uid: Uid(),
    total_blob_num: Type.Integer(),
    received: Type.Array(Type.Integer()),
    done: Type.Boolean(),
    status: Type.String(),
  }),
  example: { uid: UID },
});

export const UploadUrl = upload.post('/api/job_utils/upload_url', 'Uploads an image the server fetches from a URL', {
  auth: AUTH.tokenOrApi,
  fields: Type.Object({
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'an http(s) URL of a public image' }),
    type: Type.Optional(Job('the feature the image is for (or `job`)')),
    job: Type.Optional(Job('the feature the image is for')),
  }),
  data: Uploaded,
  example: { url: 'https://example.com/photo.jpg', type: 'enlarge' },
});

export const UploadEntry = Type.Object({
  uid: Uid(),
  name: Type.String(),
  file_size: Type.Integer(),
  thumbnail: Type.String(),
  w: Type.Integer(),
  h: Type.Integer(),
  x: Type.Integer({ description: 'width of the working copy (after auto-orientation)' }),
  y: Type.Integer(),
});
export const uploadEntryIsTheDomainType: Same<Static<typeof UploadEntry>, UploadHistoryEntry> = true;

export const UploadList = upload.post('/web_api/v1/upload/list', 'The caller’s uploads still kept', {
  fields: Type.Object({
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: UPLOAD_LIST_LIMIT, default: UPLOAD_LIST_LIMIT })),
  }),
  data: Type.Object({
    datas: Type.Array(UploadEntry),
    retention_days: Type.Integer({ description: 'how long this caller’s uploads and results are kept' }),
  }),
  example: { limit: 100 },
});

export const Retention = routeGroup('account', AUTH.token).get(
  '/api/v2/retention',
  'How long the caller’s files are kept, and the upload quota',
  {
    data: Type.Object({
      level: Type.Enum(LEVELS),
      retention_days: Type.Integer(),
      unfinished_upload_hours: Type.Number(),
      uploads_per_minute: Type.Integer(),
      stored_bytes_limit: Type.Integer(),
      stored_bytes_used: Type.Integer(),
    }),
  },
);

export const UploadDelete = upload.post('/web_api/v1/upload/delete', 'Deletes uploads (and their works’ results)', {
  fields: Type.Object({
    uid: Type.Optional(Uid()),
    uids: Type.Optional(IdList(Uid(), 'uploads, as a comma-separated list or repeated uids[]')),
  }),
  data: Deleted,
  example: { uids: `${UID},5d1e9b27-0a4c-4e3f-8b6d-7c2a1f9e0d34` },
});

export const UploadSource = routeGroup('download', AUTH.tokenOrApi).get(
  '/web_api/v1/download/src',
  'An upload’s working copy',
  {
    fields: Type.Object({
      uid: Uid(),
      zoom_type: Type.Optional(
        Type.String({
          maxLength: 32,
          description: 'accepted for the client’s call shape; the source is always the working copy',
        }),
      ),
    }),
    file: { types: ['image/jpeg', 'image/png'], description: 'The uploaded image' },
    example: { uid: UID },
  },
);

export const Thumbnail = upload.get('/web_api/v1/thumbnail', 'An upload’s 80×80 thumbnail', {
  fields: Type.Object({ uid: Uid() }),
  file: { types: ['image/jpeg', 'image/png'], description: 'The thumbnail' },
  example: { uid: UID },
});
