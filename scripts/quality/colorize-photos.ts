/**
 * The scene photos colorize is measured on: real photographs (no drawings, no renders)
 * from Debian packages, read where the packages install them, plus the skimage photos of the shared
 * images. Two groups:
 *  - 39 Debian wallpaper and skimage photos, looked at while the engine was built: all development.
 *  - 80 photos GCompris ships for its "explore monuments" and "erase" activities (gcompris-qt-data,
 *    Wikimedia Commons photographs, each with its licence in the package's resource README; read
 *    from the Qt resource bundles the package installs), never used before: every second one in
 *    alphabetical order is held out (HELDOUT_PHOTOS), the others join the development split.
 * Priors and thresholds are chosen on the development split only; the held-out split is what the
 * figures are reported on.
 * Install: apt-get install -y lomiri-wallpapers-16.04 lomiri-wallpapers-20.04 mate-backgrounds plasma-workspace-wallpapers gcompris-qt-data
 * Left out: black-and-white photos, which have nothing to get wrong (plasma's Grey and ColdRipple,
 * GCompris' castleClinton, a 1961 aerial view, and swans, white birds on black water, a*b* error
 * below 1.5 when grey). Photos that are not installed are skipped (and counted as missing in the report).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { decodeRgb, type Rgb } from '../../server/engines/image.js';
import { labToRgb, rgbToLab } from '../../server/engines/lab.js';

export interface ScenePhoto {
  id: string;
  file: string;
  /** the picture's path inside `file` when that is a Qt resource bundle (.rcc) */
  entry?: string;
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
const GCOMPRIS = 'gcompris-qt-data';
const RCC = '/usr/share/gcompris-qt/rcc';
const MON = 'explore_monuments',
  ERASE = 'erase';
/** A GCompris photo: the activity's bundle and the path under its resource folder; id = the file name, lower case, no underscores. */
const gc = (activity: string, rel: string, licence: string): ScenePhoto => ({
  id: path.basename(rel).toLowerCase().replaceAll('_', ''),
  file: `${RCC}/${activity}.rcc`,
  entry: `/gcompris/src/activities/${activity}/resource/${rel}.webp`,
  pkg: GCOMPRIS,
  licence,
});

