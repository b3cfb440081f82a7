// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ArtifactLinks } from './artifact-links';

describe('a run’s artifacts in the History tab', () => {
  const artifacts = [
    { id: 'a1', check_time: '2030-01-01T00:00:00Z', filename: 'report.html', size: 2048, truncated: false },
    { id: 'a 2', check_time: '2030-01-01T00:00:00Z', filename: 'big.log', size: 11 * 1024 * 1024, truncated: true },
  ];

  it('lists each by name and size, as a download link', () => {
    render(<ArtifactLinks artifacts={artifacts} />);
    const links = screen.getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href'), link.getAttribute('download')])).toEqual([
      ['report.html', '/api/artifacts/download/a1', 'report.html'],
      ['big.log', '/api/artifacts/download/a%202', 'big.log'],
    ]);
    expect(screen.getByRole('list', { name: 'Artifacts' }).textContent).toBe('report.html2 KBbig.log11 MB (truncated)');
  });

  it('is reached with the keyboard, link after link', async () => {
    render(<ArtifactLinks artifacts={artifacts} />);
    await userEvent.tab();
    expect(document.activeElement?.textContent).toBe('report.html');
    await userEvent.tab();
    expect(document.activeElement?.textContent).toBe('big.log');
  });

  it('renders nothing for a run without artifacts', () => {
    const { container } = render(<ArtifactLinks artifacts={[]} />);
    expect(container.innerHTML).toBe('');
  });
});
