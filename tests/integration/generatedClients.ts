/** What the two generated-client tests share: the caller script and a photo written beside the generated code, and a strict compile. */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import ts from 'typescript';
import { fixture } from './api-helpers.js';

/** Writes the caller (call.ts) and a small photo (photo.jpg) into `dir`. */
export async function writeCaller(dir: string, script: string): Promise<void> {
  fs.writeFileSync(path.join(dir, 'call.ts'), script);
  fs.writeFileSync(path.join(dir, 'photo.jpg'), await sharp(fixture('LadyBird.jpg')).resize(120, 90).jpeg().toBuffer());
}

/** The type errors of `dir`/call.ts compiled strictly as Node ESM (empty: it compiles without a cast or a fix). */
export function strictTypeErrors(dir: string): string[] {
  const program = ts.createProgram([path.join(dir, 'call.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}
