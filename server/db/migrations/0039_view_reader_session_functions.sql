-- View SQL (docs/VIEWS.md "Panels", issue 35 finding 9): panel and merge SQL runs as
-- watchkeeper_view_reader inside a READ ONLY subtransaction that is always rolled back, so whatever it
-- does ends with it, except what belongs to the session. A session-level advisory lock taken by a panel
-- stayed on the pooled connection and `watchkeeper migrate` / `apply` waited for it forever. Every role
-- gets EXECUTE on functions through PUBLIC, so the reader loses them only when PUBLIC does: the
-- session-level advisory lock functions (and dblink's, when installed) are taken from PUBLIC and given
-- back to this server's user and to watchkeeper_tenant (hosted mode), which are the only roles that run
-- the console's own SQL. (Transaction-level advisory locks, pg_notify and the rest end with the
-- subtransaction; the engine refuses them by name anyway and resets the connection after each use.)
-- Revoking needs a superuser (pg_catalog's functions are the bootstrap superuser's): without one this
-- only says so, and the engine refuses view SQL while the reader may still take these locks.
DO $$
DECLARE
  fn regprocedure;
  tenant boolean := EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'watchkeeper_tenant');
BEGIN
  FOR fn IN
    SELECT p.oid::regprocedure
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE (n.nspname = 'pg_catalog' AND p.proname ~ '^pg_(try_)?advisory_(lock|unlock)')
        OR p.proname ~ '^dblink'
  LOOP
    BEGIN
      EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', fn);
      EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO %I', fn, current_user);
      IF tenant THEN
        EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO watchkeeper_tenant', fn);
      END IF;
    EXCEPTION
      WHEN insufficient_privilege THEN RAISE NOTICE 'EXECUTE on % not revoked from PUBLIC: %', fn, SQLERRM;
    END;
  END LOOP;
END
$$;
