// Web component tests opt into jsdom with a `// @vitest-environment jsdom` docblock; this file adds the
// DOM matchers' cleanup between tests when a DOM exists.
import { afterEach } from 'vitest';

afterEach(async () => {
  if (typeof document !== 'undefined') {
    const { cleanup } = await import('@testing-library/react');
    cleanup();
  }
});
