/**
 * GET /models/<name>.onnx: the ONNX files the PWA runs on the device, the very files the
 * engines use. Only the on-device list is served; the bytes never change under a name (a new model
 * gets a new name), so they are immutable for a year and the service worker keeps them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { openApiSchema } from '../schemaRoute.js';
import { OWN_NET_FILES } from '../../../src/shared/imaging/netFiles.js';
import { ModelFile } from '../../../src/shared/schemas/models.js';
import type { RefusalData } from '../../../src/shared/domain/reasons.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Our nets as committed (server/engines/weights/): the very bytes `npm run models` copies for the engines
 * (server/engines/models.ts), read here by path so the API process loads no engine code and no onnxruntime.
 */
// By directory, not by URL: under a browser-like test environment (jsdom) import.meta.url is not a file: URL.
const OWN_WEIGHTS = path.resolve(import.meta.dirname, '../../engines/weights') + path.sep;

/** IS-Net "small" (quint8, 44 MB) straight from @imgly/background-removal-data's chunks: no second copy on disk. */
function isnetSmall(): { size: number; parts: string[] } {
  const name = '@imgly/background-removal-data';
  const base = (createRequire(import.meta.url).resolve.paths(name) ?? []).find((b) =>
    fs.existsSync(path.join(b, name, 'package.json')),
  );
  if (!base) throw new Error(`package ${name} is not installed`);
  const resources = path.join(base, name, 'dist', 'resources.json');
  const entry = JSON.parse(fs.readFileSync(resources, 'utf8'))['/models/small'] as {
    chunks: { hash: string }[];
    size: number;
  };
  return { size: entry.size, parts: entry.chunks.map((c) => path.join(path.dirname(resources), c.hash)) };
}

export async function modelRoutes(app: FastifyInstance, _ctx: AppContext): Promise<void> {
  const files: Record<string, () => { size: number; parts: string[] }> = {
    [OWN_NET_FILES.x2Small]: () => {
      const file = path.join(OWN_WEIGHTS, OWN_NET_FILES.x2Small);
      return { size: fs.statSync(file).size, parts: [file] };
    },
    'isnet-small.onnx': isnetSmall,
  };
  app.get<{ Params: { name: string } }>('/models/:name', { schema: openApiSchema(ModelFile) }, async (req, reply) => {
    const locate = Object.hasOwn(files, req.params.name) ? files[req.params.name] : undefined;
    if (!locate)
      return reply
        .status(404)
        .send({ code: 404, msg: 'Not Found', data: { reason: 'routeNotFound' } satisfies RefusalData });
    const { size, parts } = locate();
    reply
      .header('content-type', 'application/octet-stream')
      .header('content-length', size)
      .header('cache-control', IMMUTABLE);
    // Same origin only, and loadable by a cross-origin isolated page (COEP require-corp).
    reply.header('cross-origin-resource-policy', 'same-origin');
    return reply.send(
      Readable.from(
        (async function* () {
          for (const p of parts) yield* fs.createReadStream(p);
        })(),
      ),
    );
  });
}
