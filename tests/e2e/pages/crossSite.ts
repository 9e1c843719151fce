/**
 * A page on another site (http://evil.example, served by the test through page.route) that posts a
 * form to the app, as an attacker's page does: the browser sends the request with that page's Origin
 * and Sec-Fetch-Site: cross-site, and no SameSite=Lax cookie of the app.
 */
import type { Page, Response } from '@playwright/test';

const EVIL_ORIGIN = 'http://evil.example';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export class CrossSitePage {
  constructor(
    readonly page: Page,
    /** the app's origin, e.g. http://127.0.0.1:8181 */
    readonly appOrigin: string,
  ) {}

  /** Opens the attacker's page with a form for `path` holding `fields`, submits it, and returns the app's answer. */
  async postForm(path: string, fields: Record<string, string>): Promise<Response> {
    const inputs = Object.entries(fields)
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
      .join('');
    const html = `<!doctype html><title>win a prize</title><form id="f" method="POST" action="${escapeHtml(this.appOrigin + path)}">${inputs}<button id="go">Claim</button></form>`;
    await this.page.route(`${EVIL_ORIGIN}/**`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: html }),
    );
    await this.page.goto(`${EVIL_ORIGIN}/prize.html`);
    const [answer] = await Promise.all([
      this.page.waitForResponse((r) => r.url() === this.appOrigin + path),
      this.page.locator('#go').click(),
    ]);
    return answer;
  }
}