/** `shared` paths are relative to the repository root. */
export const SCENE_PHOTOS: readonly ScenePhoto[] = [
  {
    id: 'aitzgorri',
    file: `${BG}/aitzgorri_by_Aitzol_Berasategi.jpg`,
    pkg: L16,
    licence: 'CC-BY-4.0 (Aitzol Berasategi)',
  },
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
  {
    id: 'kleiber',
    file: `${BG}/Kleiber_by_Lukas_Baubkus.jpg`,
    pkg: 'lomiri-wallpapers-20.04',
    licence: 'CC-BY-SA-3.0 (Lukas Baubkus)',
  },
  { id: 'ladybird', file: `${BG}/mate/nature/LadyBird.jpg`, pkg: MATE, licence: 'GPL-2+ (Charles Barbin)' },
  { id: 'life', file: `${BG}/life_by_Aitzol_Berasategi.jpg`, pkg: L16, licence: 'CC-BY-4.0 (Aitzol Berasategi)' },
  {
    id: 'motorcycle',
    file: '../shared/data/images/motorcycle_left.png',
    pkg: SKIMAGE,
    licence: 'CC0 (Middlebury stereo set)',
  },
  { id: 'onestandsout', file: KDE('OneStandsOut'), pkg: PLASMA, licence: `${PLASMA_LIC}, Risto Saukonpää` },
  {
    id: 'paintbrushes',
    file: `${BG}/Picture_1A_by_freespace.jpg`,
    pkg: L16,
    licence: 'CC-BY-4.0 (Trevor "Freespace")',
  },
  { id: 'path', file: KDE('Path'), pkg: PLASMA, licence: `${PLASMA_LIC}, Risto Saukonpää` },
  {
    id: 'picosdeeuropa',
    file: `${BG}/picosdeeuropa_by_Aitzol_Berasategi.jpg`,
    pkg: L16,
    licence: 'CC-BY-4.0 (Aitzol Berasategi)',
  },
  { id: 'raindrops', file: `${BG}/mate/nature/RainDrops.jpg`, pkg: MATE, licence: 'GPL-2+ ("blackcombwhistler07")' },
  { id: 'rocket', file: '../shared/data/images/rocket.jpg', pkg: SKIMAGE, licence: 'public domain (SpaceX)' },
  {
    id: 'seeding',
    file: `${BG}/seeding_by_Clements_Engelhardt.jpg`,
    pkg: L16,
    licence: 'CC0-1.0 (Clemens Engelhardt)',
  },
  { id: 'storm', file: `${BG}/mate/nature/Storm.jpg`, pkg: MATE, licence: 'GPL-2+ (Sergey Nazarov)' },
  { id: 'summer1am', file: KDE('summer_1am'), pkg: PLASMA, licence: `${PLASMA_LIC}, Risto Saukonpää` },
  { id: 'sunset', file: `${BG}/sunset_by_Aitzol_Berasategi.jpg`, pkg: L16, licence: 'CC-BY-4.0 (Aitzol Berasategi)' },
  { id: 'twowings', file: `${BG}/mate/nature/TwoWings.jpg`, pkg: MATE, licence: 'GPL-2+ (Charles Barbin, Hylke Bons)' },
  { id: 'wine', file: `${BG}/Wine_by_Jakkub_Mede.jpg`, pkg: L16, licence: 'CC-BY-4.0 (Jakub Mede)' },
  { id: 'wood', file: `${BG}/mate/nature/Wood.jpg`, pkg: MATE, licence: 'GPL-2+ (Jean-François Fortin Tam)' },
  { id: 'yellowflower', file: `${BG}/mate/nature/YellowFlower.jpg`, pkg: MATE, licence: 'GPL-2+ (Charles Barbin)' },
  // GCompris (licence and author from the resource README of each activity; sources on Wikimedia Commons)
  gc(MON, 'india/ajantaCave', 'public domain (Jonathanawhite)'),
  gc(ERASE, 'alpaca', 'CC-BY-SA-4.0 (Dietmar Rabich / Wikimedia Commons)'),
  gc(MON, 'france/arlesAmphitheater', 'public domain ((WT-fr) OT Arles)'),
  gc(MON, 'germany/aulaPalatina', 'public domain (Berthold Werner)'),
  gc(ERASE, 'bee', 'CC-BY-2.0 (aussiegall)'),
  gc(MON, 'egypt/bentPyramid', 'public domain (Neithsabes)'),
  gc(MON, 'germany/berlinCathedral', 'CC0-1.0 (Gary Todd)'),
  gc(MON, 'germany/brandenburgGate', 'public domain (Evans1551)'),
  gc(ERASE, 'butterfly', 'CC-BY-SA-4.0 (© 2014 Jee & Rani Nature Photography)'),
  gc(MON, 'usa/cabrillo', 'CC0-1.0 (allyndon)'),
  gc(ERASE, 'calf', 'CC-BY-SA-4.0 (Basile Morin)'),
  gc(ERASE, 'camels', 'CC-BY-SA-4.0 (Alexandr frolov)'),
  gc(MON, 'usa/canyondeChelly', 'public domain (Nikater)'),
  gc(MON, 'usa/castillodeSanMarcos', 'public domain (National Park Service)'),
  gc(ERASE, 'caterpillar', 'CC-BY-SA-4.0 (Ivar Leidus)'),
  gc(ERASE, 'chamaeleon', 'CC-BY-3.0 (Benny Trapp)'),
  gc(MON, 'india/charminar', 'public domain (Goutamkhandelwal)'),
  gc(MON, 'france/chateaudeChambord', 'public domain (BjörnT)'),
  gc(MON, 'france/chateaudeChenonceau', 'public domain (Alf van Beem)'),
  gc(ERASE, 'cheetah', 'CC-BY-SA-4.0 (Charles J. Sharp)'),
  gc(MON, 'wonders/chichenItza', 'CC-BY-SA-4.0 (Daniel Schwen)'),
  gc(MON, 'wonders/christTheRedeemer', 'CC-BY-SA-4.0 (Chensiyuan)'),
  gc(MON, 'france/citedeCarcassonne', 'public domain (Petitemontagnedujura)'),
  gc(MON, 'wonders/colosseum', 'public domain (Urse Ovidiu)'),
  gc(ERASE, 'crab', 'CC0-1.0 (Nosferattus)'),
  gc(ERASE, 'dolphin', 'CC-BY-SA-4.0 (טל שמע)'),
  gc(MON, 'france/eiffelTower', 'public domain (Tognopop)'),
  gc(ERASE, 'flying_fox', 'CC-BY-SA-4.0 (Andrew Mercer)'),
  gc(MON, 'usa/fortSumter', 'CC0-1.0 (Gary Todd)'),
  gc(MON, 'india/gatewayofIndia', 'CC0-1.0 (Simon Steinberger)'),
  gc(MON, 'usa/georgeWashingtonBirthplace', 'public domain (National Park Service)'),
  gc(ERASE, 'gibbon', 'CC-BY-3.0 (JJ Harrison)'),
  gc(ERASE, 'giraffe', 'public domain (Sergio Cambelo)'),
  gc(ERASE, 'goat', 'CC-BY-SA-4.0 (JoachimKohlerBremen)'),
  gc(MON, 'india/goldenTemple', 'CC0-1.0 (Jasdeep Singh)'),
  gc(ERASE, 'gorilla', 'CC-BY-SA-4.0 (Charles J. Sharp)'),
  gc(ERASE, 'gosling', 'CC-BY-SA-4.0 (Stephan Sprinz)'),
  gc(MON, 'egypt/greatPyramidOfGiza', 'CC0-1.0 (Gary Todd)'),
  gc(MON, 'india/greatStupa', 'public domain (ArnoldBetten)'),
  gc(MON, 'wonders/greatWallofChina', 'CC0-1.0 (Nicolas Perrault III)'),
  gc(MON, 'india/hawaMahal', 'public domain (Janwiki)'),
  gc(ERASE, 'heron', 'CC-BY-SA-4.0 (Stephan Sprinz)'),
  gc(ERASE, 'horse', 'CC-BY-SA-4.0 (Eatcha)'),
  gc(ERASE, 'kingfisher', 'CC0-1.0 (Frank-2.0)'),
  gc(ERASE, 'kitten', 'CC-BY-2.0 (GalgenTX)'),
  gc(MON, 'india/konarkSunTemple', 'public domain (Tetraktys)'),
  gc(MON, 'usa/lincolnMemorial', 'CC0-1.0 (Brylie Christopher Oxley)'),
  gc(ERASE, 'long_nosed_monkey', 'CC-BY-SA-4.0 (Charles J. Sharp)'),
  gc(ERASE, 'macaque', 'CC-BY-SA-4.0 (PJeganathan)'),
  gc(MON, 'wonders/machuPicchu', 'CC0-1.0 (Guillaume Pascal)'),
  gc(ERASE, 'meerkats', 'CC-BY-SA-4.0 (Charles J. Sharp)'),
  gc(MON, 'egypt/meidumPyramid', 'public domain (Neithsabes)'),
  gc(MON, 'france/montStMichel', 'CC0-1.0 (Ali Sabbagh)'),
  gc(MON, 'usa/mountRushmore', 'CC0-1.0 (Eekim)'),
  gc(MON, 'india/mysorePalace', 'public domain (Shiva sg)'),
  gc(MON, 'usa/navajo', 'public domain (Jon Sullivan)'),
  gc(MON, 'germany/neuschwansteinCastle', 'CC0-1.0 (cameralends)'),
  gc(ERASE, 'northern_harrier', 'CC-BY-SA-4.0 (Frank Schulenburg)'),
  gc(ERASE, 'nubian_ibex', 'CC-BY-SA-4.0 (Rhododendrites)'),
  gc(MON, 'france/palaisdesPapes', 'CC0-1.0 (Tognopop)'),
  gc(ERASE, 'penguin', 'CC-BY-SA-4.0 (Gordon Leggett / Wikimedia Commons)'),
  gc(MON, 'wonders/petra', 'public domain (Berthold Werner)'),
  gc(ERASE, 'pika', 'public domain (NPS Climate Change Response)'),
  gc(MON, 'france/pontduGard', 'public domain (Mimova)'),
  gc(MON, 'india/qutubMinar', 'CC0-1.0 (pramadas)'),
  gc(MON, 'india/rangGhar', 'public domain (Porikolpok Oxom)'),
  gc(ERASE, 'red_panda', 'CC0-1.0 (Mathias Appel)'),
  gc(MON, 'egypt/redPyramid', 'public domain (Chipdawes)'),
  gc(MON, 'france/reimsCathedral', 'public domain (Mattana)'),
  gc(ERASE, 'rhinoceros', 'CC-BY-SA-4.0 (Charles J. Sharp)'),
  gc(MON, 'france/rocamadour', 'public domain (François Darras)'),
  gc(MON, 'germany/schwerinPalace', 'CC0-1.0 (Hermann Luyken)'),
  gc(ERASE, 'spoonbills', 'CC-BY-SA-4.0 (Ryzhkov Sergey)'),
  gc(ERASE, 'squirrel', 'CC-BY-SA-4.0 (Роман Наумов)'),
  gc(MON, 'usa/statueofLiberty', 'public domain ((WT-shared) Ypsilonatshared)'),
  gc(MON, 'wonders/tajMahal', 'CC-BY-SA-4.0 (Yann)'),
  gc(ERASE, 'toucan', 'CC-BY-SA-4.0 (LG Nyqvist)'),
  gc(MON, 'germany/trierImperialBaths', 'public domain (Berthold Werner)'),
  gc(MON, 'india/victoriaMemorial', 'CC0-1.0 (Anourag)'),
  gc(MON, 'germany/wormsCathedral', 'public domain (Immanuel Giel)'),
];

