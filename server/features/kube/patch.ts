import { isRecord } from '../../platform/errors';

/** A patch that cannot be applied; answered as a Kubernetes 422 (Invalid) or 400 (BadRequest). */
export class PatchError extends Error {}

/** RFC 7386 JSON merge patch: null removes a key, objects merge, everything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const out: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

function pointer(path: unknown, at: string): string[] {
  if (typeof path !== 'string' || (path !== '' && !path.startsWith('/'))) throw new PatchError(`${at}: must be a JSON pointer such as /spec/http/0/url`);
  return path === '' ? [] : path.slice(1).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc: unknown, parts: string[], at: string): { parent: Record<string, unknown> | unknown[]; key: string } {
  let current: unknown = doc;
  for (const part of parts.slice(0, -1)) {
    if (Array.isArray(current)) current = current[Number(part)];
    else if (isRecord(current)) current = current[part];
    else current = undefined;
    if (current === undefined) throw new PatchError(`${at}: /${parts.join('/')} does not exist`);
  }
  if (!Array.isArray(current) && !isRecord(current)) throw new PatchError(`${at}: /${parts.join('/')} does not exist`);
  return { parent: current, key: parts[parts.length - 1] ?? '' };
}

function getAt(doc: unknown, parts: string[], at: string): unknown {
  let current: unknown = doc;
  for (const part of parts) {
    if (Array.isArray(current)) current = current[Number(part)];
    else if (isRecord(current)) current = Object.hasOwn(current, part) ? current[part] : undefined;
    else current = undefined;
    if (current === undefined) throw new PatchError(`${at}: /${parts.join('/')} does not exist`);
  }
  return current;
}

function arrayIndex(list: unknown[], key: string, forAdd: boolean, at: string): number {
  if (forAdd && key === '-') return list.length;
  const index = /^\d+$/.test(key) ? Number(key) : NaN;
  if (!Number.isInteger(index) || index < 0 || index > list.length || (!forAdd && index === list.length)) throw new PatchError(`${at}: index ${key} is out of range`);
  return index;
}

function removeAt(doc: unknown, parts: string[], at: string): unknown {
  if (parts.length === 0) throw new PatchError(`${at}: the whole document cannot be removed`);
  const { parent, key } = parentOf(doc, parts, at);
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, key, false, at), 1)[0];
  if (!Object.hasOwn(parent, key)) throw new PatchError(`${at}: /${parts.join('/')} does not exist`);
  const value = parent[key];
  delete parent[key];
  return value;
}

function addAt(doc: unknown, parts: string[], value: unknown, at: string, replace: boolean): unknown {
  if (parts.length === 0) return value;
  const { parent, key } = parentOf(doc, parts, at);
  if (Array.isArray(parent)) {
    const index = arrayIndex(parent, key, !replace, at);
    parent.splice(index, replace ? 1 : 0, value);
  } else {
    if (replace && !Object.hasOwn(parent, key)) throw new PatchError(`${at}: /${parts.join('/')} does not exist`);
    parent[key] = value;
  }
  return doc;
}

/** RFC 6902 JSON patch (add, remove, replace, move, copy, test), applied to a copy of `doc`. */
export function jsonPatch(doc: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations)) throw new PatchError('a JSON patch is a list of operations ({op, path, value})');
  let current: unknown = structuredClone(doc);
  operations.forEach((operation: unknown, index) => {
    const at = `[${index}]`;
    if (!isRecord(operation)) throw new PatchError(`${at}: an operation is {op, path, value}`);
    const parts = pointer(operation.path, `${at}.path`);
    switch (operation.op) {
      case 'add':
        current = addAt(current, parts, structuredClone(operation.value), at, false);
        break;
      case 'replace':
        current = addAt(current, parts, structuredClone(operation.value), at, true);
        break;
      case 'remove':
        removeAt(current, parts, at);
        break;
      case 'move':
      case 'copy': {
        const from = pointer(operation.from, `${at}.from`);
        const value = operation.op === 'move' ? removeAt(current, from, at) : structuredClone(getAt(current, from, at));
        current = addAt(current, parts, value, at, false);
        break;
      }
      case 'test':
        if (JSON.stringify(getAt(current, parts, at)) !== JSON.stringify(operation.value)) throw new PatchError(`${at}: test failed at ${String(operation.path)}`);
        break;
      default:
        throw new PatchError(`${at}.op: must be add, remove, replace, move, copy or test`);
    }
  });
  return current;
}
