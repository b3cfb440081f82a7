// An https proxy in front of a plain-http server, for benches that drive kubectl: kubectl sends a bearer
// token only over https (as server/features/kube/tests/kube.int.test.ts does it, a self-signed certificate
// made with openssl). (The underscore keeps this file out of `npm run bench`.)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';

export interface TlsProxy {
  /** https://127.0.0.1:<port> */
  url: string;
  /** The certificate, base64 PEM, for a kubeconfig's certificate-authority-data. */
  ca: string;
  close(): Promise<void>;
}

/** Starts the proxy; its key and certificate are written to `dir` (the caller removes it). */
export async function startTlsProxy(target: string, dir: string): Promise<TlsProxy> {
  const key = path.join(dir, 'tls.key');
  const cert = path.join(dir, 'tls.crt');
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { encoding: 'utf8', timeout: 30_000 });
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  const agent = new http.Agent({ keepAlive: true });
  const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
    const upstream = http.request(`${target}${req.url ?? '/'}`, { method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `https://127.0.0.1:${port}`,
    ca: fs.readFileSync(cert).toString('base64'),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
