/**
 * Sample images per feature type (spec §3 "Sample item", §7 Samples), described by
 * public/samples/manifest.json (written by the engines' sample generator). Files are served
 * only from inside the samples directory.
 */
import fs from 'node:fs';
import type { FieldsOf } from '../../src/shared/schemas/common.js';
import type { SampleDownload } from '../../src/shared/schemas/site.js';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { notFound, paramError } from '../errors.js';
import type { SampleEntry } from '../../src/shared/domain/work.js';
import type { ServiceBase } from './base.js';

export type SampleManifest = Record<string, SampleEntry[]>;

const SCALE_PLACEHOLDER = '{scale}';
/** Scales a placeholder may take: enlarge 2/4/6/8, portrait 1 (face) or 2 (entire). */
const SAMPLE_RATES = [1, 2, 4, 6, 8];
const DEFAULT_RATE = 2;
const IMAGE_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
};

export class SampleService {
  private cached: { file: string; mtimeMs: number; manifest: SampleManifest } | null = null;
  private chosenDir: string | null = null;

  constructor(private readonly deps: ServiceBase) {}

  /**
   * Where manifest.json and the images live: the source tree's public/samples (the generator writes
   * there), else the built client's samples. Tests may point it at a directory of their own.
   */
  get dir(): string {
    if (this.chosenDir) return this.chosenDir;
    const source = path.resolve(import.meta.dirname, '../../public/samples');
    return fs.existsSync(source) ? source : path.join(this.deps.config.clientDir, 'samples');
  }
  set dir(d: string) {
    this.chosenDir = path.resolve(d);
    this.cached = null;
  }

  /** GET /api/v2/sample/info: the manifest keyed by feature type ({} when there is none). */
  async info(): Promise<SampleManifest> {
    const file = path.join(this.dir, 'manifest.json');
    let st: fs.Stats;
    try {
      st = await fsp.stat(file);
    } catch {
      return {};
    }
    if (this.cached && this.cached.file === file && this.cached.mtimeMs === st.mtimeMs) return this.cached.manifest;
    const parsed = JSON.parse(await fsp.readFile(file, 'utf8')) as unknown;
    const manifest: SampleManifest = {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      for (const [type, list] of Object.entries(parsed as Record<string, unknown>)) {
        if (!Array.isArray(list)) continue;
        manifest[type] = list
          .filter(isEntry)
          .map((e) => ({ name: e.name, original: e.original, processed: e.processed, w: e.w, h: e.h }));
      }
    }
    this.cached = { file, mtimeMs: st.mtimeMs, manifest };
    return manifest;
  }

  /** GET /api/v2/sample/download: job = feature type, type original|processed, num = 0-based index, rate = scale. */
  async download(q: FieldsOf<typeof SampleDownload>): Promise<{ file: string; mime: string }> {
    const manifest = await this.info();
    const list = Object.hasOwn(manifest, q.job) ? manifest[q.job]! : null;
    if (!list) throw notFound('sampleNotFound');
    const entry = list[q.num ?? 0];
    if (!entry) throw notFound('sampleNotFound');
    let url = q.type === 'original' ? entry.original : entry.processed;
    if (url.includes(SCALE_PLACEHOLDER)) {
      const rate = q.rate === undefined ? DEFAULT_RATE : Number(q.rate.replace(/x$/i, ''));
      if (!SAMPLE_RATES.includes(rate)) throw paramError('fieldInvalid', { field: 'rate', allowed: SAMPLE_RATES });
      url = url.split(SCALE_PLACEHOLDER).join(String(rate));
    }
    return this.file(url);
  }

  /** GET /api/job_utils/download/sample: a file named by its /samples/… path or its path inside samples. */
  async file(name: string | undefined): Promise<{ file: string; mime: string }> {
    if (!name) throw paramError('fieldRequired', { field: 'name' });
    const rel = name.replace(/^\/?samples\//, '').replace(/^\/+/, '');
    const mime = IMAGE_TYPES[path.extname(rel).toLowerCase()];
    const file = path.resolve(this.dir, rel);
    if (!mime || !file.startsWith(this.dir + path.sep)) throw notFound('sampleNotFound');
    try {
      // Resolve symlinks too: the real file must still be inside the samples directory.
      const real = await fsp.realpath(file);
      const realDir = await fsp.realpath(this.dir);
      if (!real.startsWith(realDir + path.sep) || !(await fsp.stat(real)).isFile()) throw new Error('outside');
      return { file: real, mime };
    } catch {
      throw notFound('sampleNotFound');
    }
  }
}

function isEntry(e: unknown): e is SampleEntry {
  const o = e as Record<string, unknown>;
  return (
    !!o &&
    typeof o.name === 'string' &&
    typeof o.original === 'string' &&
    typeof o.processed === 'string' &&
    typeof o.w === 'number' &&
    typeof o.h === 'number'
  );
}
