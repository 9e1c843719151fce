/** The workspace's limits and reasons as a user meets them: the scale choice, a card's reasons, the files that make them. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-e2e-limits-'));

export class WorkLimits {
  constructor(readonly page: Page) {}

  /** The enlarge scale button (2, 4, 6 or 8). */
  scale(n: number): Locator {
    return this.page.getByTestId(`scale-${n}`);
  }

  /** The note under the scales naming the scales the selected image cannot take, and why. */
  scaleNote(): Locator {
    return this.page.getByTestId('scale-limit');
  }

  /** Why a card's upload was refused. */
  uploadReason(card: Locator): Locator {
    return card.getByTestId('upload-reason');
  }

  /** Lets the start reach the server but loses its answer, as a tab closed a moment after Start does. */
  async loseStartAnswers(): Promise<void> {
    await this.page.route('**/web_api/v1/transform', async (route) => {
      await route.fetch();
      await route.abort('connectionclosed');
    });
  }
}

/** A file of 0 bytes. */
export function emptyFile(name = 'empty.png'): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, new Uint8Array());
  return file;
}

/** A PNG whose header declares w×h and holds nothing more (no browser could decode it). */
export function pngDeclaring(w: number, h: number, name = `declares-${w}x${h}.png`): string {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(b);
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  b[24] = 8;
  b[25] = 2;
  const file = path.join(dir, name);
  fs.writeFileSync(file, b);
  return file;
}
