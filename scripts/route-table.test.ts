// The route table (src/shared/routeTable.ts) is the route schemas' method and path, written by
// `npm run api-docs`; it must be current, and no client or worker source may type a route's path again.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from '../src/shared/routeTable.js';
import { renderRouteTable, ROUTE_TABLE_FILE } from './route-table.js';

const root = path.resolve(import.meta.dirname, '..');
const walk = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? walk(path.join(dir, e.name))
        : /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)
          ? [path.join(dir, e.name)]
          : [],
    );

describe('route table (scripts/route-table.ts)', () => {
  it('is the committed copy of the route schemas (run npm run api-docs after changing a schema)', () => {
    expect(fs.readFileSync(ROUTE_TABLE_FILE, 'utf8')).toBe(renderRouteTable());
    expect(ROUTE_TABLE.Transform).toEqual(['POST', '/web_api/v1/transform']);
  });

  it('no browser or worker source writes a route path out: callers name the route (callRoute, ROUTE_TABLE)', () => {
    const paths = [...new Set(Object.values(ROUTE_TABLE).map(([, p]) => p))].filter(
      (p) => !p.includes(':') && p !== '/sitemap.xml',
    );
    // The schemas hold the paths, the table copies them, the content pages describe the API to people.
    const exempt = /src[\\/](shared[\\/](schemas[\\/]|routeTable\.ts)|pages[\\/]content[\\/])/;
    const found: string[] = [];
    for (const file of [...walk(path.join(root, 'src')), ...walk(path.join(root, 'src-worker'))].filter(
      (f) => !exempt.test(f),
    )) {
      const text = fs.readFileSync(file, 'utf8');
      for (const p of paths)
        if (text.includes(`'${p}'`) || text.includes(`\`${p}`) || text.includes(`"${p}"`))
          found.push(`${path.relative(root, file)}: ${p}`);
    }
    expect(found).toEqual([]);
  });
});
