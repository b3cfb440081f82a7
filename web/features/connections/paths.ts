export const CONNECTIONS_PATH = '/settings/connections';
export const NEW_CONNECTION_PATH = '/settings/connections/new';

export const connectionPath = (id: string): string => `${CONNECTIONS_PATH}/${encodeURIComponent(id)}`;
/** The form of a new connection of one type (the type picker writes it into the URL). */
export const newConnectionPath = (type: string): string => `${NEW_CONNECTION_PATH}?type=${encodeURIComponent(type)}`;
