import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/http/errors';

/**
 * The PDF of an application's report (docs/APPLICATIONS.md): headless Chromium opens the report page of this
 * very server as the caller (their session cookie or token passed along, nothing minted), waits until the
 * page says the report is loaded (`data-report-state` on the report root), and prints it.
 */

/** DESIGN §2: the flags Chromium runs headless with on a server. */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** How long the report may take to load and print. */
const RENDER_TIMEOUT_MS = 60_000;

export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.WATCHKEEPER_CHROMIUM?.trim() || '/usr/bin/chromium';
}

/** The caller's credentials as the browser sends them: cookies for the page's origin, headers for tokens. */
function credentials(req: FastifyRequest, origin: string): { cookies: Array<{ name: string; value: string; url: string }>; headers: Record<string, string> } {
  const cookies = (req.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .flatMap((part) => {
      const index = part.indexOf('=');
      return index > 0 ? [{ name: part.slice(0, index), value: part.slice(index + 1), url: origin }] : [];
    });
  const headers: Record<string, string> = {};
  const authorization = req.headers.authorization;
  if (typeof authorization === 'string') headers.authorization = authorization;
  const token = req.headers['x-session-token'];
  if (typeof token === 'string') headers['x-session-token'] = token;
  return { cookies, headers };
}

/** This server as the browser reaches it: the address and port the request came in on. */
function ownOrigin(req: FastifyRequest): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  const port = req.socket.localPort;
  if (!port) throw new AppError('service_unavailable', 'the PDF export needs the server to listen on a port (it renders the report page through it)');
  const host = address.includes(':') ? (address.startsWith('::ffff:') ? address.slice(7) : `[${address}]`) : address;
  return `http://${host}:${port}`;
}

/** The person's date preferences, as the console keeps them in session storage (web/lib/preferences.ts). */
export interface PdfDisplay {
  dateFormat?: string | undefined;
  timeZone?: string | undefined;
}

export async function renderReportPdf(req: FastifyRequest, report: { namespace: string; name: string; from: string; to: string }, display: PdfDisplay = {}): Promise<Buffer> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    throw new AppError('service_unavailable', `the PDF export needs Chromium, which is not installed at ${executablePath}: install it (apt-get install chromium) or set WATCHKEEPER_CHROMIUM to its path`);
  }
  const origin = ownOrigin(req);
  const { chromium } = await import('playwright-core');
  const profile = await mkdtemp(path.join(os.tmpdir(), 'wk-pdf-'));
  const { cookies, headers } = credentials(req, origin);
  const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: CHROMIUM_ARGS, extraHTTPHeaders: headers, viewport: { width: 1200, height: 1600 } }).catch((error: unknown) => {
    throw new AppError('service_unavailable', `Chromium at ${executablePath} did not start (set WATCHKEEPER_CHROMIUM to a working Chromium): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  });
  try {
    if (cookies.length > 0) await context.addCookies(cookies);
    // The printed dates follow the person's format and zone: the report page reads them where the console keeps them.
    await context.addInitScript((prefs: PdfDisplay) => {
      if (prefs.dateFormat) sessionStorage.setItem('dateTimeFormat', prefs.dateFormat);
      if (prefs.timeZone) sessionStorage.setItem('timezone', prefs.timeZone);
    }, display);
    const page = context.pages()[0] ?? (await context.newPage());
    const query = new URLSearchParams({ print: '1', from: report.from, to: report.to });
    const url = `${origin}/applications/${encodeURIComponent(report.namespace)}/${encodeURIComponent(report.name)}?${query.toString()}`;
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: RENDER_TIMEOUT_MS });
    const state = await page
      .waitForSelector('[data-report-state="ready"], [data-report-state="error"]', { timeout: RENDER_TIMEOUT_MS })
      .then((element) => element?.getAttribute('data-report-state'))
      .catch(() => undefined);
    if (state !== 'ready') {
      throw new AppError('service_unavailable', state === 'error' ? 'the report page failed to load its data, so no PDF was made' : `the report page did not finish loading within ${RENDER_TIMEOUT_MS / 1000} s`);
    }
    // Embedded views (sections) load on their own: wait for their skeletons to go, within a bound.
    await page.waitForFunction(() => !document.querySelector('[aria-label="Loading view"]'), undefined, { timeout: 15_000 }).catch(() => undefined);
    await page.emulateMedia({ media: 'print' });
    return await page.pdf({ format: 'A4', printBackground: true, margin: { top: '12mm', bottom: '12mm', left: '10mm', right: '10mm' } });
  } finally {
    await context.close().catch(() => undefined);
    await rm(profile, { recursive: true, force: true }).catch(() => undefined);
  }
}