/**
 * The held-out split: every second GCompris photo in alphabetical order of id (40 of 80), fixed by
 * name, so leaving a photo out of the list does not move others between the splits. Everything else
 * (the other 40 GCompris photos and the 39 photos the engine was built with) is development.
 */
export const HELDOUT_PHOTOS: ReadonlySet<string> = new Set([
  'ajantacave',
  'arlesamphitheater',
  'bee',
  'berlincathedral',
  'butterfly',
  'calf',
  'canyondechelly',
  'caterpillar',
  'charminar',
  'chateaudechenonceau',
  'chichenitza',
  'citedecarcassonne',
  'crab',
  'eiffeltower',
  'fortsumter',
  'georgewashingtonbirthplace',
  'giraffe',
  'goldentemple',
  'gosling',
  'greatstupa',
  'hawamahal',
  'horse',
  'kitten',
  'lincolnmemorial',
  'macaque',
  'meerkats',
  'montstmichel',
  'mysorepalace',
  'neuschwansteincastle',
  'nubianibex',
  'penguin',
  'pika',
  'qutubminar',
  'redpanda',
  'reimscathedral',
  'rocamadour',
  'spoonbills',
  'statueofliberty',
  'toucan',
  'victoriamemorial',
]);
export const isDev = (p: ScenePhoto) => !HELDOUT_PHOTOS.has(p.id);

