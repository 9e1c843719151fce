/**
 * Who writes the site's articles and pages: the teams that build the code each text describes.
 * Bylines name a team, not an invented person; the posts' `author` (posts.tsx) points here and the
 * authors page (/author/) lists each team with its posts. English text (see Article.tsx).
 */
export const AUTHOR_IDS = ['engines', 'web-app', 'server'] as const;
export type AuthorId = (typeof AUTHOR_IDS)[number];

export interface Author {
  name: string;
  /** one line: what the team builds */
  role: string;
  bio: string;
  /** site pages (not blog posts) this team writes and keeps accurate */
  pages: readonly { path: string; label: string }[];
}

export const AUTHORS: Record<AuthorId, Author> = {
  engines: {
    name: 'Pixmill engines team',
    role: 'The image engines on the server',
    bio: 'Builds and measures what happens to a picture on our server: the super-resolution and denoising networks we train for enlarge and denoise, the IS-Net cut-outs, and the classical denoise, sharpen, colorize and scratch-repair steps, all running on sharp and ONNX Runtime. Their rule for writing is the same as for code: a claim about quality comes from a measurement in our tests or benchmarks, and a feature that is classical image processing is called that, not "AI".',
    pages: [{ path: '/about-us/', label: 'About us (the engine table)' }],
  },
  'web-app': {
    name: 'Pixmill web app team',
    role: 'The app in your browser',
    bio: 'Builds everything that runs on your device: the workspace, the upload queue that waits for the network, the image worker that fits pictures to your plan before they leave the browser, on-device processing with onnxruntime-web, and the installable app with its offline cache. They write about what your browser does and keep the desktop-app page in step with the code.',
    pages: [{ path: '/download-win/', label: 'Pixmill as a desktop app' }],
  },
  server: {
    name: 'Pixmill server team',
    role: 'The API, accounts and storage',
    bio: 'Runs the API, accounts, credits and plans, and decides what the server stores and for how long: retention sweeps, token lifetimes, request logs. Their pages state those rules with the numbers read from the server\u2019s own code and configuration, and the API documentation is generated from the server\u2019s route table when the site is built.',
    pages: [
      { path: '/privacy-policy/', label: 'Privacy policy' },
      { path: '/term-of-use/', label: 'Terms of use' },
      { path: '/api-docs/', label: 'API documentation' },
    ],
  },
};
