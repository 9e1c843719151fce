/**
 * The route table (src/shared/routeTable.ts): each route schema's method and path by its name, so the
 * browser client and the image worker call a route by name without the schemas' TypeBox runtime in
 * their bundles. Written by `npm run api-docs`; scripts/route-table.test.ts fails while it differs.
 */
import path from 'node:path';
import * as schemas from '../src/shared/schemas/index.js';
import type { RouteSchema } from '../src/shared/schemas/common.js';

export const ROUTE_TABLE_FILE = path.resolve(import.meta.dirname, '..', 'src', 'shared', 'routeTable.ts');

const isRoute = (v: unknown): v is RouteSchema =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as RouteSchema).url === 'string' &&
  ((v as RouteSchema).method === 'GET' || (v as RouteSchema).method === 'POST');

/** The table's source text. */
export function renderRouteTable(): string {
  const rows = Object.entries(schemas)
    .filter((e): e is [string, RouteSchema] => isRoute(e[1]))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, r]) => `  ${name}: ['${r.method}', '${r.url}'],`);
  return [
    "// Written by `npm run api-docs` from the route schemas (src/shared/schemas/): each route's method and",
    "// path by its schema's name, for callers that must not carry the schemas' TypeBox runtime (the browser",
    '// client, src/api/callRoute.ts; the image worker). Do not edit: change the schema and run npm run api-docs.',
    'export const ROUTE_TABLE = {',
    ...rows,
    '} as const;',
    '',
  ].join('\n');
}
