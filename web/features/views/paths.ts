export const viewPath = (id: string) => `/views/${encodeURIComponent(id)}`;
export { viewNamePath } from './model/format';
export const configViewPath = (configId: string, viewId: string) => `/catalog/${encodeURIComponent(configId)}/view/${encodeURIComponent(viewId)}`;