/**
 * One file from a Qt binary resource bundle (.rcc, format 1–3: header "qres", version, then the
 * offsets of the tree, the data and the names; tree nodes of 14 bytes, 22 from version 2; zlib data
 * behind flag 1), or undefined when the bundle has no such entry.
 */
export function readQtResource(bundle: Buffer, entry: string): Buffer | undefined {
  if (bundle.toString('latin1', 0, 4) !== 'qres') throw new Error('not a Qt resource bundle');
  const version = bundle.readUInt32BE(4),
    tree = bundle.readUInt32BE(8),
    data = bundle.readUInt32BE(12),
    names = bundle.readUInt32BE(16);
  const nodeSize = version >= 2 ? 22 : 14;
  const nameOf = (node: number) => {
    const at = names + bundle.readUInt32BE(tree + node * nodeSize);
    const len = bundle.readUInt16BE(at);
    return Buffer.from(bundle.subarray(at + 6, at + 6 + 2 * len))
      .swap16()
      .toString('utf16le'); // swap16 works in place: on a copy
  };
  let node = 0;
  for (const part of entry.split('/').filter(Boolean)) {
    const at = tree + node * nodeSize;
    if (!(bundle.readUInt16BE(at + 4) & 2)) return undefined;
    const count = bundle.readUInt32BE(at + 6),
      first = bundle.readUInt32BE(at + 10);
    const next = Array.from({ length: count }, (_, k) => first + k).find((c) => nameOf(c) === part);
    if (next === undefined) return undefined;
    node = next;
  }
  const at = tree + node * nodeSize,
    flags = bundle.readUInt16BE(at + 4);
  if (flags & 2) return undefined;
  const off = data + bundle.readUInt32BE(at + 10),
    len = bundle.readUInt32BE(off);
  const raw = bundle.subarray(off + 4, off + 4 + len);
  if (flags & 4) throw new Error(`${entry}: zstd-compressed resources are not read`);
  return flags & 1 ? inflateSync(raw.subarray(4)) : Buffer.from(raw);
}

/** A photo at `width` px wide (sRGB, no alpha), or undefined when it is not installed. */
export async function loadScenePhoto(root: string, p: ScenePhoto, width = 480): Promise<Rgb | undefined> {
  const file = path.resolve(root, p.file);
  if (!existsSync(file)) return undefined;
  const bytes = p.entry ? readQtResource(readFileSync(file), p.entry) : readFileSync(file);
  if (!bytes) return undefined;
  return decodeRgb(await sharp(bytes).rotate().removeAlpha().toColourspace('srgb').resize({ width }).png().toBuffer());
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
