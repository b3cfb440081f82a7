import { useEffect } from 'react';

export const PRODUCT_NAME = 'Watchkeeper';

/** Spec §2: document titles end with the product name. */
export function documentTitle(title: string): string {
  return title ? `${title} | ${PRODUCT_NAME}` : PRODUCT_NAME;
}

export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
