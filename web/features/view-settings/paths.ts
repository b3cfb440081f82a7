export const VIEW_SETTINGS_PATH = '/settings/views';
export const NEW_VIEW_PATH = '/settings/views/new';
export const viewSettingsPath = (id: string) => `${VIEW_SETTINGS_PATH}/${encodeURIComponent(id)}`;
/** The view page (spec §2 /views/{id}; web/features/views). */
export const viewPagePath = (id: string) => `/views/${encodeURIComponent(id)}`;
/** The list after a save: it offers to open the saved view (spec §2 'After saving, the user returns to the list'). */
export const savedListPath = (id: string) => `${VIEW_SETTINGS_PATH}?saved=${encodeURIComponent(id)}`;
