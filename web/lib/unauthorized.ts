/**
 * Spec §8: any 401 from the API sends the browser to the auth-state checker. The HTTP clients (api.ts,
 * db.ts) only report the 401 here; the app decides where to go (it knows the router and which pages are
 * public), and registers that decision with `onUnauthorized`.
 */
type Handler = () => void;

let handler: Handler | undefined;

/** Sets the reaction to a 401 answer (undefined removes it); returns a function that removes it again. */
export function onUnauthorized(next: Handler | undefined): () => void {
  handler = next;
  return () => {
    if (handler === next) handler = undefined;
  };
}

/** Called by the HTTP clients when the server answered 401. */
export function reportUnauthorized(): void {
  handler?.();
}
