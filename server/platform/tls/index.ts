import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_TRUSTED_PROXIES, type Config } from '../config';
import { messageOf } from '../errors';
import type { Logger } from '../logger';
import { ensureCertificates } from './certificates';
import { listenDual } from './listener';

export { ensureCertificates, certificateNames } from './certificates';
export { listenDual } from './listener';

/**
 * HTTPS out of the box (docs/OPERATIONS.md "HTTPS"):
 * - `auto` (default): a CA made in `<data dir>/tls` signs a certificate for this machine's names, and the
 *   port answers both http and https (the first byte of a connection decides);
 * - `files`: the operator's certificate (TLS_CERT_FILE, TLS_KEY_FILE, TLS_CA_FILE); plain http on the port
 *   answers a redirect to https;
 * - `off` (TLS=off): plain http only, as behind a proxy that terminates TLS.
 */
export type TlsMode = 'auto' | 'files' | 'off';

export function tlsMode(config: Config): TlsMode {
  return config.tls?.mode ?? 'auto';
}

/** What a running listener serves, for the kubeconfig download. */
export interface ServedTls {
  mode: 'auto' | 'files';
  /** The port that answers https. */
  port: number;
  /** PEM of the CA clients should trust: the console's own, or TLS_CA_FILE; absent for a public CA. */
  caPem?: string;
}

const served = new WeakMap<Config, ServedTls>();

/** What the listener started for this configuration serves (undefined: plain http, or nothing listening). */
export function servedTls(config: Config): ServedTls | undefined {
  return served.get(config);
}

/** The names the automatic certificate covers besides localhost, 127.0.0.1 and ::1. */
function namesOf(config: Config): Array<string | undefined> {
  let publicHost: string | undefined;
  try {
    publicHost = new URL(config.publicUrl).hostname;
  } catch {
    publicHost = undefined;
  }
  return [os.hostname(), config.host, publicHost];
}

interface Material {
  key: string;
  cert: string;
  caPem?: string;
}

/** The certificate to serve: the operator's files, or the console's own CA's (made or renewed when needed). */
async function loadMaterial(config: Config, log: Logger): Promise<Material> {
  const tls = config.tls;
  if (tls?.mode === 'files') {
    const [cert, key, caPem] = await Promise.all([fs.readFile(tls.certFile, 'utf8'), fs.readFile(tls.keyFile, 'utf8'), tls.caFile ? fs.readFile(tls.caFile, 'utf8') : undefined]);
    return { cert, key, ...(caPem ? { caPem } : {}) };
  }
  const dir = path.join(config.dataDir, 'tls');
  const files = await ensureCertificates(dir, namesOf(config));
  if (files.made.includes('ca')) log.info({ ca: path.join(dir, 'ca.crt') }, `Made a certificate authority for https: ${path.join(dir, 'ca.crt')} (trust it in a browser to use https://; kubeconfig downloads carry it)`);
  if (files.made.includes('server')) log.info({ cert: path.join(dir, 'server.crt'), until: files.notAfter.toISOString() }, 'Made the https server certificate');
  return { cert: files.cert, key: files.key, caPem: files.caCert };
}

export interface Listening {
  /** The port bound. */
  port: number;
  /** The base URLs that answer, http first (for the start-up message). */
  urls: string[];
  /** Stops accepting connections and ends those left; the app itself is closed by its owner (`app.close()`). */
  close(): Promise<void>;
}

/** How often a running server checks its certificate (renewal of its own; an operator's files changed on disk). */
const RECHECK_MS = 60 * 60 * 1000;

/**
 * Starts answering on `port`/`host` (default the configuration's) for an app that is ready: plain
 * `app.listen` with TLS=off, else the one-port http+https listener. Records what it serves for
 * `kubeconfigCluster`.
 */
export async function listenApp(app: FastifyInstance, config: Config, log: Logger, at: { port?: number; host?: string } = {}): Promise<Listening> {
  const port = at.port ?? config.port;
  const host = at.host ?? config.host;
  const urlHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const mode = tlsMode(config);
  if (mode === 'off') {
    await app.listen({ port, host });
    const address = app.server.address();
    const bound = typeof address === 'object' && address ? address.port : port;
    // The app's own server listens: closing the app stops it.
    return { port: bound, urls: [`http://${urlHost}:${bound}`], close: async () => undefined };
  }

  let material = await loadMaterial(config, log);
  await app.ready();
  const redirect =
    mode === 'files'
      ? http.createServer((req, res) => {
          // A certificate was configured: plain http only points to https, so no session travels in clear.
          const target = `https://${req.headers.host ?? `${urlHost}:${port}`}${req.url ?? '/'}`;
          res.writeHead(308, { location: target, 'content-type': 'text/plain; charset=utf-8' }).end(`use ${target}\n`);
        })
      : undefined;
  const listener = await listenDual({
    port,
    host,
    app: app.server,
    ...(redirect ? { plain: redirect } : {}),
    secure: { key: material.key, cert: material.cert },
    onTlsError: (error) => log.debug({ err: messageOf(error) }, 'TLS handshake failed'),
  });
  const state: ServedTls = { mode, port: listener.port, ...(material.caPem ? { caPem: material.caPem } : {}) };
  served.set(config, state);

  const timer = setInterval(() => {
    void loadMaterial(config, log)
      .then((fresh) => {
        if (fresh.cert === material.cert && fresh.key === material.key && fresh.caPem === material.caPem) return;
        listener.tlsServer.setSecureContext({ key: fresh.key, cert: fresh.cert });
        material = fresh;
        served.set(config, { ...state, ...(fresh.caPem ? { caPem: fresh.caPem } : {}) });
        log.info('https certificate reloaded');
      })
      .catch((error: unknown) => log.warn({ err: messageOf(error) }, `could not renew or reload the https certificate: ${messageOf(error)}`));
  }, RECHECK_MS);
  timer.unref();

  const base = `${urlHost}:${listener.port}`;
  return {
    port: listener.port,
    urls: mode === 'auto' ? [`http://${base}`, `https://${base}`] : [`https://${base}`],
    async close() {
      clearInterval(timer);
      served.delete(config);
      await listener.close();
      redirect?.close();
    },
  };
}

/**
 * The cluster entry of a kubeconfig: the Kubernetes-style API at the public URL, over https when this
 * process serves it (the same port answers https, so an http public URL becomes https), with the CA to
 * trust when that is the console's own (or TLS_CA_FILE). Without TLS: the http URL, which kubectl uses
 * without sending the token.
 */
export function kubeconfigCluster(config: Config, apiPath: string): { server: string; 'certificate-authority-data'?: string } {
  const tls = servedTls(config);
  const url = new URL(config.publicUrl);
  if (tls && url.protocol === 'http:') {
    const port = url.port || '80';
    url.protocol = 'https:';
    url.port = port;
  }
  const base = url.toString().replace(/\/+$/, '');
  const effectivePort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  // The console's own CA vouches only for what this process serves: an https public URL on another port is
  // a proxy with its own (public) certificate.
  const includeCa = tls?.caPem !== undefined && (tls.mode === 'files' || effectivePort === tls.port);
  return { server: `${base}${apiPath}`, ...(includeCa && tls?.caPem ? { 'certificate-authority-data': Buffer.from(tls.caPem).toString('base64') } : {}) };
}

/** Fastify's trustProxy: the configured proxies (TRUSTED_PROXIES), loopback when unset, nobody for `none`. */
export function trustedProxies(config: Config): string[] {
  return config.trustedProxies ?? DEFAULT_TRUSTED_PROXIES;
}
