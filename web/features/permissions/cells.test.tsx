// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SubjectCell } from './cells';
import type { Permission } from './schema';

const base: Permission = {
  id: 'p1', name: 'late-joiner', namespace: 'billing', description: null, action: 'update', deny: false, subject: 'late.joiner@example.com', subject_type: 'person',
  person_id: null, team_id: null, notification_id: null, object: null, object_selector: { configs: [{ name: 'billing-*' }] }, config_id: null, component_id: null,
  canary_id: null, playbook_id: null, connection_id: null, tags: null, agents: null, until: null, source: 'ConfigFile',
  created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', person: null, team: null, group: null, created_by_person: null, waiting_for: [],
};

describe('the Permissions table subject cell', () => {
  it('shows what a row waits for: the person as written, until their account exists', () => {
    render(<SubjectCell permission={{ ...base, waiting_for: [{ path: 'spec.subject.person', kind: 'person', ref: 'late.joiner@example.com' }] }} />);
    expect(screen.getByText('late.joiner@example.com')).toBeTruthy();
    expect(screen.getByText('Waiting for person "late.joiner@example.com" (spec.subject.person)')).toBeTruthy();
  });

  it('shows a plugin subject and a row with no subject this console knows, with why it grants nothing', () => {
    const { unmount } = render(<SubjectCell permission={{ ...base, subject_type: 'plugin', subject: 'billing/log-viewer' }} />);
    expect(screen.getByText('Plugin')).toBeTruthy();
    expect(screen.queryByText(/Waiting for/)).toBeNull();
    unmount();
    render(<SubjectCell permission={{ ...base, subject_type: 'none', subject: 'user: auditor', error: 'spec.subject: names no subject this console knows; saved, this permission grants nothing' }} />);
    expect(screen.getByText('No subject')).toBeTruthy();
    expect(screen.getByText('spec.subject: names no subject this console knows; saved, this permission grants nothing')).toBeTruthy();
  });
});
