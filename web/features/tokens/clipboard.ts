import { toast } from '@web/lib/toast';

/** Spec §8 copy messages. */
export const COPY_TEXTS = {
  copied: 'Token copied to clipboard',
  unavailable: 'Clipboard not available',
  failed: 'Failed to copy to clipboard',
} as const;

export type CopyOutcome = keyof typeof COPY_TEXTS;

/** Copies text; the clipboard API only exists on secure origins (https, localhost). */
export async function copyText(text: string): Promise<CopyOutcome> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  if (!clipboard || typeof clipboard.writeText !== 'function') return 'unavailable';
  try {
    await clipboard.writeText(text);
    return 'copied';
  } catch {
    return 'failed';
  }
}

/** Copies the token and says how it went. */
export async function copyToken(token: string): Promise<CopyOutcome> {
  const outcome = await copyText(token);
  if (outcome === 'copied') toast.success(COPY_TEXTS.copied);
  else toast.error(COPY_TEXTS[outcome]);
  return outcome;
}
