// An https proxy in front of a plain-http server, for tests and benches that drive kubectl: kubectl sends a
// bearer token only over https (kubernetes/kubectl#744; docs/KUBECTL.md), as a deployment behind its TLS
// proxy serves it. The certificate is the throw-away test CA's (test/peers/certificates.ts, made with openssl).
import http from 'node:http';
import https from 'node:https';
import { testCertificates } from './peers/certificates';

export interface TlsProxy {
  /** https://127.0.0.1:<port> */
  url: string;
  /** The CA that signed the proxy's certificate, base64 PEM, for a kubeconfig's certificate-authority-data. */
  ca: string;
  close(): Promise<void>;
}

/** Starts an https proxy on 127.0.0.1 forwarding every request to `target` (an http base URL). */
export async function startTlsProxy(target: string): Promise<TlsProxy> {
  const { ca, cert, key } = await testCertificates();
  const agent = new http.Agent({ keepAlive: true });
  const server = https.createServer({ key, cert }, (req, res) => {
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
    ca: Buffer.from(ca).toString('base64'),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
