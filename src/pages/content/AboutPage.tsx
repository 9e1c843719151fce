/** About: who builds Pixmill and what each engine really is (neural or classical), as in the README's engine table. */
import { useTranslation } from 'react-i18next';
import { L } from '../../app/lang.js';
import { PLAN_LIMITS } from '../../shared/domain/plans.js';
import { Article, type Section } from './Article.js';
import { FactTable } from './FactTable.js';

interface EngineRow {
  feature: string;
  kind: 'neural' | 'classical' | 'neural + classical';
  what: string;
}

/** One row per feature, following README.md "What each feature really does". */
const ENGINES: readonly EngineRow[] = [
  {
    feature: 'Enlarge',
    kind: 'neural',
    what: 'Our own super-resolution networks (2x, about 360 000 weights), trained here on photos from Debian\u2019s wallpaper packages to undo downscaling, mild blur, sensor noise and JPEG, run in overlapping tiles with mirrored borders and cross-faded seams. 4x and 8x are chained 2x passes; 6x is two 2x passes and a final Lanczos step; best quality averages the network over eight flips of the picture.',
  },
  {
    feature: 'Remove background',
    kind: 'neural',
    what: 'IS-Net segmentation, then a guided filter on the edges, a solid interior and edge colour decontamination; the result is a PNG with transparency.',
  },
  {
    feature: 'Denoise',
    kind: 'neural',
    what: 'Our own blind denoising network (a small U-Net of about a million weights, trained here with synthetic sensor noise and JPEG); the detail it takes along with the noise is given back by a guided filter on the part it removed. It replaced non-local means, which it beats on the denoising benchmark (CBSD68).',
  },
  {
    feature: 'Sharpen',
    kind: 'classical',
    what: 'Unsharp mask with coring; the automatic mode estimates how blurred the picture is and backs off on pictures that are already sharp.',
  },
  {
    feature: 'Colorize',
    kind: 'classical',
    what: 'Scene regions (sky, vegetation, skin found by a face detector) get colour priors in proportion to how sure they are; the rest gets a gentle warm-neutral tone (none in dark pictures), never a guessed hue. No colorization network is installed; an operator can plug one in.',
  },
  {
    feature: 'Photo to sketch',
    kind: 'neural + classical',
    what: 'A classical pencil sketch; a neural face detector (BlazeFace) finds the face for the portrait crop.',
  },
  {
    feature: 'Face enhancer',
    kind: 'neural + classical',
    what: 'BlazeFace finds faces and their key points; each face then gets skin-aware smoothing that keeps pores, an even tone and clearer eyes, brows and mouth.',
  },
  {
    feature: 'Cartoonizer',
    kind: 'classical',
    what: 'Cel shading: edge-preserving smoothing, flat tone bands, saturated colour and anti-aliased ink lines.',
  },
  {
    feature: 'Photo retoucher',
    kind: 'neural',
    what: 'MAXIM retouching (and MAXIM low-light enhancement for dark pictures), run on a small copy and carried to full resolution by a guided filter.',
  },
  { feature: 'Image compressor', kind: 'classical', what: 'mozjpeg and libimagequant through sharp.' },
  {
    feature: 'Old photo repair',
    kind: 'neural + classical',
    what: 'A small network of our own finds scratches and specks, even on busy texture; an oriented thin-line filter and a dust ring test add what it misses; the holes are filled across from their sides, followed by denoise and colorize.',
  },
];

export function AboutPage() {
  const { t } = useTranslation('site');
  const free = PLAN_LIMITS.guest;
  const pro = PLAN_LIMITS.pro;
  const sections: Section[] = [
    {
      id: 'who',
      title: 'Who we are',
      body: (
        <>
          <p>
            Pixmill is built by a small team of engineers who also take a lot of photos. We wanted a tool that does the
            few things people really need from &ldquo;AI photo&rdquo; sites (enlarge, clean up, cut out, restore)
            without hiding what it does or keeping pictures longer than needed.
          </p>
          <p>
            The whole product is one code base: a web app you can install (it works offline for the simple tools and
            queues uploads until the network is back) and a Node.js server that runs the image engines. Everything on
            this site, including these pages, is written by the people who build the engines.
          </p>
        </>
      ),
    },
    {
      id: 'engines',
      title: 'What the engines are, honestly',
      body: (
        <>
          <p>
            Many image sites call every filter &ldquo;AI&rdquo;. We do not. Some of our features run neural networks,
            some are careful classical image processing, and some combine both. Where a usable network exists with a
            licence we can ship, we run it; where it does not, or where we measured that a classical method is better,
            we say so.
          </p>
          <FactTable
            head={['Feature', 'Engine', 'What it does']}
            rows={ENGINES.map((e) => [e.feature, e.kind, e.what])}
            testId="engine-table"
          />
          <p>
            Every engine transforms the picture: none of them passes pixels through unchanged and calls it a result.
          </p>
        </>
      ),
    },
    {
      id: 'where',
      title: 'Where your pictures are processed',
      body: (
        <>
          <p>
            On our server&rsquo;s processors, in the order you chose. Nothing is sent to a third-party AI service.
            Uploads are fitted to your plan before they leave your browser (for free accounts at most {free.maxSidePx}{' '}
            px on the longer side and {free.maxMegapixels} megapixels; on Pro at most {pro.maxSidePx} px), and the app
            tells you when it had to resize.
          </p>
          <p>
            Three features can also run on your device, in the browser: enlarge 2x, background removal and compression.
            The models are the same files the server uses, downloaded once and kept by the app; results made this way
            never reach our server. <L to="/posts/background-removal-on-your-device/">How that works</L>.
          </p>
        </>
      ),
    },
    {
      id: 'contact',
      title: 'Talk to us',
      body: (
        <p>
          Questions, a result that looks wrong, or a picture you want us to look at: use the{' '}
          <L to="/contact/">contact form</L>. What we store and for how long is on the{' '}
          <L to="/privacy-policy/">privacy page</L>.
        </p>
      ),
    },
  ];
  return (
    <Article
      title={t('content.about_us.title')}
      intro={t('content.about_us.body')}
      sections={sections}
      testId="about-page"
    />
  );
}
