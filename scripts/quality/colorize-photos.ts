/**
 * The scene photos colorize is measured on (issue 32): real photographs (no drawings, no renders)
 * from Debian wallpaper packages, read where the packages install them, plus the skimage photos of
 * the shared images. DEV_PHOTOS is the development split (priors and thresholds were chosen on it);
 * the rest is the held-out split the figures are reported on.
 * Install: apt-get install -y lomiri-wallpapers-16.04 lomiri-wallpapers-20.04 mate-backgrounds plasma-workspace-wallpapers
 * (plasma's Grey and ColdRipple are left out: a black-and-white photo has nothing to get wrong.)
 * Photos that are not installed are skipped (and counted as missing in the report).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { decodeRgb, type Rgb } from '../../server/engines/image.js';
import { labToRgb, rgbToLab } from '../../server/engines/lab.js';

export interface ScenePhoto {
  id: string;
  file: string;
  pkg: string;
  licence: string;
}

const BG = '/usr/share/backgrounds';
const KDE = (n: string, size = '2560x1600') => `/usr/share/wallpapers/${n}/contents/images/${size}.jpg`;
const L16 = 'lomiri-wallpapers-16.04';
const MATE = 'mate-backgrounds';
const PLASMA = 'plasma-workspace-wallpapers';
const PLASMA_LIC = 'LGPL-3 per its metadata.json (Debian copyright: GPL-2+)';
const SKIMAGE = 'python3-skimage data (shared/data/images)';

/** `shared` paths are relative to the repository root. */
export const SCENE_PHOTOS: readonly ScenePhoto[] = [
  { id: 'aitzgorri', file: `${BG}/aitzgorri_by_Aitzol_Berasategi.jpg`, pkg: L16, licence: 'CC-BY-4.0 (Aitzol Berasategi)' },
  { id: 'aqua', file: `${BG}/mate/nature/Aqua.jpg`, pkg: MATE, licence: 'GPL-2+ (Charles Barbin)' },
  { id: 'astronaut', file: '../shared/data/images/astronaut.png', pkg: SKIMAGE, licence: 'public domain (NASA)' },
  { id: 'blinds', file: `${BG}/mate/nature/Blinds.jpg`, pkg: MATE, licence: 'GPL-2+ (Lennart Poettering)' },
  { id: 'bridge', file: `${BG}/Bridge_by_Sander_Klootwijk.jpg`, pkg: L16, licence: 'CC-BY-SA-4.0 (Sander Klootwijk)' },
  { id: 'bythewater', file: KDE('BytheWater'), pkg: PLASMA, licence: `${PLASMA_LIC}, Maciej Wiklo` },
  { id: 'chelsea', file: '../shared/data/images/chelsea.png', pkg: SKIMAGE, licence: 'CC0 (Stefan van der Walt)' },
  { id: 'coffee', file: '../shared/data/images/coffee.png', pkg: SKIMAGE, licence: 'CC0 (Rachel Michetti)' },
  { id: 'colorfulcups', file: KDE('ColorfulCups'), pkg: PLASMA, licence: `${PLASMA_LIC}, Dmitri Popov` },
  { id: 'darkesthour', file: KDE('DarkestHour'), pkg: PLASMA, licence: `${PLASMA_LIC}, Risto Saukonpää` },
  { id: 'dragonfly', file: `${BG}/Dragonfly_by_Bolly.jpg`, pkg: L16, licence: 'CC-BY-SA-4.0 ("Bolly")' },
  { id: 'dune', file: `${BG}/mate/nature/Dune.jpg`, pkg: MATE, licence: 'GPL-2+ (Marco Cogoni)' },
  { id: 'eveningglow', file: KDE('EveningGlow'), pkg: PLASMA, licence: `${PLASMA_LIC}, Ian Hex` },
  { id: 'fallenleaf', file: KDE('FallenLeaf'), pkg: PLASMA, licence: `${PLASMA_LIC}, Martin Klapetek` },
  { id: 'fig', file: `${BG}/Picture_0B_by_freespace.jpg`, pkg: L16, licence: 'CC-BY-4.0 (Trevor "Freespace")' },
  { id: 'free', file: `${BG}/free_by_Peter_Nerlich.jpg`, pkg: L16, licence: 'CC-BY-SA-4.0 (Peter Nerlich)' },
  { id: 'freshflower', file: `${BG}/mate/nature/FreshFlower.jpg`, pkg: MATE, licence: 'GPL-2+ (Jens Ansorg)' },
  { id: 'friends', file: `${BG}/friends_by_Aitzol_Berasategi.jpg`, pkg: L16, licence: 'CC-BY-4.0 (Aitzol Berasategi)' },
  { id: 'garden', file: `${BG}/mate/nature/Garden.jpg`, pkg: MATE, licence: 'GPL-2+ (Charles Barbin)' },
  { id: 'greenmeadow', file: `${BG}/mate/nature/GreenMeadow.jpg`, pkg: MATE, licence: 'GPL-2+ (Timothy Schellhase)' },
  { id: 'kite', file: KDE('Kite'), pkg: PLASMA, licence: `${PLASMA_LIC}, Risto Saukonpää` },
  { id: 'kleiber', file: `${BG}/Kleiber_by_Lukas_Baubkus.jpg`, pkg: 'lomiri-wallpapers-20.04', licence: 'CC-BY-SA-3.0 (Lukas Baubkus)' },
  { id: 'ladybird', file: `${BG}/mate/nature/LadyBird.jpg`, pkg: MATE, licence: 'GPL-2+ (Charles Barbin)' },
  { id: 'life', file: `${BG}/life_by_Aitzol_Berasategi.jpg`, pkg: L16, licence: 'CC-BY-4.0 (Aitzol Berasategi)' },
  { id: 'motorcycle', file: '../shared/data/images/motorcycle_left.png', pkg: SKIMAGE, licence: 'CC0 (Middlebury stereo set)' },
  { id: 'onestandsout', file: KDE('OneStandsOut'), pkg: PLASMA, licence: `${PLASMA_LIC}, Risto Saukonpää` },
  { id: 'paintbrushes', file: `${BG}/Picture_1A_by_freespace.jpg`, pkg: L16, licence: 'CC-BY-4.0 (Trevor "Freespace")' },
  { id: 'path', file: KDE('Path'), pkg: PLASMA, licence: `${PLASMA_LIC}, Risto Saukonpää` },
  { id: 'picosdeeuropa', file: `${BG}/picosdeeuropa_by_Aitzol_Berasategi.jpg`, pkg: L16, licence: 'CC-BY-4.0 (Aitzol Berasategi)' },
  { id: 'raindrops', file: `${BG}/mate/nature/RainDrops.jpg`, pkg: MATE, licence: 'GPL-2+ ("blackcombwhistler07")' },
  { id: 'rocket', file: '../shared/data/images/rocket.jpg', pkg: SKIMAGE, licence: 'public domain (SpaceX)' },
  { id: 'seeding', file: `${BG}/seeding_by_Clements_Engelhardt.jpg`, pkg: L16, licence: 'CC0-1.0 (Clemens Engelhardt)' },
  { id: 'storm', file: `${BG}/mate/nature/Storm.jpg`, pkg: MATE, licence: 'GPL-2+ (Sergey Nazarov)' },
  { id: 'summer1am', file: KDE('summer_1am'), pkg: PLASMA, licence: `${PLASMA_LIC}, Risto Saukonpää` },
  { id: 'sunset', file: `${BG}/sunset_by_Aitzol_Berasategi.jpg`, pkg: L16, licence: 'CC-BY-4.0 (Aitzol Berasategi)' },
  { id: 'twowings', file: `${BG}/mate/nature/TwoWings.jpg`, pkg: MATE, licence: 'GPL-2+ (Charles Barbin, Hylke Bons)' },
  { id: 'wine', file: `${BG}/Wine_by_Jakkub_Mede.jpg`, pkg: L16, licence: 'CC-BY-4.0 (Jakub Mede)' },
  { id: 'wood', file: `${BG}/mate/nature/Wood.jpg`, pkg: MATE, licence: 'GPL-2+ (Jean-François Fortin Tam)' },
  { id: 'yellowflower', file: `${BG}/mate/nature/YellowFlower.jpg`, pkg: MATE, licence: 'GPL-2+ (Charles Barbin)' },
];

