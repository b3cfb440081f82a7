import path from 'node:path';

/** Formats recognised by their first bytes, before any name is trusted (flanksource/artifacts sniffs content too). */
const SIGNATURES: ReadonlyArray<{ type: string; bytes: readonly number[] }> = [
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { type: 'application/gzip', bytes: [0x1f, 0x8b] },
  { type: 'application/zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
];

/** Text formats whose name says more than their bytes can. */
const TEXT_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.xml': 'application/xml',
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const BINARY_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.tar': 'application/x-tar',
  '.tgz': 'application/gzip',
};

function startsWith(content: Buffer, bytes: readonly number[]): boolean {
  return content.length >= bytes.length && bytes.every((byte, index) => content[index] === byte);
}

/** Valid UTF-8 without NUL bytes in the first 8 KiB: text. */
function looksLikeText(content: Buffer): boolean {
  const head = content.subarray(0, 8192);
  if (head.includes(0)) return false;
  try {
    // A multi-byte character cut at the 8 KiB edge is not a reason to call the file binary.
    new TextDecoder('utf-8', { fatal: true }).decode(head.length === content.length ? head : head.subarray(0, Math.max(0, head.length - 3)));
    return true;
  } catch {
    return false;
  }
}

/**
 * The content type an artifact is served with when its producer did not say: known signatures first, then
 * the file's extension for text formats, then text or binary by its bytes.
 */
export function detectContentType(filePath: string, content: Buffer): string {
  for (const signature of SIGNATURES) if (startsWith(content, signature.bytes)) return signature.type;
  const extension = path.extname(filePath).toLowerCase();
  const binary = BINARY_BY_EXTENSION[extension];
  if (binary) return binary;
  if (!looksLikeText(content)) return 'application/octet-stream';
  return TEXT_BY_EXTENSION[extension] ?? 'text/plain; charset=utf-8';
}
