// Shell JavaScript loaded before the first route: the entry script of index.html and every module it
// preloads, gzip-compressed as the server sends them. Target (issue 2): ≤ 200 KB gzip.
// Run after `npm run build`: npx tsx bench/bundle.ts
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '..', 'dist', 'web');

async function main(): Promise<void> {
  const html = await fs.readFile(path.join(dist, 'index.html'), 'utf8').catch(() => {
    throw new Error('dist/web/index.html is missing: run npm run build first');
  });
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map((match) => match[1] ?? '');
  const styles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+\.css)"/g)].map((match) => match[1] ?? '');
  const measure = async (files: string[]) => {
    let raw = 0;
    let gzip = 0;
    for (const file of new Set(files)) {
      const content = await fs.readFile(path.join(dist, file.replace(/^\//, '')));
      raw += content.length;
      gzip += gzipSync(content, { level: 9 }).length;
    }
    return { raw, gzip };
  };
  const js = await measure(scripts);
  const css = await measure(styles);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  process.stdout.write(`shell JavaScript before the first route: ${kb(js.gzip)} gzip (${kb(js.raw)} raw, ${new Set(scripts).size} files)  target ≤ 200 KB  ${js.gzip <= 200 * 1024 ? 'OK' : 'MISSED'}\n`);
  process.stdout.write(`shell CSS: ${kb(css.gzip)} gzip (${kb(css.raw)} raw)\n`);
}

await main();
