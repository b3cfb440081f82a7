import { toast } from '@web/lib/toast';

/** Spec §8 copy messages. */
export const COPY_TEXTS = {
  copied: 'Copied to clipboard',
  unavailable: 'Clipboard not available',
  failed: 'Failed to copy to clipboard',
} as const;

/** Copies text and says how it went; the clipboard needs a secure context (https or localhost). */
export async function copyToClipboard(text: string, copied: string = COPY_TEXTS.copied): Promise<boolean> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  if (!clipboard) {
    toast.error(COPY_TEXTS.unavailable);
    return false;
  }
  try {
    await clipboard.writeText(text);
    toast.success(copied);
    return true;
  } catch {
    toast.error(COPY_TEXTS.failed);
    return false;
  }
}
