#!/usr/bin/env node
// The `watchkeeper` command: runs the built server bundle, or the TypeScript sources through tsx in a
// development checkout that has not been built yet.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/server/main.js', import.meta.url);
if (existsSync(bundle)) {
  await import(bundle.href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write('watchkeeper: the server is not built; run `npm run build` first\n');
    process.exit(1);
  }
  register();
  await import(new URL('../server/main.ts', import.meta.url).href);
}
