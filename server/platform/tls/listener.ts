import type http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';

/**
 * One port, two protocols: each connection's first byte decides. 0x16 opens a TLS handshake (a ClientHello
 * record), so the socket goes to a TLS server whose decrypted connections are handed to the app's http
 * server; anything else is plain HTTP and goes to `plain` directly. Nothing is proxied or copied: the app
 * sees the socket itself (its remote address, and `encrypted` on a TLS one, so `req.protocol` is https).
 */
export interface DualListener {
  server: net.Server;
  tlsServer: tls.Server;
  /** The port bound (the one asked for, or the one the system chose for 0). */
  port: number;
  /** Stops accepting, lets idle keep-alive connections go, and ends the rest after `graceMs`. */
  close(graceMs?: number): Promise<void>;
}

export interface DualListenerOptions {
  port: number;
  host: string;
  /** The app's server, for decrypted connections (and plain ones unless `plain` is given). */
  app: http.Server;
  /** Where plain-HTTP connections go (default `app`): a redirect to https when a certificate was configured. */
  plain?: http.Server;
  secure: tls.SecureContextOptions;
  /** A connection that sends nothing for this long is closed (default 30 s). */
  firstByteTimeoutMs?: number;
  onTlsError?: (error: Error, socket: tls.TLSSocket | net.Socket) => void;
}

const TLS_HANDSHAKE = 0x16;

export async function listenDual(options: DualListenerOptions): Promise<DualListener> {
  const plain = options.plain ?? options.app;
  const sockets = new Set<net.Socket>();
  const tlsServer = tls.createServer({ ...options.secure, ALPNProtocols: ['http/1.1'] }, (socket) => {
    options.app.emit('connection', socket);
  });
  tlsServer.on('tlsClientError', (error, socket) => {
    options.onTlsError?.(error, socket);
    socket.destroy();
  });

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // Until a server owns it, an error (a reset) only ends this socket.
    const onError = () => socket.destroy();
    socket.on('error', onError);
    socket.setTimeout(options.firstByteTimeoutMs ?? 30_000, () => socket.destroy());
    socket.once('data', (first: Buffer) => {
      socket.setTimeout(0);
      socket.pause();
      socket.unshift(first);
      if (first[0] === TLS_HANDSHAKE) {
        // The TLS socket reads what was put back before it reads the wire.
        tlsServer.emit('connection', socket);
      } else {
        socket.removeListener('error', onError);
        plain.emit('connection', socket);
        socket.resume();
      }
    });
  });
  server.on('error', () => undefined);

  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => reject(error);
    server.once('error', fail);
    server.listen(options.port, options.host, () => {
      server.removeListener('error', fail);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;

  return {
    server,
    tlsServer,
    port,
    async close(graceMs = 3000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      options.app.closeIdleConnections();
      if (plain !== options.app) plain.closeIdleConnections();
      const deadline = Date.now() + graceMs;
      while (sockets.size > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        options.app.closeIdleConnections();
      }
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
