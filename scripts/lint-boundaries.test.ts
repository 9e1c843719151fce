// The import boundaries of eslint.config.js (rule pixmill/import-boundaries), run through ESLint's Node
// API on small sources placed where each zone's files live: every wrong-way import is an error, the
// ways the architecture allows are not. Without the rule in the config every "refused" case fails.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

/** The boundary errors ESLint reports for `source` as the file `file` (a path from the repository root). */
async function boundaryErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'pixmill/import-boundaries').map((m) => m.message);
}

const uses = (spec: string) => `import { thing } from '${spec}';\nexport const used = thing;\n`;

describe('import boundaries (eslint.config.js)', () => {
  it.each([
    // file, import, what the error names
    ['server/http/routes/sitemapX.ts', '../../../src/app/sitemap.js', 'the server imports only the shared code'],
    ['server/services/x.ts', '../../src-worker/ondevice/models.js', 'the server imports only the shared code'],
    ['scripts/start.mjs', '../src/pages/content/x.js', 'the server imports only the shared code'],
    ['server/jobs/x.ts', '../../tests/support/modes.js', 'the harnesses in tests/ are for tests only'],
    ['scripts/generate-samples.ts', '../tests/support/engines.js', 'the harnesses in tests/ are for tests only'],
    ['server/services/x.ts', '../engines/registry.js', 'the API process loads no engine'],
    ['server/services/x.ts', '../http/validation.js', 'never import the HTTP layer'],
    ['server/repositories/x.ts', '../http/requestAddress.js', 'never import the HTTP layer'],
    ['server/services/x.ts', './index.js', 'services type what they use'],
    [
      'server/http/routes/x.ts',
      '../../repositories/resultFiles.js',
      'routes reach works and results through the services',
    ],
    ['server/http/routes/x.ts', '../../engines/models.js', 'the API process loads no engine'],
    ['src-worker/x.ts', '../src/stores/works.js', 'the worker imports only the shared code'],
    ['src-worker/ondevice/x.ts', '../../server/engines/image.js', 'the worker imports only the shared code'],
    [
      'src/features/workspace/DeviceChoiceX.tsx',
      '../../../src-worker/ondevice/models.js',
      'the UI reaches the worker only through src/worker-bridge/',
    ],
    ['src/pages/content/x.tsx', '../../../server/config.js', 'never imports server code'],
    ['src/stores/userX.ts', '../pages/account/guestBinding.js', 'stores do not import pages'],
    ['src/shared/domain/x.ts', '../../app/lang.js', 'the shared code imports only itself'],
    ['src/shared/imaging/x.ts', '../../../server/engines/image.js', 'the shared code imports only itself'],
    ['src/shared/x.ts', '../../src-worker/api.js', 'the shared code imports only itself'],
    ['src/api/x.ts', '../../tests/support/testServer.js', 'the harnesses in tests/ are for tests only'],
    ['server/engines/x.ts', '../../scripts/quality/keras.js', 'shipped code never loads bench or lab code'],
    ['scripts/convert-models.ts', './quality/esrganModels.js', 'shipped code never loads bench or lab code'],
    ['src-worker/x.ts', '../bench/peak.js', 'shipped code never loads bench or lab code'],
  ])('%s importing %s is refused', async (file, spec, why) => {
    const errors = await boundaryErrors(file, uses(spec));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(why);
  });

  it('a dynamic import and a re-export are checked too', async () => {
    expect(
      await boundaryErrors('server/x.ts', "export const f = () => import('../src/features/workspace/actions.js');\n"),
    ).toHaveLength(1);
    expect(
      await boundaryErrors('src/features/x.ts', "export { thing } from '../../src-worker/api.js';\n"),
    ).toHaveLength(1);
  });

  it.each([
    ['server/x.ts', '../src/shared/domain/codes.js'],
    ['scripts/admin.ts', '../src/shared/domain/plans.js'],
    ['src-worker/x.ts', '../src/shared/domain/constants.js'],
    ['src-worker/x.ts', '../src/db/index.js'],
    ['src/worker-bridge/x.ts', '../../src-worker/api.js'],
    ['src/features/workspace/x.tsx', '../../worker-bridge/index.js'],
    ['src/pages/x.tsx', '../stores/works.js'],
    ['src/shared/domain/x.ts', './codes.js'],
    ['src/shared/imaging/x.ts', '../domain/constants.js'],
    ['bench/x.ts', '../tests/support/server.js'],
    ['scripts/quality/x.ts', '../../tests/support/engines.js'],
    ['bench/x.ts', '../scripts/quality/esrganModels.js'],
    // a test may check two sides against each other
    ['src/shared/imaging/x.test.ts', '../../../server/engines/image.js'],
    ['server/services/x.test.ts', '../../tests/support/server.js'],
  ])('%s importing %s is allowed', async (file, spec) => {
    expect(await boundaryErrors(file, uses(spec))).toEqual([]);
  });
});
