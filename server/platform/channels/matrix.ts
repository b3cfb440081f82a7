import { randomUUID } from 'node:crypto';
import { isRecord } from '../errors';
import type { ResolvedConnection } from '../connections/types';
import { baseUrl, listOf } from '../connections/testers/shared';
import { call, delivered, failure, refused, setting, textOf } from './http';
import type { ChannelSender, SendOutcome } from './types';

/** The homeserver's origin: url (required). */
export const matrixBase = (connection: ResolvedConnection): string => baseUrl(connection.url, '');

export const matrixError = (json: unknown): string => (isRecord(json) ? textOf(json.error) || textOf(json.errcode) : '');

export type MatrixSession = { token: string; userId: string; loggedIn: boolean } | { outcome: SendOutcome };

/**
 * An access token: with a user, a password login (`loggedIn`: the caller logs the session out after);
 * without one, the password is the access token itself.
 */
export async function matrixSession(connection: ResolvedConnection, signal: AbortSignal, deviceName: string): Promise<MatrixSession> {
  if (!connection.username) return { token: connection.password, userId: '', loggedIn: false };
  const result = await call(connection, signal, {
    url: `${matrixBase(connection)}/_matrix/client/v3/login`,
    method: 'POST',
    json: { type: 'm.login.password', identifier: { type: 'm.id.user', user: connection.username }, password: connection.password, initial_device_display_name: deviceName },
  });
  if ('outcome' in result) return result;
  const token = isRecord(result.json) ? textOf(result.json.access_token) : '';
  if (!token) return { outcome: refused(result.response, `Matrix refused the login: ${matrixError(result.json) || 'no access token'}`) };
  return { token, userId: isRecord(result.json) ? textOf(result.json.user_id) || connection.username : connection.username, loggedIn: true };
}

/** Ends a session matrixSession logged in; its failure changes nothing for the caller. */
export async function matrixLogout(connection: ResolvedConnection, signal: AbortSignal, session: MatrixSession): Promise<void> {
  if ('outcome' in session || !session.loggedIn) return;
  await call(connection, signal, { url: `${matrixBase(connection)}/_matrix/client/v3/logout`, method: 'POST', json: {}, bearerToken: session.token });
}

/** A room id (`!abc:server`) as it is; an alias (`#ops:server`) through the room directory. */
async function roomIdOf(connection: ResolvedConnection, signal: AbortSignal, token: string, room: string): Promise<{ id: string } | { outcome: SendOutcome }> {
  if (!room.startsWith('#')) return { id: room };
  const result = await call(connection, signal, { url: `${matrixBase(connection)}/_matrix/client/v3/directory/room/${encodeURIComponent(room)}`, bearerToken: token });
  if ('outcome' in result) return result;
  const id = isRecord(result.json) ? textOf(result.json.room_id) : '';
  return id ? { id } : { outcome: refused(result.response, `Matrix does not know the room ${room}: ${matrixError(result.json) || 'no room_id'}`) };
}

/**
 * `matrix`: an m.text m.room.message (the title and text, and the html as formatted_body when given) to
 * each of properties.rooms: PUT {url}/_matrix/client/v3/rooms/{room}/send/m.room.message/{txn} with the
 * access token, after a password login when a user is set (logged out after).
 */
export const sendMatrix: ChannelSender = async (connection, message, signal) => {
  const rooms = listOf(setting(connection, message, 'rooms') || setting(connection, message, 'room'));
  if (rooms.length === 0) return failure('rooms is required: room ids or #aliases');
  const session = await matrixSession(connection, signal, 'Watchkeeper');
  if ('outcome' in session) return session.outcome;
  try {
    const content = {
      msgtype: 'm.text',
      body: `${message.title}\n${message.text}`,
      ...(message.html ? { format: 'org.matrix.custom.html', formatted_body: message.html } : {}),
    };
    let outcome: SendOutcome = failure('nothing to send');
    for (const room of rooms) {
      const target = await roomIdOf(connection, signal, session.token, room);
      if ('outcome' in target) return target.outcome;
      const result = await call(connection, signal, {
        url: `${matrixBase(connection)}/_matrix/client/v3/rooms/${encodeURIComponent(target.id)}/send/m.room.message/${randomUUID()}`,
        method: 'PUT',
        json: content,
        bearerToken: session.token,
      });
      if ('outcome' in result) return result.outcome;
      if (!isRecord(result.json) || !textOf(result.json.event_id)) return refused(result.response, `Matrix refused the message to ${room}: ${matrixError(result.json) || 'no event_id'}`);
      outcome = delivered(result.response, rooms.join(', '));
    }
    return outcome;
  } finally {
    await matrixLogout(connection, signal, session);
  }
};
