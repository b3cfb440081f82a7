export const NOTIFICATIONS_PATH = '/notifications';
export const SILENCES_PATH = '/notifications/silences';
export const ADD_SILENCE_PATH = '/notifications/silences/add';
export const rulePath = (id: string) => `/notifications/rules?id=${encodeURIComponent(id)}`;
export const resourceHistoryPath = (id: string) => `/notifications/resource/${encodeURIComponent(id)}`;
