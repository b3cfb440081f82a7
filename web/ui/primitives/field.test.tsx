// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Field, TextAreaField } from './field';

describe('field', () => {
  it('labels the input, shows the hint, then the error in its place, tied to the input', () => {
    const { rerender } = render(<Field label="Name" hint="Lower case" />);
    const input = screen.getByLabelText('Name');
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Lower case');
    rerender(<Field label="Name" hint="Lower case" error="This field is required" />);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').id).toBe(input.getAttribute('aria-describedby'));
    expect(screen.queryByText('Lower case')).toBeNull();
  });

  it('has a multi-line form with the same label and error', () => {
    render(<TextAreaField label="Spec" error="Invalid YAML" monospace />);
    const textarea = screen.getByLabelText('Spec');
    expect(textarea.tagName).toBe('TEXTAREA');
    expect(textarea.className).toContain('font-mono');
    expect(screen.getByRole('alert').textContent).toBe('Invalid YAML');
  });

  it('marks a required field when asked, and its name stays the label', () => {
    const { rerender } = render(<Field label="URL" required />);
    expect(screen.queryByText('*')).toBeNull();
    rerender(<Field label="URL" required markRequired />);
    expect(screen.getByText('*').getAttribute('aria-hidden')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'URL' })).toBe(screen.getByLabelText('URL'));
  });
});
