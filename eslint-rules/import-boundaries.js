/**
 * Local ESLint rule `pixmill/import-boundaries`: who may import whom, by folder. Each zone names the
 * files it governs (path prefixes from the repository root, `except` prefixes left out) and the folders
 * they must not import (`deny`), with `allow` prefixes inside those that stay open. Relative imports are
 * resolved against the importing file, so `../pages/x.js` from src/stores/ is src/pages/x.js; bare
 * package names are not this rule's business. Test files (*.test.ts, *.test.tsx) are exempt: a test may
 * reach across to check two sides against each other. The zones themselves live in eslint.config.js.
 */
import path from 'node:path';

const TEST_FILE = /\.test\.[cm]?[jt]sx?$/;
const rel = (root, file) => path.relative(root, file).split(path.sep).join('/');
const under = (p, prefixes) => prefixes.some((x) => (x.endsWith('/') ? p.startsWith(x) : p === x));

export default {
  meta: {
    type: 'problem',
    docs: {
      description:
        'keeps imports flowing the way the architecture says (server and worker → shared code; UI → worker only through the bridge; …)',
    },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          zones: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                files: { type: 'array', items: { type: 'string' } },
                except: { type: 'array', items: { type: 'string' } },
                deny: { type: 'array', items: { type: 'string' } },
                allow: { type: 'array', items: { type: 'string' } },
                message: { type: 'string' },
              },
              required: ['files', 'deny', 'message'],
              additionalProperties: false,
            },
          },
        },
        required: ['zones'],
        additionalProperties: false,
      },
    ],
    messages: { wrongWay: '{{target}}: {{message}}' },
  },
  create(context) {
    const { zones, root: givenRoot } = context.options[0];
    const root = givenRoot ?? context.cwd;
    const file = rel(root, context.filename);
    if (TEST_FILE.test(file) || file.startsWith('..')) return {};
    const mine = zones.filter((z) => under(file, z.files) && !under(file, z.except ?? []));
    if (!mine.length) return {};
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = rel(root, path.resolve(path.dirname(context.filename), source.value));
      for (const z of mine) {
        if (under(target, z.deny) && !under(target, z.allow ?? [])) {
          context.report({ node: source, messageId: 'wrongWay', data: { target, message: z.message } });
          return;
        }
      }
    };
    return {
      ImportDeclaration: (n) => check(n, n.source),
      ExportNamedDeclaration: (n) => check(n, n.source),
      ExportAllDeclaration: (n) => check(n, n.source),
      ImportExpression: (n) => check(n, n.source.type === 'Literal' ? n.source : null),
    };
  },
};
