/** Results: single download, preview, compress conversion, bulk zip and the point check before it. */
import { Type } from 'typebox';
import { AUTH, IdList, TransId, routeGroup } from './common.js';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
const WORK = '7b1e0c52-93aa-4f6e-b0d2-5c4e8f9a1d30';
const TWO_WORKS = `${WORK},0c9d2e71-5b3a-4c8f-a1e6-2f7d9b0c4e58`;

/** One work or many: `trans_id`, `trans_ids` (a comma list) or `trans_ids[]`. */
const BulkIds = {
  trans_id: Type.Optional(TransId({ description: 'one work' })),
  trans_ids: Type.Optional(IdList(TransId(), 'works, as a comma-separated list or repeated trans_ids[] (at most 100)')),
};

const download = routeGroup('download', AUTH.token);
const resultImage = (description: string) => ({ types: IMAGE_TYPES, description });
const ZIP = { types: ['application/zip'], description: 'The zip' };

export const Download = download.get('/web_api/v1/download/', 'Downloads a finished work’s result', {
  aliases: ['/web_api/v1/download'],
  auth: AUTH.tokenOrApi,
  fields: Type.Object({
    trans_id: TransId(),
    zoom_type: Type.Optional(
      Type.String({ maxLength: 32, description: 'a result variant, when the work made several' }),
    ),
  }),
  file: resultImage('The result image, as an attachment'),
  example: { trans_id: WORK },
});

export const Preview = download.get('/web_api/v1/preview', 'A finished work’s result, shown inline', {
  auth: AUTH.tokenOrApi,
  fields: Type.Object({ trans_id: TransId() }),
  file: resultImage('The result image, inline'),
  example: { trans_id: WORK },
});

export const DownloadCompress = download.post(
  '/api/job/download_compress',
  'A compress work’s result, converted to another format',
  {
    fields: Type.Object({
      trans_id: TransId(),
      extra_type: Type.Optional(
        Type.String({ maxLength: 8, description: 'jpg, png or webp; the work’s own format when left out' }),
      ),
    }),
    file: resultImage('The converted image, as an attachment'),
    example: { trans_id: WORK, extra_type: 'webp' },
  },
);

export const PointCheck = download.post(
  '/api/v2/point/check',
  'Checks that works may be downloaded together; optionally makes a bundle id for the zip',
  {
    fields: Type.Object({
      ...BulkIds,
      need_download_temp_id: Type.Optional(
        Type.Enum([1, 0], { description: '1: answer a download_all_id for GET /api/v2/download/all/' }),
      ),
    }),
    data: Type.Object({
      max_num: Type.Integer(),
      used_num: Type.Integer(),
      download_all_id: Type.Optional(Type.String({ description: 'valid one hour, for this account' })),
    }),
    example: { trans_ids: TWO_WORKS, need_download_temp_id: 1 },
  },
);

export const DownloadAllPost = download.post('/api/v2/download/all', 'A zip of several finished works’ results', {
  fields: Type.Object(BulkIds),
  file: ZIP,
  example: { trans_ids: TWO_WORKS },
});

export const DownloadAll = download.get('/api/v2/download/all/', 'The zip of a bundle made by point check', {
  aliases: ['/api/v2/download/all'],
  fields: Type.Object({
    download_all_id: Type.String({ minLength: 1, maxLength: 64, description: 'from POST /api/v2/point/check' }),
  }),
  file: ZIP,
  example: { download_all_id: '5e0a7c3d-2b1f-4d69-8e4a-9c6b3f1d2a70' },
});
