// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useUrlParams } from './use-url-params';

function TwoChanges() {
  const [params, update] = useUrlParams();
  return (
    <>
      <button
        type="button"
        onClick={() => {
          update((current) => new URLSearchParams([...current, ['a', '1']]));
          update((current) => new URLSearchParams([...current, ['b', '2']]));
        }}
      >
        change
      </button>
      <output>{params.toString()}</output>
    </>
  );
}

describe('useUrlParams', () => {
  it('composes changes made before the URL commits', async () => {
    const router = createMemoryRouter([{ path: '/', element: <TwoChanges /> }], { initialEntries: ['/?x=0'] });
    render(<RouterProvider router={router} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'change' }));
    expect(await screen.findByText('x=0&a=1&b=2')).toBeTruthy();
  });
});
