import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies as fastify reads them, except that an empty one is no body: `curl -X POST -H
 * 'Content-Type: application/json'` and client libraries send that to endpoints that take none (POST
 * /api/config/run/{id}); a route that needs a body still says which fields are required.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    // The default parser answers through `done` (a parse error too); its typed promise return is never used.
    void parseJson(req, text, done);
  });
}
