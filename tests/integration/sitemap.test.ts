import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

const ORIGIN = 'https://pixmill.example';
let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ runJobs: false, publicUrl: ORIGIN, publicUrlFixed: true });
});
afterAll(() => srv?.stop());

it('GET /sitemap.xml lists every site page with absolute en/de/fr/ja addresses on PUBLIC_URL', async () => {
  const res = await fetch(`${srv.url}/sitemap.xml`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/application\/xml/);
  const xml = await res.text();
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  for (const path of [
    '/pricing/',
    '/batch-process/',
    '/image-enlarger/',
    '/my-account/workflow/',
    '/privacy-policy/',
  ]) {
    expect(locs).toContain(`${ORIGIN}${path}`);
    expect(locs).toContain(`${ORIGIN}/ja${path}`);
  }
  expect(xml).toContain(`hreflang="de" href="${ORIGIN}/de/pricing/"`);
  expect(new Set(locs).size).toBe(locs.length);
});

it('GET /robots.txt is text with the absolute address of the sitemap on PUBLIC_URL, the API kept out', async () => {
  const res = await fetch(`${srv.url}/robots.txt`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  const text = await res.text();
  expect(text).not.toContain('<html');
  expect(text.split('\n')).toEqual(
    expect.arrayContaining(['User-agent: *', 'Disallow: /api/', `Sitemap: ${ORIGIN}/sitemap.xml`]),
  );
});
