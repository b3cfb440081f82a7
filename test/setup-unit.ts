// Web component tests opt into jsdom with a `// @vitest-environment jsdom` docblock; when a DOM exists this
// file gives findBy*/waitFor the time a busy 2-core machine needs to render (their 1 s default failed tests
// that pass) and cleans the DOM up between tests.
import { afterEach } from 'vitest';

const testingLibrary = typeof document !== 'undefined' ? await import('@testing-library/react') : undefined;
testingLibrary?.configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  testingLibrary?.cleanup();
});
