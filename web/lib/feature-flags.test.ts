import { describe, expect, it } from 'vitest';
import { disabledFeatures, isFeatureEnabled } from './feature-flags';

describe('feature flags', () => {
  it('reads only {feature}.disable rows whose value is true', () => {
    const disabled = disabledFeatures([
      { name: 'health.disable', value: 'true' },
      { name: 'logs.disable', value: 'false' },
      { name: 'incidents.disable', value: null },
      { name: 'settings.connections.disable', value: ' TRUE ' },
      { name: 'config.disabled', value: 'true' },
      { name: '.disable', value: 'true' },
    ]);
    expect([...disabled].sort()).toEqual(['health', 'settings.connections']);
  });

  it('keeps everything on without rows and for routes without a feature', () => {
    const none = disabledFeatures([]);
    expect(isFeatureEnabled('health', none)).toBe(true);
    expect(isFeatureEnabled(undefined, disabledFeatures([{ name: 'health.disable', value: 'true' }]))).toBe(true);
  });

  it('lets settings pages inherit from their area (spec §6)', () => {
    const off = (name: string) => disabledFeatures([{ name: `${name}.disable`, value: 'true' }]);
    expect(isFeatureEnabled('settings.config_scraper', off('config'))).toBe(false);
    expect(isFeatureEnabled('settings.topology', off('topology'))).toBe(false);
    expect(isFeatureEnabled('settings.health', off('health'))).toBe(false);
    expect(isFeatureEnabled('settings.job_history', off('health'))).toBe(false);
    expect(isFeatureEnabled('settings.connections', off('config'))).toBe(true);
    // Inheritance goes one way: switching a settings page off leaves its area on.
    expect(isFeatureEnabled('health', off('settings.health'))).toBe(true);
    expect(isFeatureEnabled('settings.job_history', off('settings.job_history'))).toBe(false);
  });
});
