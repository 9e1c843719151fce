// Which methods a path answers: Fastify route URLs as patterns over request paths (params one segment).
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { recordRouteMethods, routePattern } from './methods.js';

describe('route methods', () => {
  it('reads :params as one segment and * as the rest; the rest of a path is literal', () => {
    expect(routePattern('/models/:name').test('/models/isnet.onnx')).toBe(true);
    expect(routePattern('/models/:name').test('/models/a/b')).toBe(false);
    expect(routePattern('/assets/*').test('/assets/x/y.js')).toBe(true);
    expect(routePattern('/api-docs/openapi.json').test('/api-docs/openapiXjson')).toBe(false);
  });

  it('answers every method a path is registered with, and none for a path no route has', async () => {
    const app = Fastify();
    const methodsOf = recordRouteMethods(app);
    app.post('/web_api/v1/transform', async () => null);
    app.get('/web_api/v1/download/', async () => null);
    app.post('/web_api/v1/download/', async () => null);
    await app.ready();
    expect(methodsOf('/web_api/v1/transform')).toEqual(['POST']);
    expect(methodsOf('/web_api/v1/download/')).toEqual(['GET', 'HEAD', 'POST']);
    expect(methodsOf('/web_api/v1/nothing')).toEqual([]);
    await app.close();
  });
});
