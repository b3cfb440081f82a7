import Fastify, { type FastifyInstance } from 'fastify';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { createLogger } from '../../platform/logger';
import { postgrestRoutes } from '../plugin';
import { createRegistry, type FunctionDef, type RelationDef } from '../registry';
import { introspect } from '../schema';

/**
 * A standalone /api/db over tables made for the conformance tests: authors (soft-deleted, one hidden
 * column), books (two foreign keys to authors, so embedding needs a hint) and reviews, plus functions.
 */
export const FIXTURE_SQL = `
CREATE TABLE authors (
  id serial PRIMARY KEY, name text NOT NULL, email text, secret text NOT NULL DEFAULT 'hunter2', born date,
  tags text[] NOT NULL DEFAULT '{}', data jsonb NOT NULL DEFAULT '{}', rating numeric, created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(), deleted_at timestamptz
);
CREATE TABLE books (
  id serial PRIMARY KEY, title text NOT NULL UNIQUE, author_id int REFERENCES authors (id), editor_id int REFERENCES authors (id),
  pages int, published boolean, span int4range, summary text, tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', coalesce(summary, ''))) STORED
);
CREATE TABLE reviews (id serial PRIMARY KEY, book_id int NOT NULL REFERENCES books (id), stars int NOT NULL CHECK (stars BETWEEN 1 AND 5), body text);
CREATE TABLE unregistered_secrets (id serial PRIMARY KEY, token text NOT NULL);
INSERT INTO unregistered_secrets (token) VALUES ('top-secret-token');
CREATE TABLE call_log (id serial PRIMARY KEY, note text);
CREATE FUNCTION add_them(a int, b int DEFAULT 1) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT a + b';
CREATE FUNCTION books_by(author int) RETURNS SETOF books LANGUAGE sql STABLE AS 'SELECT * FROM books WHERE author_id = author';
CREATE FUNCTION numbers(n int) RETURNS SETOF int LANGUAGE sql IMMUTABLE AS 'SELECT generate_series(1, n)';
CREATE FUNCTION log_call(note text) RETURNS TABLE (id int, note text) LANGUAGE sql VOLATILE AS
  'INSERT INTO call_log (note) VALUES (log_call.note) RETURNING call_log.id, call_log.note';
CREATE FUNCTION slow(ms int) RETURNS int LANGUAGE sql VOLATILE AS 'SELECT 1 FROM pg_sleep(ms / 1000.0)';
CREATE FUNCTION author_stats() RETURNS TABLE (author_id int, books bigint) LANGUAGE sql STABLE AS
  'SELECT author_id, count(*) FROM books GROUP BY author_id';

INSERT INTO authors (name, email, born, tags, data, rating) VALUES
  ('Ada', 'ada@example.com', '1815-12-10', '{math,poetry}', '{"city": "London", "langs": ["en", "fr"], "stats": {"papers": 3}}', 4.5),
  ('Bob', NULL, '1950-01-01', '{fiction}', '{"city": "Paris", "stats": {"papers": 0}}', NULL),
  ('Cleo', 'cleo@example.com', '1990-06-30', '{}', '{}', 3.25);
INSERT INTO authors (name, deleted_at) VALUES ('Gone', now());
INSERT INTO books (title, author_id, editor_id, pages, published, span, summary) VALUES
  ('Notes', 1, 2, 120, true, '[1,10)', 'the analytical engine computes numbers'),
  ('Engines', 1, 3, 300, false, '[5,20)', 'a story about steam engines and numbers'),
  ('Stories', 2, NULL, 50, true, NULL, 'short stories of the fast city'),
  ('Lost', 4, NULL, 10, NULL, NULL, NULL);
INSERT INTO reviews (book_id, stars, body) VALUES (1, 5, 'brilliant'), (1, 4, 'dense'), (3, 2, 'meh');
`;

export const fixtureRelations: RelationDef[] = [
  {
    name: 'authors',
    rbac: 'database',
    readable: ['id', 'name', 'email', 'born', 'tags', 'data', 'rating', 'created_by', 'created_at', 'deleted_at'],
    insertable: ['name', 'email', 'born', 'tags', 'data', 'rating'],
    updatable: ['name', 'email', 'born', 'tags', 'data', 'rating'],
    deletable: true,
    primaryKey: ['id'],
    softDelete: true,
    insertDefaults: { created_by: (actor) => actor?.id },
  },
  {
    name: 'books',
    rbac: 'database',
    readable: ['id', 'title', 'author_id', 'editor_id', 'pages', 'published', 'span', 'summary', 'tsv'],
    insertable: ['title', 'author_id', 'editor_id', 'pages', 'published', 'span', 'summary'],
    updatable: ['title', 'pages', 'published', 'summary'],
    deletable: true,
    primaryKey: ['id'],
    conflictTargets: [['title']],
    relationships: [
      { name: 'books_author_id_fkey', target: 'authors', columns: [['author_id', 'id']] },
      { name: 'books_editor_id_fkey', target: 'authors', columns: [['editor_id', 'id']] },
    ],
  },
  {
    name: 'reviews',
    rbac: 'database',
    readable: ['id', 'book_id', 'stars', 'body'],
    insertable: ['book_id', 'stars', 'body'],
    primaryKey: ['id'],
    relationships: [{ name: 'reviews_book_id_fkey', target: 'books', columns: [['book_id', 'id']] }],
  },
];

export const fixtureFunctions: FunctionDef[] = [
  { name: 'add_them', rbac: 'database', action: 'read' },
  { name: 'books_by', rbac: 'database', action: 'read', readable: ['id', 'title', 'author_id', 'pages'] },
  { name: 'numbers', rbac: 'database', action: 'read' },
  { name: 'log_call', rbac: 'database', action: 'write' },
  { name: 'author_stats', rbac: 'database', action: 'read' },
  { name: 'slow', rbac: 'database', action: 'read' },
];

export interface Fixture {
  app: FastifyInstance;
  db: TestDatabase;
  close(): Promise<void>;
}

export async function createFixture(): Promise<Fixture> {
  const db = await createTestDatabase();
  await db.pool.query(FIXTURE_SQL);
  const schema = await introspect(db.pool, createRegistry(fixtureRelations, fixtureFunctions));
  const app = Fastify({ logger: false });
  await app.register(async (scope) => postgrestRoutes(scope, { pool: db.pool, schema, log: createLogger('silent'), statementTimeoutMs: 1000 }), { prefix: '/api/db' });
  await app.ready();
  return {
    app,
    db,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
