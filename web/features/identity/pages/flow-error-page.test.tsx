// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPage, scriptedServer } from '../test-utils';
import FlowErrorPage from './flow-error-page';

const ID = '00000000-0000-0000-0000-000000000000';

function open(status: number, body: unknown) {
  const calls = scriptedServer((call) => (call.path === '/api/.ory/self-service/errors' ? { status, body } : undefined));
  renderPage(<FlowErrorPage />, { path: `/error?id=${ID}`, route: '/error' });
  return calls;
}

describe('flow error page (spec §2, §8)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([404, 403, 410])('goes home when the error is gone (%i)', async (status) => {
    const calls = open(status, { error: { code: status, status: 'Not Found', message: 'The requested resource could not be found' } });
    expect((await screen.findByTestId('location')).textContent).toBe('/');
    expect(calls.map((call) => call.search.get('id'))).toEqual([ID]);
    expect(screen.queryByText(/data is undefined/)).toBeNull();
  });

  it('goes home without an id', async () => {
    scriptedServer(() => undefined);
    renderPage(<FlowErrorPage />, { path: '/error', route: '/error' });
    expect((await screen.findByTestId('location')).textContent).toBe('/');
  });

  it('shows a stored error with its reason and Go back', async () => {
    open(200, { id: ID, error: { code: 500, message: 'An internal server error occurred', reason: 'The flow could not be stored.' } });
    expect(await screen.findByText('The flow could not be stored.')).toBeTruthy();
    expect(screen.getByText('An error occurred')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go back' })).toBeTruthy();
  });

  it('shows the service failure with Try again when the error cannot be read', async () => {
    open(500, { error: { code: 500, message: 'database unavailable' } });
    expect(await screen.findByText('database unavailable')).toBeTruthy();
    expect(screen.queryByTestId('location')).toBeNull();
  });
});