/**
 * The development split: the 14 photos the priors and thresholds were chosen on (issue 32). Fixed by
 * name, so leaving a photo out of the list does not move others between the splits.
 */
export const DEV_PHOTOS: ReadonlySet<string> = new Set(['aitzgorri', 'blinds', 'chelsea', 'colorfulcups', 'dune', 'fig', 'friends', 'kite', 'life', 'paintbrushes', 'raindrops', 'storm', 'twowings', 'yellowflower']);
export const isDev = (p: ScenePhoto) => DEV_PHOTOS.has(p.id);

/** A photo at `width` px wide (sRGB, no alpha), or undefined when it is not installed. */
export async function loadScenePhoto(root: string, p: ScenePhoto, width = 480): Promise<Rgb | undefined> {
  const file = path.resolve(root, p.file);
  if (!existsSync(file)) return undefined;
  return decodeRgb(await sharp(readFileSync(file)).rotate().removeAlpha().toColourspace('srgb').resize({ width }).png().toBuffer());
}

/** The photo turned grey: its own L*, a* = b* = 0. */
export const greyOf = (img: Rgb): Rgb => {
  const [L] = rgbToLab(img.data, img.w * img.h);
  const z = new Float32Array(L.length);
  return { ...img, data: labToRgb(L, z, z) };
};

/** Mean per-pixel Euclidean a*b* distance between two pictures of the same size. */
export function abError(a: Rgb, b: Rgb): number {
  const [, A1, B1] = rgbToLab(a.data, a.w * a.h);
  const [, A2, B2] = rgbToLab(b.data, b.w * b.h);
  let s = 0;
  for (let i = 0; i < A1.length; i++) s += Math.hypot(A1[i]! - A2[i]!, B1[i]! - B2[i]!);
  return s / A1.length;
}
