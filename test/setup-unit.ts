// Web component tests opt into jsdom with a `// @vitest-environment jsdom` docblock; this file adds the
// DOM matchers' cleanup between tests when a DOM exists, and gives findBy*/waitFor the time a busy 2-core
// machine needs to render (their 1 s default failed tests that pass).
import { afterEach } from 'vitest';

if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 5_000 });
}

afterEach(async () => {
  if (typeof document !== 'undefined') {
    const { cleanup } = await import('@testing-library/react');
    cleanup();
  }
});
