/** Blobs (uploads, thumbnails, results) as files under DATA_DIR/blobs, addressed by server-generated keys. */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

const KEY = /^[a-z]+\/[0-9a-f]{2}\/[0-9a-f-]{36}(\.[a-z0-9]+)?$/;

export class BlobStore {
  readonly root: string;
  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'blobs');
    fs.mkdirSync(this.root, { recursive: true });
  }

  /** A fresh key in a namespace (uploads, thumbs, results, chunks); never derived from user input. */
  newKey(namespace: string, ext = ''): string {
    const id = randomUUID();
    return `${namespace}/${id.slice(0, 2)}/${id}${ext ? '.' + ext : ''}`;
  }

  pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`bad blob key ${key}`);
    return path.join(this.root, key);
  }

  async write(key: string, data: Buffer | Uint8Array): Promise<void> {
    const p = this.pathOf(key);
    await fsp.mkdir(path.dirname(p), { recursive: true });
    // A temp name of its own per write: two requests writing the same key at once (a retried slice)
    // must not share one temp file; the rename makes whichever finishes last the whole content.
    const tmp = `${p}.${randomUUID()}.tmp`;
    try {
      await fsp.writeFile(tmp, data);
      await fsp.rename(tmp, p);
    } catch (e) {
      await fsp.rm(tmp, { force: true });
      throw e;
    }
  }

  async read(key: string): Promise<Buffer> {
    return fsp.readFile(this.pathOf(key));
  }

  stream(key: string): fs.ReadStream {
    return fs.createReadStream(this.pathOf(key));
  }

  async size(key: string): Promise<number> {
    return (await fsp.stat(this.pathOf(key))).size;
  }

  async exists(key: string): Promise<boolean> {
    return fsp.access(this.pathOf(key)).then(
      () => true,
      () => false,
    );
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }
}
