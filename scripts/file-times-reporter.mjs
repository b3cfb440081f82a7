// A vitest reporter that writes how long each test file took, whole: preparing its worker, loading the
// environment and setup files, importing the file, then its hooks and tests (vitest's JSON report times
// only from the first test's start to the last test's end, so a file's beforeAll and imports are missing
// there). scripts/test.mjs passes it with WK_FILE_TIMES=<output .json>; scripts/test-report.mjs reads it.
import fs from 'node:fs';
import path from 'node:path';

export default class FileTimesReporter {
  files = [];

  onInit(vitest) {
    this.root = vitest.config.root;
  }

  onTestModuleEnd(testModule) {
    const d = testModule.diagnostic();
    const parts = {
      prepare: d.prepareDuration,
      environment: d.environmentSetupDuration,
      setup: d.setupDuration,
      import: d.collectDuration,
      run: d.duration,
    };
    const ms = Object.values(parts).reduce((sum, value) => sum + (Number.isFinite(value) ? value : 0), 0);
    this.files.push({
      file: path.relative(this.root, testModule.moduleId),
      project: testModule.project.name,
      state: testModule.state(),
      ms: Math.round(ms),
      parts: Object.fromEntries(Object.entries(parts).map(([key, value]) => [key, Math.round(value || 0)])),
    });
  }

  onTestRunEnd() {
    const out = process.env.WK_FILE_TIMES;
    if (!out) return;
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ files: this.files }, null, 1));
  }
}
