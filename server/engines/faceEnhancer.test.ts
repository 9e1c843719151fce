/** FaceMesh landmarks (faces.ts) and the feature masks face_enhancer builds from them. */
import { describe, expect, it } from 'vitest';
import { detectFaces, faceMesh, MESH_FEATURES, type Face, type FaceMesh } from './faces.js';
import { enhanceFaces, fillPolygon } from './faceEnhancer.js';
import { input, rgbOf, MODELS_DIR } from './testkit.js';
import type { Rgb } from './image.js';

const centroid = (m: FaceMesh, idx: readonly number[]) => {
  const p = idx.map((i) => m.points[i]!);
  return [p.reduce((s, q) => s + q[0], 0) / p.length, p.reduce((s, q) => s + q[1], 0) / p.length] as const;
};
const luma = (d: Uint8Array, i: number) => 0.299 * d[3 * i]! + 0.587 * d[3 * i + 1]! + 0.114 * d[3 * i + 2]!;

async function astronaut(): Promise<{ img: Rgb; face: Face; mesh: FaceMesh }> {
  const img = await rgbOf((await input('astronaut.png')).data);
  const [face] = await detectFaces(img, MODELS_DIR, 2);
  const mesh = await faceMesh(img, face!, MODELS_DIR, 2);
  expect(mesh).toBeDefined();
  return { img, face: face!, mesh: mesh! };
}

describe('fillPolygon', () => {
  it('fills the pixels whose centres are inside, in crop coordinates', () => {
    const m = new Float32Array(10 * 8);
    fillPolygon(m, 10, 8, 100, 50, [[102, 51], [107, 51], [107, 55], [102, 55]]); // 5×4 px square
    expect(m.reduce((s, v) => s + v, 0)).toBe(20);
    expect(m[1 * 10 + 2]).toBe(1);
    expect(m[1 * 10 + 7]).toBe(0);
    expect(m[5 * 10 + 2]).toBe(0);
  });
});

describe('faceMesh', () => {
  it('puts the eye and lip contours on BlazeFace’s eye and mouth keypoints (astronaut)', async () => {
    const { face, mesh } = await astronaut();
    expect(mesh.points.length).toBe(468);
    expect(mesh.flag).toBeGreaterThan(0.9);
    const size = Math.min(face.w, face.h);
    const [re, le, , mouth] = face.landmarks;
    const near = (a: readonly [number, number] | readonly number[], b: [number, number], tol: number) => Math.hypot(a[0]! - b[0], a[1]! - b[1]) < tol * size;
    expect(near(centroid(mesh, MESH_FEATURES.rightEye), re!, 0.08)).toBe(true);
    expect(near(centroid(mesh, MESH_FEATURES.leftEye), le!, 0.08)).toBe(true);
    expect(near(centroid(mesh, MESH_FEATURES.lipsOuter), mouth!, 0.12)).toBe(true);
    // brows above the eyes, the mouth opening inside the lips
    expect(centroid(mesh, MESH_FEATURES.rightBrow)[1]).toBeLessThan(centroid(mesh, MESH_FEATURES.rightEye)[1] - 0.05 * size);
    const lips = centroid(mesh, MESH_FEATURES.lipsOuter), inner = centroid(mesh, MESH_FEATURES.mouthInner);
    expect(Math.hypot(lips[0] - inner[0], lips[1] - inner[1])).toBeLessThan(0.05 * size);
  });

  it('is refused (undefined) on a box with no face in it', async () => {
    const { img, face } = await astronaut();
    // the same box size on the plain background at the top-right corner
    expect(await faceMesh(img, { ...face, x: img.w - face.w - 2, y: 2 }, MODELS_DIR, 2)).toBeUndefined();
  });
});

describe('face_enhancer feature masks from FaceMesh', () => {
  it('keep eye, brow and lip detail while the skin next to them is sharpened less than with keypoint ellipses', async () => {
    const { img, face, mesh } = await astronaut();
    const ellipse = enhanceFaces(img, [face], []);
    const withMesh = enhanceFaces(img, [face], [mesh]);
    const { w, h } = img, n = w * h, size = Math.min(face.w, face.h);
    const feat = new Float32Array(n), lips = new Float32Array(n);
    for (const f of [MESH_FEATURES.rightEye, MESH_FEATURES.leftEye, MESH_FEATURES.rightBrow, MESH_FEATURES.leftBrow]) fillPolygon(feat, w, h, 0, 0, f.map((i) => mesh.points[i]!));
    fillPolygon(lips, w, h, 0, 0, MESH_FEATURES.lipsOuter.map((i) => mesh.points[i]!));
    // skin within 0.12·size of an eye or brow, outside every feature (lids, under the eyes, temples)
    const r = Math.round(size * 0.12), nearSkin = new Uint8Array(n);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        if (feat[y * w + x])
          for (let dy = -r; dy <= r; dy++)
            for (let dx = -r; dx <= r; dx++) {
              const j = (y + dy) * w + x + dx;
              if (y + dy >= 0 && y + dy < h && x + dx >= 0 && x + dx < w && !feat[j] && !lips[j]) nearSkin[j] = 1;
            }
    const measure = (o: Rgb) => {
      let sf = 0, nf = 0, sl = 0, nl = 0, lb = 0, la = 0;
      const lap = (d: Uint8Array, i: number) => Math.abs(4 * luma(d, i) - luma(d, i - 1) - luma(d, i + 1) - luma(d, i - w) - luma(d, i + w));
      for (let y = 1; y < h - 1; y++)
        for (let x = 1; x < w - 1; x++) {
          const i = y * w + x, d = Math.abs(luma(o.data, i) - luma(img.data, i));
          if (feat[i]) { sf += d; nf++; }
          if (lips[i]) { sl += d; nl++; }
          if (nearSkin[i]) { lb += lap(img.data, i); la += lap(o.data, i); }
        }
      return { feat: sf / nf, lips: sl / nl, skinDetail: la / lb };
    };
    const e = measure(ellipse), m = measure(withMesh);
    // measured: eyes+brows |ΔY| 17.5 (ellipse) / 16.7 (mesh), lips 11.7 / 13.2, skin detail ×1.30 / ×1.20
    expect(m.feat).toBeGreaterThan(12);
    expect(m.lips).toBeGreaterThan(e.lips);
    expect(m.skinDetail).toBeLessThan(e.skinDetail - 0.05);
  });
});
